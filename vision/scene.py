"""What lies on the table, in table millimetres: the contract between renderer, vision and the games.

A :class:`Scene` is the ground truth of one moment at the table. The synthetic renderer draws a scene into a
camera frame; the vision pipeline reads a frame back into an :class:`vision.observation.Observation`, which
tests compare with the scene. Per-game table layouts (``companion.tables``) build scenes from engine states.

Coordinates: x grows to the right (east) and y downwards (south, towards the camera's bottom edge) on the
table plane, in millimetres, origin at the top-left calibration marker's centre. Angles are in degrees,
counter-clockwise as seen from above, 0 meaning the tag's top edge faces north (negative y).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from wire.seats import SEAT_COLOURS as SEAT_COLOURS  # re-exported: vision's callers read it here
from wire.seats import SEAT_SHADES

RGB = tuple[int, int, int]
Point = tuple[float, float]

#: Seat colours in seat order with their nominal RGB (the house palette, :mod:`wire.seats`); also the
#: chisel, camp, box and LED colours. The renderer paints pieces in them; the colour model starts from them
#: before it learns.
SEAT_RGB: Mapping[str, RGB] = SEAT_SHADES

#: OpenCV ArUco dictionary of the calibration markers (``cv2.aruco.DICT_4X4_50``), ids 0..3 at the corners
#: of the table area clockwise from top-left.
CALIBRATION_DICTIONARY = "DICT_4X4_50"
CALIBRATION_MARKER_IDS = (0, 1, 2, 3)
DEFAULT_MARKER_SIZE_MM = 40.0


@dataclass(frozen=True)
class Marker:
    """One calibration marker: ArUco id, centre on the table and side length (black border included)."""

    marker_id: int
    center: Point
    size: float = DEFAULT_MARKER_SIZE_MM


@dataclass(frozen=True)
class Tag:
    """A printed QR tag on a component. ``size`` is the side of the code itself (quiet zone excluded)."""

    payload: str
    center: Point
    angle: float = 0.0
    size: float = 12.0


@dataclass(frozen=True)
class Shape:
    """A flat coloured piece of card: tile backgrounds, boards, zones, tokens. Polygon in mm."""

    polygon: tuple[Point, ...]
    fill: RGB
    outline: RGB | None = None
    label: str = ""


@dataclass(frozen=True)
class Peg:
    """A small coloured piece seen from above as a disc: chisel pegs, camps, boxes, figures' bases.

    ``colour`` is the seat colour name (``"red"``), ``rgb`` how it is painted, ``height`` lets the renderer
    stack pieces (Isla Nublar camps: the top of a stack is what the camera sees).
    """

    center: Point
    colour: str
    rgb: RGB
    radius: float = 4.0
    height: int = 1
    label: str = ""


@dataclass(frozen=True)
class Zone:
    """A named region of the table: ``"play"``, ``"seat:<colour>"`` (what lies there belongs to that
    player), ``"reveal"``, ``"box"``. Zones are drawn as faint outlines and used to assign what is seen."""

    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        """Even-odd ray casting; points on the boundary may fall either way."""
        x, y = point
        inside = False
        count = len(self.polygon)
        for index in range(count):
            x1, y1 = self.polygon[index]
            x2, y2 = self.polygon[(index + 1) % count]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


@dataclass(frozen=True)
class Occluder:
    """Something over the table that is not part of the game: a hand or an arm. Polygon in mm."""

    polygon: tuple[Point, ...]
    rgb: RGB = (196, 150, 120)


@dataclass
class Scene:
    """Everything on the table at one moment, drawn bottom to top: shapes, tags, pegs, occluders."""

    width: float
    height: float
    markers: list[Marker] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)
    pegs: list[Peg] = field(default_factory=list)
    occluders: list[Occluder] = field(default_factory=list)
    zones: list[Zone] = field(default_factory=list)
    background: RGB = (58, 92, 64)
    #: how far the cards (tiles, boards) and their stickers lie above the markers' plane, in mm
    card_mm: float = 0.0

    def zone_at(self, point: Point) -> str | None:
        """The name of the first zone containing ``point`` (None when outside every zone)."""
        for zone in self.zones:
            if zone.contains(point):
                return zone.name
        return None

    @classmethod
    def with_corner_markers(cls, width: float, height: float, size: float = DEFAULT_MARKER_SIZE_MM) -> Scene:
        """An empty table of ``width`` x ``height`` mm with the four markers at its corners."""
        corners = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        markers = [Marker(mid, corner, size) for mid, corner in zip(CALIBRATION_MARKER_IDS, corners)]
        return cls(width=width, height=height, markers=markers)
