"""Jurassic World: Return to Isla Nublar at the table: the island board in the middle (turned a quarter so
its long north-south axis runs along the table), one seat zone per player along the west and east edges.

Geometry: the engine's board gives each field's centre in pitches (flat-top hexes in columns, x east and y
south on the board). On the table a field's centre is ``board_center + R(board_angle) * pitch * (p - c)``
with ``c`` the middle of the fields' extent; with the default ``board_angle`` 90 the board's north (the
volcanoes) points to the table's west. The corner tags ``BOARD-NW``, ``BOARD-NE``, ``BOARD-SE``,
``BOARD-SW`` sit at the board's corners, their tops facing the board's north.

Pieces are found by colour, not tags: camps are pegs of ``camp_radius`` at a field's
centre, ``height`` = the stack, coloured by the top camp's owner; equipment boxes are smaller pegs on a ring
round the centre, one per box, in their owners' colours. Dinosaur figures carry tags ``DINO-1``..``DINO-4`` on
round bases; a figure off the island waits in the "dinosaur pen" south-east of the board. A figure on a
field covers whatever else lies there. Figures sharing a field stand side by side round its centre, their
codes (with quiet zones) clear of every other figure's (``figure_places``); a piece their bases or codes
spill over on a neighbouring field is hidden from the camera and left out of the scene's pegs.
Each player's personal supply (camps and boxes) lies in their seat zone, the general supply's camps in
the zone "general" north of the board. Only the pieces on the board
are scene ``pegs`` (what the camera reads); supplies are drawn alike but as scenery.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.kits.isla_nublar.tags import CODE, copies_of_cards
from companion.kits.tabletop import (
    SEAT_RGB,
    Rect,
    Seat,
    SeatedLayout,
    Sketch,
    add_shadows,
    circle_polygon,
    offset,
    piece_shapes,
    rect_polygon,
    rotate,
    shade,
    square,
)
from engines.isla_nublar.components import default_cards
from vision.scene import RGB, Peg, Point, Scene, Shape, Tag, Zone
from vision.tags import payload

SQRT3 = math.sqrt(3.0)
#: the buy piles, by the price of their cards
PILES = tuple(sorted(default_cards().piles))
SEA = (70, 96, 116)
#: Printed landscapes, muted like board art so that the saturated camps and boxes stand out on them.
LANDSCAPE_RGB: dict[str | None, RGB] = {
    "park": (150, 166, 128),
    "mountain": (140, 134, 126),
    "forest": (96, 120, 98),
    "plain": (176, 170, 138),
    "lake": (118, 142, 162),
    None: (110, 92, 88),  # volcano
}
RIVER_RGB = (112, 138, 170)
FIGURE_RGB = (92, 84, 74)
FELT = (52, 80, 66)
#: card faces differ in their art: each card's face takes one of these tones (a card moved along the
#: scoring row changes the picture even where its neighbour's sticker looks alike from afar)
#: (blues, greens and greys: nothing a hand could be taken for)
CARD_TONES: tuple[RGB, ...] = ((218, 226, 232), (120, 170, 120), (110, 140, 200), (100, 170, 170),
                               (170, 160, 220), (130, 130, 140), (80, 110, 90), (190, 210, 240))
CORNERS = ("NW", "NE", "SE", "SW")
#: the renderer's quiet zone round a code, in modules (sim.render.QUIET_ZONE_MODULES)
QUIET_ZONE_MODULES = 2


@dataclass(frozen=True)
class IslaNublarLayout(SeatedLayout):
    """Where Isla Nublar lies on a ``width`` x ``height`` mm table for ``seats`` players."""

    pitch: float = 66.0
    board_center: Point = (640.0, 360.0)
    board_angle: float = 90.0
    tag_size: float = 40.0
    camp_radius: float = 9.0
    box_radius: float = 5.0
    seat_strip: float = 225.0
    #: the corner tags' centres lie this many pitches outside the fields' extent; the board's edge farther
    corner_margin: float = 0.95
    board_margin: float = 1.3
    #: the sticker on a card; cards laid face up lie this far apart in the seat's inner columns
    card_tag_size: float = 36.0
    card_pitch: float = 50.0
    #: the buy piles' tops and the scoring row lie face up in a row along the south edge, this far apart
    market_pitch: float = 52.0

    # -- board <-> table ---------------------------------------------------------------------------------
    def _middle(self, board: Any) -> Point:
        x0, y0, x1, y1 = board.extent()
        return ((x0 + x1) / 2.0, (y0 + y1) / 2.0)

    def board_to_mm(self, board: Any, point: Point) -> Point:
        """A point in board pitches (as :meth:`Board.centre` gives) -> table mm."""
        cx, cy = self._middle(board)
        vector = ((point[0] - cx) * self.pitch, (point[1] - cy) * self.pitch)
        return offset(self.board_center, rotate(vector, self.board_angle))

    def mm_to_board(self, board: Any, point: Point) -> Point:
        cx, cy = self._middle(board)
        x, y = rotate((point[0] - self.board_center[0], point[1] - self.board_center[1]), -self.board_angle)
        return (x / self.pitch + cx, y / self.pitch + cy)

    def field_center(self, board: Any, field_id: str) -> Point:
        return self.field_centres(board)[field_id]

    def field_centres(self, board: Any) -> dict[str, Point]:
        """Every field's centre in table mm (kept per board: every scene asks for them)."""
        kept = self.__dict__.setdefault("_centres", {})
        entry = kept.get(id(board))
        if entry is None or entry[0] is not board:
            entry = (board, {f: self.board_to_mm(board, board.centre(f)) for f in board.fields})
            kept[id(board)] = entry
        centres: dict[str, Point] = entry[1]
        return centres

    def field_at(self, board: Any, point: Point) -> str | None:
        """The field under a table point (within half a pitch of its centre), or None."""
        x, y = self.mm_to_board(board, point)
        found: str | None = board.field_at(x, y)
        return found

    def corner_at(self, board: Any, point: Point) -> str | None:
        """The corner ("NE") whose sticker's place ``point`` is, or None."""
        return next((name for name, corner in self.board_corners(board).items()
                     if math.dist(point, corner) < 1.0), None)

    def field_near(self, board: Any, point: Point) -> str | None:
        """The field a place on the board names: the one under it, or for a corner sticker's place the
        corner field nearest to it; None elsewhere."""
        found = self.field_at(board, point)
        if found is not None or self.corner_at(board, point) is None:
            return found
        centres = self.field_centres(board)
        return min(centres, key=lambda field_id: math.dist(point, centres[field_id]))

    def field_hexagon(self, board: Any, field_id: str, shrink: float = 1.5) -> tuple[Point, ...]:
        center = self.field_center(board, field_id)
        radius = self.pitch / SQRT3 - shrink
        return tuple(
            offset(
                center,
                rotate(
                    (radius * math.cos(math.radians(60 * i)), radius * math.sin(math.radians(60 * i))),
                    self.board_angle,
                ),
            )
            for i in range(6)
        )

    def board_corners(self, board: Any) -> dict[str, Point]:
        """Table mm of the corner tags' centres (outside the fields' extent, inside the board)."""
        x0, y0, x1, y1 = board.extent()
        margin = self.corner_margin
        where = {
            "NW": (x0 - margin, y0 - margin),
            "NE": (x1 + margin, y0 - margin),
            "SE": (x1 + margin, y1 + margin),
            "SW": (x0 - margin, y1 + margin),
        }
        return {name: self.board_to_mm(board, p) for name, p in where.items()}

    def board_polygon(self, board: Any) -> tuple[Point, ...]:
        x0, y0, x1, y1 = board.extent()
        margin = self.board_margin
        corners = [
            (x0 - margin, y0 - margin),
            (x1 + margin, y0 - margin),
            (x1 + margin, y1 + margin),
            (x0 - margin, y1 + margin),
        ]
        return tuple(self.board_to_mm(board, p) for p in corners)

    def box_spots(self, board: Any, field_id: str) -> list[Point]:
        """Six places for equipment boxes on a ring round the field's centre (kept per board and field:
        every scene inference draws asks again)."""
        kept = self.__dict__.setdefault("_box_spots", {})
        key = (id(board), field_id)
        entry = kept.get(key)
        if entry is None or entry[0] is not board:
            center = self.field_center(board, field_id)
            ring = self.pitch * 0.30
            spots = [offset(center, rotate(_polar(ring, 30.0 + 60.0 * i), self.board_angle))
                     for i in range(6)]
            entry = kept[key] = (board, spots)
        return list(entry[1])

    # -- dinosaur figures ---------------------------------------------------------------------------------
    @property
    def figure_radius(self) -> float:
        return self.pitch / 2.0 - 5.0

    @property
    def figure_clearance(self) -> float:
        """How far apart two figures' tag centres must stand (the codes with their quiet zones, and a
        little play): figures sharing a field stand side by side at least this far apart."""
        return self.tag_size * (21 + 2 * QUIET_ZONE_MODULES) / 21.0 + 3.0

    def figure_places(self, state: Any) -> dict[str, Point]:
        """Where each dinosaur figure stands (table mm), in figure order.

        A figure alone on its field stands at the field's centre; a figure off the island waits in the pen.
        Figures sharing a field (the rules allow any number; they gather at the ends of the columns that
        stop in an upper area) stand side by side round the field's centre, in the most compact arrangement
        whose tags keep clear of every other figure's tag, so the camera reads every code."""
        board = state.board
        px0, py0, _, py1 = self.pen
        places: dict[str, Point] = {}
        sharing: dict[str, list[str]] = {}
        for index, (figure, field_id) in enumerate(sorted(state.dinos.items())):
            if field_id is None:
                places[figure] = (px0 + 28.0 + 52.0 * index, (py0 + py1) / 2.0)
            else:
                sharing.setdefault(field_id, []).append(figure)
        for field_id, crowd in sharing.items():
            if len(crowd) == 1:
                places[crowd[0]] = self.field_center(board, field_id)
        clear = self.figure_clearance
        standing = set(sharing)
        for field_id, crowd in sorted(sharing.items()):
            if len(crowd) == 1:
                continue
            center = self.field_center(board, field_id)
            others = list(places.values())
            pieces = [
                piece
                for piece in self._pieces(state, standing)
                if math.dist(piece[0], center) < 2.0 * self.pitch
            ]
            best: list[Point] = []
            best_cost = (math.inf, math.inf, math.inf)
            # the compact arrangements first, then the same shifted away from a neighbour in the way
            # (another figure's code first, then the pieces the crowd would hide: a hidden box may look
            # as if it had been placed anew when it is moved away)
            for shift in _SHIFTS:
                for arrangement in _crowd_arrangements(len(crowd), clear / 2.0):
                    spots = [
                        offset(center, rotate((x + shift[0] * clear, y + shift[1] * clear), self.board_angle))
                        for x, y in arrangement
                    ]
                    clashes = sum(1 for a in spots for b in others if _chebyshev(a, b) < clear)
                    hidden = sum(1 for point, radius in pieces if self.hidden_by_figure(point, radius, spots))
                    cost = (clashes, hidden, max(math.dist(center, spot) for spot in spots))
                    if cost < best_cost:
                        best, best_cost = spots, cost
            places.update(zip(crowd, best))
        return dict(sorted(places.items()))

    def _pieces(self, state: Any, standing: set[str]) -> list[tuple[Point, float]]:
        """Where the camps and boxes on fields without a figure stand (centre, radius)."""
        board = state.board
        found: list[tuple[Point, float]] = []
        for field_id in set(state.camps) | set(state.boxes):
            if field_id in standing:
                continue
            if state.camps.get(field_id):
                found.append((self.field_center(board, field_id), self.camp_radius))
            count = sum(state.boxes.get(field_id, {}).values())
            found += [(spot, self.box_radius) for spot in self.box_spots(board, field_id)[:count]]
        return found

    def covered_fields(self, board: Any, places: dict[str, Point]) -> set[str]:
        """Fields a figure stands on: the field nearest each figure on the island (the detector does not
        look for pieces there)."""
        fields: set[str] = set()
        for center in places.values():
            # within half a pitch of a centre is that field's (the nearest); elsewhere search them all
            nearest = self.field_at(board, center) or min(
                board.fields, key=lambda f: math.dist(self.field_center(board, f), center))
            if math.dist(self.field_center(board, nearest), center) <= 0.6 * self.pitch:
                fields.add(nearest)
        return fields

    def hidden_by_figure(
        self, point: Point, radius: float, places: Mapping[str, Point] | Sequence[Point]
    ) -> bool:
        """Whether a piece of ``radius`` at ``point`` lies (even partly) under a figure's base or tag."""
        half = self.figure_clearance / 2.0
        for center in places.values() if isinstance(places, Mapping) else places:
            if math.dist(point, center) < self.figure_radius + radius:
                return True
            dx = max(abs(point[0] - center[0]) - half, 0.0)
            dy = max(abs(point[1] - center[1]) - half, 0.0)
            if math.hypot(dx, dy) < radius * 1.1:
                return True
        return False

    def card_places(self, seat: Seat) -> list[Point]:
        """Where a player's cards laid face up lie: two columns on the board's side of the seat (the
        supplies lie on the player's side), filled from the player's near end."""
        x0, y0, x1, y1 = seat.rect
        inner = x1 if seat.facing == 270.0 else x0
        inward = -1.0 if seat.facing == 270.0 else 1.0
        half = self.card_pitch / 2.0
        columns = [inner + inward * (half + 2.0), inner + inward * (3 * half + 2.0)]
        rows = int((y1 - y0 - 8.0) // self.card_pitch)
        top = y0 + (y1 - y0 - rows * self.card_pitch) / 2.0 + half
        return [(x, top + r * self.card_pitch) for r in range(rows) for x in columns]

    # -- zones ---------------------------------------------------------------------------------------------
    @property
    def general(self) -> Rect:
        return (self.seat_strip + 20.0, 12.0, self.width - self.seat_strip - 20.0, 60.0)

    @property
    def pen(self) -> Rect:
        """Where dinosaur figures off the island stand."""
        return (
            self.width - self.seat_strip - 230.0,
            self.height - 62.0,
            self.width - self.seat_strip - 20.0,
            self.height - 8.0,
        )

    @property
    def market(self) -> Rect:
        """Where the buy piles and the scoring row lie, west of the dinosaur pen."""
        return (self.seat_strip + 20.0, self.height - 80.0, self.width - self.seat_strip - 240.0,
                self.height - 4.0)

    def pile_places(self, piles: Sequence[int]) -> dict[int, Point]:
        """Each buy pile's place (its top card face up on it), cheapest first from the west."""
        x0, y0, _, y1 = self.market
        half = self.market_pitch / 2.0
        middle = (y0 + y1) / 2.0
        return {pile: (x0 + half + i * self.market_pitch, middle) for i, pile in enumerate(sorted(piles))}

    def row_places(self, slots: int = 5) -> list[Point]:
        """The scoring row's slots east of the buy piles (the first three are the active ones)."""
        x0, y0, _, y1 = self.market
        start = x0 + self.market_pitch * (len(PILES) + 0.5) + 16.0
        return [(start + i * self.market_pitch, (y0 + y1) / 2.0) for i in range(slots)]

    def zones(self, board: Any) -> list[Zone]:
        zones = [Zone("play", self.board_polygon(board))]
        zones += [seat.zone for seat in self.seat_places]
        zones += [Zone("general", rect_polygon(self.general)), Zone("box", rect_polygon(self.pen))]
        # a place of its own for each pile's top and each scoring slot: a card moved from one to the next
        # (a scoring card sent to the back of the row) is a change the camera reports
        half = self.market_pitch / 2.0 - 1.0
        places = [*((f"pile:{k}", at) for k, at in self.pile_places(PILES).items()),
                  *((f"row:{i}", at) for i, at in enumerate(self.row_places()))]
        zones += [Zone(name, rect_polygon((x - half, y - 36.0, x + half, y + 36.0)))
                  for name, (x, y) in places]
        return zones


#: shifts of a crowd's arrangement (in figure clearances), smallest first
_SHIFTS: tuple[Point, ...] = tuple(
    sorted(
        ((dx / 6.0, dy / 6.0) for dx in range(-3, 4) for dy in range(-3, 4)),
        key=lambda v: (math.hypot(*v), v),
    )
)


def _chebyshev(a: Point, b: Point) -> float:
    """Tags lie square to the table: two codes overlap when both coordinates are closer than a tag."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _crowd_arrangements(count: int, half: float) -> list[list[Point]]:
    """Offsets (board frame: x across the columns, y along them) for ``count`` figures on one field, each
    pair ``2 * half`` apart on some axis, most compact first."""
    if count == 2:
        pairs: list[list[Point]] = [
            [(0.0, -half), (0.0, half)],
            [(-half, 0.0), (half, 0.0)],
            [(-half, -half), (half, half)],
            [(-half, half), (half, -half)],
        ]
        return pairs
    if count == 3:
        return [
            [(-half, -half), (half, -half), (0.0, half)],
            [(-half, half), (half, half), (0.0, -half)],
            [(-half, -half), (-half, half), (half, 0.0)],
            [(half, -half), (half, half), (-half, 0.0)],
        ]
    square = [(dx, dy) for dy in (-half, half) for dx in (-half, half)]
    along = [(0.0, 2.0 * half * (i - (count - 1) / 2.0)) for i in range(count)]
    across = [(y, x) for x, y in along]
    return [square, along, across] if count == 4 else [along, across]


def _polar(radius: float, angle: float) -> Point:
    radians = math.radians(angle)
    return (radius * math.cos(radians), -radius * math.sin(radians))


def _stack_peg(center: Point, colour: str, height: int, radius: float, label: str) -> Peg:
    return Peg(center, colour, SEAT_RGB[colour], radius, height, label)


def _lay_card(scene: Scene, layout: IslaNublarLayout, card_id: str, place: Point, facing: float,
              used: dict[str, int]) -> None:
    """One card face up: its pale face and one of its copies' stickers no other card in sight uses."""
    stickers = copies_of_cards().get(card_id, ())
    index = used.get(card_id, 0)
    if index >= len(stickers):
        return  # more copies in sight than stickers printed: the rest are not told apart
    used[card_id] = index + 1
    if not isinstance(scene.shapes, Sketch):
        card = rect_polygon((place[0] - 23.0, place[1] - 23.0, place[0] + 23.0, place[1] + 23.0))
        tone = CARD_TONES[sum(map(ord, card_id)) % len(CARD_TONES)]
        scene.shapes.append(Shape(card, tone, shade(tone, 0.7), f"card {card_id}"))
    scene.tags.append(Tag(payload(CODE, stickers[index]), place, facing, layout.card_tag_size))


def _lay_market(scene: Scene, state: Any, layout: IslaNublarLayout, used: dict[str, int]) -> None:
    """The buy piles' tops and the scoring row, face up where the layout keeps them."""
    for pile, place in layout.pile_places(list(state.piles)).items():
        top = state.piles[pile]["top"]
        if top is not None:
            _lay_card(scene, layout, top, place, 0.0, used)
    for card_id, place in zip(state.row, layout.row_places(len(state.row))):
        if card_id is not None:
            _lay_card(scene, layout, card_id, place, 0.0, used)


def _lay_played_cards(scene: Scene, state: Any, layout: IslaNublarLayout, used: dict[str, int]) -> None:
    """The cards each player has laid face up this turn, in their seat's card places (copies of a card are
    alike to the camera's reading); a seat whose cards the engine deals (the companion's) plays them on the
    page only."""
    dealt = set(state.options.get("dealt_seats") or ())
    for seat, player in zip(layout.seat_places, state.players):
        if player in dealt:
            continue
        played = state.zones[player]["played"]
        places = iter(layout.card_places(seat))
        for card_id in sorted(played):
            for _ in range(played[card_id]):
                place = next(places, None)
                if place is None:
                    break  # more cards than places: the rest lie overlapped, out of the camera's sight
                _lay_card(scene, layout, card_id, place, seat.facing, used)


def scene_for(state: Any, layout: IslaNublarLayout | None = None, sketch: bool = False) -> Scene:
    """The table of an :class:`engines.isla_nublar.IslaNublarState` as the camera would see it
    (``sketch``: tags, pegs and zones only, for inference)."""
    board = state.board
    players: Sequence[str] = state.players
    layout = layout or IslaNublarLayout(seats=len(players))
    colour_of = dict(zip(players, layout.colours))
    scene = layout.empty_table(players, FELT, sketch)
    scene.zones = layout.zones(board)
    scene.shapes.append(Shape(layout.board_polygon(board), SEA, shade(SEA, 0.6), "island board"))
    for field_id, field in {} if sketch else board.fields.items():
        fill = LANDSCAPE_RGB.get(field.landscape, LANDSCAPE_RGB[None])
        fill = shade(fill, 1.0 + 0.05 * (field.area - 2))
        scene.shapes.append(Shape(layout.field_hexagon(board, field_id), fill, shade(fill, 0.7), field_id))
        if field.river:
            center = layout.field_center(board, field_id)
            stripe = [
                (-layout.pitch * 0.4, -3.0),
                (layout.pitch * 0.4, -3.0),
                (layout.pitch * 0.4, 3.0),
                (-layout.pitch * 0.4, 3.0),
            ]
            turned = [offset(center, rotate(rotate(p, 30.0), layout.board_angle)) for p in stripe]
            scene.shapes.append(Shape(tuple(turned), RIVER_RGB))
    for name, center in layout.board_corners(board).items():
        scene.shapes.append(
            Shape(square(center, layout.tag_size * 25.0 / 21.0 + 6.0, layout.board_angle), (240, 240, 236))
        )
        scene.tags.append(
            Tag(payload(CODE, f"BOARD-{name}"), center, layout.board_angle % 360.0, layout.tag_size)
        )
    scene.shapes.append(Shape(rect_polygon(layout.general), shade(FELT, 1.15), shade(FELT, 1.4), "general"))
    scene.shapes.append(Shape(rect_polygon(layout.pen), shade(FELT, 0.8), shade(FELT, 1.3), "pen"))

    pieces_from = len(scene.shapes)
    places = layout.figure_places(state)
    covered = layout.covered_fields(board, places)
    for field_id in board.fields:
        stack = state.camps.get(field_id, [])
        pegs = []
        if stack:
            top = colour_of[stack[-1]]
            center = layout.field_center(board, field_id)
            pegs.append(_stack_peg(center, top, len(stack), layout.camp_radius, f"camp {field_id}"))
        spots = iter(layout.box_spots(board, field_id))
        for owner, count in sorted(state.boxes.get(field_id, {}).items()):
            for _ in range(count):
                spot = next(spots, None)
                if spot is not None:
                    pegs.append(_stack_peg(spot, colour_of[owner], 1, layout.box_radius, f"box {field_id}"))
        if field_id in covered:
            continue  # a figure stands there: the camera cannot see what lies under its base
        # a piece a crowded figure's base or tag spills over is hidden too
        scene.pegs += [peg for peg in pegs if not layout.hidden_by_figure(peg.center, peg.radius, places)]

    for figure, center in places.items():
        if not sketch:
            scene.shapes.append(
                Shape(circle_polygon(center, layout.figure_radius, 36), FIGURE_RGB, shade(FIGURE_RGB, 0.6),
                      figure)
            )
        scene.tags.append(Tag(payload(CODE, figure), center, layout.board_angle % 360.0, layout.tag_size))

    used: dict[str, int] = {}
    _lay_market(scene, state, layout, used)
    _lay_played_cards(scene, state, layout, used)
    if sketch:
        return scene
    for seat, player in zip(layout.seat_places, players):
        colour = seat.colour
        x0, y0, x1, y1 = seat.rect
        near = x0 + 16.0 if seat.facing == 270.0 else x1 - 16.0
        step = 22.0 if seat.facing == 270.0 else -22.0
        for i in range(int(state.personal[player]["camps"])):
            place = (near + step * (i % 5), y0 + 20.0 + 22.0 * (i // 5))
            scene.shapes += piece_shapes(place, layout.camp_radius, SEAT_RGB[colour], "camp supply")
        for i in range(int(state.personal[player]["boxes"])):
            place = (near + step * 0.7 * (i % 6), y1 - 16.0 - 16.0 * (i // 6))
            scene.shapes += piece_shapes(place, layout.box_radius, SEAT_RGB[colour], "box supply")
    gx0, gy0, _, gy1 = layout.general
    index = 0
    for player in players:
        for _ in range(int(state.general[player]["camps"])):
            place = (gx0 + 20.0 + 24.0 * index, (gy0 + gy1) / 2.0)
            scene.shapes += piece_shapes(
                place, layout.camp_radius, SEAT_RGB[colour_of[player]], "camp general"
            )
            index += 1
    add_shadows(scene, pieces_from)
    return scene
