"""The full state as JSON (documented in docs/jurassic-brunch.md), its validation, and the player views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import StateFormatError
from engines.jurassic_brunch.area import (
    COLOURS,
    MAX_AREA_CELLS,
    AreaError,
    Cell,
    PlayingArea,
    parse_board,
    parse_cell,
    parse_eggs,
)
from engines.jurassic_brunch.state import RAPTOR, TRICERATOPS_PER_PLAYER, BrunchState, Triceratops
from engines.jurassic_brunch.tokens import HIDEOUT, HIDEOUT_CAPACITY, TOKEN_COUNTS, TOKEN_KINDS

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

HOUSE_RULES = ("charge_blocked_by_grass", "wake_same_turn", "super_yummy_same_turn")
RESULT_RULES = ("JB-END-NO-TRICERATOPS", "JB-END-NO-GRASS", "JB-END-QUIET")
TOP_KEYS = {
    "game", "format", "players", "options", "area", "grass", "bag", "triceratops", "pool", "raptor",
    "holdings", "discarded", "turn", "pending", "looks", "result",
}


def _cells(cells: Any) -> list[list[int]]:
    return [list(cell) for cell in sorted(cells, key=lambda c: (c[1], c[0]))]


def _counts(counts: Mapping[str, int]) -> dict[str, int]:
    return {kind: counts[kind] for kind in TOKEN_KINDS if counts.get(kind, 0)}


def _triceratops(cell: Cell, tri: Triceratops) -> dict[str, Any]:
    return {"owner": tri[0], "at": list(cell), "asleep": tri[1] is not None, "asleep_since": tri[1]}


def _pending(state: BrunchState) -> dict[str, Any] | None:
    if state.pending is None:
        return None
    step, detail = state.pending
    if step == "reveal":
        return {"kind": "reveal", "at": list(detail)}
    if step == "steal":
        return {"kind": "steal", "from": detail}
    if step == "birth":
        return {"kind": "birth"}
    if step == "look":
        return {"kind": "look", "token": detail}
    if detail[0] == RAPTOR:
        return {"kind": "expel", "dinosaur": "raptor"}
    return {"kind": "expel", "dinosaur": "triceratops", "owner": detail[0], "asleep_since": detail[1]}


def _area_dict(area: PlayingArea) -> dict[str, Any]:
    if area.boards:
        return area.to_dict()
    return {"cells": _cells(area.cells)}


def state_to_dict(state: BrunchState) -> dict[str, Any]:
    return {
        **state.header(),
        "players": list(COLOURS),
        "options": dict(state.options),
        "area": _area_dict(state.area),
        "grass": _cells(state.grass),
        "bag": _counts(state.bag),
        "triceratops": [
            _triceratops(cell, state.triceratops[cell])
            for cell in sorted(state.triceratops, key=lambda c: (c[1], c[0]))
        ],
        "pool": dict(state.pool),
        "raptor": list(state.raptor) if state.raptor is not None else None,
        "holdings": {
            player: {
                "tokens": _counts(state.tokens[player]),
                "hidden": _counts(state.hidden[player]),
                "fresh_super_yummy": state.fresh_super_yummy[player],
            }
            for player in COLOURS
        },
        "discarded": _counts(state.discarded),
        "turn": {
            "number": state.turn,
            "current": state.current,
            "actions_left": state.actions_left,
            "raptor_moved": state.raptor_moved,
            "progress": state.progress,
            "quiet_turns": state.quiet_turns,
        },
        "pending": _pending(state),
        "looks": [
            {**look, "cells": [list(cell) for cell in look["cells"]]} for look in state.looks
        ],
        "result": dict(state.result) if state.result is not None else None,
    }


def state_view(state: BrunchState, player: str | None) -> dict[str, Any]:
    """The table as ``player`` may know it (``None``: the shared view).

    Face-down tokens (on the area, in the players' piles, under Hideouts) show only as counts, except a
    player's own; the face-up Hideouts and discarded Super Yummies are public.
    """
    full = state_to_dict(state)
    holdings: dict[str, Any] = {}
    for seat in COLOURS:
        held = full["holdings"][seat]
        if seat == player:
            holdings[seat] = held
        else:
            holdings[seat] = {
                "tokens": sum(state.tokens[seat].values()) - state.tokens[seat][HIDEOUT],
                "hideouts": state.tokens[seat][HIDEOUT],
                "hidden": sum(state.hidden[seat].values()),
            }
    view = {key: full[key] for key in full if key not in ("bag", "holdings")}
    view["holdings"] = holdings
    view["grass_left"] = len(state.grass)
    view["to_play"] = state.current_player()
    view["viewer"] = player
    if player in COLOURS:
        scores = state.scores()
        view["score"] = {"total": scores.scores[player], "breakdown": dict(scores.breakdown[player])}
    return view


# -- validation -----------------------------------------------------------------------------------------
def _fail(message: str) -> StateFormatError:
    return StateFormatError(message)


def _cell(value: Any, what: str) -> Cell:
    try:
        return parse_cell(value, what)
    except AreaError as error:
        raise _fail(str(error)) from None


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    too_high = high is not None and isinstance(value, int) and value > high
    if not isinstance(value, int) or isinstance(value, bool) or value < low or too_high:
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise _fail(f"{what} must be an integer {bound}, not {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"{what} must be true or false, not {value!r}")
    return value


def _colour(value: Any, what: str) -> str:
    if value not in COLOURS:
        raise _fail(f"{what} must be 'blue' or 'orange', not {value!r}")
    return str(value)


def _kind_counts(value: Any, what: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must map token kinds to counts")
    counts = dict.fromkeys(TOKEN_KINDS, 0)
    for kind, count in value.items():
        if kind not in TOKEN_COUNTS:
            raise _fail(f"{what}: unknown token kind {kind!r}")
        counts[kind] = _int(count, f"{what} {kind}", 0, TOKEN_COUNTS[kind])
    return counts


def _object(value: Any, what: str, keys: set[str], required: set[str] | None = None) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must be an object")
    unknown = set(value) - keys
    if unknown:
        raise _fail(f"{what} has unknown fields: {', '.join(sorted(unknown))}")
    missing = (keys if required is None else required) - set(value)
    if missing:
        raise _fail(f"{what} lacks {', '.join(sorted(missing))}")
    return value


def parse_area(data: Any) -> PlayingArea:
    if isinstance(data, Mapping) and "cells" in data:
        _object(data, "area", {"cells"})
        raw = data["cells"]
        if not isinstance(raw, list) or not raw:
            raise _fail("area cells must be a non-empty list of [x, y]")
        if len(raw) > MAX_AREA_CELLS:
            raise _fail(f"the area has {len(raw)} cells; the four boards make {MAX_AREA_CELLS}")
        cells = [_cell(item, "an area cell") for item in raw]
        if len(set(cells)) != len(cells):
            raise _fail("area cells are listed twice")
        return PlayingArea.from_cells(cells)
    area = _object(data, "area", {"boards", "eggs"}, {"boards"})
    boards_raw = area["boards"]
    if not isinstance(boards_raw, list):
        raise _fail("area boards must be a list")
    try:
        boards = [parse_board(item) for item in boards_raw]
        eggs = parse_eggs(area["eggs"]) if "eggs" in area else None
        return PlayingArea(boards, eggs)
    except AreaError as error:
        raise _fail(str(error)) from None


def state_from_dict(game: JurassicBrunch, data: Mapping[str, Any]) -> BrunchState:
    game.check_format(data)
    _object(data, "the state", TOP_KEYS)
    if data["players"] != list(COLOURS):
        raise _fail("players must be ['blue', 'orange']")
    options = _object(data["options"], "options", set(HOUSE_RULES), set())
    state = BrunchState(game, parse_area(data["area"]), game.resolve_options(
        {name: _bool(value, f"option {name}") for name, value in options.items()}
    ))
    state.options = {name: state.options[name] for name in HOUSE_RULES}
    cells = state.area.cells

    def on_area(value: Any, what: str) -> Cell:
        cell = _cell(value, what)
        if cell not in cells:
            raise _fail(f"{what} {list(cell)} is not on the playing area")
        return cell

    if not isinstance(data["grass"], list):
        raise _fail("grass must be a list of cells")
    grass = [on_area(item, "a grass token") for item in data["grass"]]
    state.grass = set(grass)
    if len(state.grass) != len(grass):
        raise _fail("two grass tokens on one cell")
    state.bag = _kind_counts(data["bag"], "bag")

    turn = _object(
        data["turn"], "turn", {"number", "current", "actions_left", "raptor_moved", "progress", "quiet_turns"}
    )
    state.turn = _int(turn["number"], "turn number", 1)
    state.current = _colour(turn["current"], "turn current")
    state.actions_left = _int(turn["actions_left"], "actions_left", 0, 2 + TOKEN_COUNTS["SUPER_YUMMY"])
    state.raptor_moved = _bool(turn["raptor_moved"], "raptor_moved")
    state.progress = _bool(turn["progress"], "progress")
    state.quiet_turns = _int(turn["quiet_turns"], "quiet_turns", 0, 2)
    expected_current = COLOURS[(state.turn - 1) % 2]
    if state.current != expected_current:
        raise _fail(f"turn {state.turn} belongs to {expected_current}, not {state.current}")

    if not isinstance(data["triceratops"], list):
        raise _fail("triceratops must be a list")
    for item in data["triceratops"]:
        tri = _object(item, "a triceratops", {"owner", "at", "asleep", "asleep_since"}, {"owner", "at"})
        cell = on_area(tri["at"], "a triceratops")
        if cell in state.triceratops:
            raise _fail(f"two triceratops on {list(cell)}")
        if cell in state.grass:
            raise _fail(f"a triceratops stands on the grass token at {list(cell)}")
        since = tri.get("asleep_since")
        asleep = _bool(tri.get("asleep", since is not None), "asleep")
        if since is not None:
            since = _int(since, "asleep_since", 1, state.turn)
        elif asleep:
            since = max(1, state.turn - 1)
        if asleep != (since is not None):
            raise _fail(f"the triceratops on {list(cell)}: asleep and asleep_since disagree")
        state.triceratops[cell] = (_colour(tri["owner"], "a triceratops owner"), since)
    pool = _object(data["pool"], "pool", set(COLOURS))
    state.pool = {c: _int(pool[c], f"{c} pool", 0, TRICERATOPS_PER_PLAYER) for c in COLOURS}
    if data["raptor"] is not None:
        state.raptor = on_area(data["raptor"], "the raptor")
        if state.raptor in state.triceratops or state.raptor in state.grass:
            raise _fail(f"the raptor shares {list(state.raptor)} with another piece")

    holdings = _object(data["holdings"], "holdings", set(COLOURS))
    for player in COLOURS:
        held = _object(holdings[player], f"{player} holdings", {"tokens", "hidden", "fresh_super_yummy"})
        state.tokens[player] = _kind_counts(held["tokens"], f"{player} tokens")
        state.hidden[player] = _kind_counts(held["hidden"], f"{player} hidden tokens")
        state.fresh_super_yummy[player] = _int(
            held["fresh_super_yummy"], f"{player} fresh_super_yummy", 0, state.tokens[player]["SUPER_YUMMY"]
        )
        if state.hidden[player][HIDEOUT]:
            raise _fail(f"{player} has a Hideout inside a Hideout")
        if sum(state.hidden[player].values()) > HIDEOUT_CAPACITY * state.tokens[player][HIDEOUT]:
            raise _fail(f"{player} hides more tokens than the Hideouts hold")
    state.discarded = _kind_counts(data["discarded"], "discarded")
    if any(kind != "SUPER_YUMMY" for kind, n in state.discarded.items() if n):
        raise _fail("only Super Yummy tokens are discarded")

    _parse_pending(state, data["pending"])
    in_hand = 1 if state.pending is not None and state.pending[0] == "reveal" else 0
    if sum(state.bag.values()) != len(state.grass) + in_hand:
        raise _fail(
            f"the bag holds {sum(state.bag.values())} unknown tokens but {len(grass) + in_hand} are face down"
        )
    _parse_looks(state, data["looks"])
    _parse_result(state, data["result"])
    check_conservation(state)
    return state


def _parse_pending(state: BrunchState, raw: Any) -> None:
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        raise _fail("pending must be an object or null")
    step = raw.get("kind")
    if step == "reveal":
        _object(raw, "pending reveal", {"kind", "at"})
        cell = _cell(raw["at"], "pending reveal cell")
        tri = state.triceratops.get(cell)
        if tri is None or tri[0] != state.current or not sum(state.bag.values()):
            raise _fail("a pending reveal needs the eater on its cell and a face-down token left")
        state.pending = ("reveal", cell)
    elif step == "steal":
        _object(raw, "pending steal", {"kind", "from"})
        victim = _colour(raw["from"], "pending steal from")
        if victim == state.current or not state.tokens[victim]["FLOWER"]:
            raise _fail("a pending steal follows the Flower offered to the opponent")
        if not state.stealable(victim, offered_flower=True):
            raise _fail("a pending steal needs an opponent with a token to take")
        state.pending = ("steal", victim)
    elif step == "birth":
        _object(raw, "pending birth", {"kind"})
        if not state.pool[state.current] or not state.empty_cells():
            raise _fail("a pending birth needs a triceratops in the pool and an empty space")
        state.pending = ("birth", None)
    elif step == "look":
        _object(raw, "pending look", {"kind", "token"})
        if raw["token"] not in ("BIRTH", "FLOWER") or not state.grass:
            raise _fail("a pending look follows a Birth or a Flower that could not be applied")
        state.pending = ("look", raw["token"])
    elif step == "expel":
        _object(raw, "pending expel", {"kind", "dinosaur", "owner", "asleep_since"}, {"kind", "dinosaur"})
        if raw["dinosaur"] == "raptor":
            if state.raptor is not None:
                raise _fail("the raptor is both expelled and on the area")
            state.pending = ("expel", (RAPTOR, None))
        elif raw["dinosaur"] == "triceratops":
            since = raw.get("asleep_since")
            if since is not None:
                since = _int(since, "expelled asleep_since", 1, state.turn)
            state.pending = ("expel", (_colour(raw.get("owner"), "expelled owner"), since))
        else:
            raise _fail("an expelled dinosaur is 'raptor' or 'triceratops'")
    else:
        raise _fail(f"unknown pending step {step!r}")


def _parse_looks(state: BrunchState, raw: Any) -> None:
    if not isinstance(raw, list):
        raise _fail("looks must be a list")
    for item in raw:
        look = _object(item, "a look", {"player", "turn", "token", "cells"})
        if not isinstance(look["cells"], list) or len(look["cells"]) > 2:
            raise _fail("a look lists at most two cells")
        state.looks.append(
            {
                "player": _colour(look["player"], "look player"),
                "turn": _int(look["turn"], "look turn", 1, state.turn),
                "token": _look_token(look["token"]),
                "cells": [_cell(cell, "a looked-at cell") for cell in look["cells"]],
            }
        )


def _look_token(token: Any) -> str:
    if token not in ("BIRTH", "FLOWER"):
        raise _fail(f"a look follows a Birth or a Flower, not {token!r}")
    return str(token)


def _parse_result(state: BrunchState, raw: Any) -> None:
    if raw is None:
        if state.pending is None and (not state.grass or any(state.on_area(c) == 0 for c in COLOURS)):
            raise _fail("the game is over by its end conditions but has no result")
        return
    result = _object(raw, "result", {"reason", "rule", "losers"}, {"reason", "rule"})
    if result["rule"] not in RESULT_RULES or not isinstance(result["reason"], str):
        raise _fail(f"result rule must be one of {', '.join(RESULT_RULES)}")
    losers = result.get("losers", [])
    if not isinstance(losers, list) or not all(loser in COLOURS for loser in losers):
        raise _fail("result losers must be a list of colours")
    if (result["rule"] == "JB-END-NO-TRICERATOPS") != bool(losers):
        raise _fail("losers are named exactly when a player has no triceratops left")
    if state.pending is not None:
        raise _fail("a finished game has no pending step")
    rule = result["rule"]
    without = [colour for colour in COLOURS if state.on_area(colour) == 0]
    if rule == "JB-END-NO-TRICERATOPS" and sorted(losers) != without:
        raise _fail(f"the losers {losers} are not the players with no triceratops left {without}")
    if rule == "JB-END-NO-GRASS" and (state.grass or without):
        raise _fail("the game ended for lack of grass but grass is left (or a team is gone)")
    if rule == "JB-END-QUIET" and (state.quiet_turns != 2 or without or not state.grass):
        raise _fail("the game ended after two quiet turns but the turn record says otherwise")
    state.result = dict(result)


def check_conservation(state: BrunchState) -> None:
    """28 tokens and 5 triceratops per player are never created or lost; raises StateFormatError."""
    for kind in TOKEN_KINDS:
        total = (
            state.bag[kind]
            + state.discarded[kind]
            + sum(state.tokens[p][kind] + state.hidden[p][kind] for p in COLOURS)
        )
        if total != TOKEN_COUNTS[kind]:
            raise _fail(f"{total} {kind} tokens are accounted for, the box has {TOKEN_COUNTS[kind]}")
    limbo = state.pending[1] if state.pending is not None and state.pending[0] == "expel" else None
    for player in COLOURS:
        total = state.on_area(player) + state.pool[player] + (1 if limbo and limbo[0] == player else 0)
        if total != TRICERATOPS_PER_PLAYER:
            raise _fail(f"{player} has {total} triceratops accounted for, not {TRICERATOPS_PER_PLAYER}")
