"""Jurassic Brunch at the table: four pasture boards placed as the state says, triceratops and the raptor
as tagged figures, grass tokens face down on the grass, each player's pool and eaten tokens in their zone.

Geometry: the engine's area cells are integer ``(x, y)`` (x east, y south); cell ``(x, y)`` has its centre at
``origin + pitch * (x, y)`` on the table. A board's centre cell carries its tag ``BOARD-n`` at the board's
rotation (quarter turns counter-clockwise -> 90-degree steps); it is only visible while nothing stands on
that cell. The table grows with the arrangement (a 12-cell line needs more room than the 6x6 square) and
keeps the camera's 16:9 shape; the blue seat is on the west side, orange on the east.

Figures and tokens carry ``tag_size`` mm codes on ``piece_side`` mm bases: a triceratops on a square base in
its team's colour (``TRI-BLUE-3``), the raptor on a grey-green base (``RAPTOR``), a sleeping triceratops on
a darker base with a white bar, grass tokens face down with their printed back ids, eaten tokens face up
(``YUMMY-04``), hidden ones (in a hideout) face down in their owner's zone. Ids are handed out stably (a
figure that moves keeps its id; see :class:`BrunchIds`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any

from companion.kits.jurassic_brunch.tags import CODE, RAPTOR_TAG, figure_tag, printed, token_tag
from companion.kits.tabletop import (
    SEAT_RGB,
    TABLE_HEIGHT,
    TABLE_WIDTH,
    Rect,
    Seat,
    Sketch,
    StableIds,
    add_shadows,
    circle_polygon,
    is_sketch,
    keep_places,
    rect_polygon,
    shade,
    square,
)
from engines.jurassic_brunch.components import TOKEN_COUNTS, TOKEN_KINDS, TRICERATOPS_PER_PLAYER
from vision.scene import RGB, Point, Scene, Shape, Tag, Zone
from vision.tags import payload, qr_matrix

COLOURS = ("blue", "orange")
FELT = (54, 86, 66)
PASTURE = (120, 168, 84)
BOARD_EDGE = (70, 104, 52)
TOKEN_BACK = (88, 132, 60)
TOKEN_FRONT = (236, 228, 190)
RAPTOR_RGB = (96, 110, 90)
BOX_RGB = (120, 84, 52)
EGG_RGB: dict[str, RGB] = {"blue": (170, 196, 236), "orange": (244, 204, 160)}
SEAT_STRIP = 210.0


@dataclass(frozen=True)
class BrunchLayout:
    """Where Jurassic Brunch lies: cell ``(0, 0)``'s centre at ``origin``, seats in side strips."""

    cells_wide: int = 6
    cells_high: int = 6
    pitch: float = 62.0
    piece_side: float = 52.0
    tag_size: float = 40.0
    width: float = TABLE_WIDTH
    height: float = TABLE_HEIGHT
    origin: Point = (485.0, 205.0)

    @classmethod
    def for_area(cls, area: Any, pitch: float = 62.0) -> BrunchLayout:
        """A table big enough for ``area`` (an engine ``PlayingArea``) and two seat strips, 16:9."""
        return cls.for_cells(area.cells, pitch)

    @classmethod
    def for_cells(cls, cells: Iterable[tuple[int, int]], pitch: float = 62.0) -> BrunchLayout:
        """A table big enough for a pasture of these cells and two seat strips, 16:9."""
        cells = list(cells)
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        wide, high = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        width = max(TABLE_WIDTH, wide * pitch + 2 * SEAT_STRIP + 60.0)
        height = max(TABLE_HEIGHT, high * pitch + 80.0)
        width, height = max(width, height * 16.0 / 9.0), max(height, width * 9.0 / 16.0)
        origin = (
            width / 2.0 - (wide - 1) * pitch / 2.0 - min(xs) * pitch,
            height / 2.0 - (high - 1) * pitch / 2.0 - min(ys) * pitch,
        )
        return cls(wide, high, pitch, width=width, height=height, origin=origin)

    def on_table(self, width: float, height: float) -> BrunchLayout:
        """The same playing area in the middle of a ``width`` x ``height`` mm table."""
        dx, dy = (width - self.width) / 2.0, (height - self.height) / 2.0
        return replace(self, width=width, height=height, origin=(self.origin[0] + dx, self.origin[1] + dy))

    def cell_center(self, cell: tuple[int, int]) -> Point:
        return (self.origin[0] + cell[0] * self.pitch, self.origin[1] + cell[1] * self.pitch)

    def cell_at(self, point: Point) -> tuple[int, int]:
        """The cell under a table point (whether or not it is on the area)."""
        return (
            round((point[0] - self.origin[0]) / self.pitch),
            round((point[1] - self.origin[1]) / self.pitch),
        )

    @property
    def seats(self) -> tuple[Seat, Seat]:
        top, bottom = 40.0, self.height * 0.72
        blue = Seat(0, "blue", (8.0, top, SEAT_STRIP - 10.0, bottom), 270.0)
        orange = Seat(1, "orange", (self.width - SEAT_STRIP + 10.0, top, self.width - 8.0, bottom), 90.0)
        return (blue, orange)

    @property
    def box(self) -> Rect:
        return (8.0 + 20.0, self.height * 0.72 + 12.0, SEAT_STRIP - 10.0, self.height - 40.0)

    @property
    def raptor_rest(self) -> Rect:
        """Where the raptor waits while it is off the area."""
        return (
            self.width - SEAT_STRIP + 10.0,
            self.height * 0.72 + 12.0,
            self.width - 28.0,
            self.height - 40.0,
        )

    def zones(self, area: Any) -> list[Zone]:
        xs = [x for x, _ in area.cells]
        ys = [y for _, y in area.cells]
        (x0, y0), (x1, y1) = self.cell_center((min(xs), min(ys))), self.cell_center((max(xs), max(ys)))
        half = self.pitch / 2.0 + 6.0
        zones = [Zone("play", rect_polygon((x0 - half, y0 - half, x1 + half, y1 + half)))]
        zones += [seat.zone for seat in self.seats]
        zones += [Zone("box", rect_polygon(self.box)), Zone("raptor-rest", rect_polygon(self.raptor_rest))]
        return zones

    def seat_slots(self, seat: Seat) -> list[Point]:
        return seat.slots(self.pitch, self.pitch, margin=4.0)


@dataclass
class BrunchIds:
    """Stable printed ids for pieces the engine knows only by position or count. Keep one per game."""

    figures: dict[str, tuple[int, int] | None] = field(default_factory=dict)  # figure id -> cell or None
    backs: StableIds = field(default_factory=lambda: StableIds(printed().backs()))
    fronts: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (holder, kind) -> front ids
    spots: dict[str, int] = field(default_factory=dict)  # piece id -> index in its seat zone

    def place_figures(self, colour: str, cells: Sequence[tuple[int, int]]) -> dict[tuple[int, int], str]:
        """Which triceratops stands on each cell: figures that stayed keep their ids, a figure that left a
        cell and one that arrived elsewhere are taken to be the same (nearest first), newcomers come from
        the pool."""
        names = [figure_tag(colour, n) for n in range(1, TRICERATOPS_PER_PLAYER + 1)]
        now = set(cells)
        placed: dict[tuple[int, int], str] = {}
        for name in names:
            where = self.figures.get(name)
            if where is not None and where in now and where not in placed:
                placed[where] = name
        vacated = [n for n in names if self.figures.get(n) is not None and n not in placed.values()]
        arrivals = sorted(c for c in now if c not in placed)
        for cell in arrivals:
            if vacated:
                previous = {n: self.figures[n] for n in vacated}
                name = min(vacated, key=lambda n: _distance(previous[n], cell))
                vacated.remove(name)
            else:
                name = next(n for n in names if n not in placed.values() and self.figures.get(n) is None)
            placed[cell] = name
        for name in names:
            self.figures[name] = None
        for cell, name in placed.items():
            self.figures[name] = cell
        return placed

    def held_fronts(self, holder: str, kind: str, count: int, taken: set[str]) -> list[str]:
        """``count`` front ids of ``kind`` for ``holder``, keeping earlier ones, none in ``taken``."""
        pool = _token_pool(kind)
        kept = [t for t in self.fronts.get((holder, kind), []) if t not in taken][:count]
        for tag in pool:
            if len(kept) >= count:
                break
            if tag not in kept and tag not in taken:
                kept.append(tag)
        self.fronts[(holder, kind)] = kept
        return kept

    def seat_places(
        self, holder: str, pieces: Sequence[str], slots: Sequence[Point]
    ) -> list[tuple[str, Point]]:
        prefix = f"{holder}/"
        previous = {key[len(prefix) :]: index for key, index in self.spots.items() if key.startswith(prefix)}
        taken = keep_places(pieces, len(slots), previous)
        for key in [k for k in self.spots if k.startswith(prefix)]:
            del self.spots[key]
        for index, piece in taken.items():
            self.spots[f"{holder}/{piece}"] = index
        return [(piece, slots[index]) for index, piece in sorted(taken.items())]


@dataclass(frozen=True)
class MarkedArea:
    """A table area the markers mark: each game's playing area (its boards' arrangement) is laid out in
    its middle (see :meth:`BrunchLayout.on_table`)."""

    width: float
    height: float

    def layout_for(self, area: Any) -> BrunchLayout:
        return BrunchLayout.for_area(area).on_table(self.width, self.height)


@cache
def _token_pool(kind: str) -> tuple[str, ...]:
    return tuple(token_tag(kind, n) for n in range(1, TOKEN_COUNTS[kind] + 1))


def _distance(a: tuple[int, int] | None, b: tuple[int, int]) -> float:
    return math.inf if a is None else math.hypot(a[0] - b[0], a[1] - b[1])


@lru_cache(maxsize=1024)
def _modules(payload: str) -> int:
    return int(qr_matrix(payload).shape[0])


def _tag_side(layout: BrunchLayout, payload: str) -> float:
    """Every code gets the same module size: a version-2 payload (``SUPER-YUMMY-01``) a larger code."""
    return layout.tag_size * _modules(payload) / 21.0


def _piece(
    scene: Scene, layout: BrunchLayout, center: Point, tag_id: str, fill: RGB, angle: float = 0.0
) -> None:
    """A token: a square card of ``piece_side`` (more for a larger code) with its tag."""
    printed = payload(CODE, tag_id)
    size = _tag_side(layout, printed)
    scene.tags.append(Tag(printed, center, angle % 360.0, size))
    if not is_sketch(scene):
        side = max(layout.piece_side, size * 25.0 / 21.0 + 4.0)
        scene.shapes.append(Shape(square(center, side, angle), fill, shade(fill, 0.55), label=tag_id))


def _figure(
    scene: Scene, layout: BrunchLayout, center: Point, tag_id: str, fill: RGB, angle: float = 0.0
) -> None:
    """A figure seen from above: a round base in its colour, wider than a token, its tag on its back."""
    scene.tags.append(Tag(payload(CODE, tag_id), center, angle % 360.0, layout.tag_size))
    if not is_sketch(scene):
        radius = layout.pitch / 2.0 - 2.0
        scene.shapes.append(Shape(circle_polygon(center, radius, 36), fill, shade(fill, 0.55), label=tag_id))


def _egg(center: Point, colour: str) -> tuple[Point, ...]:
    return tuple(
        (center[0] + 9.0 * math.cos(2 * math.pi * i / 16), center[1] + 12.0 * math.sin(2 * math.pi * i / 16))
        for i in range(16)
    )


def scene_for(
    state: Any, layout: BrunchLayout | None = None, *, ids: BrunchIds | None = None,
    boards_only: bool = False, sketch: bool = False,
) -> Scene:
    """The table of a :class:`engines.jurassic_brunch.BrunchState` as the camera would see it.

    ``boards_only``: the moment during setup when the boards lie placed and nothing is on them yet, the
    only time every board tag is in sight (a token or figure on a board's centre cell covers its tag).
    ``sketch``: tags, zones and pegs only, for inference."""
    area = state.area
    layout = layout or BrunchLayout.for_area(area)
    ids = ids or BrunchIds()
    scene = Scene.with_corner_markers(layout.width, layout.height)
    scene.background = FELT
    if sketch:
        scene.shapes = Sketch()
    scene.zones = layout.zones(area)
    scene.shapes.append(Shape(rect_polygon(layout.box), BOX_RGB, shade(BOX_RGB, 0.6), "box"))
    scene.shapes.append(Shape(rect_polygon(layout.raptor_rest), shade(FELT, 1.2), (220, 220, 210), "raptor"))
    occupied: set[tuple[int, int]] = set(state.triceratops)
    if state.raptor is not None:
        occupied.add(state.raptor)
    _draw_boards(scene, layout, state, occupied, boards_only)
    if boards_only:
        return scene
    pieces_from = len(scene.shapes)
    _draw_grass(scene, layout, state, ids, occupied)
    _draw_figures(scene, layout, state, ids)
    _draw_seats(scene, layout, state, ids)
    add_shadows(scene, pieces_from)
    return scene


def _draw_boards(
    scene: Scene, layout: BrunchLayout, state: Any, occupied: set[tuple[int, int]], boards_only: bool
) -> None:
    """The pasture boards, their cells and eggs, and each board's centre tag while nothing covers it."""
    area = state.area
    half = layout.pitch / 2.0
    for board in [] if is_sketch(scene) else area.boards:
        cx, cy = layout.cell_center(board.centre)
        outline = rect_polygon((cx - 3 * half, cy - 3 * half, cx + 3 * half, cy + 3 * half))
        scene.shapes.append(Shape(outline, PASTURE, BOARD_EDGE, label=board.board_id))
        for cell in board.cells():
            tile = square(layout.cell_center(cell), layout.pitch - 3.0)
            scene.shapes.append(Shape(tile, shade(PASTURE, 1.06), shade(PASTURE, 0.85)))
    for colour in [] if is_sketch(scene) else COLOURS:
        for cell in area.egg_cells[colour]:
            x, y = layout.cell_center(cell)
            egg = _egg((x + 19.0, y - 17.0), colour)
            scene.shapes.append(Shape(egg, EGG_RGB[colour], shade(EGG_RGB[colour], 0.7)))
    for board in area.boards:
        # a board's tag is seen while its centre cell is free (the setup view shows all four)
        if boards_only or (board.centre not in occupied and board.centre not in state.grass):
            center = layout.cell_center(board.centre)
            scene.tags.append(
                Tag(payload(CODE, board.board_id), center, (90.0 * board.rotation) % 360.0, layout.tag_size)
            )


def _draw_grass(
    scene: Scene, layout: BrunchLayout, state: Any, ids: BrunchIds, occupied: set[tuple[int, int]]
) -> None:
    """The face-down grass tokens (their back ids kept while they lie still)."""
    for cell in sorted(state.grass):
        if cell in occupied:
            continue  # a figure stands on it (about to eat it): the token is out of sight
        _piece(scene, layout, layout.cell_center(cell), ids.backs.get(("grass", cell)), TOKEN_BACK)
    for key in ids.backs.holders():
        if not isinstance(key, tuple):
            continue
        gone_from_grass = key[0] == "grass" and key[1] not in state.grass
        no_longer_hidden = key[0] == "hidden" and key[3] >= state.hidden[key[1]][key[2]]
        if gone_from_grass or no_longer_hidden:
            ids.backs.release(key)


def _draw_figures(scene: Scene, layout: BrunchLayout, state: Any, ids: BrunchIds) -> None:
    """The triceratops on the area (a sleeping one darker, with a white bar) and the raptor."""
    for colour in COLOURS:
        cells = sorted(cell for cell, (owner, _) in state.triceratops.items() if owner == colour)
        for cell, name in ids.place_figures(colour, cells).items():
            asleep = state.triceratops[cell][1] is not None
            fill = shade(SEAT_RGB[colour], 0.6) if asleep else SEAT_RGB[colour]
            x, y = layout.cell_center(cell)
            _figure(scene, layout, (x, y), name, fill)
            if asleep and not is_sketch(scene):
                bar = rect_polygon((x - 18.0, y + 22.0, x + 18.0, y + 25.0))
                scene.shapes.append(Shape(bar, (245, 245, 245)))
    pending = state.pending
    if pending is not None and pending[0] == "expel" and pending[1][0] == "raptor":
        return  # expelled by a charge: in the charging player's hand until it is put down
    if state.raptor is not None:
        _figure(scene, layout, layout.cell_center(state.raptor), RAPTOR_TAG, RAPTOR_RGB)
    else:
        x0, y0, x1, y1 = layout.raptor_rest
        _figure(scene, layout, ((x0 + x1) / 2.0, (y0 + y1) / 2.0), RAPTOR_TAG, RAPTOR_RGB)


def _draw_seats(scene: Scene, layout: BrunchLayout, state: Any, ids: BrunchIds) -> None:
    """Each team's pool of triceratops and its tokens (face up; hidden ones face down) in its seat zone."""
    taken: set[str] = set()
    for seat in layout.seats:
        colour = seat.colour
        pieces: list[tuple[str, RGB]] = []
        on_area = {name for name, cell in ids.figures.items() if cell is not None and colour.upper() in name}
        in_pool = [
            figure_tag(colour, n) for n in range(1, TRICERATOPS_PER_PLAYER + 1)
            if figure_tag(colour, n) not in on_area
        ]
        pieces += [(name, SEAT_RGB[colour]) for name in in_pool[: state.pool[colour]]]
        for kind in TOKEN_KINDS:
            fronts = ids.held_fronts(colour, kind, state.tokens[colour][kind], taken)
            taken.update(fronts)
            pieces += [(front, TOKEN_FRONT) for front in fronts]
            for n in range(state.hidden[colour][kind]):
                pieces.append((ids.backs.get(("hidden", colour, kind, n)), TOKEN_BACK))
        fills = dict(pieces)
        slots = layout.seat_slots(seat)
        for piece, place in ids.seat_places(colour, [p for p, _ in pieces], slots):
            draw = _figure if piece.startswith("TRI-") else _piece
            draw(scene, layout, place, piece, fills[piece], seat.facing)
