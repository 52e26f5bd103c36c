"""What the games' table layouts share: where things lie on the table (mm).

Each kit's ``table.py`` has a frozen layout dataclass (table size, play-area placement, tag size, seat
zones, reveal spot, box) and ``scene_for(state, layout) -> Scene``: what the table shows in a state, which
move inference compares with what the camera sees and the synthetic renderer draws, so what is drawn and
what is read agree.

Shared here: seat colours (defined in :mod:`vision.scene`), the seat zones around a table (seats go
clockwise: up the west side, then down the east side), the layouts' seat fields (:class:`SeatedLayout`),
the bookkeeping that keeps printed ids and places stable from frame to frame (:class:`StableIds`,
:func:`keep_places`), and small geometry helpers.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from vision.scene import RGB, Point, Scene, Shape, Zone
from vision.scene import SEAT_COLOURS as SEAT_COLOURS  # re-exported: the layouts' seat colours
from vision.scene import SEAT_RGB as SEAT_RGB

#: a group's own set-up laid within this of the layout's own place (mm) is taken to lie there
SAME_PLACE_MM = 3.0
#: a piece of a group's own set-up further than this share of the pitch from its place is out of line
OUT_OF_LINE = 0.3


def moved_to(layout: Any, placement: Mapping[str, Any], point_field: str) -> Any:
    """``layout`` with one point (a square's centre, a slab's origin) where the group laid it, as the
    placement recorded at the start says; unchanged where the placement does not name it."""
    point: Sequence[Any] = placement.get(point_field) or getattr(layout, point_field)
    return replace(layout, **{point_field: (float(point[0]), float(point[1]))})


#: The table every layout uses by default: 16:9 like the camera, so the frame is filled.
TABLE_WIDTH = 1280.0
TABLE_HEIGHT = 720.0
#: Width of the seat strips along the west and east edges; the middle is the play area and its margins.
SEAT_STRIP = 330.0
#: Keep seat zones clear of the corner calibration markers (40 mm plus a white margin).
MARKER_CLEARANCE = 38.0

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


def rect_polygon(rect: Rect) -> tuple[Point, ...]:
    x0, y0, x1, y1 = rect
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def square(center: Point, side: float, angle: float = 0.0) -> tuple[Point, ...]:
    """A square of ``side`` mm centred on ``center``, turned ``angle`` degrees counter-clockwise."""
    half = side / 2.0
    return tuple(
        offset(center, rotate((u, v), angle))
        for u, v in ((-half, -half), (half, -half), (half, half), (-half, half))
    )


def rotate(vector: Point, angle: float) -> Point:
    """Rotate a table vector ``angle`` degrees counter-clockwise as seen from above (y points south)."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    x, y = vector
    return (x * c + y * s, -x * s + y * c)


def offset(point: Point, vector: Point) -> Point:
    return (point[0] + vector[0], point[1] + vector[1])


def circle_polygon(center: Point, radius: float, points: int = 24) -> tuple[Point, ...]:
    return tuple(
        (
            center[0] + radius * math.cos(2 * math.pi * i / points),
            center[1] + radius * math.sin(2 * math.pi * i / points),
        )
        for i in range(points)
    )


def shade(rgb: RGB, factor: float) -> RGB:
    return (
        int(max(0, min(255, rgb[0] * factor))),
        int(max(0, min(255, rgb[1] * factor))),
        int(max(0, min(255, rgb[2] * factor))),
    )


#: The colour of the shadow a piece casts on the felt (lamps above and a little north-west of the table).
SHADOW_RGB: RGB = (26, 36, 30)
SHADOW_OFFSET: Point = (1.4, 1.9)


class Sketch(list[Shape]):
    """The shapes of a scene drawn only to be compared (what inference expects): they are dropped. Tags,
    pegs and zones are what inference compares; the shapes are for the renderer and cost most of a scene."""

    def append(self, shape: Shape) -> None:
        return None

    def __iadd__(self, shapes: Any) -> Sketch:  # type: ignore[misc,override]  # keeps nothing
        return self

    def __setitem__(self, index: Any, value: Any) -> None:
        return None


def is_sketch(scene: Scene) -> bool:
    """Whether ``scene`` keeps no shapes (see :class:`Sketch`): drawing code may skip computing them."""
    return isinstance(scene.shapes, Sketch)


def add_shadows(scene: Scene, start: int) -> None:
    """Give every tagged piece drawn from ``scene.shapes[start]`` on (shapes labelled with a tag id of the
    scene) a shadow, drawn before all of them so that no shadow falls on a neighbouring piece."""
    if is_sketch(scene):
        return
    ids = {tag.payload.rsplit(":", 1)[-1] for tag in scene.tags}
    dx, dy = SHADOW_OFFSET
    shadows = [
        Shape(tuple((x + dx, y + dy) for x, y in shape.polygon), SHADOW_RGB)
        for shape in scene.shapes[start:]
        if shape.label in ids
    ]
    scene.shapes[start:start] = shadows


def piece_shapes(center: Point, radius: float, rgb: RGB, label: str = "") -> list[Shape]:
    """A small round piece lying in a supply (a spare chisel, camp or box) drawn as the renderer draws a
    peg (shadow, rim, body, highlight) but as flat shapes: the scene's ``pegs`` are the pieces the camera
    must read at lattice positions; supplies are scenery the vision does not report."""
    shadow = (center[0] + radius * 0.25, center[1] + radius * 0.25)
    glint = (center[0] - radius * 0.3, center[1] - radius * 0.3)
    return [
        Shape(circle_polygon(shadow, radius * 1.08, 16), (30, 30, 30), label=label),
        Shape(circle_polygon(center, radius, 16), shade(rgb, 0.7), label=label),
        Shape(circle_polygon(center, radius * 0.86, 16), rgb, label=label),
        Shape(circle_polygon(glint, radius * 0.25, 8), shade(rgb, 1.35), label=label),
    ]


@dataclass(frozen=True)
class Seat:
    """A player's place at the table: colour, the zone in front of them and the way they face.

    ``facing`` is the angle (degrees, counter-clockwise, 0 = north) at which that player's own pieces lie so
    that they can read them: 270 on the west side (tops towards the east), 90 on the east side.
    """

    index: int
    colour: str
    rect: Rect
    facing: float

    @property
    def rgb(self) -> RGB:
        return SEAT_RGB[self.colour]

    @property
    def zone(self) -> Zone:
        return Zone(f"seat:{self.colour}", rect_polygon(self.rect))

    def slots(self, pitch_x: float, pitch_y: float, margin: float = 6.0) -> list[Point]:
        """Places for the player's pieces in the zone, in the order they are filled: rows across the zone
        from the player's side outwards (so the first pieces lie nearest the player)."""
        x0, y0, x1, y1 = self.rect
        columns = max(1, int((x1 - x0 - 2 * margin) // pitch_x))
        rows = max(1, int((y1 - y0 - 2 * margin) // pitch_y))
        left = x0 + (x1 - x0 - columns * pitch_x) / 2.0 + pitch_x / 2.0
        top = y0 + (y1 - y0 - rows * pitch_y) / 2.0 + pitch_y / 2.0
        order_x = range(columns) if self.facing != 90.0 else range(columns - 1, -1, -1)
        # West-side players sit at x0: fill columns from x0 outwards; east-side players from x1 inwards.
        return [(left + c * pitch_x, top + r * pitch_y) for c in order_x for r in range(rows)]


def seats_around(
    count: int,
    colours: Sequence[str] = SEAT_COLOURS,
    width: float = TABLE_WIDTH,
    height: float = TABLE_HEIGHT,
    strip: float = SEAT_STRIP,
) -> tuple[Seat, ...]:
    """``count`` seats, clockwise: the first half up the west side (from the south), the rest down the
    east side (from the north). Each seat's zone is a rectangle in its strip."""
    if not 1 <= count <= len(colours):
        raise ValueError(f"{count} seats, but {len(colours)} colours")
    west = (count + 1) // 2
    east = count - west
    seats: list[Seat] = []
    top, bottom = MARKER_CLEARANCE, height - MARKER_CLEARANCE
    for i in range(west):
        y1 = bottom - i * (bottom - top) / west
        y0 = bottom - (i + 1) * (bottom - top) / west
        seats.append(Seat(len(seats), colours[len(seats)], (8.0, y0 + 4.0, strip, y1 - 4.0), 270.0))
    for i in range(east):
        y0 = top + i * (bottom - top) / east
        y1 = top + (i + 1) * (bottom - top) / east
        seats.append(
            Seat(len(seats), colours[len(seats)], (width - strip, y0 + 4.0, width - 8.0, y1 - 4.0), 90.0)
        )
    return tuple(seats)


@dataclass(frozen=True)
class SeatedLayout:
    """What the layouts with seats around a ``width`` x ``height`` mm table share: ``seats`` players in
    ``colours``, their zones in strips ``seat_strip`` mm wide along the west and east edges."""

    seats: int = 4
    colours: tuple[str, ...] = SEAT_COLOURS
    width: float = TABLE_WIDTH
    height: float = TABLE_HEIGHT
    seat_strip: float = SEAT_STRIP

    @property
    def seat_places(self) -> tuple[Seat, ...]:
        return seats_around(self.seats, self.colours, self.width, self.height, self.seat_strip)

    def empty_table(self, players: Sequence[str], felt: RGB, sketch: bool = False) -> Scene:
        """The bare table for ``players``: felt and the corner markers (a layout is made for a seat count).
        ``sketch``: a scene for comparing only, whose shapes are dropped (:class:`Sketch`)."""
        if self.seats != len(players):
            raise ValueError(f"layout has {self.seats} seats, the game {len(players)} players")
        scene = Scene.with_corner_markers(self.width, self.height)
        scene.background = felt
        if sketch:
            scene.shapes = Sketch()
        return scene


def keep_places(pieces: Sequence[str], count: int, previous: Mapping[str, int]) -> dict[int, str]:
    """Which of ``count`` places each of a holder's ``pieces`` takes: a piece keeps its ``previous``
    place while that place exists and no earlier piece kept it; the others take the first free places in
    order; pieces beyond the places are left out (stacked out of sight). Place index -> piece."""
    taken: dict[int, str] = {}
    for piece in pieces:
        index = previous.get(piece)
        if index is not None and index < count and index not in taken:
            taken[index] = piece
    placed = set(taken.values())
    free = (i for i in range(count) if i not in taken)
    for piece in pieces:
        if piece not in placed:
            index = next(free, None)
            if index is None:
                continue
            taken[index] = piece
            placed.add(piece)
    return taken


class StableIds:
    """Hands out ids from a pool to keys and remembers them, so the same physical piece keeps its printed
    id from frame to frame (a face-down tile's back id must not change while it lies still).

    Keys first seen together are served in sorted order, so a fresh instance is deterministic too.
    """

    def __init__(self, pool: Sequence[str]) -> None:
        self._pool = list(pool)
        self._given: dict[object, str] = {}

    def get(self, key: object) -> str:
        if key not in self._given:
            used = set(self._given.values())
            free = [candidate for candidate in self._pool if candidate not in used]
            if not free:
                raise ValueError(f"no id left in a pool of {len(self._pool)} for {key!r}")
            self._given[key] = free[0]
        return self._given[key]

    def __deepcopy__(self, memo: dict[int, Any]) -> StableIds:
        copied = StableIds(())
        copied._pool = self._pool  # never changed after construction
        copied._given = dict(self._given)  # keys and ids are immutable
        return copied

    def holders(self) -> list[object]:
        """Keys holding an id now."""
        return list(self._given)

    def release(self, key: object) -> None:
        """The piece left the table (into a hand or the box): its id may be reused by another key."""
        self._given.pop(key, None)


def chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class TableAreaError(ValueError):
    """A table area a game's layout cannot be laid out on (says what does not fit)."""


def recentred(layout: Any, width: float, height: float, points: Sequence[str] = (),
              rects: Sequence[str] = ()) -> Any:
    """``layout`` on a ``width`` x ``height`` area: the seats along its edges, the named middle pieces
    (``points``, ``rects``: field names) moved with the area's centre; their sizes stay (tiles do not
    shrink). Check the result with :func:`check_fit`."""
    dx, dy = (width - layout.width) / 2.0, (height - layout.height) / 2.0
    moved: dict[str, Any] = {"width": width, "height": height}
    for name in points:
        x, y = getattr(layout, name)
        moved[name] = (x + dx, y + dy)
    for name in rects:
        x0, y0, x1, y1 = getattr(layout, name)
        moved[name] = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    return replace(layout, **moved)


def check_fit(zones: Sequence[Zone], width: float, height: float, title: str) -> None:
    """TableAreaError unless every zone lies on the area and no seat overlaps the play's zones."""
    def box(zone: Zone) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
        return (min(xs), min(ys), max(xs), max(ys))

    for zone in zones:
        x0, y0, x1, y1 = box(zone)
        if x0 < -1.0 or y0 < -1.0 or x1 > width + 1.0 or y1 > height + 1.0:
            raise TableAreaError(f"the {title} {zone.name} zone needs {x1 - x0:.0f} x {y1 - y0:.0f} mm: it "
                                 f"does not fit on {width:.0f} x {height:.0f} mm")
    import cv2
    import numpy as np

    def shape(zone: Zone) -> Any:
        return cv2.convexHull(np.asarray(zone.polygon, dtype=np.float32))

    seats = [shape(z) for z in zones if z.name.startswith("seat:")]
    for zone in zones:
        if zone.name.startswith("seat:"):
            continue
        for seat in seats:  # zones are convex: their overlap is what a piece could be taken for
            overlap, _ = cv2.intersectConvexConvex(shape(zone), seat)
            if overlap > 150.0:  # more than a corner grazing a seat: room for a piece there
                raise TableAreaError(f"on {width:.0f} x {height:.0f} mm the {title} {zone.name} zone runs "
                                     "into a seat: make the area wider")


def narrowest_fit(layout: Any, zones_of: Any, width: float, height: float, title: str) -> Any:
    """``layout`` with its seat strips narrowed (down to 200 mm, about two tiles deep) until its zones fit
    the area (:func:`check_fit`); the widest-strip error when none does."""
    first: TableAreaError | None = None
    for strip in sorted({layout.seat_strip, *range(200, int(layout.seat_strip), 15)}, reverse=True):
        candidate = replace(layout, seat_strip=float(strip))
        try:
            check_fit(zones_of(candidate), width, height, title)
        except TableAreaError as error:
            first = first or error
            continue
        return candidate
    raise first or TableAreaError(f"the {title} layout does not fit {width:.0f} x {height:.0f} mm")
