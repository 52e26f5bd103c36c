"""A room's light and the table's heights, for frames that are not flat pictures.

With a :class:`Lighting` the renderer stops drawing a flat photo: a warm lamp at a place over the table
lights it unevenly (its light falls off with distance and angle) over a dim neutral ceiling light; pieces
stand ``piece_mm`` tall, lit on the lamp's side and in their own shade on the other, and cast shadows
away from the lamp; glossy stickers reflect the lamp where the mirror angle sends it into the camera.
(Cards lie as high above the markers' plane as the scene says, lamp or none.)

Everything is drawn on the renderer's table-space canvas: a point ``z`` mm above the table is drawn where
the camera's ray through it meets the table (a homothety about the camera's foot), which the one
perspective warp to the frame then makes exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.scene import Point
from vision.viewpoint import Viewpoint

#: sides of the prism a standing piece is drawn as (a chisel's round-cornered square, a pawn's body)
PIECE_SIDES = 8


@dataclass(frozen=True)
class Lighting:
    """``lamp_mm``: the lamp's place (table x, y and its height above the table, mm); ``lamp_rgb``: its
    colour (warm: more red than blue); ``lamp_share``: how much of the light under the lamp's middle is
    the lamp's; ``ambient``: the ceiling's neutral light everywhere (what lights a shadow); ``gloss``:
    0..1, how strongly the stickers mirror the lamp; ``gloss_mm``: the size of that reflection on the
    table; ``piece_mm``: how tall a standing piece is (0: drawn flat); ``penumbra_mm``: how soft a
    shadow's edge is."""

    lamp_mm: tuple[float, float, float] = (200.0, -250.0, 800.0)
    lamp_rgb: tuple[float, float, float] = (1.0, 0.84, 0.62)
    lamp_share: float = 0.75
    ambient: float = 0.3
    gloss: float = 0.0
    gloss_mm: float = 35.0
    piece_mm: float = 25.0
    penumbra_mm: float = 1.5

    def __post_init__(self) -> None:
        if self.lamp_mm[2] <= self.piece_mm + 50.0:
            raise ValueError("the lamp must hang well above the pieces")
        if min(self.lamp_share, self.ambient, self.gloss, self.piece_mm) < 0:
            raise ValueError("light shares and heights must not be negative")


def lamp_gain(lighting: Lighting, xs: np.ndarray, ys: np.ndarray, middle: Point) -> np.ndarray:
    """The lamp's light on the table at (xs, ys) mm, 1.0 under ``middle`` (the table's middle): the
    cosine of its angle over the square of its distance."""
    lx, ly, lz = lighting.lamp_mm

    def irradiance(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        squared = (x - lx) ** 2 + (y - ly) ** 2 + lz * lz
        result: np.ndarray = lz / squared**1.5
        return result

    reference = float(irradiance(np.array(middle[0]), np.array(middle[1])))
    result: np.ndarray = irradiance(xs, ys) / reference
    return result


def gain_map(lighting: Lighting, shape: tuple[int, int], origin: Point, ppm: float, middle: Point,
             shadow: np.ndarray | None) -> np.ndarray:
    """Per-pixel BGR gain of the table-space canvas: ceiling light everywhere, the lamp's where no piece
    stands in its way (``shadow``: 0..1 per pixel, 1 fully shaded)."""
    height, width = shape
    step = 8  # the lamp's light is smooth: computed coarse, then enlarged
    ys, xs = np.mgrid[0:height:step, 0:width:step].astype(np.float64)
    coarse = lamp_gain(lighting, origin[0] + (xs + 0.5) / ppm, origin[1] + (ys + 0.5) / ppm, middle)
    lamp: np.ndarray = cv2.resize(coarse.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    if shadow is not None:
        lamp = lamp * (1.0 - shadow)
    lamp = lamp * np.float32(lighting.lamp_share)
    red, green, blue = lighting.lamp_rgb
    result: np.ndarray = cv2.merge([lighting.ambient + lamp * factor for factor in (blue, green, red)])
    return result


def prism(center: Point, radius: float) -> np.ndarray:
    """The footprint of a standing piece: a regular polygon of ``PIECE_SIDES`` corners."""
    angles = (np.arange(PIECE_SIDES) + 0.5) * (2 * math.pi / PIECE_SIDES)
    result: np.ndarray = np.column_stack([center[0] + radius * np.cos(angles),
                                          center[1] + radius * np.sin(angles)])
    return result


def shadow_polygon(lighting: Lighting, footprint: np.ndarray, base: float, top: float) -> np.ndarray:
    """The shadow a prism from ``base`` to ``top`` mm casts on the plane at ``base`` (the hull of its
    footprint and its top projected away from the lamp)."""
    lx, ly, lz = lighting.lamp_mm
    lamp = np.array([lx, ly])
    stretch = (lz - base) / (lz - top)
    tip = lamp + (footprint - lamp) * stretch
    hull: np.ndarray = cv2.convexHull(np.vstack([footprint, tip]).astype(np.float32)).reshape(-1, 2)
    return hull.astype(np.float64)


def face_light(lighting: Lighting, normal: tuple[float, float, float], at: Point, middle: Point,
               ceiling: float) -> np.ndarray:
    """BGR gain of a piece's face with this outward normal: the lamp's light by its angle, plus
    ``ceiling`` times the ambient light (a wall sees less of the ceiling than a top)."""
    lx, ly, lz = lighting.lamp_mm
    direction = np.array([lx - at[0], ly - at[1], lz])
    direction /= np.linalg.norm(direction)
    facing = max(0.0, float(np.dot(direction, normal)))
    strength = float(lamp_gain(lighting, np.array(at[0]), np.array(at[1]), middle)) / max(direction[2], 1e-6)
    lamp = lighting.lamp_share * strength * facing
    red, green, blue = lighting.lamp_rgb
    return np.array([lighting.ambient * ceiling + lamp * factor for factor in (blue, green, red)])


def mirror_point(lighting: Lighting, eye: Viewpoint, z: float) -> Point:
    """Where the plane ``z`` mm up reflects the lamp into the camera."""
    lx, ly, lz = lighting.lamp_mm
    up_lamp, up_eye = lz - z, eye.height - z
    weight = up_lamp / (up_lamp + up_eye)
    return (lx + (eye.foot[0] - lx) * weight, ly + (eye.foot[1] - ly) * weight)


class Canvas(Protocol):
    """The renderer's table-space canvas as light draws on it."""

    image: np.ndarray
    x0: float
    y0: float
    ppm: float

    def points(self, polygon: Sequence[Point] | np.ndarray) -> np.ndarray: ...

    def polygon(self, polygon: Sequence[Point], fill: tuple[int, int, int] | None,
                outline: tuple[int, int, int] | None = None, width: float = 1.0) -> None: ...


@dataclass(frozen=True)
class Standing:
    """A piece standing on the table: where, how wide, its colour (RGB)."""

    center: Point
    radius: float
    rgb: tuple[int, int, int]


def light_table(canvas: Canvas, lighting: Lighting, eye: Viewpoint, middle: Point, pieces: Sequence[Standing],
                stickers: Sequence[np.ndarray], card_mm: float) -> None:
    """Light what lies flat on ``canvas`` (shadows of ``pieces`` included), then let the ``stickers``
    (apparent outlines, table mm, ``card_mm`` up) mirror the lamp."""
    height, width = canvas.image.shape[:2]
    shadow = None
    if pieces and lighting.piece_mm > 0:
        mask = np.zeros((height, width), np.uint8)
        for piece in pieces:
            outline = shadow_polygon(lighting, prism(piece.center, piece.radius), 0.0, lighting.piece_mm)
            cv2.fillPoly(mask, [canvas.points(outline)], (255,), cv2.LINE_AA, 4)
        soft = max(0.5, lighting.penumbra_mm * canvas.ppm)
        shadow = cv2.GaussianBlur(mask, (0, 0), soft).astype(np.float32) / 255.0
    gain = gain_map(lighting, (height, width), (canvas.x0, canvas.y0), canvas.ppm, middle, shadow)
    canvas.image = cv2.multiply(canvas.image, gain, dtype=cv2.CV_8U)
    if lighting.gloss > 0 and stickers:
        _mirror_lamp(canvas, lighting, eye, stickers, card_mm)


def _mirror_lamp(canvas: Canvas, lighting: Lighting, eye: Viewpoint, stickers: Sequence[np.ndarray],
                 card_mm: float) -> None:
    """The lamp's reflection on glossy stickers: a soft bright lobe about the mirror point, on stickers
    only (the card and felt are matt)."""
    (mx, my), = eye.apparent([mirror_point(lighting, eye, card_mm)], card_mm)
    reach = 3.0 * lighting.gloss_mm
    height, width = canvas.image.shape[:2]
    x0 = max(0, int((mx - reach - canvas.x0) * canvas.ppm))
    x1 = min(width, int((mx + reach - canvas.x0) * canvas.ppm) + 1)
    y0 = max(0, int((my - reach - canvas.y0) * canvas.ppm))
    y1 = min(height, int((my + reach - canvas.y0) * canvas.ppm) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    offset = np.array([x0, y0]) * (1 << 4)
    for outline in stickers:
        cv2.fillPoly(mask, [canvas.points(outline) - offset], (1,), cv2.LINE_AA, 4)
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    xs, ys = canvas.x0 + (xs + 0.5) / canvas.ppm, canvas.y0 + (ys + 0.5) / canvas.ppm
    weight = lighting.gloss * np.exp(-((xs - mx) ** 2 + (ys - my) ** 2) / (2.0 * lighting.gloss_mm ** 2))
    weight *= mask
    roi = canvas.image[y0:y1, x0:x1].astype(np.float32)
    roi += (255.0 - roi) * weight[:, :, None]
    canvas.image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def draw_standing(canvas: Canvas, lighting: Lighting, eye: Viewpoint, middle: Point,
                  pieces: Sequence[Standing]) -> None:
    """Each piece as a lit prism ``piece_mm`` tall, as the camera sees it: the walls facing the camera,
    then the top; the pieces farthest from the camera's foot first (nearer ones stand in front)."""
    foot = np.asarray(eye.foot)
    for piece in sorted(pieces, key=lambda p: -float(np.hypot(*(np.asarray(p.center) - foot)))):
        footprint = prism(piece.center, piece.radius)
        top = lighting.piece_mm
        base_seen, top_seen = eye.apparent(footprint, 0.0), eye.apparent(footprint, top)
        count = len(footprint)
        for index in range(count):
            following = (index + 1) % count
            middle_of_face = (footprint[index] + footprint[following]) / 2.0
            outward = middle_of_face - np.asarray(piece.center)
            outward /= np.linalg.norm(outward)
            to_eye = foot - middle_of_face
            if float(np.dot(outward, to_eye)) <= 0:
                continue  # a wall facing away from the camera is hidden behind the piece
            gain = face_light(lighting, (float(outward[0]), float(outward[1]), 0.0),
                              (float(middle_of_face[0]), float(middle_of_face[1])), middle, 0.6)
            wall = [base_seen[index], base_seen[following], top_seen[following], top_seen[index]]
            canvas.polygon([tuple(p) for p in wall], _lit(piece.rgb, gain))
        gain = face_light(lighting, (0.0, 0.0, 1.0), piece.center, middle, 1.0)
        canvas.polygon([tuple(p) for p in top_seen], _lit(piece.rgb, gain))


def _lit(rgb: tuple[int, int, int], gain_bgr: np.ndarray) -> tuple[int, int, int]:
    blue, green, red = (float(g) for g in gain_bgr)
    return (int(min(255, rgb[0] * red)), int(min(255, rgb[1] * green)), int(min(255, rgb[2] * blue)))
