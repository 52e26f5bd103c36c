"""Reading and validating the Jurassik state JSON (documented in docs/jurassik.md).

The same reader serves saved games, hand-written positions (``companion legal jurassik FILE``) and the
companion's observed tables (:func:`state_from_observation`): the grid has the size it is seen at, and the
fields a person cannot easily count (the box, the unseen action mix) may be left out and are then derived.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.core import StateFormatError
from engines.core.game import STATE_FORMAT_VERSION
from engines.jurassik.components import (
    ACTION_MIX,
    EDITIONS,
    FACES,
    HIDDEN,
    ROCK,
    START,
    all_dino_tiles,
    face_of_tag,
    is_text,
    normalize_dino,
    parse_dino,
)

if TYPE_CHECKING:
    from engines.jurassik.engine import JurassikGame, JurassikState

_BACK_ID = re.compile(r"^[0-9A-Z]{5}$")

_KEYS = {
    "game", "format", "edition", "long_game", "players", "to_play", "phase", "twice_left", "reveal_cell",
    "grid", "hands", "box", "unseen_actions", "end_reason", "last_event", "compulsory_actions",
}


def _fail(message: str) -> StateFormatError:
    return StateFormatError(message)


def _cell_token(value: Any, where: str, universe: set[str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(f"{where}: a cell must be a tile id or null, not {type(value).__name__}")
    if value in (HIDDEN, START, ROCK):
        return value
    if face_of_tag(value) == "rock":
        return ROCK
    if face_of_tag(value) is not None:
        raise _fail(f"{where}: only a Rock stays face up in the zone, not {value}")
    tile = normalize_dino(value)
    if tile is None:
        raise _fail(f"{where}: unknown tile {value!r} (expected D<1-10>-<1-4>, '?', ROCK, START or null)")
    if tile not in universe:
        raise _fail(f"{where}: {tile} is not in this edition's box")
    return tile


def _dino_list(value: Any, where: str, universe: set[str]) -> list[str]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be a list of dinosaur tile ids")
    tiles = []
    for item in value:
        tile = normalize_dino(item)
        if tile is None:
            raise _fail(f"{where}: {item!r} is not a dinosaur tile id")
        if tile not in universe:
            raise _fail(f"{where}: {tile} is not in this edition's box")
        tiles.append(tile)
    return tiles


def _face_counts(value: Any, where: str, edition: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _fail(f"{where} must be an object of action face -> count")
    counts = dict.fromkeys(FACES[edition], 0)
    for face, count in value.items():
        if face not in counts:
            raise _fail(f"{where}: the {edition} edition has no action face {face!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _fail(f"{where}.{face} must be a non-negative integer")
        counts[face] = count
    return counts


def _cell(value: Any, where: str, rows: int, cols: int) -> int:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise _fail(f"{where} must be [row, col]")
    row, col = value
    if not (0 <= row < rows and 0 <= col < cols):
        raise _fail(f"{where} {value} is outside the {rows}x{cols} grid")
    return int(row * cols + col)


def parse_state(game: JurassikGame, data: Mapping[str, Any]) -> JurassikState:
    """Validate ``data`` and build the state; StateFormatError (one line) names the first problem."""
    from engines.jurassik.engine import PHASES, JurassikState

    if not isinstance(data, Mapping):
        raise _fail("a jurassik state must be a JSON object")
    game.check_format(data)
    unknown = set(data) - _KEYS
    if unknown:
        raise _fail(f"unknown state fields: {', '.join(sorted(unknown))}")

    edition = data.get("edition", "en")
    if edition not in EDITIONS:
        raise _fail(f"edition must be 'en' or 'es', not {edition!r}")
    long_game = data.get("long_game", False)
    if not isinstance(long_game, bool):
        raise _fail("long_game must be true or false")
    compulsory = data.get("compulsory_actions", False)
    if not isinstance(compulsory, bool):
        raise _fail("compulsory_actions must be true or false")
    if long_game and edition != "en":
        raise _fail("the Spanish edition has no 'all tiles' long game")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not all(is_text(name) for name in raw_players):
        raise _fail("players must be a list of names in non-empty Unicode text")
    players = game.check_players(raw_players)
    universe = set(all_dino_tiles(edition))

    grid = data.get("grid")
    if not isinstance(grid, list) or not grid or not all(isinstance(row, list) for row in grid):
        raise _fail("grid must be a non-empty list of rows")
    rows, cols = len(grid), len(grid[0])
    from engines.jurassik.engine import MAX_GRID_SIDE

    if not (1 <= rows <= MAX_GRID_SIDE and 1 <= cols <= MAX_GRID_SIDE):
        raise _fail(f"grid must be 1-{MAX_GRID_SIDE} rows of 1-{MAX_GRID_SIDE} cells")
    if any(len(row) != cols for row in grid):
        raise _fail("grid rows must all have the same length")
    cells = [_cell_token(value, f"grid[{r}][{c}]", universe) for r, row in enumerate(grid) for c, value in
             enumerate(row)]

    raw_hands = data.get("hands", {})
    if not isinstance(raw_hands, Mapping):
        raise _fail("hands must be an object of player -> tiles")
    strangers = set(raw_hands) - set(players)
    if strangers:
        raise _fail(f"hands of unknown players: {', '.join(sorted(map(str, strangers)))}")
    hands = {name: _dino_list(raw_hands.get(name, []), f"hands.{name}", universe) for name in players}

    raw_box = data.get("box", {})
    if not isinstance(raw_box, Mapping):
        raise _fail("box must be an object")
    if set(raw_box) - {"dinosaurs", "actions", "start"}:
        extra = ", ".join(sorted(map(str, set(raw_box) - {"dinosaurs", "actions", "start"})))
        raise _fail(f"unknown box fields: {extra}")

    placed = [t for t in cells if t is not None and t not in (HIDDEN, ROCK, START)]
    placed += [t for hand in hands.values() for t in hand]
    if "dinosaurs" in raw_box:
        box_dinos = _dino_list(raw_box["dinosaurs"], "box.dinosaurs", universe)
    else:
        seen = set(placed)
        box_dinos = [t for t in all_dino_tiles(edition) if t not in seen]
    every = Counter(placed + box_dinos)
    doubled = sorted(t for t, n in every.items() if n > 1)
    if doubled:
        raise _fail(f"tile {doubled[0]} is in two places at once")
    missing = sorted(universe - set(every))
    if missing:
        raise _fail(f"tile {missing[0]} is nowhere (zone, hands or box); {len(missing)} missing")

    starts = cells.count(START)
    if starts > 1:
        raise _fail("the zone holds more than one START tile")
    box_start = raw_box.get("start", starts == 0)
    if not isinstance(box_start, bool):
        raise _fail("box.start must be true or false")
    if box_start == (starts == 1):
        raise _fail("the START tile must be in the zone or in the box, exactly once")

    mix = ACTION_MIX[edition]
    rocks = cells.count(ROCK)
    box_actions = _face_counts(raw_box.get("actions", {}), "box.actions", edition)
    if "unseen_actions" in data:
        unseen = _face_counts(data["unseen_actions"], "unseen_actions", edition)
    else:
        unseen = {
            face: mix[face] - box_actions[face] - (rocks if face == "rock" else 0) for face in FACES[edition]
        }
        if any(n < 0 for n in unseen.values()):
            raise _fail("more action tiles revealed than the edition has")
    for face in FACES[edition]:
        counted = box_actions[face] + (rocks if face == "rock" else 0) + unseen[face]
        if counted != mix[face]:
            raise _fail(f"{face}: {counted} tiles accounted for (revealed + unseen); the box has {mix[face]}")
    hidden = cells.count(HIDDEN)
    if hidden > sum(unseen.values()):
        raise _fail(f"{hidden} face-down action tiles in the zone but only {sum(unseen.values())} unseen")

    phase = data.get("phase", "start" if starts else "take")
    if phase not in PHASES:
        raise _fail(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    if (phase == "start") != (starts == 1):
        raise _fail("phase 'start' goes with the START tile in the zone, and only then")
    # the START tile is lifted to make the first free space: before that nothing is freed or revealed
    # (tiles in hands are allowed, so that a worked scenario can start from a dealt position)
    if starts == 1 and (None in cells or rocks or any(box_actions.values())):
        raise _fail("while the START tile lies in the zone no cell is free and no action tile revealed")
    if phase == "return" and edition != "en":
        raise _fail("the Spanish edition has no Returning")
    to_play = data.get("to_play", players[0])
    if to_play not in players:
        raise _fail(f"to_play {to_play!r} is not a player")
    turn = players.index(to_play)

    reveal_cell = None
    raw_reveal = data.get("reveal_cell")
    if phase == "reveal":
        reveal_cell = _cell(raw_reveal, "reveal_cell", rows, cols)
        if cells[reveal_cell] != HIDDEN:
            raise _fail("reveal_cell must point at a face-down action tile ('?')")
        from engines.jurassik.engine import _neighbours

        if all(cells[j] is not None for j in _neighbours(rows, cols)[reveal_cell]):
            raise _fail("reveal_cell must be a tile that was accessible (a side next to a free space)")
    elif raw_reveal is not None:
        raise _fail("reveal_cell is only set while phase is 'reveal'")

    twice_left = data.get("twice_left", 2 if phase == "twice" else 0)
    if not isinstance(twice_left, int) or isinstance(twice_left, bool):
        raise _fail("twice_left must be an integer")
    if phase == "twice" and twice_left not in (1, 2):
        raise _fail("twice_left must be 1 or 2 while playing twice")
    if phase != "twice" and twice_left != 0:
        raise _fail("twice_left must be 0 unless phase is 'twice'")

    end_reason = data.get("end_reason", "")
    last_event = data.get("last_event", "")
    if not all(isinstance(text, str) and (text == "" or is_text(text)) for text in (end_reason, last_event)):
        raise _fail("end_reason and last_event must be Unicode text")

    state = JurassikState(
        game=game,
        edition=edition,
        long_game=long_game,
        players=players,
        rows=rows,
        cols=cols,
        cells=cells,
        hands=hands,
        box_dinos=box_dinos,
        box_actions=box_actions,
        box_start=box_start,
        unseen=unseen,
        turn=turn,
        phase=phase,
        twice_left=twice_left,
        reveal_cell=reveal_cell,
        end_reason=end_reason,
        last_event=last_event,
        compulsory_actions=compulsory,
    )
    if phase in ("discard", "steal", "exchange", "return", "twice"):
        # such a tile has no effect and the turn passes at once (JK-NO-EFFECT; a twice that runs out of
        # accessible dinosaurs ends the game), so no state waits for it
        possible, why_not = state._can_carry_out(phase, to_play)
        if not possible:
            raise _fail(f"phase {phase!r} cannot be carried out here ({why_not})")
    if phase == "take" and not state.accessible_cells():
        # the end rule applies at once: the player to move has no accessible tile at all
        state.phase = "over"
        state.end_reason = state.end_reason or f"{to_play} must take a tile and none is accessible"
    return state


def state_from_observation(
    game: JurassikGame,
    players: Sequence[str],
    grid: Sequence[Sequence[str | None]],
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
    box_dinosaurs: Sequence[str] | None = None,
    revealed_actions: Mapping[str, int] | None = None,
    edition: str = "en",
    long_game: bool = False,
    to_play: str | None = None,
) -> JurassikState:
    """A state from what the camera (or a person) sees: the grid at its observed size, cell by cell a tile
    id (``D3-2``, ``START``, ``ROCK``/``ROCK-2``), ``"?"`` or the tile's back id (5 characters 0-9A-Z) for a
    face-down action tile, or ``None`` for a free space; the tiles in front of each player; the box if
    known (otherwise every dinosaur tile not seen elsewhere); the revealed action tiles in the box by face."""

    def token(value: str | None) -> str | None:
        if isinstance(value, str) and value != START and _BACK_ID.match(value):
            return HIDDEN  # an action tile's back: its id says nothing about the face
        return value

    data: dict[str, Any] = {
        "game": game.name,
        "format": STATE_FORMAT_VERSION,
        "edition": edition,
        "long_game": long_game,
        "players": list(players),
        "grid": [[token(value) for value in row] for row in grid],
        "hands": {name: list(tiles) for name, tiles in (hands or {}).items()},
        "box": {"actions": dict(revealed_actions or {})},
    }
    if box_dinosaurs is not None:
        data["box"]["dinosaurs"] = list(box_dinosaurs)
    if to_play is not None:
        data["to_play"] = to_play
    return parse_state(game, data)


__all__ = ["parse_dino", "parse_state", "state_from_observation"]
