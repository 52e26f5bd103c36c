"""Jurassic Parts at the table: the hex slab in the middle, seats along the west and east edges, the Field
Leader's area north of the slab, the box and the amber supply south of it.

Slab geometry: pointy-top hexes, axial ``(q, r)``, centre of ``(q, r)`` =
``slab_origin + pitch * (q + r/2, sqrt(3)/2 * r)``; edge/direction ``k`` counter-clockwise from east
(E, NE, NW, W, SW, SE). A tile turned ``rho`` sixth turns carries its tag at ``60 * rho`` degrees; direction
``k`` is rocky iff ``rocks[(k - rho) % 6]``; a chisel stands at the midpoint of the two tiles' centres.

Sizes: ``pitch`` 66 mm (centre to centre) leaves room for a 40 mm QR code (47.6 mm with its quiet zone)
inside each hex; on the default 1280 x 720 mm table a 2304 x 1296 camera straight above gets about 1.6
pixels per mm, so 3.05 pixels per QR module (see docs/rendering.md for tilted cameras).

What is drawn: slab tiles as sand-coloured hexes (face up: the front tag ``F07`` and a coloured fossil
glyph near the tile's top corner; face down: a dark stone back with its printed back id) with grey bands on
their rocky edges; chisels as pegs in the owners' colours at gap midpoints; in each seat zone the player's
tiles (face up, turned towards them), their sharp and dull chisels in two rows along their edge and their
amber; the Field Leader's tiles north of the slab; the amber supply beside the box south of it.
Only the chisels on the slab are scene ``pegs`` (what the camera reads); spare chisels in the seats are
drawn alike but as scenery.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.kits.jurassic_parts.identities import JurassicPartsIds, printed_back, printed_tiles
from companion.kits.jurassic_parts.tags import CODE
from companion.kits.tabletop import (
    SEAT_RGB,
    Rect,
    Seat,
    SeatedLayout,
    add_shadows,
    is_sketch,
    offset,
    piece_shapes,
    rect_polygon,
    rotate,
    shade,
)
from engines.jurassic_parts import components
from engines.jurassic_parts.board import DIRECTIONS, Layout
from vision.scene import RGB, Peg, Point, Scene, Shape, Tag, Zone
from vision.tags import payload

SQRT3 = math.sqrt(3.0)

FELT = (48, 84, 60)
FRONT_RGB = (214, 196, 158)
BACK_RGB = (126, 104, 82)
ROCK_RGB = (120, 120, 116)
BOX_RGB = (118, 82, 50)
LEADER_RGB = (60, 98, 72)
AMBER_RGB = (226, 150, 30)
#: The coloured glyph printed on a front by fossil family (the name before any "-n").
GLYPH_RGB: dict[str, RGB] = {
    "BRACHIO": (80, 140, 80),
    "TREX": (170, 60, 45),
    "TRICERA": (205, 130, 40),
    "RAPTOR": (115, 75, 150),
    "PTERO": (60, 110, 175),
    "PLANT": (40, 130, 40),
    "BONES": (245, 242, 230),
}


@dataclass(frozen=True)
class JurassicPartsLayout(SeatedLayout):
    """Where Jurassic Parts lies on a ``width`` x ``height`` mm table for ``seats`` players."""

    pitch: float = 66.0
    tag_size: float = 40.0
    slab_origin: Point = (640.0, 352.0)
    chisel_radius: float = 4.0
    #: a chisel stands this tall in its gap (the camera sees its top beside its foot)
    chisel_height: float = 25.0
    #: the tiles' thickness with their stickers: the codes lie this far above the markers' plane
    card_mm: float = 4.15
    field_leader: Rect = (340.0, 8.0, 940.0, 250.0)
    box: Rect = (700.0, 640.0, 935.0, 712.0)
    supply: Rect = (345.0, 640.0, 560.0, 712.0)

    @classmethod
    def for_table(cls, seats: int, width: float, height: float, **fields: Any) -> JurassicPartsLayout:
        """The same arrangement on a ``width`` x ``height`` mm table: slab in the middle, the Field
        Leader's band north of it, supply and box south of it, seat strips taking the rest of the width."""
        cx = width / 2.0
        origin = (cx, height / 2.0 - 8.0)
        return cls(
            seats=seats,
            width=width,
            height=height,
            slab_origin=origin,
            field_leader=(cx - 300.0, 8.0, cx + 300.0, origin[1] - 102.0),
            box=(cx + 60.0, height - 80.0, cx + 295.0, height - 8.0),
            supply=(cx - 295.0, height - 80.0, cx - 80.0, height - 8.0),
            seat_strip=(width - 620.0) / 2.0,
            **fields,
        )

    @classmethod
    def roomy(cls, seats: int) -> JurassicPartsLayout:
        """A 1440 x 810 mm table: with 5-6 players each seat holds 14 tiles instead of 11, at the cost of
        pixels per QR module (about 2.75 for a 2304 x 1296 camera straight above instead of 3.05)."""
        return cls.for_table(seats, 1440.0, 810.0)

    # -- the slab lattice ---------------------------------------------------------------------------------
    @property
    def hex_radius(self) -> float:
        """Circumradius of a drawn tile: a hair under pitch/sqrt(3), so neighbours show a thin gap."""
        return self.pitch / SQRT3 - 1.2

    def axial_to_mm(self, q: float, r: float) -> Point:
        """Centre of slab cell ``(q, r)`` in table mm."""
        ox, oy = self.slab_origin
        return (ox + self.pitch * (q + r / 2.0), oy + self.pitch * (SQRT3 / 2.0) * r)

    def mm_to_axial_fraction(self, point: Point) -> tuple[float, float]:
        """Fractional axial coordinates of a table point (the inverse of :meth:`axial_to_mm`)."""
        ox, oy = self.slab_origin
        r = (point[1] - oy) / (self.pitch * SQRT3 / 2.0)
        q = (point[0] - ox) / self.pitch - r / 2.0
        return (q, r)

    def mm_to_axial(self, point: Point) -> tuple[int, int]:
        """The slab cell whose hexagon contains ``point`` (cube rounding)."""
        q, r = self.mm_to_axial_fraction(point)
        return hex_round(q, r)

    def gap_midpoint(self, a: tuple[int, int], b: tuple[int, int]) -> Point:
        """Where a chisel stands between neighbouring cells ``a`` and ``b`` (ValueError if not neighbours)."""
        if (b[0] - a[0], b[1] - a[1]) not in DIRECTIONS:
            raise ValueError(f"cells {a} and {b} are not neighbours")
        (ax, ay), (bx, by) = self.axial_to_mm(*a), self.axial_to_mm(*b)
        return ((ax + bx) / 2.0, (ay + by) / 2.0)

    def hexagon(self, center: Point, radius: float | None = None) -> tuple[Point, ...]:
        """A pointy-top hexagon's corners (counter-clockwise from the one at 30 degrees)."""
        radius = self.hex_radius if radius is None else radius
        return tuple(offset(center, _polar(radius, 30.0 + 60.0 * i)) for i in range(6))

    def slab_places(self, slab: Layout) -> tuple[list[Point], list[tuple[Point, str]]]:
        """Each slot's centre and each gap's chisel place with its label, for one slab (kept: every
        hypothesis inference draws asks again)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_slab_places", {})
        if slab.fingerprint not in cache:
            if len(cache) > 16:
                cache.clear()
            centres = [self.axial_to_mm(*cell) for cell in slab.cells]
            chisels = [
                (self.gap_midpoint(slab.cells[a], slab.cells[b]), f"chisel {slab.cells[a]}|{slab.cells[b]}")
                for a, b in slab.gaps
            ]
            cache[slab.fingerprint] = (centres, chisels)
        places: tuple[list[Point], list[tuple[Point, str]]] = cache[slab.fingerprint]
        return places

    # -- zones --------------------------------------------------------------------------------------------
    def slab_rect(self) -> Rect:
        ox, oy = self.slab_origin
        half_w = 4.5 * self.pitch + 8.0
        half_h = 4.0 * self.pitch * SQRT3 / 2.0 + self.pitch / SQRT3 + 8.0
        return (ox - half_w, oy - half_h, ox + half_w, oy + half_h)

    def slab_polygon(self) -> tuple[Point, ...]:
        """The play zone: a large flat-topped hexagon around a radius-4 slab (the default 58-tile blob)."""
        radius = 4.0 * self.pitch + self.pitch / SQRT3 + 10.0
        return tuple(offset(self.slab_origin, _polar(radius, 60.0 * i)) for i in range(6))

    def field_leader_polygon(self) -> tuple[Point, ...]:
        """The Field Leader's area: the band north of the slab and the two pockets beside its top corners."""
        x0, y0, x1, y1 = self.field_leader
        hexagon = self.slab_polygon()
        east, north_east, north_west, west = hexagon[0], hexagon[1], hexagon[2], hexagon[3]

        def along(a: Point, b: Point, y: float) -> float:
            return a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1])

        return (
            (x0, y0),
            (x1, y0),
            (x1, y1),
            (along(north_east, east, y1), y1),
            north_east,
            north_west,
            (along(north_west, west, y1), y1),
            (x0, y1),
        )

    def field_leader_slots(self) -> list[Point]:
        """Places for the Field Leader's tiles: a honeycomb over the area, keeping every tile whose hexagon
        lies wholly inside it (the band north of the slab first, then the pockets), filled row by row."""
        kept = self.__dict__.get("_leader_slots")
        if kept is not None:  # a frozen layout: computed once, asked for by every scene
            return list(kept)
        area = Zone("field-leader", self.field_leader_polygon())
        x0, y0, x1, y1 = self.field_leader
        across = self.pitch
        down = across * SQRT3 / 2.0
        radius = self.hex_radius + 0.2
        slots: list[Point] = []
        row = 0
        y = y0 + radius
        while y + radius <= y1 + 0.5:
            x = x0 + across / 2.0 + (across / 2.0 if row % 2 else 0.0)
            while x + across / 2.0 <= x1 + 0.5:
                # The play zone reaches 10 mm past the slab's tiles: a Field Leader tile may touch its line.
                if all(area.contains(corner) for corner in self.hexagon((x, y), radius * 0.9)):
                    slots.append((x, y))
                x += across
            y += down
            row += 1
        self.__dict__["_leader_slots"] = tuple(slots)
        return slots

    def zones(self) -> list[Zone]:
        cached: list[Zone] | None = self.__dict__.get("_zones")
        if cached is None:
            cached = self.__dict__["_zones"] = self._zones()
        return list(cached)

    def _zones(self) -> list[Zone]:
        zones = [Zone("play", self.slab_polygon())]
        zones += [seat.zone for seat in self.seat_places]
        zones += [Zone("field-leader", self.field_leader_polygon()), Zone("box", rect_polygon(self.box))]
        zones.append(Zone("supply", rect_polygon(self.supply)))
        return zones

    def seat_tile_angle(self, seat: Seat) -> float:
        """Hex tiles only lie flush at multiples of 60 degrees: a player's tiles are turned to the multiple
        nearest to facing them, 30 degrees past it (300 on the west side, 120 on the east side)."""
        return (seat.facing + 30.0) % 360.0

    def seat_tile_slots(self, seat: Seat) -> list[Point]:
        """Where a player's tiles lie: honeycomb rows in the seat zone beside the chisel rows along the
        player's edge, filled from the player's side outwards."""
        cache: dict[tuple[Any, ...], list[Point]] = self.__dict__.setdefault("_seat_tile_slot_cache", {})
        key = (seat.rect, seat.facing)
        if key not in cache:
            cache[key] = self._seat_tile_slots(seat)
        return list(cache[key])

    def _seat_tile_slots(self, seat: Seat) -> list[Point]:
        x0, y0, x1, y1 = seat.rect
        strip = 34.0
        x0, x1 = (x0 + strip, x1) if seat.facing == 270.0 else (x0, x1 - strip)
        across = self.pitch + 2.0  # inradius-wise neighbours, a little apart
        down = across * SQRT3 / 2.0
        tall = self.hex_radius + 1.0
        rows = max(1, int((y1 - y0 - 2 * tall) // down) + 1)
        top = y0 + (y1 - y0 - (rows - 1) * down) / 2.0
        slots: list[tuple[float, Point]] = []
        for row in range(rows):
            shift = across / 2.0 if row % 2 else 0.0
            x = x0 + across / 2.0 + shift
            while x + across / 2.0 <= x1 + 0.5:
                distance = x - x0 if seat.facing == 270.0 else x1 - x
                slots.append((distance, (x, top + row * down)))
                x += across
        slots.sort(key=lambda item: (round(item[0], 3), item[1][1]))
        return [point for _, point in slots]

    def seat_chisel_slots(self, seat: Seat, row: int) -> list[Point]:
        """Row 0 (sharp chisels) nearest the player, row 1 (dull) next to it; 12 places each."""
        x0, y0, x1, y1 = seat.rect
        across = [8.0 + 13.0 * row, 8.0 + 13.0 * row]
        x = x0 + across[0] if seat.facing == 270.0 else x1 - across[1]
        spacing = min(13.0, (y1 - y0 - 40.0) / 12.0)
        return [(x, y0 + 10.0 + spacing * i) for i in range(12)]

    def seat_amber_slots(self, seat: Seat) -> list[Point]:
        """A column of amber beside the chisel rows (clear of the chisels and of the tiles)."""
        x0, y0, x1, y1 = seat.rect
        x = x0 + 30.0 if seat.facing == 270.0 else x1 - 30.0
        spacing = min(11.0, (y1 - y0 - 20.0) / 19.0)
        return [(x, y0 + 10.0 + spacing * i) for i in range(20)]


def hex_round(q: float, r: float) -> tuple[int, int]:
    """Nearest axial cell to fractional ``(q, r)`` (rounding in cube coordinates)."""
    x, z = q, r
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return (int(rx), int(rz))


def _polar(radius: float, angle: float) -> Point:
    """A vector of ``radius`` at ``angle`` degrees counter-clockwise from east (table y points south)."""
    radians = math.radians(angle)
    return (radius * math.cos(radians), -radius * math.sin(radians))


def fossil_family(fossil: str) -> str:
    return fossil.split("-")[0].split(":")[0]


def table_rocks(rocks: Sequence[bool], rotation: int) -> tuple[bool, ...]:
    """Rocky table directions of a tile whose side up lists ``rocks`` at rotation 0, turned ``rotation``."""
    return tuple(bool(rocks[(k - rotation) % 6]) for k in range(6))


# -- drawing ------------------------------------------------------------------------------------------------
def _draw_tile(
    scene: Scene,
    layout: JurassicPartsLayout,
    center: Point,
    angle: float,
    tag_id: str,
    face_up: bool,
    fossil: str | None,
    rocks: Sequence[bool],
    rotation: int,
) -> None:
    """A tile whose side up lists ``rocks`` at rotation 0, turned ``rotation`` sixth turns."""
    scene.tags.append(Tag(payload(CODE, tag_id), center, angle % 360.0, layout.tag_size))
    if is_sketch(scene):
        return
    rocky = table_rocks(rocks, rotation)
    fill = FRONT_RGB if face_up else BACK_RGB
    radius = layout.hex_radius
    scene.shapes.append(Shape(layout.hexagon(center, radius), fill, shade(fill, 0.55), label=tag_id))
    for k, rocky_edge in enumerate(rocky):
        if rocky_edge:
            scene.shapes.append(Shape(_edge_band(center, radius, k, 5.0), ROCK_RGB, shade(ROCK_RGB, 0.8)))
    if face_up and fossil is not None:
        glyph_at = offset(center, rotate((0.0, -(radius - 7.0)), angle))
        colour = GLYPH_RGB.get(fossil_family(fossil), (90, 90, 90))
        scene.shapes.append(
            Shape(_glyph(glyph_at, 4.2, angle, fossil_family(fossil)), colour, shade(colour, 0.6))
        )


def _edge_band(center: Point, radius: float, k: int, depth: float) -> tuple[Point, ...]:
    """The strip just inside the hex edge facing direction ``k``."""
    outer_a = offset(center, _polar(radius, 60.0 * k - 30.0))
    outer_b = offset(center, _polar(radius, 60.0 * k + 30.0))
    shrink = (radius - depth * 2.0 / SQRT3) / radius
    inner_a = offset(center, _polar(radius * shrink, 60.0 * k - 30.0))
    inner_b = offset(center, _polar(radius * shrink, 60.0 * k + 30.0))
    return (outer_a, outer_b, inner_b, inner_a)


def _glyph(center: Point, size: float, angle: float, family: str) -> tuple[Point, ...]:
    """A tiny emblem: a triangle for dinosaurs, a diamond for plants and pterodactyls, a disc for bones."""
    if family in ("BRACHIO", "TREX", "TRICERA", "RAPTOR"):
        points = [(0.0, -size), (size, size * 0.8), (-size, size * 0.8)]
    elif family in ("PLANT", "PTERO"):
        points = [(0.0, -size), (size, 0.0), (0.0, size), (-size, 0.0)]
    else:
        points = [_polar(size, 30.0 * i) for i in range(12)]
    return tuple(offset(center, rotate(p, angle)) for p in points)


def _peg(center: Point, colour: str, radius: float, label: str) -> Peg:
    return Peg(center, colour, SEAT_RGB[colour], radius, 1, label)


def scene_for(
    state: Any, layout: JurassicPartsLayout | None = None, *, ids: JurassicPartsIds | None = None,
    sketch: bool = False,
) -> Scene:
    """The table of a :class:`engines.jurassic_parts.state.JurassicPartsState` as the camera would see it
    (``sketch``: tags, pegs and zones only, for inference)."""
    comps = components
    players: Sequence[str] = state.players
    layout = layout or JurassicPartsLayout(seats=len(players))
    ids = ids or JurassicPartsIds()
    scene = layout.empty_table(players, FELT, sketch)
    scene.card_mm = layout.card_mm
    scene.zones = layout.zones()
    if not sketch:
        scene.shapes.append(
            Shape(layout.field_leader_polygon(), LEADER_RGB, shade(LEADER_RGB, 0.8), "field leader")
        )
        scene.shapes.append(Shape(rect_polygon(layout.box), BOX_RGB, shade(BOX_RGB, 0.6), "box"))
        scene.shapes.append(
            Shape(rect_polygon(layout.supply), shade(FELT, 1.15), shade(FELT, 1.4), "supply")
        )

    pieces_from = len(scene.shapes)
    slab = state.layout
    centres, chisel_places = layout.slab_places(slab)
    pool = set(state.pool)
    printed = printed_tiles(state, ids)
    for slot, center in enumerate(centres):
        if not (state.on_slab[slot] or slot in pool):
            continue
        rotation = int(slab.rotations[slot]) if slab.rotations is not None else 0
        kind = state.fossil[slot]
        base = slab.base_rocks[slot] if slab.base_rocks is not None else (False,) * 6
        if kind < 0:
            back = slab.backs[slot] if slab.backs is not None else None
            tag_id = printed_back(back, slot, ids)
            _draw_tile(scene, layout, center, 60.0 * rotation, tag_id, False, None, base, rotation)
            continue
        tile = printed.slab.get(slot)
        if tile is None:
            continue
        was_face_down = slab.backs is not None and slab.backs[slot] is not None
        comp = comps.COMPONENT_BY_ID[tile]
        if was_face_down:
            # Turned over about its north-south axis: the front lies at the mirrored rotation.
            rotation = (-rotation) % 6
        _draw_tile(scene, layout, center, 60.0 * rotation, tile, True, comp.fossil, comp.rocks, rotation)

    for (midpoint, label), owner in zip(chisel_places, state.owner):
        if owner >= 0:
            scene.pegs.append(_peg(midpoint, layout.colours[owner], layout.chisel_radius, label))

    held = printed.held
    for p, (seat, name) in enumerate(zip(layout.seat_places, players)):
        angle = layout.seat_tile_angle(seat)
        for tile, slot_center in ids.places(name, held.get(name, []), layout.seat_tile_slots(seat)):
            comp = comps.COMPONENT_BY_ID[tile]
            _draw_tile(
                scene,
                layout,
                slot_center,
                angle,
                tile,
                True,
                comp.fossil,
                comp.rocks,
                round(angle / 60.0) % 6,
            )
        if sketch:
            continue
        for row, (count, label) in enumerate(((state.sharp[p], "sharp"), (state.dull[p], "dull"))):
            for place in layout.seat_chisel_slots(seat, row)[:count]:
                scene.shapes += piece_shapes(place, layout.chisel_radius, seat.rgb, f"{label} chisel")
        for place in layout.seat_amber_slots(seat)[: state.amber[p]]:
            scene.shapes.append(Shape(layout.hexagon(place, 4.5), AMBER_RGB, shade(AMBER_RGB, 0.7), "amber"))

    leader_slots = layout.field_leader_slots()
    for tile, place in ids.places("@leader", held.get("@leader", []), leader_slots):
        comp = comps.COMPONENT_BY_ID[tile]
        _draw_tile(scene, layout, place, 0.0, tile, True, comp.fossil, comp.rocks, 0)
    sx0, sy0, _, _ = layout.supply
    for i in range(0 if sketch else int(state.supply)):
        place = (sx0 + 12.0 + (i % 10) * 12.0, sy0 + 14.0 + (i // 10) * 12.0)
        scene.shapes.append(Shape(layout.hexagon(place, 5.0), AMBER_RGB, shade(AMBER_RGB, 0.7), "amber"))
    add_shadows(scene, pieces_from)
    return scene
