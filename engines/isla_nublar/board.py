"""The island board as data: fields, landscapes, rivers, areas, columns, volcanoes, neighbours.

The rulebook does not draw the board, so it is read from a JSON file. The shipped default
(``data/board-default.json``) is marked ``"default": true``, to be checked against a printed board.
Fields are flat-top hexes in columns (odd columns sit half a field lower); ``row`` grows towards the southern
tip, so "straight towards the southern tip" is the next field of the same column. Every board is validated on
load: neighbours symmetric and equal to the hex geometry, columns contiguous, volcanoes at the top of their
columns, areas 1-4 not rising southwards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from engines.core import StateFormatError

LANDSCAPES = ("park", "mountain", "forest", "plain", "lake")
SQRT3 = 3**0.5

#: straight-line directions on the board, named by compass; each maps a field's (column, row) to the next
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def _step(column: int, row: int, direction: str) -> tuple[int, int]:
    odd = column % 2 == 1
    if direction == "N":
        return column, row - 1
    if direction == "S":
        return column, row + 1
    side = 1 if direction in ("NE", "SE") else -1
    north = direction in ("NE", "NW")
    if odd:
        return column + side, row if north else row + 1
    return column + side, row - 1 if north else row


@dataclass(frozen=True, slots=True)
class Field:
    field_id: str
    column: int
    row: int
    area: int
    landscape: str | None
    river: bool
    volcano: bool
    neighbours: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    name: str
    default: bool
    fields: Mapping[str, Field]
    camp_points: Mapping[int, int]
    #: column -> field ids from the volcano end to the southern end
    columns: Mapping[int, tuple[str, ...]]
    volcanoes: tuple[str, ...]
    positions: Mapping[tuple[int, int], str]
    note: str = ""

    @cached_property
    def land(self) -> tuple[str, ...]:
        """The fields pieces may stand on (every field but the volcanoes), in board order."""
        return tuple(f for f, field in self.fields.items() if not field.volcano)

    @cached_property
    def land_index(self) -> dict[str, int]:
        """Position of each land field in ``land``."""
        return {f: i for i, f in enumerate(self.land)}

    def next_field(self, field_id: str, direction: str) -> str | None:
        """The next field in a straight line, or None past the island's edge."""
        here = self.fields[field_id]
        return self.positions.get(_step(here.column, here.row, direction))

    def centre(self, field_id: str) -> tuple[float, float]:
        """Field centre in pitches (centre-to-centre distance of neighbours), x east and y south from the
        centre of (column 0, row 0): flat-top hexes, odd columns half a field lower."""
        field = self.fields[field_id]
        return (field.column * SQRT3 / 2, field.row + (0.5 if field.column % 2 else 0.0))

    def field_at(self, x: float, y: float) -> str | None:
        """The field whose centre is nearest to (x, y) in pitches, if within half a pitch; else None."""
        best, best_d2 = None, 0.25
        for fid in self.fields:
            cx, cy = self.centre(fid)
            d2 = (cx - x) ** 2 + (cy - y) ** 2
            if d2 <= best_d2:
                best, best_d2 = fid, d2
        return best

    def extent(self) -> tuple[float, float, float, float]:
        """Bounding box (min x, min y, max x, max y) of all field centres, in pitches; the corner tags
        BOARD-NW/NE/SE/SW sit outside it."""
        return self._extent

    @cached_property
    def _extent(self) -> tuple[float, float, float, float]:
        points = [self.centre(fid) for fid in self.fields]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (min(xs), min(ys), max(xs), max(ys))

    def adjacent(self, first: str, second: str) -> bool:
        return second in self.fields[first].neighbours

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "note": self.note,
            "areas": [{"area": a, "camp_points": p} for a, p in sorted(self.camp_points.items())],
            "fields": [
                {
                    "id": f.field_id,
                    "column": f.column,
                    "row": f.row,
                    "area": f.area,
                    "landscape": f.landscape,
                    "river": f.river,
                    "volcano": f.volcano,
                    "neighbours": list(f.neighbours),
                }
                for f in self.fields.values()
            ],
        }


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise StateFormatError(f"board: {message}")


def board_from_dict(data: Any) -> Board:
    """Validate a board description and build it; raises StateFormatError naming the first problem."""
    _need(isinstance(data, Mapping), "must be a JSON object")
    raw_fields = data.get("fields")
    _need(isinstance(raw_fields, list) and len(raw_fields) > 0, "needs a non-empty 'fields' list")
    areas = data.get("areas")
    _need(isinstance(areas, list), "needs an 'areas' list with camp_points")
    camp_points: dict[int, int] = {}
    for entry in areas:
        _need(isinstance(entry, Mapping), "each area is an object")
        area, points = entry.get("area"), entry.get("camp_points")
        _need(area in (1, 2, 3, 4) and isinstance(points, int) and points >= 0, f"bad area entry {entry}")
        camp_points[area] = points
    _need(sorted(camp_points) == [1, 2, 3, 4], "areas must be 1, 2, 3 and 4")
    _need(camp_points[4] == 0, "the lowest area (4) gives no camp points")
    fields: dict[str, Field] = {}
    positions: dict[tuple[int, int], str] = {}
    for raw in raw_fields:
        _need(isinstance(raw, Mapping), "each field is an object")
        fid = raw.get("id")
        _need(isinstance(fid, str) and bool(fid), f"field without an id: {raw}")
        assert isinstance(fid, str)
        _need(fid not in fields, f"duplicate field id {fid}")
        column, row, area = raw.get("column"), raw.get("row"), raw.get("area")
        _need(isinstance(column, int) and isinstance(row, int), f"{fid}: column and row must be integers")
        _need(area in (1, 2, 3, 4), f"{fid}: area must be 1-4")
        volcano = raw.get("volcano", False)
        river = raw.get("river", False)
        _need(
            isinstance(volcano, bool) and isinstance(river, bool), f"{fid}: volcano and river are true/false"
        )
        landscape = raw.get("landscape")
        if volcano:
            _need(landscape is None, f"{fid}: a volcano has no landscape")
        else:
            _need(landscape in LANDSCAPES, f"{fid}: landscape must be one of {', '.join(LANDSCAPES)}")
        neighbours = raw.get("neighbours")
        _need(
            isinstance(neighbours, list) and all(isinstance(n, str) for n in neighbours),
            f"{fid}: neighbours must be a list of field ids",
        )
        assert isinstance(column, int) and isinstance(row, int) and isinstance(area, int)
        assert isinstance(neighbours, list)
        _need((column, row) not in positions, f"{fid}: two fields at column {column} row {row}")
        positions[(column, row)] = fid
        fields[fid] = Field(fid, column, row, area, landscape, river, volcano, tuple(neighbours))
    for field in fields.values():
        expected = set()
        for direction in DIRECTIONS:
            other = positions.get(_step(field.column, field.row, direction))
            if other is not None:
                expected.add(other)
        for other in field.neighbours:
            _need(other in fields, f"{field.field_id}: unknown neighbour {other}")
            _need(
                field.field_id in fields[other].neighbours,
                f"neighbours not symmetric: {field.field_id}, {other}",
            )
        _need(
            set(field.neighbours) == expected and len(field.neighbours) == len(expected),
            f"{field.field_id}: neighbours {sorted(field.neighbours)} differ from the hex geometry "
            f"{sorted(expected)}",
        )
    columns: dict[int, tuple[str, ...]] = {}
    for column in sorted({f.column for f in fields.values()}):
        rows = sorted(f.row for f in fields.values() if f.column == column)
        _need(rows == list(range(rows[0], rows[-1] + 1)), f"column {column} has a gap")
        ids = tuple(positions[(column, row)] for row in rows)
        areas_down = [fields[i].area for i in ids]
        _need(areas_down == sorted(areas_down), f"column {column}: areas must not rise towards the south")
        columns[column] = ids
    volcanoes = tuple(f.field_id for f in fields.values() if f.volcano)
    _need(len(volcanoes) == 4, f"the island has 4 volcanoes, not {len(volcanoes)}")
    for fid in volcanoes:
        field = fields[fid]
        _need(columns[field.column][0] == fid, f"volcano {fid} is not at the top of its column")
        _need(field.area == 1, f"volcano {fid} must be in the top area")
    _need(not any(f.volcano for f in fields.values() if f.area != 1), "volcanoes lie in area 1")
    name = data.get("name", "custom")
    _need(isinstance(name, str), "name must be text")
    default = data.get("default", False)
    _need(isinstance(default, bool), "default must be true/false")
    note = data.get("note", "")
    return Board(str(name), bool(default), fields, camp_points, columns, volcanoes, positions, str(note))


@cache
def default_board() -> Board:
    """The shipped default board (marked as the engine's own; check it against the printed board)."""
    text = resources.files("engines.isla_nublar").joinpath("data/board-default.json").read_text("utf-8")
    return board_from_dict(json.loads(text))
