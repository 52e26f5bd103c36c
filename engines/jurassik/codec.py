"""Reading and validating the Jurassik state JSON (documented in docs/jurassik.md).

The same reader serves saved games, hand-written positions (``companion legal jurassik FILE``) and the
companion's observed tables (:func:`state_from_observation`): the grid has the size it is seen at, and the
fields a person cannot easily count (the box, the unseen action mix) may be left out and are then derived.
Every error names the JSON path of the value that is wrong.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.core.game import STATE_FORMAT_VERSION
from engines.core.schema import Node, read_document
from engines.jurassik.board import MAX_GRID_SIDE, neighbours
from engines.jurassik.components import (
    ACTION_MIX,
    EDITIONS,
    FACES,
    HIDDEN,
    ROCK,
    START,
    all_dino_tiles,
    face_of_tag,
    normalize_dino,
)
from engines.jurassik.state import JurassikState, Phase

if TYPE_CHECKING:
    from engines.jurassik.game import JurassikGame

_BACK_ID = re.compile(r"^[0-9A-Z]{5}$")

_KEYS = {
    "game", "format", "edition", "long_game", "players", "to_play", "phase", "twice_left", "reveal_cell",
    "grid", "hands", "box", "unseen_actions", "end_reason", "last_event", "compulsory_actions",
}


def _cell_token(node: Node, universe: set[str]) -> str | None:
    value = node.value
    if value is None:
        return None
    if not isinstance(value, str):
        node.expected("a tile id or null")
    if value in (HIDDEN, START, ROCK) or value in universe:  # the usual tokens, as written by to_dict
        return value
    if face_of_tag(value) == "rock":
        return ROCK
    if face_of_tag(value) is not None:
        node.fail(f"only a Rock stays face up in the zone, not {value}")
    tile = normalize_dino(value)
    if tile is None:
        node.fail(f"unknown tile {value!r} (expected D<1-10>-<1-4>, '?', ROCK, START or null)")
    if tile not in universe:
        node.fail(f"{tile} is not in this edition's box")
    return tile


def _dino_list(node: Node, universe: set[str]) -> list[str]:
    tiles = []
    for index, value in enumerate(node.values_of()):
        if isinstance(value, str) and value in universe:
            tiles.append(value)
            continue
        item = node.item(index)
        tile = normalize_dino(item.value)
        if tile is None:
            item.fail(f"{item.value!r} is not a dinosaur tile id")
        if tile not in universe:
            item.fail(f"{tile} is not in this edition's box")
        tiles.append(tile)
    return tiles


def _face_counts(node: Node, edition: str) -> dict[str, int]:
    counts = dict.fromkeys(FACES[edition], 0)
    for face, count in node.members():
        if face not in counts:
            count.fail(f"the {edition} edition has no action face {face!r}")
        counts[face] = count.integer(low=0)
    return counts


@dataclass
class _Zone:
    """What the grid, hands and box of a position hold, as read."""

    rows: int
    cols: int
    cells: list[str | None]
    hands: dict[str, list[str]]
    box_dinos: list[str]
    box_start: bool
    box_actions: dict[str, int]
    unseen: dict[str, int]


def _read_grid(doc: Node, universe: set[str]) -> tuple[int, int, list[str | None]]:
    rows_node = doc["grid"].items_of(1, MAX_GRID_SIDE)
    cells_by_row = [row.items_of(1, MAX_GRID_SIDE) for row in rows_node]
    cols = len(cells_by_row[0])
    for row, cells in zip(rows_node, cells_by_row):
        if len(cells) != cols:
            row.fail("grid rows must all have the same length")
    tokens = [_cell_token(cell, universe) for row in cells_by_row for cell in row]
    return len(rows_node), cols, tokens


def _read_zone(doc: Node, players: tuple[str, ...], edition: str) -> _Zone:
    universe = set(all_dino_tiles(edition))
    rows, cols, cells = _read_grid(doc, universe)
    hands_node = doc.get("hands", {}).only(players)
    hands = {name: _dino_list(hands_node.get(name, []), universe) for name in players}
    box = doc.get("box", {}).only({"dinosaurs", "actions", "start"})
    placed = [t for t in cells if t is not None and t not in (HIDDEN, ROCK, START)]
    placed += [t for hand in hands.values() for t in hand]
    if box.has("dinosaurs"):
        box_dinos = _dino_list(box["dinosaurs"], universe)
    else:
        seen = set(placed)
        box_dinos = [t for t in all_dino_tiles(edition) if t not in seen]
    every = Counter(placed + box_dinos)
    doubled = sorted(t for t, n in every.items() if n > 1)
    if doubled:
        doc.fail(f"tile {doubled[0]} is in two places at once")
    missing = sorted(universe - set(every))
    if missing:
        doc.fail(f"tile {missing[0]} is nowhere (zone, hands or box); {len(missing)} missing")
    starts = cells.count(START)
    if starts > 1:
        doc["grid"].fail("the zone holds more than one START tile")
    box_start = box.get("start", starts == 0).boolean()
    if box_start == (starts == 1):
        box.fail("the START tile must be in the zone or in the box, exactly once")
    box_actions = _face_counts(box.get("actions", {}), edition)
    unseen = _read_unseen(doc, edition, box_actions, cells.count(ROCK), cells.count(HIDDEN))
    return _Zone(rows, cols, cells, hands, box_dinos, box_start, box_actions, unseen)


def _read_unseen(
    doc: Node, edition: str, box_actions: dict[str, int], rocks: int, hidden: int
) -> dict[str, int]:
    mix = ACTION_MIX[edition]
    if doc.has("unseen_actions"):
        unseen = _face_counts(doc["unseen_actions"], edition)
    else:
        revealed = {face: box_actions[face] + (rocks if face == "rock" else 0) for face in FACES[edition]}
        unseen = {face: mix[face] - revealed[face] for face in FACES[edition]}
        if any(n < 0 for n in unseen.values()):
            doc.fail("more action tiles revealed than the edition has")
    for face in FACES[edition]:
        counted = box_actions[face] + (rocks if face == "rock" else 0) + unseen[face]
        if counted != mix[face]:
            doc.fail(f"{face}: {counted} tiles accounted for (revealed + unseen); the box has {mix[face]}")
    if hidden > sum(unseen.values()):
        doc.fail(f"{hidden} face-down action tiles in the zone but only {sum(unseen.values())} unseen")
    return unseen


def _read_turn(
    doc: Node, zone: _Zone, edition: str, players: tuple[str, ...]
) -> tuple[Phase, int, int | None, int]:
    starts = zone.cells.count(START)
    phase_node = doc.get("phase", "start" if starts else "take")
    phase = Phase(phase_node.choice([p.value for p in Phase]))
    if (phase == Phase.START) != (starts == 1):
        phase_node.fail("phase 'start' goes with the START tile in the zone, and only then")
    # the START tile is lifted to make the first free space: before that nothing is freed or revealed
    # (tiles in hands are allowed, so that a worked scenario can start from a dealt position)
    if starts == 1 and (None in zone.cells or ROCK in zone.cells or any(zone.box_actions.values())):
        doc.fail("while the START tile lies in the zone no cell is free and no action tile revealed")
    if phase == Phase.RETURN and edition != "en":
        phase_node.fail("the Spanish edition has no Returning")
    turn = players.index(doc.get("to_play", players[0]).choice(players))
    reveal_node = doc.get("reveal_cell")
    reveal_cell = None
    if phase == Phase.REVEAL:
        row, col = reveal_node.pair()
        if not (0 <= row < zone.rows and 0 <= col < zone.cols):
            reveal_node.fail(f"{[row, col]} is outside the {zone.rows}x{zone.cols} grid")
        reveal_cell = row * zone.cols + col
        if zone.cells[reveal_cell] != HIDDEN:
            reveal_node.fail("must point at a face-down action tile ('?')")
        if all(zone.cells[j] is not None for j in neighbours(zone.rows, zone.cols)[reveal_cell]):
            reveal_node.fail("must be a tile that was accessible (a side next to a free space)")
    elif reveal_node.value is not None:
        reveal_node.fail("is only set while phase is 'reveal'")
    twice_node = doc.get("twice_left", 2 if phase == Phase.TWICE else 0)
    twice_left = twice_node.integer()
    if phase == Phase.TWICE and twice_left not in (1, 2):
        twice_node.fail("must be 1 or 2 while playing twice")
    if phase != Phase.TWICE and twice_left != 0:
        twice_node.fail("must be 0 unless phase is 'twice'")
    return phase, turn, reveal_cell, twice_left


def parse_state(game: JurassikGame, data: Mapping[str, Any]) -> JurassikState:
    """Validate ``data`` and build the state; StateFormatError (one line) names the first problem."""
    doc = read_document(data)
    doc.mapping()
    game.check_format(data)
    doc.only(_KEYS)
    edition = doc.get("edition", "en").choice(EDITIONS)
    long_game = doc.get("long_game", False).boolean()
    compulsory = doc.get("compulsory_actions", False).boolean()
    if long_game and edition != "en":
        doc["long_game"].fail("the Spanish edition has no 'all tiles' long game")
    players = game.check_players([name.text() for name in doc["players"].items_of()])
    zone = _read_zone(doc, players, edition)
    phase, turn, reveal_cell, twice_left = _read_turn(doc, zone, edition, players)
    end_reason = doc.get("end_reason", "").text(allow_empty=True, max_len=2000)
    last_event = doc.get("last_event", "").text(allow_empty=True, max_len=2000)
    state = JurassikState(
        game=game, edition=edition, long_game=long_game, players=players, rows=zone.rows, cols=zone.cols,
        cells=zone.cells, hands=zone.hands, box_dinos=zone.box_dinos, box_actions=zone.box_actions,
        box_start=zone.box_start, unseen=zone.unseen, turn=turn, phase=phase, twice_left=twice_left,
        reveal_cell=reveal_cell, end_reason=end_reason, last_event=last_event, compulsory_actions=compulsory,
    )
    if phase in (Phase.DISCARD, Phase.STEAL, Phase.EXCHANGE, Phase.RETURN, Phase.TWICE):
        # such a tile has no effect and the turn passes at once (JK-NO-EFFECT; a twice that runs out of
        # accessible dinosaurs ends the game), so no state waits for it
        possible, why_not = state.can_carry_out(phase, players[turn])
        if not possible:
            doc["phase"].fail(f"phase {phase.value!r} cannot be carried out here ({why_not})")
    if phase == Phase.TAKE and not state.accessible_cells():
        # the end rule applies at once: the player to move has no accessible tile at all
        state.phase = Phase.OVER
        state.end_reason = state.end_reason or f"{players[turn]} must take a tile and none is accessible"
    return state


def is_back_id(value: str) -> bool:
    """Whether ``value`` is an action tile's opaque back id (5 characters 0-9A-Z), which tells nothing."""
    return value != START and _BACK_ID.match(value) is not None


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
        if isinstance(value, str) and is_back_id(value):
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
