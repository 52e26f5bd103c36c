"""The stored games as the page asks for them: a read model over the store (history, a past position,
photos, the list of games). Everything it gives is the shared view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.shared_view import shared_action
from companion.store import Store, StoredEvent, StoreError
from engines.core import Game


def event_dict(event: StoredEvent, game: str | None = None) -> dict[str, Any]:
    """A committed event as the page and the live stream show it: an action that names a concealed
    holding (a card drawn into a hand, a fossil kept face down) without it, in ``game``'s reading."""
    return {
        "seq": event.seq,
        "kind": event.kind,
        "action": shared_action(event.action, game),
        "undoes": event.undoes,
        "player": event.player,
        "source": event.source,
        "at": event.at,
        "scores": event.scores,
        "has_photo": event.has_photo,
        "rule": event.rule,
    }


class GameRecords:
    """Queries over one store; ``game_id`` None means the game being played (``current``)."""

    def __init__(self, store: Store, current: int, table: str = "") -> None:
        self.store = store
        self.current = current
        #: the table's name (its broker name, else the machine's): a play is known by it and its game id
        self.table = table

    def _game(self, game_id: int | None) -> int:
        return self.current if game_id is None else game_id

    def history(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """The events of a game; an unknown ``game_id`` is a LookupError."""
        if game_id is not None:
            self.store.game(game_id)
        try:
            game = self._game(game_id)
            name = self.store.game(game).game
            return [event_dict(e, name) for e in self.store.events(game)]
        except StoreError:
            return []

    def salvages(self) -> list[dict[str, Any]]:
        """Each time the store was found damaged and what was copied out of it (when, and a sentence)."""
        return self.store.salvages()

    def state_at(self, seq: int, game_id: int | None = None) -> dict[str, Any]:
        """The shared view after event ``seq`` (0: the start); LookupError for an unknown game or event."""
        gid = self._game(game_id)
        seqs = {event.seq for event in self.store.events(gid)} if seq else set()
        if seq and seq not in seqs:
            raise LookupError(f"no event {seq} in game {gid}")
        state = self.store.replay(gid, upto=seq).state
        return {
            "game_id": gid,
            "seq": seq,
            "view": state.view(None),
            "scores": state.shared_scores().to_dict(),
            "over": state.is_terminal(),
        }

    def event_photo(self, seq: int, game_id: int | None = None) -> bytes | None:
        gid = self._game(game_id)
        self.store.game(gid)
        return self.store.photo(gid, seq)

    def games(self) -> list[dict[str, Any]]:
        return [{**record.summary(), "assisted": assisted(self.store, record.game_id)}
                for record in self.store.games()]

    def play_record(self, game_id: int | None = None) -> dict[str, Any]:
        """A game as a logged play (the shared view): who sat where, who started, when, how long, the
        scores with their breakdowns, the winners and why; LookupError for an unknown game."""
        gid = self._game(game_id)
        record = self.store.game(gid)
        result = self.store.replay(gid)
        scores = result.state.shared_scores().to_dict()
        initial = result.game.state_from_dict(record.initial_state)
        starter = initial.current_player()
        names = record.player_names
        events = self.store.events(gid)
        last = events[-1].at if events else record.started
        finished = record.finished or (last if result.state.is_terminal() else None)
        return {
            "game_id": gid, "game": record.game, "title": record.title, "table": self.table,
            "variant": variant_words(result.game, record.options),
            "players": [{"name": p["name"], "colour": p.get("colour")} for p in record.players],
            "start_player": starter if starter in names else (names[0] if names else None),
            "started": record.started, "finished": finished,
            "duration_s": round((finished or last) - record.started, 1),
            "moves": len(events), "over": result.state.is_terminal(), "scores": scores,
            "assisted": assisted(self.store, gid),
        }


#: the notice a hint to a player leaves (companion.table.companion_seat): the game was played assisted
HINT_NOTICE = "hint"


def assisted(store: Store, game_id: int) -> bool:
    """Whether a player of the game asked the companion for a hint."""
    return any(notice["kind"] == HINT_NOTICE for notice in store.notices(game_id))


def variant_words(game: Game, options: Mapping[str, Any]) -> str:
    """The edition and the options a game was played with that are not its defaults, as a play's log
    says them ("edition es, long game"); empty for a game played as the box comes."""
    words = []
    for option in game.options:
        value = options.get(option.name, option.default)
        if option.name != "edition" and value == option.default:
            continue
        name = option.name.replace("_", " ")
        words.append(name if value is True else f"no {name}" if value is False else f"{name} {value}")
    return ", ".join(words)


def export_game(store: Store, game_id: int) -> dict[str, Any]:
    """A game as one JSON document: setup, every event (without photos), final state and outcome."""
    record = store.game(game_id)
    result = store.replay(game_id)
    outcome = result.state.outcome()
    return {
        "format": "dinotable-game/1",
        "game_id": record.game_id,
        "game": record.game,
        "title": record.title,
        "players": record.players,
        "options": record.options,
        "seed": record.seed,
        "settings": record.settings,
        "started": record.started,
        "finished": record.finished,
        "initial_state": record.initial_state,
        "events": [
            {**event.to_dict(), "observation": event.observation} for event in store.events(game_id, True)
        ],
        "notices": store.notices(game_id),
        "assisted": assisted(store, game_id),
        "final_state": result.state.to_dict(),
        "scores": result.state.scores().to_dict(),
        "outcome": outcome.to_dict() if outcome is not None else None,
    }
