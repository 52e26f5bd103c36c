"""Synthetic table renderer: a :class:`vision.scene.Scene` (table millimetres) to a camera frame.

The scene is drawn once in table space at ``N`` pixels per millimetre (a flat "photo from straight above"),
then one ``cv2.warpPerspective`` through the camera's homography puts it in the frame; lens blur, uneven
light, sensor noise and JPEG compression are applied to the frame afterwards. The ground truth comes out
alongside: the homography (table mm -> frame pixels) and every tag's, marker's and peg's pixel position,
plus where hands cover the table.

Tags are real QR codes (segno; alphanumeric, ECC M, version 1-2) with a white quiet zone, and markers real
ArUco ``DICT_4X4_50`` markers, so the frames are readable by real decoders (zxing-cpp, pyzbar, cv2.aruco).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from sim.camera_model import CameraModel, apply_homography, local_scale
from sim.effects import Effects, RngLike, apply_effects, as_random, wood_surface
from sim.hands import make_hand
from sim.light import Lighting, Standing, draw_standing, light_table
from vision.scene import Peg, Point, Scene, Tag
from vision.tags import qr_matrix
from vision.viewpoint import Viewpoint

QUIET_ZONE_MODULES = 2
#: White margin printed around every ArUco marker, as a fraction of its side.
MARKER_MARGIN_FRACTION = 0.15
#: Upper bound on the table-space canvas (pixels); 1280 x 720 mm at 2.6 px/mm is about 7 million.
MAX_CANVAS_PIXELS = 40_000_000



@dataclass(frozen=True)
class TagTruth:
    """Where a tag landed in the frame. ``corners`` follow the symbol: top-left, top-right, bottom-right,
    bottom-left of the code as printed (quiet zone excluded), which is also zxing-cpp's order.
    ``visible`` is the fraction of the code's area not under a hand; ``in_frame`` whether all corners lie
    inside the image."""

    payload: str
    corners: tuple[Point, ...]
    center: Point
    angle: float
    table_center: Point
    modules: int
    px_per_module: float
    visible: float
    in_frame: bool


@dataclass(frozen=True)
class MarkerTruth:
    """A calibration marker in the frame; corners clockwise from the marker's top-left (ArUco order)."""

    marker_id: int
    corners: tuple[Point, ...]
    center: Point
    visible: float


@dataclass(frozen=True)
class PegTruth:
    """A peg in the frame: pixel centre (of its footprint on the table plane), radius in pixels."""

    center: Point
    colour: str
    rgb: tuple[int, int, int]
    radius: float
    height: int
    table_center: Point
    label: str
    visible: float


@dataclass
class RenderedFrame:
    """A rendered camera frame and its ground truth."""

    image: np.ndarray
    homography: np.ndarray
    scene: Scene
    camera: CameraModel
    tags: list[TagTruth] = field(default_factory=list)
    markers: list[MarkerTruth] = field(default_factory=list)
    pegs: list[PegTruth] = field(default_factory=list)
    occluders: list[tuple[Point, ...]] = field(default_factory=list)
    occluded: np.ndarray | None = None

    def to_pixels(self, points: np.ndarray | Sequence[Point]) -> np.ndarray:
        """Table mm -> frame pixels."""
        return apply_homography(self.homography, points)

    def to_table(self, points: np.ndarray | Sequence[Point]) -> np.ndarray:
        """Frame pixels -> table mm."""
        return apply_homography(np.linalg.inv(self.homography), points)

    def tag(self, payload: str) -> TagTruth:
        """The ground truth of the tag with this payload (KeyError when absent)."""
        for truth in self.tags:
            if truth.payload == payload:
                return truth
        raise KeyError(payload)

    @property
    def hand_free(self) -> bool:
        return not self.occluders

    def shifted(self, dx: float, dy: float) -> RenderedFrame:
        """The same frame moved by (``dx``, ``dy``) pixels (a camera shaking a little), truth included.

        The image is translated with bilinear sampling (edges filled with the frame's border grey); the
        homography and every pixel position in the truth move with it."""
        matrix = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float64)
        height, width = self.image.shape[:2]
        image = cv2.warpAffine(
            self.image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderValue=(40, 40, 40)
        )
        occluded = None
        if self.occluded is not None:
            moved = cv2.warpAffine(
                self.occluded.astype(np.uint8), matrix, (width, height), flags=cv2.INTER_NEAREST
            )
            occluded = moved.astype(bool)

        def move(point: Point) -> Point:
            return (point[0] + dx, point[1] + dy)

        homography = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) @ self.homography
        return RenderedFrame(
            image=image,
            homography=homography,
            scene=self.scene,
            camera=self.camera,
            tags=[
                replace(t, corners=tuple(move(c) for c in t.corners), center=move(t.center))
                for t in self.tags
            ],
            markers=[
                replace(m, corners=tuple(move(c) for c in m.corners), center=move(m.center))
                for m in self.markers
            ],
            pegs=[replace(p, center=move(p.center)) for p in self.pegs],
            occluders=[tuple(move(c) for c in polygon) for polygon in self.occluders],
            occluded=occluded,
        )


# ---------------------------------------------------------------------------------------------- bitmaps
@lru_cache(maxsize=512)
def _qr_bitmap(payload: str) -> np.ndarray:
    """BGR bitmap, one pixel per module, quiet zone included (white 255, black 0)."""
    matrix = qr_matrix(payload)
    bitmap = np.where(matrix, 0, 255).astype(np.uint8)
    padded = cv2.copyMakeBorder(bitmap, *(QUIET_ZONE_MODULES,) * 4, cv2.BORDER_CONSTANT, value=(255,))
    padded = cv2.cvtColor(padded, cv2.COLOR_GRAY2BGR)
    padded.flags.writeable = False
    return padded


@lru_cache(maxsize=64)
def _aruco_bitmap(marker_id: int) -> np.ndarray:
    """BGR bitmap, one pixel per cell (6x6 for 4x4 markers with their 1-cell black border)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    bitmap = cv2.cvtColor(
        cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1), cv2.COLOR_GRAY2BGR
    )
    bitmap.flags.writeable = False
    return bitmap


def _rotate(vector: tuple[float, float], angle: float) -> tuple[float, float]:
    """Rotate a table vector counter-clockwise as seen from above (y points south)."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    x, y = vector
    return (x * c + y * s, -x * s + y * c)


def tag_corners(tag: Tag) -> list[Point]:
    """The tag code's four corners in table mm, symbol order (TL, TR, BR, BL), quiet zone excluded."""
    half = tag.size / 2.0
    corners = []
    for u, v in ((-half, -half), (half, -half), (half, half), (-half, half)):
        dx, dy = _rotate((u, v), tag.angle)
        corners.append((tag.center[0] + dx, tag.center[1] + dy))
    return corners


# ---------------------------------------------------------------------------------------------- render
def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _shade(rgb: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return (
        int(min(255, max(0, rgb[0] * factor))),
        int(min(255, max(0, rgb[1] * factor))),
        int(min(255, max(0, rgb[2] * factor))),
    )


@lru_cache(maxsize=2)
def _blank(height: int, width: int, bgr: tuple[int, int, int]) -> np.ndarray:
    """A plain canvas to copy from (copying is ~15x faster than filling a 3-channel array)."""
    blank: np.ndarray = cv2.merge([np.full((height, width), value, dtype=np.uint8) for value in bgr])
    blank.flags.writeable = False
    return blank


class _Canvas:
    """The table drawn from straight above at ``ppm`` pixels per mm, covering the camera's framed area."""

    SHIFT = 4  # fixed-point sub-pixel bits for cv2 drawing

    def __init__(self, area: tuple[float, float, float, float], ppm: float, background: tuple[int, int, int]):
        self.x0, self.y0, x1, y1 = area
        self.ppm = ppm
        self.width = math.ceil((x1 - self.x0) * ppm)
        self.height = math.ceil((y1 - self.y0) * ppm)
        self.image = _blank(self.height, self.width, _bgr(background)).copy()

    def matrix(self) -> np.ndarray:
        """Table mm -> canvas pixels."""
        return np.array(
            [[self.ppm, 0.0, -self.x0 * self.ppm], [0.0, self.ppm, -self.y0 * self.ppm], [0.0, 0.0, 1.0]]
        )

    def points(self, polygon: Sequence[Point] | np.ndarray) -> np.ndarray:
        scale = self.ppm * (1 << self.SHIFT)
        array = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
        fixed = np.empty_like(array)
        fixed[:, 0] = (array[:, 0] - self.x0) * scale
        fixed[:, 1] = (array[:, 1] - self.y0) * scale
        return np.round(fixed).astype(np.int32)

    def polygon(
        self,
        polygon: Sequence[Point],
        fill: tuple[int, int, int] | None,
        outline: tuple[int, int, int] | None = None,
        width: float = 1.0,
    ) -> None:
        pts = self.points(polygon)
        if fill is not None:
            cv2.fillPoly(self.image, [pts], _bgr(fill), cv2.LINE_AA, self.SHIFT)
        if outline is not None:
            thickness = max(1, round(width * self.ppm))
            cv2.polylines(self.image, [pts], True, _bgr(outline), thickness, cv2.LINE_AA, self.SHIFT)

    def circle(self, center: Point, radius: float, rgb: tuple[int, int, int]) -> None:
        ((cx, cy),) = self.points([center])
        r = round(radius * self.ppm * (1 << self.SHIFT))
        cv2.circle(self.image, (int(cx), int(cy)), int(r), _bgr(rgb), -1, cv2.LINE_AA, self.SHIFT)

    def paste(self, bitmap: np.ndarray, corners_mm: Sequence[Point]) -> None:
        """Warp a BGR bitmap so its outer corners (TL, TR, BR, BL) land on ``corners_mm``: nearest
        sampling keeps the modules crisp at the canvas resolution (the camera warp smooths them)."""
        h, w = bitmap.shape[:2]
        dst = np.asarray(corners_mm, dtype=np.float64)
        dst = np.column_stack([(dst[:, 0] - self.x0) * self.ppm, (dst[:, 1] - self.y0) * self.ppm])
        x_lo = max(0, math.floor(dst[:, 0].min()) - 1)
        y_lo = max(0, math.floor(dst[:, 1].min()) - 1)
        x_hi = min(self.width, math.ceil(dst[:, 0].max()) + 2)
        y_hi = min(self.height, math.ceil(dst[:, 1].max()) + 2)
        if x_hi <= x_lo or y_hi <= y_lo:
            return
        # Outer corners of the bitmap's pixels (pixel centres are at integer coordinates).
        src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5]], dtype=np.float32)
        affine = cv2.getAffineTransform(src, (dst[:3] - [x_lo, y_lo]).astype(np.float32))
        roi = self.image[y_lo:y_hi, x_lo:x_hi]
        # Transparent border: canvas pixels outside the bitmap keep what was drawn before.
        cv2.warpAffine(
            bitmap,
            affine,
            (x_hi - x_lo, y_hi - y_lo),
            dst=roi,
            flags=cv2.INTER_NEAREST,
            borderMode=cv2.BORDER_TRANSPARENT,
        )


def _canvas_ppm(homography: np.ndarray, area: tuple[float, float, float, float], oversample: float) -> float:
    x0, y0, x1, y1 = area
    probes = [(x, y) for x in (x0, (x0 + x1) / 2, x1) for y in (y0, (y0 + y1) / 2, y1)]
    peak = max(local_scale(homography, p) for p in probes)
    # Keep the canvas within MAX_CANVAS_PIXELS (extreme poses would otherwise ask for gigabytes).
    ceiling = math.sqrt(MAX_CANVAS_PIXELS / max(1.0, (x1 - x0) * (y1 - y0)))
    return max(1.0, min(peak * oversample, ceiling))


def render(
    scene: Scene,
    camera: CameraModel | None = None,
    effects: Effects | None = None,
    rng: RngLike = None,
    *,
    oversample: float = 1.6,
    supersample: int = 1,
    lighting: Lighting | None = None,
) -> RenderedFrame:
    """Draw ``scene`` as ``camera`` would see it under ``effects``; deterministic for a given ``rng`` seed.

    ``rng`` may be an int seed, a ``random.Random`` or a numpy ``Generator`` (it drives random hands and the
    sensor noise). The table-space canvas has ``oversample`` times the frame's pixels per mm where the
    frame is sharpest. ``supersample`` > 1 renders that many times finer and averages blocks down (a
    sensor pixel integrating over its area): slower, and in our measurements it changed decoding little
    next to lens blur, so it is off by default. With ``lighting`` the frame is no flat picture
    (:mod:`sim.light`): a lamp's uneven warm light, standing pieces with their lit and shaded sides and
    their shadows, glossy stickers mirroring the lamp. Cards and their stickers lie ``scene.card_mm``
    above the markers' plane (a tilted camera sees them moved by parallax).
    """
    camera = camera or CameraModel()
    effects = effects or Effects()
    chance = as_random(rng)
    homography = camera.homography(scene.width, scene.height)
    area = camera.framed_area(scene.width, scene.height)
    factor = max(1, int(supersample))
    fine = np.array([[factor, 0.0, (factor - 1) / 2.0], [0.0, factor, (factor - 1) / 2.0], [0.0, 0.0, 1.0]])
    canvas = _Canvas(area, _canvas_ppm(fine @ homography, area, oversample), scene.background)
    if effects.surface == "wood":
        canvas.image = wood_surface(canvas.height, canvas.width, effects.surface_seed, canvas.ppm)

    occluders = list(scene.occluders)
    for _ in range(effects.hands):
        occluders.append(make_hand(scene.width, scene.height, chance))

    foot_x, foot_y, eye_height = camera.eye(scene.width, scene.height)
    eye = Viewpoint((foot_x, foot_y), eye_height)
    card_mm = scene.card_mm

    def raised(polygon: Sequence[Point]) -> list[Point]:
        if not card_mm:
            return list(polygon)
        return [(float(x), float(y)) for x, y in eye.apparent(polygon, card_mm)]

    for zone in scene.zones:
        canvas.polygon(zone.polygon, None, _shade(scene.background, 1.25), width=1.2)
    for shape in scene.shapes:
        canvas.polygon(raised(shape.polygon), shape.fill, shape.outline, width=0.8)
    for marker in scene.markers:
        half = marker.size / 2.0
        pad = half * (1.0 + 2 * MARKER_MARGIN_FRACTION)
        cx, cy = marker.center
        canvas.polygon(
            [(cx - pad, cy - pad), (cx + pad, cy - pad), (cx + pad, cy + pad), (cx - pad, cy + pad)],
            (255, 255, 255),
        )
        canvas.paste(
            _aruco_bitmap(marker.marker_id),
            [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)],
        )
    stickers = []
    for tag in scene.tags:
        modules = qr_matrix(tag.payload).shape[0]
        bitmap = _qr_bitmap(tag.payload)
        grow = (modules + 2 * QUIET_ZONE_MODULES) / modules
        outer = raised(tag_corners(Tag(tag.payload, tag.center, tag.angle, tag.size * grow)))
        canvas.paste(bitmap, outer)
        stickers.append(np.asarray(outer))
    if lighting is None or lighting.piece_mm <= 0:
        for peg in scene.pegs:
            _draw_peg(canvas, peg.center, peg.radius, peg.rgb, peg.height)
    if lighting is not None:
        middle = (scene.width / 2.0, scene.height / 2.0)
        standing = [Standing(peg.center, peg.radius, peg.rgb) for peg in scene.pegs] \
            if lighting.piece_mm > 0 else []
        light_table(canvas, lighting, eye, middle, standing, stickers, card_mm)
        draw_standing(canvas, lighting, eye, middle, standing)
    for occluder in occluders:
        canvas.polygon(occluder.polygon, occluder.rgb, _shade(occluder.rgb, 0.8), width=1.5)

    width, height = camera.resolution
    to_frame = fine @ homography @ np.linalg.inv(canvas.matrix())
    image = cv2.warpPerspective(
        canvas.image,
        to_frame,
        (width * factor, height * factor),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(40, 40, 40),
    )
    if factor > 1:
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    image = apply_effects(image, effects, chance)

    occluded = np.zeros((height, width), dtype=np.uint8)
    pixel_occluders: list[tuple[Point, ...]] = []
    for occluder in occluders:
        pts = apply_homography(homography, occluder.polygon)
        pixel_occluders.append(tuple((float(x), float(y)) for x, y in pts))
        cv2.fillPoly(occluded, [np.round(pts * 16).astype(np.int32)], (1,), cv2.LINE_8, 4)
    mask = occluded.astype(bool)

    frame = RenderedFrame(
        image=image,
        homography=homography,
        scene=scene,
        camera=camera,
        occluders=pixel_occluders,
        occluded=mask,
    )
    seen_at = homography if not card_mm else homography @ _homothety(eye, card_mm)
    frame.tags = [_tag_truth(tag, seen_at, mask, (width, height)) for tag in scene.tags]
    frame.markers = [
        _marker_truth(marker.marker_id, marker.center, marker.size, homography, mask)
        for marker in scene.markers
    ]
    frame.pegs = [_peg_truth(peg, homography, mask) for peg in scene.pegs]
    return frame


def _homothety(eye: Viewpoint, z: float) -> np.ndarray:
    """Table mm -> where points ``z`` mm up appear on the table plane."""
    scale = eye.height / (eye.height - z)
    fx, fy = eye.foot
    return np.array([[scale, 0.0, fx * (1 - scale)], [0.0, scale, fy * (1 - scale)], [0.0, 0.0, 1.0]])


def _draw_peg(canvas: _Canvas, center: Point, radius: float, rgb: tuple[int, int, int], height: int) -> None:
    """A peg seen from above: a dark rim (its side and shadow), the body, a highlight; a stack shows a
    slightly larger, brighter top disc per level."""
    shadow = (center[0] + radius * 0.25, center[1] + radius * 0.25)
    canvas.circle(shadow, radius * 1.08, (30, 30, 30))
    levels = max(1, height)
    top_radius = radius * (1.0 + 0.06 * (levels - 1))
    canvas.circle(center, top_radius, _shade(rgb, 0.7))
    canvas.circle(center, top_radius * 0.86, _shade(rgb, 1.0 + 0.05 * (levels - 1)))
    glint = (center[0] - top_radius * 0.3, center[1] - top_radius * 0.3)
    canvas.circle(glint, top_radius * 0.25, _shade(rgb, 1.35 + 0.05 * (levels - 1)))


def _visible_fraction(mask: np.ndarray, polygon_px: np.ndarray) -> float:
    if not mask.any():
        return 1.0
    h, w = mask.shape
    x_lo = max(0, int(polygon_px[:, 0].min()))
    y_lo = max(0, int(polygon_px[:, 1].min()))
    x_hi = min(w, math.ceil(polygon_px[:, 0].max()) + 1)
    y_hi = min(h, math.ceil(polygon_px[:, 1].max()) + 1)
    if x_hi <= x_lo or y_hi <= y_lo:
        return 0.0
    local = np.zeros((y_hi - y_lo, x_hi - x_lo), dtype=np.uint8)
    cv2.fillPoly(local, [np.round(polygon_px - [x_lo, y_lo]).astype(np.int32)], (1,))
    total = int(local.sum())
    if total == 0:
        return 1.0
    covered = int((local.astype(bool) & mask[y_lo:y_hi, x_lo:x_hi]).sum())
    return 1.0 - covered / total


def _tag_truth(tag: Tag, homography: np.ndarray, mask: np.ndarray, size: tuple[int, int]) -> TagTruth:
    corners = apply_homography(homography, tag_corners(tag))
    center = apply_homography(homography, [tag.center])[0]
    modules = qr_matrix(tag.payload).shape[0]
    sides = [float(np.linalg.norm(corners[i] - corners[(i + 1) % 4])) for i in range(4)]
    top = corners[1] - corners[0]
    angle = math.degrees(math.atan2(-top[1], top[0]))  # counter-clockwise in the image, like on the table
    width, height = size
    in_frame = bool(np.all((corners >= 0) & (corners < [width, height])))
    return TagTruth(
        payload=tag.payload,
        corners=tuple((float(x), float(y)) for x, y in corners),
        center=(float(center[0]), float(center[1])),
        angle=angle % 360.0,
        table_center=tag.center,
        modules=modules,
        px_per_module=min(sides) / modules,
        visible=_visible_fraction(mask, corners),
        in_frame=in_frame,
    )


def _marker_truth(
    marker_id: int, center_mm: Point, size: float, homography: np.ndarray, mask: np.ndarray
) -> MarkerTruth:
    half = size / 2.0
    cx, cy = center_mm
    corners = apply_homography(
        homography,
        [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)],
    )
    center = apply_homography(homography, [center_mm])[0]
    return MarkerTruth(
        marker_id,
        tuple((float(x), float(y)) for x, y in corners),
        (float(center[0]), float(center[1])),
        _visible_fraction(mask, corners),
    )


def _peg_truth(peg: Peg, homography: np.ndarray, mask: np.ndarray) -> PegTruth:
    center = apply_homography(homography, [peg.center])[0]
    radius = peg.radius * local_scale(homography, peg.center)
    box = np.array(
        [
            [center[0] - radius, center[1] - radius],
            [center[0] + radius, center[1] - radius],
            [center[0] + radius, center[1] + radius],
            [center[0] - radius, center[1] + radius],
        ]
    )
    return PegTruth(
        center=(float(center[0]), float(center[1])),
        colour=peg.colour,
        rgb=peg.rgb,
        radius=radius,
        height=peg.height,
        table_center=peg.center,
        label=peg.label,
        visible=_visible_fraction(mask, box),
    )

