"""Jurassik at the table: the excavation grid in the middle, players' tiles in their seat zones, the reveal
spot and the box south of the grid.

Geometry: square tiles of ``tile_side`` mm on a grid of ``pitch`` mm, centred on ``grid_center``; row 0 is the
northern row, column 0 the western column (the engine's ``(row, col)``). Every tile carries a QR tag of
``tag_size`` mm at its centre, at angle 0 on the grid and turned to face its owner in a seat zone.

What is drawn for each grid token: a dinosaur tile skeleton side up (``DT1:JK:D3-2``, bone coloured, a
coloured band naming the dinosaur), a face-down action tile (dark, its opaque back id), a revealed Rock
(``ROCK-n``), the start tile (``START``). A player's loose tiles lie skeleton side up in their zone; a
complete dinosaur lies on its living side (``D3-1L``..``D3-4L``). During the reveal phase
the taken action tile lies on the reveal spot: face down, or showing ``reveal`` (e.g. ``"STEAL-2"``) when
the caller says what was turned up. Tiles in the box are out of sight.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kits.jurassik.tags import CODE, printed
from companion.kits.tabletop import (
    Rect,
    Seat,
    SeatedLayout,
    StableIds,
    add_shadows,
    offset,
    rect_polygon,
    rotate,
    shade,
    square,
)
from vision.scene import Marker, Point, Scene, Shape, Tag, Zone
from vision.tags import payload

FELT = (52, 88, 62)
MAT = (64, 104, 74)
SKELETON = (226, 216, 190)
LIVING = (150, 196, 120)
ACTION_BACK = (70, 78, 110)
ACTION_FRONT = (236, 226, 200)
ROCK_FRONT = (150, 150, 146)
START_RGB = (232, 190, 70)
BOX_RGB = (120, 84, 52)
#: A band colour per dinosaur (1..10), printed along the top edge of its tiles.
DINO_RGB: tuple[tuple[int, int, int], ...] = (
    (176, 60, 48),
    (60, 110, 170),
    (70, 140, 70),
    (200, 150, 40),
    (120, 70, 150),
    (200, 100, 40),
    (60, 150, 150),
    (150, 60, 110),
    (110, 110, 60),
    (90, 90, 90),
)


@dataclass(frozen=True)
class JurassikLayout(SeatedLayout):
    """Where Jurassik lies on a ``width`` x ``height`` mm table for ``seats`` players."""

    pitch: float = 60.0
    tile_side: float = 56.0
    tag_size: float = 40.0
    grid_center: Point = (640.0, 290.0)
    reveal_spot: Rect = (520.0, 566.0, 610.0, 656.0)
    box: Rect = (660.0, 560.0, 900.0, 690.0)

    def cell_center(self, row: int, col: int, rows: int, cols: int) -> Point:
        """Table mm of the centre of grid cell ``(row, col)`` on a ``rows`` x ``cols`` grid."""
        cx, cy = self.grid_center
        return (cx + (col - (cols - 1) / 2.0) * self.pitch, cy + (row - (rows - 1) / 2.0) * self.pitch)

    def cell_at(self, point: Point, rows: int, cols: int) -> tuple[int, int] | None:
        """The grid cell under ``point`` (table mm), or None off the grid."""
        cx, cy = self.grid_center
        col = round((point[0] - cx) / self.pitch + (cols - 1) / 2.0)
        row = round((point[1] - cy) / self.pitch + (rows - 1) / 2.0)
        if 0 <= row < rows and 0 <= col < cols:
            return (row, col)
        return None

    def grid_rect(self, rows: int, cols: int) -> Rect:
        cx, cy = self.grid_center
        half_w, half_h = cols * self.pitch / 2.0 + 10.0, rows * self.pitch / 2.0 + 10.0
        return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)

    def zones(self, rows: int = 8, cols: int = 8) -> list[Zone]:
        zones = [Zone("play", rect_polygon(self.grid_rect(rows, cols)))]
        zones += [seat.zone for seat in self.seat_places]
        zones += [Zone("reveal", rect_polygon(self.reveal_spot)), Zone("box", rect_polygon(self.box))]
        return zones

    @property
    def reveal_center(self) -> Point:
        x0, y0, x1, y1 = self.reveal_spot
        return ((x0 + x1) / 2.0, (y0 + y1) / 2.0)


@dataclass
class JurassikIds:
    """The printed ids the table shows for pieces the engine only knows by kind: the back id of each
    face-down action tile (by cell) and the number of each revealed Rock (by cell). Keep one per game so
    ids stay put from frame to frame."""

    backs: StableIds = field(default_factory=lambda: StableIds(printed().backs("action")))
    rocks: StableIds = field(default_factory=lambda: StableIds([f"ROCK-{n}" for n in range(1, 13)]))


def _tile(
    scene: Scene,
    center: Point,
    side: float,
    tag_id: str,
    tag_size: float,
    fill: Any,
    angle: float,
    band: Any = None,
) -> None:
    scene.shapes.append(Shape(square(center, side, angle), fill, shade(fill, 0.6), label=tag_id))
    if band is not None:
        # A band along the tile's top edge (its "north" as printed), turning with the tile.
        inner = side / 2.0 - 2.0
        depth = (side - tag_size * 25.0 / 21.0) / 2.0 - 1.0
        corners = [(-inner, -inner), (inner, -inner), (inner, -inner + depth), (-inner, -inner + depth)]
        scene.shapes.append(Shape(tuple(offset(center, rotate(c, angle)) for c in corners), band))
    scene.tags.append(Tag(payload(CODE, tag_id), center, angle % 360.0, tag_size))


def _dino_number(tile: str) -> int:
    return int(tile[1 : tile.index("-")])


def seat_arrangement(
    seat: Seat, pitch: float, hand: Sequence[str], complete: set[int]
) -> list[tuple[str, Any, Point]]:
    """Where a player's tiles lie: each complete dinosaur as its 2x2 puzzle on the living side (pieces 1-2
    in the column nearer the player, 3-4 beyond), then the loose tiles skeleton side up in the free places.
    Tiles that find no place lie stacked out of sight (not returned)."""
    slots = seat.slots(pitch, pitch)
    _, y0, _, y1 = seat.rect
    rows = max(1, int((y1 - y0 - 12.0) // pitch))  # as Seat.slots counts them (6 mm margins)
    columns = len(slots) // rows
    grid = [[slots[c * rows + r] for r in range(rows)] for c in range(columns)]  # [column from player][row]
    free = {(c, r) for c in range(columns) for r in range(rows)}
    placed: list[tuple[str, Any, Point]] = []
    by_dinosaur: dict[int, list[str]] = {}
    for tile in sorted(hand, key=lambda t: (_dino_number(t), t)):
        by_dinosaur.setdefault(_dino_number(tile), []).append(tile)
    loose: list[str] = []
    for dinosaur, tiles in sorted(by_dinosaur.items()):
        if dinosaur not in complete or len(tiles) != 4:
            loose += tiles
            continue
        block = next(
            (
                (c, r)
                for c in range(columns - 1)
                for r in range(rows - 1)
                if {(c, r), (c, r + 1), (c + 1, r), (c + 1, r + 1)} <= free
            ),
            None,
        )
        if block is None:
            loose += [t + "L" for t in tiles]
            continue
        c, r = block
        for tile, (dc, dr) in zip(sorted(tiles), ((0, 0), (0, 1), (1, 0), (1, 1))):
            free.discard((c + dc, r + dr))
            placed.append((tile + "L", LIVING, grid[c + dc][r + dr]))
    order = sorted(free)
    for tile, (c, r) in zip(loose, order):
        fill = LIVING if tile.endswith("L") else SKELETON
        placed.append((tile, fill, grid[c][r]))
    return placed


def scene_for(
    state: Any,
    layout: JurassikLayout | None = None,
    *,
    ids: JurassikIds | None = None,
    reveal: str | None = None,
) -> Scene:
    """The table of a :class:`engines.jurassik.JurassikState` as the camera would see it."""
    rows, cols = int(state.rows), int(state.cols)
    players: Sequence[str] = state.players
    layout = layout or JurassikLayout(seats=len(players))
    ids = ids or JurassikIds()
    scene = layout.empty_table(players, FELT)
    scene.markers = [Marker(m.marker_id, m.center, m.size) for m in scene.markers]
    scene.zones = layout.zones(rows, cols)
    scene.shapes.append(Shape(rect_polygon(layout.grid_rect(rows, cols)), MAT, shade(MAT, 0.8)))
    scene.shapes.append(
        Shape(rect_polygon(layout.reveal_spot), shade(MAT, 1.2), (230, 230, 220), label="reveal")
    )
    scene.shapes.append(Shape(rect_polygon(layout.box), BOX_RGB, shade(BOX_RGB, 0.6), label="box"))

    pieces_from = len(scene.shapes)
    reveal_cell = state.reveal_cell if state.phase == "reveal" else None
    for index, token in enumerate(state.cells):
        row, col = divmod(index, cols)
        center = layout.cell_center(row, col, rows, cols)
        if token is None:
            ids.backs.release(index)
            ids.rocks.release(index)
            continue
        if token == "?":
            back = ids.backs.get(index)
            if index == reveal_cell:
                ids.backs.release(index)
                if reveal is not None:
                    _tile(
                        scene,
                        layout.reveal_center,
                        layout.tile_side,
                        reveal,
                        layout.tag_size,
                        ACTION_FRONT,
                        0.0,
                    )
                else:
                    _tile(
                        scene, layout.reveal_center, layout.tile_side, back, layout.tag_size, ACTION_BACK, 0.0
                    )
                continue
            _tile(scene, center, layout.tile_side, back, layout.tag_size, ACTION_BACK, 0.0)
        elif token == "ROCK":
            ids.backs.release(index)
            _tile(scene, center, layout.tile_side, ids.rocks.get(index), layout.tag_size, ROCK_FRONT, 0.0)
        elif token == "START":
            ids.backs.release(index)  # a state of another deal may have had a face-down tile here
            _tile(scene, center, layout.tile_side, "START", layout.tag_size, START_RGB, 0.0)
        else:
            ids.backs.release(index)
            band = DINO_RGB[(_dino_number(token) - 1) % len(DINO_RGB)]
            _tile(scene, center, layout.tile_side, token, layout.tag_size, SKELETON, 0.0, band)

    complete_of = {name: set(state.complete_dinosaurs(name)) for name in players}
    for seat, name in zip(layout.seat_places, players):
        for tile, fill, center in seat_arrangement(seat, layout.pitch, state.hands[name], complete_of[name]):
            band = DINO_RGB[(_dino_number(tile) - 1) % len(DINO_RGB)]
            _tile(scene, center, layout.tile_side, tile, layout.tag_size, fill, seat.facing, band)
    add_shadows(scene, pieces_from)
    return scene
