"""The playing area: four 3x3 pasture boards placed freely on an integer grid (x east, y south).

A board is placed by the cell under its centre (where its tag sits) and a rotation in quarter turns
counter-clockwise seen from above (the tag's angle / 90). Egg cells are printed on the boards; they are data
per board in the board's own frame (local cells (0, 0)..(2, 2), x east and y south at rotation 0).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Cell = tuple[int, int]

BOARD_IDS: tuple[str, ...] = ("BOARD-1", "BOARD-2", "BOARD-3", "BOARD-4")
COLOURS: tuple[str, ...] = ("blue", "orange")
ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
ALL_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
#: the four 3x3 boards: no playing area (even one known only by its cells) is larger
MAX_AREA_CELLS = 4 * 9

#: ASSUMED egg layout. The rulebook does not say which cells show an egg; this default puts one egg of each
#: colour on every board, in the two north corners (local cells, rotation 0). Replace it with the real boards'
#: layout through the ``eggs`` setup option when it is known.
DEFAULT_EGGS: Mapping[str, Mapping[str, tuple[Cell, ...]]] = {
    board_id: {"blue": ((0, 0),), "orange": ((2, 0),)} for board_id in BOARD_IDS
}
DEFAULT_EGGS_ARE_ASSUMED = True


class AreaError(ValueError):
    """A board placement or egg layout that the setup rule does not allow."""


def rotate(offset: Cell, quarter_turns: int) -> Cell:
    """Turn an offset counter-clockwise seen from above (y grows south): east (1, 0) -> north (0, -1)."""
    dx, dy = offset
    for _ in range(quarter_turns % 4):
        dx, dy = dy, -dx
    return dx, dy


@dataclass(frozen=True, slots=True)
class Board:
    """One pasture board: its id, the table cell under its centre and its rotation (quarter turns CCW)."""

    board_id: str
    centre: Cell
    rotation: int = 0

    def cell(self, local: Cell) -> Cell:
        """The table cell of a local board cell (0..2, 0..2)."""
        dx, dy = rotate((local[0] - 1, local[1] - 1), self.rotation)
        return self.centre[0] + dx, self.centre[1] + dy

    def cells(self) -> tuple[Cell, ...]:
        cx, cy = self.centre
        return tuple((cx + dx, cy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))

    @classmethod
    def from_tag(cls, board_id: str, centre: Cell, angle_degrees: float) -> Board:
        """A board seen through its centre tag: the tag's angle snaps to the nearest quarter turn."""
        return cls(board_id, centre, round(angle_degrees / 90.0) % 4)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.board_id, "centre": list(self.centre), "rotation": self.rotation}


def boards_from_tags(
    tags: Mapping[str, tuple[float, float, float]], cell_mm: float
) -> tuple[Board, ...]:
    """Board placement from the centre tags seen on the table: ``{board id: (x_mm, y_mm, angle_degrees)}``.

    Centres snap to the integer grid of side ``cell_mm`` anchored at the first board's centre, then shift so
    the area's top-left cell is (0, 0); angles snap to quarter turns. The placement still has to pass
    :class:`PlayingArea` validation. AreaError for missing or unknown boards or a bad cell size.
    """
    if sorted(tags) != sorted(BOARD_IDS):
        wanted = ", ".join(BOARD_IDS)
        raise AreaError(f"the four board tags {wanted} must each be seen once, got {sorted(tags)}")
    if not cell_mm > 0:
        raise AreaError(f"the cell size must be positive, not {cell_mm!r}")
    anchor_x, anchor_y, _ = tags[BOARD_IDS[0]]
    centres = {
        board_id: (round((x - anchor_x) / cell_mm), round((y - anchor_y) / cell_mm))
        for board_id, (x, y, _) in tags.items()
    }
    min_x = min(cx for cx, _ in centres.values()) - 1
    min_y = min(cy for _, cy in centres.values()) - 1
    return tuple(
        Board.from_tag(board_id, (cx - min_x, cy - min_y), tags[board_id][2])
        for board_id, (cx, cy) in ((board_id, centres[board_id]) for board_id in BOARD_IDS)
    )


def parse_cell(value: Any, what: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise AreaError(f"{what} must be a pair of integers [x, y], not {value!r}")
    return int(value[0]), int(value[1])


def parse_board(data: Any) -> Board:
    if not isinstance(data, Mapping):
        raise AreaError(f"a board must be an object with id, centre, rotation, not {data!r}")
    unknown = set(data) - {"id", "centre", "rotation"}
    if unknown:
        raise AreaError(f"a board has unknown fields: {', '.join(sorted(unknown))}")
    board_id = data.get("id")
    if not isinstance(board_id, str):
        raise AreaError(f"a board id must be a string like 'BOARD-1', not {board_id!r}")
    rotation = data.get("rotation", 0)
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation <= 3:
        raise AreaError(f"{board_id}: rotation must be 0..3 quarter turns, not {rotation!r}")
    return Board(board_id, parse_cell(data.get("centre"), f"{board_id} centre"), rotation)


def parse_eggs(data: Any) -> dict[str, dict[str, tuple[Cell, ...]]]:
    """Validate an egg layout: per board id, per colour, local cells; 8 eggs in all, 4 per colour."""
    if not isinstance(data, Mapping) or sorted(data) != sorted(BOARD_IDS):
        raise AreaError(f"the egg layout must give every board {', '.join(BOARD_IDS)} exactly once")
    layout: dict[str, dict[str, tuple[Cell, ...]]] = {}
    totals = dict.fromkeys(COLOURS, 0)
    for board_id in BOARD_IDS:
        per_colour = data[board_id]
        if not isinstance(per_colour, Mapping) or not set(per_colour) <= set(COLOURS):
            raise AreaError(f"{board_id} eggs must map 'blue' and 'orange' to local cells")
        seen: set[Cell] = set()
        layout[board_id] = {}
        for colour in COLOURS:
            raw = per_colour.get(colour, [])
            if not isinstance(raw, list | tuple):
                raise AreaError(f"{board_id} {colour} eggs must be a list of local cells")
            cells = tuple(parse_cell(item, f"{board_id} {colour} egg") for item in raw)
            for cell in cells:
                if not (0 <= cell[0] <= 2 and 0 <= cell[1] <= 2):
                    raise AreaError(f"{board_id} egg {list(cell)} is not a local cell 0..2")
                if cell in seen:
                    raise AreaError(f"{board_id} has two eggs on {list(cell)}")
                seen.add(cell)
            layout[board_id][colour] = cells
            totals[colour] += len(cells)
    if any(total != 4 for total in totals.values()):
        raise AreaError(f"the boards must show 4 eggs of each colour, not {totals}")
    return layout


def eggs_to_dict(eggs: Mapping[str, Mapping[str, Sequence[Cell]]]) -> dict[str, dict[str, list[list[int]]]]:
    return {
        board_id: {colour: [list(cell) for cell in eggs[board_id][colour]] for colour in COLOURS}
        for board_id in BOARD_IDS
    }


class PlayingArea:
    """The union of the four boards' cells, validated against the setup rule. Immutable and shared."""

    __slots__ = ("board_of", "boards", "cells", "egg_cells", "eggs")

    def __init__(
        self,
        boards: Iterable[Board],
        eggs: Mapping[str, Mapping[str, Sequence[Cell]]] | None = None,
    ) -> None:
        self.boards: tuple[Board, ...] = tuple(sorted(boards, key=lambda board: board.board_id))
        self.eggs = parse_eggs(eggs if eggs is not None else DEFAULT_EGGS)
        self.board_of: dict[Cell, str] = {}
        self._validate()
        self.cells: frozenset[Cell] = frozenset(self.board_of)
        by_id = {board.board_id: board for board in self.boards}
        self.egg_cells: dict[str, tuple[Cell, ...]] = {
            colour: tuple(
                sorted(by_id[b].cell(local) for b in BOARD_IDS for local in self.eggs[b][colour])
            )
            for colour in COLOURS
        }

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> PlayingArea:
        """An area known only by its cells (a ruling on a drawn position): no boards, no eggs, no checks."""
        area = cls.__new__(cls)
        area.boards = ()
        area.eggs = {}
        area.board_of = {}
        area.cells = frozenset(cells)
        area.egg_cells = {colour: () for colour in COLOURS}
        return area

    def _validate(self) -> None:
        ids = [board.board_id for board in self.boards]
        if sorted(ids) != sorted(BOARD_IDS):
            raise AreaError(f"the playing area takes the four boards {', '.join(BOARD_IDS)}, got {ids}")
        for board in self.boards:
            for cell in board.cells():
                if cell in self.board_of:
                    raise AreaError(
                        f"{board.board_id} overlaps {self.board_of[cell]} at {list(cell)}"
                    )
                self.board_of[cell] = board.board_id
        neighbours: dict[str, set[str]] = {board_id: set() for board_id in ids}
        for (x, y), board_id in self.board_of.items():
            for dx, dy in ORTHOGONAL:
                other = self.board_of.get((x + dx, y + dy))
                if other is not None and other != board_id:
                    neighbours[board_id].add(other)
        for board_id, touching in neighbours.items():
            if not touching:
                raise AreaError(f"{board_id} has no space adjacent to another board")
        reached = {ids[0]}
        frontier = [ids[0]]
        while frontier:
            for other in neighbours[frontier.pop()]:
                if other not in reached:
                    reached.add(other)
                    frontier.append(other)
        if len(reached) != len(ids):
            raise AreaError("the four boards must form one connected playing area")

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def to_dict(self) -> dict[str, Any]:
        if not self.boards:
            return {"cells": [list(cell) for cell in sorted(self.cells, key=lambda c: (c[1], c[0]))]}
        return {"boards": [board.to_dict() for board in self.boards], "eggs": eggs_to_dict(self.eggs)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayingArea) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.cells)


# -- arrangements ---------------------------------------------------------------------------------------

#: named arrangements: board centres and rotations. "square" is the rulebook's advice for a first game.
ARRANGEMENTS: Mapping[str, tuple[tuple[Cell, int], ...]] = {
    # 6x6; rotations make the egg pattern turn with the boards around the centre of the square
    "square": (((1, 1), 0), ((4, 1), 3), ((4, 4), 2), ((1, 4), 1)),
    "line": (((1, 1), 0), ((4, 1), 0), ((7, 1), 2), ((10, 1), 2)),
    "l-shape": (((1, 1), 0), ((1, 4), 0), ((1, 7), 1), ((4, 7), 2)),
    "t-shape": (((1, 1), 0), ((4, 1), 0), ((7, 1), 2), ((4, 4), 2)),
    "stairs": (((1, 1), 0), ((4, 2), 3), ((7, 3), 2), ((10, 4), 1)),
    # boards touching along a single cell edge only
    "corners": (((1, 1), 0), ((4, 3), 3), ((7, 5), 2), ((4, 7), 1)),
}


def arrangement(name: str) -> tuple[Board, ...]:
    if name not in ARRANGEMENTS:
        raise AreaError(f"unknown arrangement {name!r}; known: {', '.join(ARRANGEMENTS)}, random")
    return tuple(
        Board(board_id, centre, rotation)
        for board_id, (centre, rotation) in zip(BOARD_IDS, ARRANGEMENTS[name])
    )


def random_arrangement(rng: random.Random) -> tuple[Board, ...]:
    """A random valid placement: each new board touches a placed one along 1..3 cell edges."""
    centres: list[Cell] = [(1, 1)]
    occupied = {(1 + dx, 1 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    while len(centres) < len(BOARD_IDS):
        base = rng.choice(centres)
        side = rng.choice(ORTHOGONAL)
        slide = rng.randint(-2, 2)
        perpendicular = (-side[1], side[0])
        centre = (
            base[0] + 3 * side[0] + slide * perpendicular[0],
            base[1] + 3 * side[1] + slide * perpendicular[1],
        )
        cells = {(centre[0] + dx, centre[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        if cells & occupied:
            continue
        centres.append(centre)
        occupied |= cells
    min_x = min(x for x, _ in occupied)
    min_y = min(y for _, y in occupied)
    return tuple(
        Board(board_id, (cx - min_x, cy - min_y), rng.randrange(4))
        for board_id, (cx, cy) in zip(BOARD_IDS, centres)
    )
