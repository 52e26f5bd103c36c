"""The Isla Nublar Game: setup, options (expert variants), reading states, and the CLI rulings."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Action, Game, InputError, StateFormatError
from engines.core.game import Option
from engines.isla_nublar.actions import CODEC
from engines.isla_nublar.board import Board, default_board
from engines.isla_nublar.cards import CLIENTS, CardSet, default_cards
from engines.isla_nublar.rules import RULEBOOK
from engines.isla_nublar.scoring import RULE_OF_KIND
from engines.isla_nublar.state import (
    BOXES_PER_PLAYER,
    CAMPS_PER_PLAYER,
    HAND_SIZE,
    SCORE_MARKERS,
    IslaNublarState,
    add,
    take,
)

#: declared action field types that action_from_dict checks, and how an error names them
_FIELD_TYPES: dict[str, type] = {"str": str, "int": int}
_FIELD_NAMES: dict[type, str] = {str: "text", int: "a whole number"}

#: camps each player puts in the general supply at setup, by player count
GENERAL_CAMPS = {2: 2, 3: 1, 4: 0}


def _draw(zone: dict[str, int], rng: random.Random) -> str:
    cards = sorted(zone)
    card = rng.choices(cards, weights=[zone[c] for c in cards], k=1)[0]
    take(zone, card)
    return card


class IslaNublarGame(Game):
    name = "isla-nublar"
    code = "IN"
    aliases = ("nublar", "isla")
    title = "Jurassic World: Rückkehr zur Isla Nublar"
    min_players = 2
    max_players = 4

    def __init__(self, board: Board | None = None, cards: CardSet | None = None) -> None:
        self.board = board or default_board()
        self.cards = cards or default_cards()
        self.rulebook = RULEBOOK
        self.codec = CODEC
        self.options = (
            Option("clients", False, (False, True), "expert variant The Clients (development tiles)"),
            Option(
                "individual_ratings",
                False,
                (False, True),
                "expert variant Individual ratings (scoring cards are bought; a new camp scores nothing)",
            ),
            Option(
                "unplayed_cards",
                "discard",
                ("discard", "keep"),
                "blue cards left in hand at the end of a turn: discarded as played (the reading of 'you play "
                "out your hand') or kept in hand (5 cards are drawn either way)",
                house_rule=True,
            ),
            Option(
                "necessary_change",
                "board",
                ("board", "any"),
                "box points made from amber after the necessary change: only to bring boxes or camps to the "
                "board (the rulebook's words) or, as a house rule, for every box use (moving boxes, "
                "stocking up)",
                house_rule=True,
            ),
            Option(
                "individual_buried_camps",
                False,
                (False, True),
                "Individual ratings: camps under other camps score too (reading the rulebook's 'Attention: "
                "This rule does not apply in this variant' as the top-camp rule; the engine reads it as the "
                "automatic scoring when setting up a camp)",
                house_rule=True,
            ),
            Option(
                "improve_itself",
                False,
                (False, True),
                "Improvement: the improvement card may remove itself (the reading: it removes another of "
                "the played cards)",
                house_rule=True,
            ),
            Option(
                "river_own_field",
                False,
                (False, True),
                "river scoring card: a camp standing on a river field counts too (the reading counts only "
                "camps next to a river field)",
                house_rule=True,
            ),
        )

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The common check, and true/false options must be true or false (1 == True would slip through)."""
        resolved = super().resolve_options(given)
        for option in self.options:
            value = resolved[option.name]
            if isinstance(option.default, bool) and not isinstance(value, bool):
                raise StateFormatError(f"option {option.name!r} must be true or false, not {value!r}")
        return resolved

    def with_board(self, board: Board) -> IslaNublarGame:
        return IslaNublarGame(board, self.cards)

    # -- setup ------------------------------------------------------------------------------------------
    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> IslaNublarState:
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        rng = rng or random.Random(0)
        state = IslaNublarState(self, names, resolved)
        figures = ["DINO-1", "DINO-2", "DINO-3", "DINO-4"]
        rng.shuffle(figures)
        state.dinos = dict(sorted(zip(figures, self.board.volcanoes, strict=True)))
        cards = self.cards
        for card in cards.of_group("dinosaur"):
            add(state.dino_deck, card.card_id, card.count)
        scoring: dict[str, int] = {}
        for card in cards.of_group("scoring"):
            add(scoring, card.card_id, card.count)
        state.row = [_draw(scoring, rng) for _ in range(5)]
        if resolved["individual_ratings"]:
            state.scoring_deck = scoring
        else:
            state.box = scoring
        for price, ids in cards.piles.items():
            rest: dict[str, int] = {}
            for card_id in ids:
                add(rest, card_id, cards.cards[card_id].count)
            state.piles[price] = {"top": _draw(rest, rng), "rest": rest}
        general = GENERAL_CAMPS[len(names)]
        on_tracks = len(CLIENTS) if resolved["clients"] else 0
        for p in names:
            deck: dict[str, int] = {}
            for card in cards.of_group("starting"):
                add(deck, card.card_id, card.count)
            hand: dict[str, int] = {}
            for _ in range(HAND_SIZE):
                add(hand, _draw(deck, rng))
            state.zones[p]["hand"] = hand
            state.zones[p]["draw"] = deck
            state.personal[p] = {
                "boxes": BOXES_PER_PLAYER - on_tracks,
                "camps": CAMPS_PER_PLAYER - SCORE_MARKERS - general,
            }
            state.general[p] = {"boxes": 0, "camps": general}
        if resolved["clients"]:
            a_tiles = sorted(t.tile_id for t in cards.tiles.values() if t.tile_set == "A")
            b_tiles = sorted(t.tile_id for t in cards.tiles.values() if t.tile_set == "B")
            rng.shuffle(a_tiles)
            rng.shuffle(b_tiles)
            for i, client in enumerate(CLIENTS):
                finish = next(
                    t.tile_id for t in cards.tiles.values() if t.tile_set == "finish" and t.client == client
                )
                state.tracks[client] = [*a_tiles[3 * i : 3 * i + 3], *b_tiles[2 * i : 2 * i + 2], finish]
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> IslaNublarState:
        from engines.isla_nublar.serial import state_from_dict

        try:
            return state_from_dict(self, data)
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateFormatError(f"malformed {self.name} state: {error}") from error

    # -- rulings for the CLI ----------------------------------------------------------------------------
    def _state_for_report(self, data: Any) -> tuple[IslaNublarState, Any]:
        if not isinstance(data, Mapping):
            raise InputError('expected a JSON object: an isla-nublar state, or {"state": ..., "action": ...}')
        action = None
        if "position" in data:
            return self.state_from_position(data["position"]), None
        if "state" in data and "game" not in data:
            action = data.get("action")
            data = data["state"]
        try:
            return self.state_from_dict(data), action
        except StateFormatError as error:
            raise InputError(" ".join(str(error).split())) from None

    def state_from_position(self, position: Any) -> IslaNublarState:
        """A scoring position typed by hand: players, pieces on fields, optional score track and scoring row.

        Everything not given is the seeded setup's (hands, decks); pieces come out of the personal supplies.
        """
        if not isinstance(position, Mapping):
            raise InputError("'position' must be an object")
        players = position.get("players")
        if not isinstance(players, list):
            raise InputError("position: 'players' must be a list of 2-4 names")
        try:
            state = self.new_initial_state(players, random.Random(0), position.get("options"))
        except StateFormatError as error:
            raise InputError(f"position: {error}") from None
        fields = position.get("fields", {})
        if not isinstance(fields, Mapping):
            raise InputError("position: 'fields' must be an object of field id -> {camps, boxes}")
        for fid, pieces in fields.items():
            if fid not in self.board.fields:
                raise InputError(f"position: unknown field {fid!r}")
            if not isinstance(pieces, Mapping) or set(pieces) - {"camps", "boxes"}:
                raise InputError(f"position: fields.{fid} takes 'camps' (bottom to top) and 'boxes'")
            camps = pieces.get("camps", [])
            boxes = pieces.get("boxes", {})
            if not isinstance(camps, list) or not isinstance(boxes, Mapping):
                raise InputError(f"position: fields.{fid}: camps is a list, boxes an object")
            for owner in [*camps, *boxes]:
                if owner not in state.players:
                    raise InputError(f"position: fields.{fid}: {owner!r} is not a player")
            for owner in camps:
                state.personal[owner]["camps"] -= 1
            state.camps[fid] = list(camps)
            for owner, n in boxes.items():
                if not isinstance(n, int) or n < 0:
                    raise InputError(f"position: fields.{fid}.boxes.{owner} must be a whole number")
                state.personal[owner]["boxes"] -= n
                if n:
                    state.boxes.setdefault(fid, {})[owner] = n
            if not state.camps[fid]:
                del state.camps[fid]
        for owner in state.players:
            for piece, left in state.personal[owner].items():
                if left < 0:
                    raise InputError(
                        f"position: {owner} has more {piece} on the board than the game provides"
                    )
        score = position.get("score", {})
        if not isinstance(score, Mapping) or set(score) - set(state.players):
            raise InputError("position: 'score' maps players to points (or to named parts)")
        for owner, points in score.items():
            parts = {"track": points} if isinstance(points, int) else points
            if not isinstance(parts, Mapping) or not all(
                isinstance(v, int) and v >= 0 for v in parts.values()
            ):
                raise InputError(f"position: score.{owner} must be a whole number or parts")
            state.score[owner] = {str(k): int(v) for k, v in parts.items()}
        row = position.get("scoring_row")
        if row is not None:
            known = {c.card_id for c in self.cards.of_group("scoring")}
            if (
                not isinstance(row, list)
                or len(row) != 5
                or not all(isinstance(card, str) and card in known for card in row)
                or len(set(row)) != 5
            ):
                raise InputError("position: 'scoring_row' lists 5 different scoring cards")
            pool = state.scoring_deck if state.options["individual_ratings"] else state.box
            for card in state.row:
                if card is not None:
                    add(pool, card)
            for card in row:
                take(pool, card)
            state.row = list(row)
        dinos = position.get("dinosaurs")
        if dinos is not None:
            if not isinstance(dinos, Mapping) or set(dinos) != set(state.dinos):
                raise InputError("position: 'dinosaurs' places DINO-1..DINO-4 on fields")
            for dino, at in dinos.items():
                if not isinstance(at, str) or at not in self.board.fields:
                    raise InputError(f"position: {dino} on unknown field {at!r}")
                state.dinos[dino] = at
        try:
            return self.state_from_dict(state.to_dict())
        except StateFormatError as error:
            raise InputError(f"position: {' '.join(str(error).split())}") from None

    def action_from_dict(self, data: Any) -> Action:
        """An action from JSON, with every field of the type it declares (str or int, never a bool)."""
        action = self.codec.from_dict(data)
        for spec in dataclasses.fields(action):
            value = getattr(action, spec.name)
            wanted = _FIELD_TYPES.get(str(spec.type))
            if wanted is None:
                continue
            if not isinstance(value, wanted) or isinstance(value, bool):
                raise StateFormatError(
                    f"action {action.kind!r}: {spec.name} must be {_FIELD_NAMES[wanted]}, not {value!r}"
                )
        return action

    def legal_report(self, data: Any) -> dict[str, Any]:
        """The legal actions in a state (optionally: whether one given action is legal, and why)."""
        if isinstance(data, Mapping) and "position" in data:
            raise InputError("legal needs a full isla-nublar state (a position has no hands or decks)")
        state, action_data = self._state_for_report(data)
        report: dict[str, Any] = {
            "game": self.name,
            "to_move": state.current_player(),
            "pending": state.tasks[0]["t"] if state.tasks else ("over" if state.over else "main"),
        }
        if state.is_chance_node():
            report["chance"] = [
                {"action": a.to_dict(), "probability": round(w, 6)} for a, w in state.chance_outcomes()
            ]
        legal = state.legal_actions()
        report["count"] = len(legal)
        report["actions"] = [a.to_dict() for a in legal]  # the key every game's legal ruling uses
        if action_data is not None:
            try:
                action = self.action_from_dict(action_data)
            except StateFormatError as error:
                raise InputError(" ".join(str(error).split())) from None
            try:
                report["explanation"] = state.explain(action).to_dict()
            except StateFormatError as error:  # a correction carrying a broken state
                raise InputError(f"the corrected state: {' '.join(str(error).split())}") from None
        return report

    def score_report(self, data: Any) -> dict[str, Any]:
        """Scores on the track, and what each scoring card would give each player on the board right now."""
        state, _ = self._state_for_report(data)
        outcome = state.scores()
        cards: dict[str, Any] = {}
        for card in self.cards.of_group("scoring"):
            cards[card.card_id] = {
                "kind": card.scoring["kind"],
                "rule": RULE_OF_KIND[card.scoring["kind"]],
                "in_row": [i for i, c in enumerate(state.row) if c == card.card_id],
                "points": {p: state.scoring_card_points(card.card_id, p) for p in state.players},
            }
        return {
            "game": self.name,
            "over": state.over,
            "ending": state.ending,
            **outcome.to_dict(),
            "scoring_row": list(state.row),
            "active_scoring": [c for c in state.row[:3] if c is not None]
            if not state.options["individual_ratings"]
            else [],
            "scoring_cards": cards,
        }
