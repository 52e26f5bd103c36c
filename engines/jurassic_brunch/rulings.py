"""Input of the `companion score` and `companion legal` rulings (issue 7 formats), validated to InputError."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import InputError
from engines.jurassic_brunch.area import COLOURS, MAX_AREA_CELLS, AreaError, Cell, PlayingArea, parse_cell
from engines.jurassic_brunch.serialize import HOUSE_RULES
from engines.jurassic_brunch.state import TRICERATOPS_PER_PLAYER, BrunchState
from engines.jurassic_brunch.tokens import (
    HIDEOUT,
    HIDEOUT_CAPACITY,
    TOKEN_COUNTS,
    TOKEN_KINDS,
    normalise_kind,
)

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

POSITION_KEYS = {
    "cells", "grass", "triceratops", "raptor", "current", "actions_left", "raptor_moved",
    "tokens", "hidden", "options",
}
REQUIRED_POSITION_KEYS = {"cells", "grass", "triceratops", "current"}
BOTH_GONE = "both teams have no triceratops on the area, but the game ends when the first has none"


def _object(value: Any, what: str, keys: set[str], required: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{what} must be a JSON object")
    unknown = set(value) - keys
    if unknown:
        raise InputError(f"{what} has unknown fields: {', '.join(sorted(unknown))}")
    missing = required - set(value)
    if missing:
        raise InputError(f"{what} lacks {', '.join(sorted(missing))}")
    return value


def _token_list(value: Any, what: str) -> dict[str, int]:
    if not isinstance(value, list):
        raise InputError(f"{what} must be a list of token names such as \"YUMMY\"")
    counts = dict.fromkeys(TOKEN_KINDS, 0)
    for item in value:
        try:
            counts[normalise_kind(item)] += 1
        except ValueError as error:
            raise InputError(f"{what}: {error}") from None
    return counts


def _check_box(holdings: Mapping[str, Mapping[str, int]], extra: Mapping[str, int] | None = None) -> None:
    for kind in TOKEN_KINDS:
        total = sum(held[kind] for held in holdings.values()) + (extra or {}).get(kind, 0)
        if total > TOKEN_COUNTS[kind]:
            raise InputError(f"{total} {kind} tokens listed but the box has only {TOKEN_COUNTS[kind]}")


def _player_names(entries: list[Any]) -> None:
    names = [entry.get("name") if isinstance(entry, Mapping) else None for entry in entries]
    if sorted(str(name) for name in names) != sorted(COLOURS):
        raise InputError(f"players must be 'blue' and 'orange', once each, not {names}")


def parse_score_input(data: Any) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """{"players": [{"name": "blue", "tokens": [...], "on_area": 3}, ...]} -> holdings, on_area."""
    root = _object(data, "the score input", {"players"}, {"players"})
    entries = root["players"]
    if not isinstance(entries, list) or len(entries) != 2:
        raise InputError("players must be a list of the two players, blue and orange")
    _player_names(entries)
    holdings: dict[str, dict[str, int]] = {}
    on_area: dict[str, int] = {}
    for entry in entries:
        player = _object(entry, "a player", {"name", "tokens", "on_area"}, {"name", "tokens", "on_area"})
        name = str(player["name"])
        holdings[name] = _token_list(player["tokens"], f"{name} tokens")
        count = player["on_area"]
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= TRICERATOPS_PER_PLAYER:
            raise InputError(f"{name} on_area must be an integer 0..{TRICERATOPS_PER_PLAYER}, not {count!r}")
        on_area[name] = count
    _check_box(holdings)
    if not any(on_area.values()):
        raise InputError(BOTH_GONE)
    return {player: holdings[player] for player in COLOURS}, {player: on_area[player] for player in COLOURS}


def _cell(value: Any, what: str) -> Cell:
    try:
        return parse_cell(value, what)
    except AreaError as error:
        raise InputError(str(error)) from None


def _per_player_tokens(value: Any, what: str) -> dict[str, dict[str, int]]:
    if value is None:
        return {player: dict.fromkeys(TOKEN_KINDS, 0) for player in COLOURS}
    raw = _object(value, what, set(COLOURS), set())
    return {player: _token_list(raw.get(player, []), f"{what} of {player}") for player in COLOURS}


def state_from_position(game: JurassicBrunch, data: Any) -> BrunchState:
    """A playable state from a drawn position; sleepers and Super Yummies count as from earlier turns."""
    position = _object(data, "the position", POSITION_KEYS, REQUIRED_POSITION_KEYS)
    raw_cells = position["cells"]
    if not isinstance(raw_cells, list) or not raw_cells:
        raise InputError("cells must be a non-empty list of [x, y] (the playing area)")
    if len(raw_cells) > MAX_AREA_CELLS:
        raise InputError(f"the area has {len(raw_cells)} cells; the four boards make {MAX_AREA_CELLS}")
    cells = [_cell(item, "a playing-area cell") for item in raw_cells]
    if len(set(cells)) != len(cells):
        raise InputError("a playing-area cell is listed twice")
    area = set(cells)

    def on_area(value: Any, what: str) -> Cell:
        cell = _cell(value, what)
        if cell not in area:
            raise InputError(f"{what} {list(cell)} is not a playing-area cell")
        return cell

    options = _object(position.get("options", {}), "options", set(HOUSE_RULES), set())
    for name, value in options.items():
        if not isinstance(value, bool):
            raise InputError(f"option {name} must be true or false")
    house_rules = {name: options.get(name, False) for name in HOUSE_RULES}
    state = BrunchState(game, PlayingArea.from_cells(cells), house_rules)
    state.turn = 2  # anything that fell asleep or was gained did so in an earlier turn

    if not isinstance(position["grass"], list):
        raise InputError("grass must be a list of [x, y] cells")
    for item in position["grass"]:
        cell = on_area(item, "a grass token")
        if cell in state.grass:
            raise InputError(f"two grass tokens on {list(cell)}")
        state.grass.add(cell)

    if not isinstance(position["triceratops"], list):
        raise InputError("triceratops must be a list of {owner, at, asleep}")
    for item in position["triceratops"]:
        tri = _object(item, "a triceratops", {"owner", "at", "asleep"}, {"owner", "at"})
        owner = tri["owner"]
        if owner not in COLOURS:
            raise InputError(f"a triceratops owner must be 'blue' or 'orange', not {owner!r}")
        cell = on_area(tri["at"], "a triceratops")
        if cell in state.triceratops:
            raise InputError(f"two triceratops on {list(cell)}")
        if cell in state.grass:
            raise InputError(f"the triceratops on {list(cell)} stands on a grass token")
        asleep = tri.get("asleep", False)
        if not isinstance(asleep, bool):
            raise InputError(f"asleep must be true or false, not {asleep!r}")
        state.triceratops[cell] = (owner, 1 if asleep else None)
    if not state.triceratops:
        raise InputError(BOTH_GONE)
    for player in COLOURS:
        count = state.on_area(player)
        if count > TRICERATOPS_PER_PLAYER:
            raise InputError(
                f"{player} has {count} triceratops on the area; a team has {TRICERATOPS_PER_PLAYER}"
            )
        state.pool[player] = TRICERATOPS_PER_PLAYER - count

    raptor = position.get("raptor")
    if raptor is not None:
        state.raptor = on_area(raptor, "the raptor")
        if state.raptor in state.triceratops or state.raptor in state.grass:
            raise InputError(f"the raptor shares {list(state.raptor)} with another piece")

    current = position["current"]
    if current not in COLOURS:
        raise InputError(f"current must be 'blue' or 'orange', not {current!r}")
    state.current = current
    actions_left = position.get("actions_left", 2)
    most = 2 + TOKEN_COUNTS["SUPER_YUMMY"]
    if not isinstance(actions_left, int) or isinstance(actions_left, bool) or not 0 <= actions_left <= most:
        raise InputError(f"actions_left must be an integer 0..{most}, not {actions_left!r}")
    state.actions_left = actions_left
    raptor_moved = position.get("raptor_moved", False)
    if not isinstance(raptor_moved, bool):
        raise InputError(f"raptor_moved must be true or false, not {raptor_moved!r}")
    state.raptor_moved = raptor_moved

    state.tokens = _per_player_tokens(position.get("tokens"), "tokens")
    state.hidden = _per_player_tokens(position.get("hidden"), "hidden")
    for player in COLOURS:
        if state.hidden[player][HIDEOUT]:
            raise InputError("a Hideout does not go inside a Hideout")
        if sum(state.hidden[player].values()) > HIDEOUT_CAPACITY * state.tokens[player][HIDEOUT]:
            raise InputError(f"{player} hides more tokens than the Hideouts hold (3 each)")
    holdings = {player: state.holding(player) for player in COLOURS}
    _check_box(holdings)
    left = {kind: TOKEN_COUNTS[kind] - sum(h[kind] for h in holdings.values()) for kind in TOKEN_KINDS}
    if len(state.grass) > sum(left.values()):
        raise InputError(
            f"{len(state.grass)} grass tokens on the area but only {sum(left.values())} are not held"
        )
    # the mix of face-down tokens does not change the legal actions; fill the bag from what is not held
    remaining = len(state.grass)
    for kind in TOKEN_KINDS:
        take = min(left[kind], remaining)
        state.bag[kind] = take
        remaining -= take
    if not state.grass or any(state.on_area(player) == 0 for player in COLOURS):
        state.result = {"reason": "the position is over by an end condition", "rule": "JB-END"}
    return state
