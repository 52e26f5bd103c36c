"""How a play area is found in a frame: the board-fitting strategies a kit chooses from.

A kit's :class:`~vision.detect.GeometryHints` carries one :class:`BoardFit`; the detector asks it to fit the
frame's tags to cells and where to look for coloured pieces, and knows no board shape itself. The shapes
here are generic (tiles on a lattice, pieces on the cells of small boards, figures on the fields of one
framed board); a game whose table is none of them brings its own class with the same two methods.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from vision import geometry
from vision.observation import LatticeFit, PegKind, TagReading, cell_key

Point = tuple[float, float]
Cell = tuple[int, int]
#: what a fit may ask of the frame's tags: a component's kind in the manifest, and whether it lies in play
KindOf = Callable[[TagReading], "str | None"]
InPlay = Callable[[TagReading], bool]


@dataclass(frozen=True)
class Seen:
    """The frame's accepted tags as a fit reads them."""

    readings: Mapping[str, TagReading]
    kind_of: KindOf
    in_play: InPlay
    #: lattice cells where a tile shows but its code was not read (the lattice says where it lies)
    unread: frozenset[Cell] = frozenset()

    def centres(self, keep: Callable[[TagReading], bool]) -> dict[str, Point]:
        """Table positions of the tags ``keep`` accepts (those the calibration could not place left out)."""
        return {r.component_id: r.center_mm for r in self.readings.values()
                if r.center_mm is not None and keep(r)}


@dataclass(frozen=True)
class PegSearch:
    """Coloured pieces to look for: ``kind``, ``radius_mm`` seen from above, and the places (key -> table
    mm; where the frame shows a place directly, ``targets_px``). A key's part after ``#`` names a spot
    within its place: the reading is reported on the place."""

    kind: PegKind
    radius_mm: float
    targets: Mapping[str, Point]
    targets_px: Mapping[str, Point] = field(default_factory=dict)
    #: how tall the pieces stand (0: flat, seen from above only)
    height_mm: float = 0.0
    #: for a place on a line (a gap between two tiles), the line's direction (a unit vector in table mm):
    #: an empty place looks as the line does a little way along it, a piece does not
    along: Mapping[str, Point] = field(default_factory=dict)


class BoardFit(Protocol):
    """A play area's shape: how tags become cells, and where pieces are looked for on the fitted cells."""

    def fit(self, seen: Seen, last: LatticeFit | None) -> LatticeFit:
        """Cells for the frame's tags; ``last`` is this camera's previous fit (to stay anchored)."""

    def peg_searches(self, lattice: LatticeFit, seen: Seen) -> Sequence[PegSearch]:
        """Where coloured pieces may stand on this fit."""


@runtime_checkable
class OpenLattice(Protocol):
    """A board fit whose empty cells beside tiles may hold tiles too small to read at once (the detector
    reads them again enlarged): tiles laid freely on a lattice, not fields of a printed board."""

    def open_cells(self) -> Sequence[Cell]:
        """Steps from a cell to its neighbours."""

    def centres(self, lattice: LatticeFit, cells: Sequence[Cell]) -> np.ndarray:
        """Table mm of ``cells`` on ``lattice``."""


SQUARE_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class TileLattice:
    """Tiles of ``tile_kinds`` on a ``hex`` (axial q, r) or ``square`` (col, row) lattice, anchored to
    ``prior`` (origin of cell (0, 0), pitch, angle) and then to the last fit; ``pegs_on_gaps``: coloured
    pegs of ``peg_radius_mm`` stand ``peg_height_mm`` tall on the gaps between neighbouring tiles."""

    shape: Literal["hex", "square"]
    tile_kinds: tuple[str, ...] = ("tile",)
    prior: LatticeFit | None = None
    pitch: float | None = None
    pegs_on_gaps: bool = False
    peg_radius_mm: float = 4.0
    peg_height_mm: float = 0.0

    def fit(self, seen: Seen, last: LatticeFit | None) -> LatticeFit:
        centres = seen.centres(lambda r: seen.in_play(r) and seen.kind_of(r) in self.tile_kinds)
        fitter = geometry.fit_hex if self.shape == "hex" else geometry.fit_square
        return fitter(centres, last or self.prior, self.pitch)

    def peg_searches(self, lattice: LatticeFit, seen: Seen) -> Sequence[PegSearch]:
        if not self.pegs_on_gaps or not lattice.cells:
            return ()
        read = {(int(q), int(r)) for q, r in (key.split(",") for key in set(lattice.cells.values()))}
        # A tile whose code was not read (a chisel's top or shadow over it, glare) still has its gaps looked
        # at, even beside another such tile.
        unread = set(seen.unread) - read
        gaps = geometry.hex_gaps(sorted(read | unread))
        targets: dict[str, Point] = {}
        targets_px: dict[str, Point] = {}
        along: dict[str, Point] = {}
        tag_at = {key: tag_id for tag_id, key in sorted(lattice.cells.items(), reverse=True)}
        if gaps:
            ends = geometry.hex_centres(lattice, [cell for gap in gaps for cell in gap]).reshape(-1, 2, 2)
            for (a, b), (x, y), ((ax, ay), (bx, by)) in zip(gaps, ends.mean(axis=1), ends):
                key_a, key_b = f"{a[0]},{a[1]}", f"{b[0]},{b[1]}"  # lower cell first, as hex_gaps gives
                key = f"{key_a}|{key_b}"
                targets[key] = (float(x), float(y))
                apart = math.hypot(bx - ax, by - ay) or 1.0
                along[key] = (float(ay - by) / apart, float(bx - ax) / apart)  # the tiles' shared edge
                first = seen.readings.get(tag_at.get(key_a, ""))
                second = seen.readings.get(tag_at.get(key_b, ""))
                if first is not None and second is not None:
                    # Midway between the two tiles' codes as seen: exact even where the lens bends lines.
                    targets_px[key] = ((first.center_px[0] + second.center_px[0]) / 2.0,
                                       (first.center_px[1] + second.center_px[1]) / 2.0)
        return (PegSearch("chisel", self.peg_radius_mm, targets, targets_px, self.peg_height_mm, along),)

    def open_cells(self) -> Sequence[Cell]:
        return geometry.HEX_DIRECTIONS if self.shape == "hex" else SQUARE_STEPS

    def centres(self, lattice: LatticeFit, cells: Sequence[Cell]) -> np.ndarray:
        centre_of = geometry.hex_centres if self.shape == "hex" else geometry.square_centres
        return centre_of(lattice, cells)


@dataclass(frozen=True)
class CellBoards:
    """Pieces on the cells of square boards of ``pitch`` mm cells, each board found by its centre tag of
    ``board_kind`` (its angle turns the board); ``prior`` gives the pitch when ``pitch`` is not set."""

    board_kind: str = "board"
    pitch: float | None = None
    prior: LatticeFit | None = None

    def fit(self, seen: Seen, last: LatticeFit | None) -> LatticeFit:
        boards = {r.component_id: (r.center_mm, r.angle) for r in seen.readings.values()
                  if r.center_mm is not None and seen.kind_of(r) == self.board_kind}
        pieces = seen.centres(lambda r: seen.kind_of(r) != self.board_kind and seen.in_play(r))
        pitch = self.pitch or (self.prior.pitch if self.prior else 62.0)
        return geometry.fit_boards(boards, pieces, pitch, self.prior)

    def peg_searches(self, lattice: LatticeFit, seen: Seen) -> Sequence[PegSearch]:
        return ()


@dataclass(frozen=True)
class FramedBoard:
    """One board framed by the corner tags ``corners`` (NW NE SE SW, ``size`` (w, h) mm apart), figures of
    ``figure_kind`` standing on its ``fields`` ((col, row) -> board mm from the NW tag). On a field no
    figure covers, a camp of ``camp_radius_mm`` stands at the centre and boxes of ``box_radius_mm`` on
    ``box_ring`` (offsets from the centre)."""

    corners: tuple[str, ...]
    fields: Mapping[Cell, Point]
    size: tuple[float, float] | None = None
    figure_kind: str = "figure"
    camp_radius_mm: float = 9.0
    box_radius_mm: float = 4.0
    box_ring: tuple[Point, ...] = ()

    def fit(self, seen: Seen, last: LatticeFit | None) -> LatticeFit:
        corners = seen.centres(lambda r: r.component_id in self.corners)
        pieces = seen.centres(lambda r: seen.kind_of(r) == self.figure_kind)
        size = self.size or corner_span(corners, self.corners)
        return geometry.fit_island(corners, size, self.fields, pieces, self.corners)

    def peg_searches(self, lattice: LatticeFit, seen: Seen) -> Sequence[PegSearch]:
        if "scale" not in lattice.extra or not self.fields:
            return ()  # the frame was not found: no field can be placed
        occupied = set(lattice.cells.values())
        camps: dict[str, Point] = {}
        boxes: dict[str, Point] = {}
        for cell, (x, y) in self.fields.items():
            key = cell_key(cell)
            if key in occupied:
                continue  # a figure's base covers its field
            camps[key] = geometry.island_field_centre(lattice, (x, y))
            for index, (dx, dy) in enumerate(self.box_ring):
                boxes[f"{key}#{index}"] = geometry.island_field_centre(lattice, (x + dx, y + dy))
        return (PegSearch("camp", self.camp_radius_mm, camps), PegSearch("box", self.box_radius_mm, boxes))


def corner_span(corners: Mapping[str, Point], names: Sequence[str]) -> tuple[float, float]:
    """Board size when the layout does not say: from opposite corner tags (``names``: NW NE SE SW)."""
    if len(names) == 4:
        nw, ne, se, sw = names
        if nw in corners and se in corners:
            (x0, y0), (x1, y1) = corners[nw], corners[se]
            return (abs(x1 - x0), abs(y1 - y0))
        if ne in corners and sw in corners:
            (x0, y0), (x1, y1) = corners[sw], corners[ne]
            return (abs(x1 - x0), abs(y1 - y0))
    return (1.0, 1.0)
