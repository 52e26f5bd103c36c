"""Known tables for vision tests and the benchmark: scenes whose ground truth is simple to state.

:func:`jp_slab_scene` lays out a Jurassic Parts slab directly (pointy-top hex tiles, tags at angle 60*rho,
chisels on gap midpoints) without going through an engine state, so reading accuracy can be measured on
any number of tiles and pegs (game layouts proper are the kits'). :func:`colour_card_scene` is the card of
seat colours a calibration learns from.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engines.jurassic_parts.board import DIRECTIONS
from engines.jurassic_parts.game import JurassicPartsGame
from vision.scene import SEAT_RGB, Peg, Point, Scene, Shape, Tag, Zone
from vision.tags import payload

if TYPE_CHECKING:
    from vision.pegs import ColourModel

SQRT3 = math.sqrt(3.0)
TILE_RGB = (214, 196, 150)
EDGE_RGB = (120, 100, 70)
FELT_RGB = (52, 88, 62)


@dataclass
class SlabTruth:
    """What a slab scene holds: tile id -> (cell, rotation), gap key -> chisel colour, back tiles."""

    cells: dict[str, tuple[int, int]] = field(default_factory=dict)
    rotations: dict[str, int] = field(default_factory=dict)
    pegs: dict[str, str] = field(default_factory=dict)
    origin: Point = (0.0, 0.0)
    pitch: float = 0.0


def hex_center(origin: Point, pitch: float, q: int, r: int) -> Point:
    return (origin[0] + pitch * (q + r / 2.0), origin[1] + pitch * SQRT3 / 2.0 * r)


def hex_polygon(center: Point, pitch: float, inset: float = 0.0) -> tuple[Point, ...]:
    """Pointy-top hexagon of centre-to-centre ``pitch`` (circumradius pitch/sqrt(3)), shrunk by ``inset``."""
    radius = pitch / SQRT3 - inset
    return tuple(
        (
            center[0] + radius * math.cos(math.radians(30 + 60 * k)),
            center[1] - radius * math.sin(math.radians(30 + 60 * k)),
        )
        for k in range(6)
    )


def slab_cells(count: int, rng: random.Random, width: int = 9) -> list[tuple[int, int]]:
    """``count`` cells of a compact slab: rows of ``width`` in axial coords, a ragged last row."""
    cells: list[tuple[int, int]] = []
    row = 0
    while len(cells) < count:
        shift = -(row // 2)
        for column in range(width):
            if len(cells) < count:
                cells.append((column + shift, row))
        row += 1
    return cells


def jp_slab_scene(
    tiles: int = 58,
    pegs: int = 40,
    seed: int = 0,
    pitch: float = 90.0,
    tag_size: float = 52.0,
    width: float = 1280.0,
    height: float = 720.0,
    colours: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange"),
    backs: int = 4,
    back_of: Mapping[str, str] | None = None,
) -> tuple[Scene, SlabTruth]:
    """A Jurassic Parts slab of ``tiles`` tiles centred on the table, ``pegs`` chisels on random gaps and
    ``backs`` tiles face down, each showing the opaque back printed on its front's other side (``back_of``:
    the printed set's pairing, front id -> back id; needed when ``backs`` > 0)."""
    if backs and back_of is None:
        raise ValueError("face-down tiles need the printed set's back_of")
    rng = random.Random(seed)
    scene = Scene.with_corner_markers(width, height)
    scene.background = FELT_RGB
    cells = slab_cells(tiles, rng)
    xs = [q + r / 2.0 for q, r in cells]
    ys = [SQRT3 / 2.0 * r for _, r in cells]
    origin = (
        width / 2.0 - pitch * (min(xs) + max(xs)) / 2.0,
        height / 2.0 - pitch * (min(ys) + max(ys)) / 2.0,
    )
    truth = SlabTruth(origin=origin, pitch=pitch)
    scene.zones.append(
        Zone(
            "play",
            (
                (width * 0.13, 20.0),
                (width * 0.87, 20.0),
                (width * 0.87, height - 20.0),
                (width * 0.13, height - 20.0),
            ),
        )
    )
    scene.zones.append(
        Zone(
            "seat:red",
            ((30.0, 50.0), (width * 0.13 - 5, 50.0), (width * 0.13 - 5, height - 50), (30.0, height - 50)),
        )
    )
    face_down = set(rng.sample(range(tiles), min(backs, tiles)))
    for index, (q, r) in enumerate(cells):
        center = hex_center(origin, pitch, q, r)
        rho = rng.randrange(6)
        front_id = f"F{index + 1:02d}"
        tile_id = back_of[front_id] if back_of is not None and index in face_down else front_id
        scene.shapes.append(Shape(hex_polygon(center, pitch, 0.8), TILE_RGB, EDGE_RGB))
        tag = payload(JurassicPartsGame.code, tile_id)
        scene.tags.append(Tag(tag, center, (60.0 * rho) % 360.0, tag_size))
        truth.cells[tile_id] = (q, r)
        truth.rotations[tile_id] = rho
    present = set(cells)
    gaps = sorted(
        {
            tuple(sorted(((q, r), (q + dq, r + dr))))
            for q, r in cells
            for dq, dr in DIRECTIONS
            if (q + dq, r + dr) in present
        }
    )
    for a, b in rng.sample(gaps, min(pegs, len(gaps))):
        colour = rng.choice(colours)
        pa, pb = hex_center(origin, pitch, *a), hex_center(origin, pitch, *b)
        scene.pegs.append(
            Peg(((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2), colour, SEAT_RGB[colour], radius=5.0)
        )
        truth.pegs[f"{a[0]},{a[1]}|{b[0]},{b[1]}"] = colour
    return scene, truth


def colour_card_scene(
    width: float = 1280.0, height: float = 720.0, radius: float = 5.0
) -> tuple[Scene, dict[str, list[Point]]]:
    """The calibration view: the markers and each seat's pieces laid out in a row of the seat zone area,
    on a tile-coloured card and on the felt (what ``companion calibrate`` learns colours from)."""
    scene = Scene.with_corner_markers(width, height)
    scene.background = FELT_RGB
    samples: dict[str, list[Point]] = {}
    for row, y in enumerate((300.0, 420.0)):
        if row == 0:
            scene.shapes.append(
                Shape(
                    ((300.0, y - 40), (980.0, y - 40), (980.0, y + 40), (300.0, y + 40)), TILE_RGB, EDGE_RGB
                )
            )
        for index, (name, rgb) in enumerate(SEAT_RGB.items()):
            point = (360.0 + index * 110.0, y)
            scene.pegs.append(Peg(point, name, rgb, radius=radius))
            samples.setdefault(name, []).append(point)
    return scene, samples


def colours_from_card(camera: Any, effects: Any, rng: int = 3, radius: float = 3.0,
                      lighting: Any = None) -> ColourModel:
    """A :class:`vision.pegs.ColourModel` learned as ``companion calibrate`` does: the colour card
    (:func:`colour_card_scene`) rendered by ``camera`` with ``effects`` (and ``lighting``: a
    :class:`sim.light.Lighting`), calibrated from its markers, each seat's colour sampled ``radius`` px
    around its pieces."""
    from sim.render import render
    from vision import calibration as cal
    from vision.colour_learning import learn_from_pieces

    card, samples = colour_card_scene()
    frame = render(card, camera, effects, rng=rng, lighting=lighting)
    calibration = cal.calibrate(frame.image, cal.corner_layout(card.width, card.height))
    height = 0.0 if lighting is None else float(lighting.piece_mm)
    eye = calibration.viewpoint
    if height > 0 and eye is not None:  # a standing piece shows at its foot and at its top
        samples = {name: [*points, *(tuple(p) for p in eye.apparent(points, 0.9 * height))]
                   for name, points in samples.items()}
    return learn_from_pieces(
        frame.image, {name: list(calibration.to_pixels(points)) for name, points in samples.items()}, radius,
        standing=height > 0 and eye is not None,
    )


def add_clutter(scene: Scene, seed: int, count: int = 14) -> None:
    """What lies about a real table besides the game: papers, a box lid, a phone, dice, a mug's ring,
    placed where no tag, peg or marker lies (drawn under the pieces, as scenery)."""
    rng = random.Random(seed)
    keep_clear = [(t.center, t.size * 0.9 + 25.0) for t in scene.tags]
    keep_clear += [(p.center, p.radius + 20.0) for p in scene.pegs]
    keep_clear += [(m.center, m.size + 30.0) for m in scene.markers]
    colours = [(245, 245, 240), (30, 30, 35), (200, 40, 40), (40, 90, 200), (230, 200, 60), (250, 250, 250)]
    placed = 0
    for _ in range(count * 40):
        if placed >= count:
            break
        w, h = rng.uniform(25, 160), rng.uniform(25, 110)
        cx, cy = rng.uniform(0, scene.width), rng.uniform(0, scene.height)
        reach = math.hypot(w, h) / 2
        if any(math.dist((cx, cy), c) < r + reach for c, r in keep_clear):
            continue
        angle = math.radians(rng.uniform(0, 180))
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        cos, sin = math.cos(angle), math.sin(angle)
        polygon = tuple((cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in corners)
        scene.shapes.append(Shape(polygon, rng.choice(colours), (20, 20, 20), "clutter"))
        keep_clear.append(((cx, cy), reach))
        placed += 1
