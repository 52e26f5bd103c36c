"""JSON form of an Isla Nublar state: writing, validating and reading it back, and the per-player views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import Action, StateFormatError
from engines.isla_nublar import actions as act
from engines.isla_nublar.board import DIRECTIONS, Board, default_board
from engines.isla_nublar.cards import EGG
from engines.isla_nublar.state import (
    AUTO_TASKS,
    BOXES_PER_PLAYER,
    CAMPS_PER_PLAYER,
    CHANCE_TASKS,
    SCORE_MARKERS,
    STACK_LIMIT,
    ZONES,
    IslaNublarState,
    size,
)

if TYPE_CHECKING:
    from engines.isla_nublar.game import IslaNublarGame

DECISION_TASKS = (
    "dino-move",
    "defence",
    "return",
    "choose-scoring",
    "select",
    "remove-one",
    "divert",
    "improve",
    "move-camp",
    "remove-camp",
    "retrieve",
    "swap",
)
SELECT_PURPOSES = ("hideout", "inventory", "three", "remove-any")


def _sorted_zone(zone: Mapping[str, int]) -> dict[str, int]:
    return {card: zone[card] for card in sorted(zone)}


def state_to_dict(state: IslaNublarState) -> dict[str, Any]:
    board = state.board
    return {
        **state.header(),
        "board": "default" if _is_default(board) else board.to_dict(),
        "players": list(state.players),
        "options": dict(state.options),
        "active": state.active_player,
        "turn": state.turn,
        "ending": state.ending,
        "over": state.over,
        "pools": {
            "amber": state.amber,
            "boxes": state.box_points,
            "boxes_from_amber": state.change_boxes,
            "necessary_change": state.change,
        },
        "fields": {
            fid: {
                **({"camps": list(state.camps[fid])} if state.camps.get(fid) else {}),
                **({"boxes": _sorted_zone(state.boxes[fid])} if state.boxes.get(fid) else {}),
            }
            for fid in board.fields
            if state.camps.get(fid) or state.boxes.get(fid)
        },
        "dinosaurs": dict(sorted(state.dinos.items())),
        "supply": {
            p: {"personal": dict(state.personal[p]), "general": dict(state.general[p])} for p in state.players
        },
        "score": {p: _sorted_zone(state.score[p]) for p in state.players},
        "cards": {p: {z: _sorted_zone(state.zones[p][z]) for z in ZONES} for p in state.players},
        "piles": {
            str(price): {"top": pile["top"], "rest": _sorted_zone(pile["rest"])}
            for price, pile in state.piles.items()
        },
        "dinosaur_deck": _sorted_zone(state.dino_deck),
        "scoring_row": list(state.row),
        "scoring_deck": _sorted_zone(state.scoring_deck),
        "box": _sorted_zone(state.box),
        "clients": {
            "tracks": {c: list(t) for c, t in state.tracks.items()},
            "influence": {p: dict(sorted(state.influence[p].items())) for p in state.players},
        },
        "tasks": [_task_json(t) for t in state.tasks],
    }


def _is_default(board: Board) -> bool:
    """The shipped board (or an unchanged copy of it); a corrected copy keeping the header is not."""
    shipped = default_board()
    return board is shipped or board.to_dict() == shipped.to_dict()


def _task_json(task: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(task)
    if "chosen" in out:
        out["chosen"] = _sorted_zone(out["chosen"])
    return out


def state_view(state: IslaNublarState, player: str | None) -> dict[str, Any]:
    """What ``player`` may see: hands and hideouts of others, every draw pile and face-down deck as counts."""
    data = state_to_dict(state)
    for p, zones in data["cards"].items():
        for zone in ("hand", "hidden"):
            if p != player:
                zones[zone] = {"count": size(zones[zone])}
        zones["draw"] = {"count": size(zones["draw"])}
    for pile in data["piles"].values():
        pile["rest"] = {"count": size(pile["rest"])}
    data["dinosaur_deck"] = {"count": size(data["dinosaur_deck"])}
    data["scoring_deck"] = {"count": size(data["scoring_deck"])}
    data["box"] = {"count": size(data["box"])}
    for task in data["tasks"]:
        # cards being picked are still in the hand: only their number shows until they leave it
        if task["t"] == "select" and task["player"] != player:
            task["chosen"] = {"count": size(task["chosen"])}
    data["viewer"] = player
    return data


# -- reading ---------------------------------------------------------------------------------------------
def _need(condition: object, message: str) -> None:
    if not condition:
        raise StateFormatError(message)


def _int(value: Any, what: str, low: int = 0) -> int:
    _need(
        isinstance(value, int) and not isinstance(value, bool) and value >= low,
        f"{what} must be a whole number >= {low}, not {value!r}",
    )
    return int(value)


def _zone(value: Any, what: str, known: Mapping[str, Any]) -> dict[str, int]:
    _need(isinstance(value, Mapping), f"{what} must be an object of card -> count")
    zone: dict[str, int] = {}
    for card, n in value.items():
        _need(card in known, f"{what}: unknown card {card!r}")
        count = _int(n, f"{what}[{card}]")
        if count:
            zone[card] = count
    return zone


def state_from_dict(game: IslaNublarGame, data: Any) -> IslaNublarState:
    from engines.isla_nublar.board import board_from_dict

    game.check_format(data)
    board_data = data.get("board", "default")
    if board_data == "default":
        board = game.board
    else:
        board = board_from_dict(board_data)
    if board is not game.board:
        game = game.with_board(board)
    players = data.get("players")
    _need(isinstance(players, list), "'players' must be a list of names")
    names = game.check_players(players)
    options = game.resolve_options(data.get("options"))
    state = IslaNublarState(game, names, options)
    known = game.cards.cards
    fields = board.fields

    active = data.get("active")
    _need(active in names, f"active player {active!r} is not a player")
    state.active = names.index(str(active))
    state.turn = _int(data.get("turn", 1), "turn", 1)
    ending = data.get("ending", "")
    _need(isinstance(ending, str), "ending must be text")
    state.ending = ending
    over = data.get("over", False)
    _need(isinstance(over, bool), "over must be true/false")
    state.over = over
    pools = data.get("pools", {})
    _need(isinstance(pools, Mapping), "pools must be an object")
    state.amber = _int(pools.get("amber", 0), "pools.amber")
    state.box_points = _int(pools.get("boxes", 0), "pools.boxes")
    state.change_boxes = _int(pools.get("boxes_from_amber", 0), "pools.boxes_from_amber")
    _need(state.change_boxes <= state.box_points, "pools.boxes_from_amber is a part of pools.boxes")
    change = pools.get("necessary_change", False)
    _need(isinstance(change, bool), "pools.necessary_change must be true/false")
    state.change = change

    raw_fields = data.get("fields", {})
    _need(isinstance(raw_fields, Mapping), "'fields' must be an object of field id -> pieces")
    for fid, pieces in raw_fields.items():
        _need(fid in fields, f"unknown field {fid!r}")
        _need(isinstance(pieces, Mapping), f"fields.{fid} must be an object")
        _need(not set(pieces) - {"camps", "boxes"}, f"fields.{fid}: only 'camps' and 'boxes'")
        camps = pieces.get("camps", [])
        _need(isinstance(camps, list) and all(c in names for c in camps), f"fields.{fid}.camps: player names")
        _need(len(camps) <= STACK_LIMIT, f"fields.{fid}: at most {STACK_LIMIT} camps in a stack")
        boxes = pieces.get("boxes", {})
        _need(isinstance(boxes, Mapping) and all(p in names for p in boxes), f"fields.{fid}.boxes: by player")
        held = {p: _int(n, f"fields.{fid}.boxes.{p}") for p, n in boxes.items() if n}
        if (camps or held) and fields[fid].volcano:
            raise StateFormatError(f"fields.{fid}: no pieces stand on a volcano")
        if camps:
            state.camps[fid] = list(camps)
        if held:
            state.boxes[fid] = held

    dinos = data.get("dinosaurs")
    _need(isinstance(dinos, Mapping), "'dinosaurs' must be an object of figure -> field")
    _need(sorted(dinos) == ["DINO-1", "DINO-2", "DINO-3", "DINO-4"], "dinosaurs DINO-1..DINO-4")
    for dino, at in dinos.items():
        _need(at is None or at in fields, f"dinosaur {dino} on unknown field {at!r}")
        state.dinos[dino] = at

    supply = data.get("supply")
    _need(isinstance(supply, Mapping), "'supply' must be an object per player")
    score = data.get("score", {})
    cards = data.get("cards")
    _need(isinstance(cards, Mapping), "'cards' must be an object per player")
    influence = (
        data.get("clients", {}).get("influence", {}) if isinstance(data.get("clients"), Mapping) else {}
    )
    for p in names:
        entry = supply.get(p)
        _need(isinstance(entry, Mapping), f"supply.{p} is missing")
        for where, target in (("personal", state.personal), ("general", state.general)):
            part = entry.get(where)
            _need(isinstance(part, Mapping), f"supply.{p}.{where} is missing")
            target[p] = {k: _int(part.get(k, 0), f"supply.{p}.{where}.{k}") for k in ("boxes", "camps")}
        parts = score.get(p, {}) if isinstance(score, Mapping) else None
        _need(isinstance(parts, Mapping), f"score.{p} must be an object of part -> points")
        assert isinstance(parts, Mapping)
        state.score[p] = {str(k): _int(v, f"score.{p}.{k}") for k, v in parts.items()}
        zones = cards.get(p)
        _need(isinstance(zones, Mapping), f"cards.{p} is missing")
        state.zones[p] = {z: _zone(zones.get(z, {}), f"cards.{p}.{z}", known) for z in ZONES}
        inf = influence.get(p, {}) if isinstance(influence, Mapping) else None
        _need(isinstance(inf, Mapping), f"clients.influence.{p} must be an object")
        assert isinstance(inf, Mapping)
        state.influence[p] = {str(c): _int(v, f"clients.influence.{p}.{c}") for c, v in inf.items() if v}

    piles = data.get("piles")
    _need(isinstance(piles, Mapping), "'piles' must be an object of price -> pile")
    _need(sorted(piles) == sorted(str(p) for p in game.cards.piles), f"piles are {sorted(game.cards.piles)}")
    for price_text, pile in piles.items():
        price = int(price_text)
        _need(isinstance(pile, Mapping), f"piles.{price} must be an object")
        top = pile.get("top")
        rest = _zone(pile.get("rest", {}), f"piles.{price}.rest", known)
        for card in [top, *rest] if top is not None else list(rest):
            _need(card in game.cards.piles[price], f"{card!r} does not belong on the {price}-amber pile")
        state.piles[price] = {"top": top, "rest": rest}
    state.dino_deck = _zone(data.get("dinosaur_deck", {}), "dinosaur_deck", known)
    row = data.get("scoring_row")
    _need(isinstance(row, list) and len(row) == 5, "scoring_row must list 5 slots")
    for card in row:
        _need(card is None or (card in known and known[card].group == "scoring"), f"scoring_row: {card!r}")
    state.row = list(row)
    state.scoring_deck = _zone(data.get("scoring_deck", {}), "scoring_deck", known)
    state.box = _zone(data.get("box", {}), "box", known)
    tracks = data.get("clients", {}).get("tracks", {}) if isinstance(data.get("clients"), Mapping) else {}
    _need(isinstance(tracks, Mapping), "clients.tracks must be an object")
    for client, tiles in tracks.items():
        _need(client in game.cards.clients, f"unknown client {client!r}")
        _need(
            isinstance(tiles, list) and all(t in game.cards.tiles for t in tiles), f"clients.tracks.{client}"
        )
        state.tracks[client] = list(tiles)
    if options["clients"]:
        _need(sorted(state.tracks) == sorted(game.cards.clients), "The Clients needs a track per client")
    seen_tiles: set[str] = set()
    for client, tiles in state.tracks.items():
        finishing = [t for t in tiles if game.cards.tiles[t].tile_set == "finish"]
        _need(
            bool(tiles) and finishing == [tiles[-1]] and game.cards.tiles[tiles[-1]].client == client,
            f"clients.tracks.{client} must end with the {client} finishing tile (and hold no other)",
        )
        _need(
            not seen_tiles & set(tiles) and len(set(tiles)) == len(tiles), "a development tile is dealt twice"
        )
        seen_tiles |= set(tiles)
    for p in names:
        for client, position in state.influence[p].items():
            _need(
                client in state.tracks and position <= len(state.tracks[client]),
                f"clients.influence.{p}.{client} is off the track",
            )

    tasks = data.get("tasks", [])
    _need(isinstance(tasks, list), "'tasks' must be a list")
    state.tasks = [_read_task(t, names, game, state) for t in tasks]
    check_conservation(state)
    # a typed state may leave automatic steps pending (a draw from an empty draw pile, a hit): carry them out
    # as apply would, so that a chance node always has outcomes and a player always has a move; states the
    # engine wrote are settled already, for them this changes nothing
    state._run_automatic_tasks()
    if not state.over and not state.legal_actions():
        pending = state.tasks[0]["t"] if state.tasks else "main"
        raise StateFormatError(f"no move is possible in this state (pending: {pending})")
    return state


def _read_task(
    raw: Any, names: tuple[str, ...], game: IslaNublarGame, state: IslaNublarState
) -> dict[str, Any]:
    _need(isinstance(raw, Mapping), "each task is an object")
    kind = raw.get("t")
    _need(kind in CHANCE_TASKS + AUTO_TASKS + DECISION_TASKS, f"unknown task {kind!r}")
    task = dict(raw)
    if "player" in task or kind not in ("reveal-pile", "reveal-scoring", "pass"):
        _need(task.get("player") in names, f"task {kind}: unknown player {task.get('player')!r}")
    if kind == "draw":
        task["n"] = _int(task.get("n"), "draw task n")
    if kind == "reveal-pile":
        _need(task.get("pile") in state.piles, "reveal-pile task: unknown pile")
    if kind == "reveal-scoring":
        _need(task.get("slot") in range(5), "reveal-scoring task: slot 0-4")
    if kind == "dino-move":
        _need(task.get("dino") is None or task.get("dino") in state.dinos, "dino-move task: unknown dinosaur")
        dirs = task.get("dirs")
        _need(isinstance(dirs, list) and all(d in DIRECTIONS for d in dirs) and dirs, "dino-move task: dirs")
        task["max"] = _int(task.get("max"), "dino-move task max", 1)
        _need(isinstance(task.get("optional", False), bool), "dino-move task: optional true/false")
        task.setdefault("optional", False)
        task["dino"] = task.get("dino")  # null (or absent): any figure
    if kind in ("defence", "hit"):
        _need(task.get("field") in state.board.fields and task.get("dino") in state.dinos, f"{kind} task")
    if kind == "return":
        _need(task.get("dino") in state.dinos, "return task: unknown dinosaur")
    if kind == "select":
        _need(task.get("purpose") in SELECT_PURPOSES, "select task: unknown purpose")
        task["chosen"] = _zone(task.get("chosen", {}), "select task chosen", game.cards.cards)
        task["extra"] = _int(task.get("extra", 0), "select task extra")
    if kind == "remove-one":
        _need(task.get("purpose") in ("wear", "for-cost"), "remove-one task: unknown purpose")
    if kind == "divert":
        task["draw"] = _int(task.get("draw", 0), "divert task draw")
    if kind == "improve":
        task["extra"] = _int(task.get("extra", 2), "improve task extra")
        exclude = task.get("exclude")
        _need(
            exclude is None or state.zones[task["player"]]["played"].get(exclude, 0) >= 1,
            "improve task: 'exclude' must be null or a card the player has played",
        )
        task["exclude"] = exclude
    return task


def check_conservation(state: IslaNublarState) -> None:
    """Every camp, box, card and figure is somewhere, exactly once."""
    names = state.players
    for p in names:
        boxes = state.personal[p]["boxes"] + state.general[p]["boxes"]
        boxes += sum(held.get(p, 0) for held in state.boxes.values())
        boxes += sum(1 for c, track in state.tracks.items() if state.influence[p].get(c, 0) < len(track))
        _need(boxes == BOXES_PER_PLAYER, f"{p} has {boxes} equipment boxes in play, not {BOXES_PER_PLAYER}")
        camps = state.personal[p]["camps"] + state.general[p]["camps"] + SCORE_MARKERS
        camps += sum(stack.count(p) for stack in state.camps.values())
        _need(
            camps == CAMPS_PER_PLAYER,
            f"{p} has {camps} camps (with the score marker), not {CAMPS_PER_PLAYER}",
        )
    counted: dict[str, int] = {}

    def count(zone: Mapping[str, int]) -> None:
        for card, n in zone.items():
            counted[card] = counted.get(card, 0) + n

    for p in names:
        for zone in state.zones[p].values():
            count(zone)
    for pile in state.piles.values():
        count(pile["rest"])
        if pile["top"] is not None:
            count({pile["top"]: 1})
    count(state.dino_deck)
    count(state.scoring_deck)
    count(state.box)
    count(_row_counts(state.row))
    starting = [card for card in state.cards.cards.values() if card.group == "starting"]
    for p in names:
        # each player's starting cards show the player's colour, and the egg never leaves the game
        held: dict[str, int] = {}
        for zone in state.zones[p].values():
            for card_id, n in zone.items():
                held[card_id] = held.get(card_id, 0) + n
        _need(held.get(EGG, 0) == 1, f"{p} has {held.get(EGG, 0)} dinosaur eggs; the one egg never leaves")
        for card in starting:
            _need(
                held.get(card.card_id, 0) <= card.count,
                f"{p} has {held.get(card.card_id, 0)} {card.card_id} cards, a starting deck {card.count}",
            )
    for card in state.cards.cards.values():
        expected = card.count * (len(names) if card.group == "starting" else 1)
        _need(
            counted.get(card.card_id, 0) == expected,
            f"card {card.card_id}: {counted.get(card.card_id, 0)} in play, the game has {expected}",
        )
    for task in state.tasks:
        if task["t"] == "select":
            hand = state.zones[task["player"]]["hand"]
            for card, n in task["chosen"].items():
                _need(hand.get(card, 0) >= n, f"select task: {card} is not in {task['player']}'s hand")
    off = [d for d, at in state.dinos.items() if at is None]
    waiting = {t.get("dino") for t in state.tasks if t["t"] == "return"}
    _need(set(off) <= waiting, "a dinosaur is off the island without waiting to return to a volcano")
    # two figures may share a volcano ("Multiple dinosaur figures are allowed to stand on one field"): a
    # whisperer's move towards the volcanoes can end on one that is taken


def _row_counts(row: list[str | None]) -> dict[str, int]:
    found: dict[str, int] = {}
    for card in row:
        if card is not None:
            found[card] = found.get(card, 0) + 1
    return found


RULES_OF_KIND = {
    "play": ["IN-ONE-ACTION"],
    "buy": ["IN-BUY", "IN-SURPLUS"],
    "buy-scoring": ["IN-INDIVIDUAL"],
    "place-box": ["IN-BOXES"],
    "move-box": ["IN-BOXES"],
    "build-camp": ["IN-CAMP", "IN-CAMP-SAVE", "IN-AREA", "IN-SCORING"],
    "stock-up": ["IN-STOCK"],
    "end-turn": ["IN-DRAW", "IN-RED", "IN-END"],
    "select": ["IN-PHASE"],
    "finish": ["IN-PHASE"],
    "divert": ["IN-DIVERSION"],
    "improve": ["IN-IMPROVE"],
    "move-camp": ["IN-MOVE-CAMP"],
    "remove-camp": ["IN-CLIENTS"],
    "retrieve": ["IN-CLIENTS"],
    "move-dinosaur": ["IN-DINO-MOVE", "IN-DINO-END"],
    "swap-dinosaurs": ["IN-CLIENTS"],
    "defend": ["IN-DEFENCE"],
    "decline": ["IN-DEFENCE"],
    "return-dinosaur": ["IN-DINO-END"],
    "choose-scoring": ["IN-SCORING", "IN-TOP-CAMP"],
    "draw": ["IN-DRAW"],
    "reveal-dinosaur": ["IN-EGG"],
    "reveal-pile": ["IN-BUY"],
    "reveal-scoring": ["IN-INDIVIDUAL"],
}
USE_RULES = {
    "hideout": "IN-HIDEOUT",
    "inventory": "IN-INVENTORY",
    "wear": "IN-WEAR",
    "replenish": "IN-REPLENISH",
    "change": "IN-CHANGE",
    "amber-as-boxes": "IN-CHANGE",
    "improve": "IN-IMPROVE",
    "move_camp": "IN-MOVE-CAMP",
    "diversion": "IN-DIVERSION",
    "egg": "IN-EGG",
    "dinosaur": "IN-DINO-MOVE",
    "influence": "IN-CLIENTS",
    "scoring": "IN-INDIVIDUAL",
    "amber": "IN-SURPLUS",
    "boxes": "IN-SURPLUS",
}


def rules_for_action(action: Action) -> list[str]:
    rules = list(RULES_OF_KIND.get(action.kind, []))
    if isinstance(action, act.PlayCard) and action.use in USE_RULES:
        rules.append(USE_RULES[action.use])
    return rules
