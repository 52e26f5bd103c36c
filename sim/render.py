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
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.scene import Occluder, Peg, Point, Scene, Tag
from vision.tags import qr_matrix

#: White margin printed around every QR code, in modules (the tag's ``size`` excludes it).
QUIET_ZONE_MODULES = 2
#: White margin printed around every ArUco marker, as a fraction of its side.
MARKER_MARGIN_FRACTION = 0.15
DEFAULT_RESOLUTION = (2304, 1296)
#: Upper bound on the table-space canvas (pixels); 1280 x 720 mm at 2.6 px/mm is about 7 million.
MAX_CANVAS_PIXELS = 40_000_000

RngLike = np.random.Generator | random.Random | int | None


# ----------------------------------------------------------------------------------------------- camera
@dataclass(frozen=True)
class CameraModel:
    """A pinhole camera looking at the table.

    ``tilt`` (0..~30 degrees) swings the camera towards the table's south edge (the players in front of it)
    while it keeps looking at the middle of the framed area, so the far (north) side appears smaller: a real
    perspective, not an affine. ``yaw`` turns the whole rig about the vertical axis, ``roll`` turns the camera
    about its own optical axis. The focal length and principal point are then chosen so the framed area
    (table plus ``margin`` mm on every side) fills the frame, leaving ``border`` of the frame free.
    ``distance`` is the camera's distance to the middle of the table in mm (None: 0.8 x the framed width,
    about a 66-degree lens framing the table).
    """

    resolution: tuple[int, int] = DEFAULT_RESOLUTION
    tilt: float = 0.0
    yaw: float = 0.0
    roll: float = 0.0
    margin: float = 40.0
    border: float = 0.02
    distance: float | None = None

    def __post_init__(self) -> None:
        width, height = self.resolution
        if int(width) <= 0 or int(height) <= 0:
            raise ValueError(f"camera resolution must be positive, not {self.resolution}")
        if self.margin < 0 or not 0 <= self.border < 0.5:
            raise ValueError("camera margin must be >= 0 mm and border in [0, 0.5)")
        if self.distance is not None and self.distance <= 0:
            raise ValueError(f"camera distance must be positive, not {self.distance}")

    def framed_area(self, scene_width: float, scene_height: float) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the table region the camera frames, in mm."""
        return (-self.margin, -self.margin, scene_width + self.margin, scene_height + self.margin)

    def homography(self, scene_width: float, scene_height: float) -> np.ndarray:
        """3x3 matrix mapping table mm (x, y, 1) to frame pixels for a table of the given size."""
        x0, y0, x1, y1 = self.framed_area(scene_width, scene_height)
        cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
        distance = self.distance if self.distance is not None else 0.8 * (x1 - x0)
        tilt, yaw, roll = (math.radians(a) for a in (self.tilt, self.yaw, self.roll))
        # World frame: x east, y south, z down into the table (right-handed). Camera frame: x right, y down
        # in the image, z forward. Untilted, the camera sits above the middle with axes equal to the world's.
        position = np.array([0.0, distance * math.sin(tilt), -distance * math.cos(tilt)])
        rotation = np.array(
            [
                [1.0, 0.0, 0.0],
                [0.0, math.cos(tilt), math.sin(tilt)],
                [0.0, -math.sin(tilt), math.cos(tilt)],
            ]
        )
        yaw_matrix = np.array(
            [[math.cos(yaw), -math.sin(yaw), 0.0], [math.sin(yaw), math.cos(yaw), 0.0], [0.0, 0.0, 1.0]]
        )
        position = yaw_matrix @ position
        rotation = rotation @ yaw_matrix.T
        roll_matrix = np.array(
            [[math.cos(roll), -math.sin(roll), 0.0], [math.sin(roll), math.cos(roll), 0.0], [0.0, 0.0, 1.0]]
        )
        rotation = roll_matrix @ rotation
        translation = -rotation @ position
        projective = np.column_stack([rotation[:, 0], rotation[:, 1], translation])
        centring = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
        raw = projective @ centring
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
        projected = apply_homography(raw, corners)
        low, high = projected.min(axis=0), projected.max(axis=0)
        width, height = self.resolution
        usable_w, usable_h = width * (1.0 - 2 * self.border), height * (1.0 - 2 * self.border)
        scale = min(usable_w / (high[0] - low[0]), usable_h / (high[1] - low[1]))
        offset = np.array([width / 2.0, height / 2.0]) - scale * (low + high) / 2.0
        fit = np.array([[scale, 0.0, offset[0]], [0.0, scale, offset[1]], [0.0, 0.0, 1.0]])
        matrix: np.ndarray = fit @ raw
        normalised: np.ndarray = matrix / float(matrix[2, 2])
        return normalised


def recommended_camera(tilt: float = 0.0, yaw: float = 0.0, roll: float = 0.0) -> CameraModel:
    """The 2304x1296 camera framing a layout's table with just the markers' margin."""
    return CameraModel(tilt=tilt, yaw=yaw, roll=roll, margin=28.0, border=0.015)


def apply_homography(matrix: np.ndarray, points: np.ndarray | Sequence[Point]) -> np.ndarray:
    """Map an (N, 2) array of points through a 3x3 homography."""
    array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ones = np.ones((array.shape[0], 1))
    mapped = np.hstack([array, ones]) @ np.asarray(matrix, dtype=np.float64).T
    return mapped[:, :2] / mapped[:, 2:3]


def local_scale(matrix: np.ndarray, point: Point) -> float:
    """Pixels per millimetre of the homography near ``point`` (geometric mean of the two axes)."""
    x, y = point
    base, east, south = apply_homography(matrix, [(x, y), (x + 1.0, y), (x, y + 1.0)])
    (ax, ay), (bx, by) = east - base, south - base
    area = abs(ax * by - ay * bx)
    return float(math.sqrt(area))


# ---------------------------------------------------------------------------------------------- effects
@dataclass(frozen=True)
class Effects:
    """What the camera and the room do to a frame. All defaults off: a clean frame.

    ``blur``: Gaussian sigma in frame pixels (lens focus); ``noise``: sensor noise sigma in grey levels;
    ``vignette``: 0..1, how much darker the corners are; ``gradient``: 0..1 light falling off across the table
    towards ``gradient_angle`` (degrees, 0 = east, counter-clockwise); ``brightness``: overall gain;
    ``jpeg_quality``: None for no compression, else 1..100; ``hands``: how many random hands (palm, fingers
    and arm, entering from a table edge) to add over the scene's own occluders; ``white_balance``: gains on
    (red, green, blue), e.g. (1.08, 1.0, 0.9) for warm indoor light; ``glare``: 0..1, a soft bright spot
    (a lamp reflected by glossy tiles) of ``glare_radius`` pixels at a random place.
    """

    blur: float = 0.0
    noise: float = 0.0
    vignette: float = 0.0
    gradient: float = 0.0
    gradient_angle: float = 90.0
    brightness: float = 1.0
    jpeg_quality: int | None = None
    hands: int = 0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    glare: float = 0.0
    glare_radius: float = 160.0

    def __post_init__(self) -> None:
        if min(self.blur, self.noise, self.vignette, self.gradient, self.glare, self.brightness) < 0:
            raise ValueError("effects must not be negative")
        if self.jpeg_quality is not None and not 1 <= int(self.jpeg_quality) <= 100:
            raise ValueError(f"JPEG quality is 1..100, not {self.jpeg_quality}")
        if self.hands < 0 or min(self.white_balance) <= 0:
            raise ValueError("hands must be >= 0 and white balance gains positive")

    @classmethod
    def realistic(cls) -> Effects:
        """A typical webcam over a living-room table."""
        return cls(blur=0.6, noise=3.0, vignette=0.25, gradient=0.2, jpeg_quality=85)


# ---------------------------------------------------------------------------------------------- truth
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
    padded = cv2.copyMakeBorder(bitmap, *(QUIET_ZONE_MODULES,) * 4, cv2.BORDER_CONSTANT, value=255)
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


# ---------------------------------------------------------------------------------------------- hands
def make_hand(
    scene_width: float,
    scene_height: float,
    rng: random.Random,
    reach: Point | None = None,
    edge: str | None = None,
    scale: float = 1.0,
) -> Occluder:
    """A hand-and-arm polygon entering the table from ``edge`` ("N", "E", "S", "W"), fingertips near
    ``reach``. Sizes are an adult's (palm about 85 mm wide, arm about 75 mm wide)."""
    edge = edge or rng.choice("NESW")
    if edge not in ("N", "E", "S", "W"):
        raise ValueError(f"a hand enters from edge N, E, S or W, not {edge!r}")
    if reach is None:
        reach = (rng.uniform(0.15, 0.85) * scene_width, rng.uniform(0.15, 0.85) * scene_height)
    starts = {
        "N": (reach[0] + rng.uniform(-150, 150), -120.0),
        "S": (reach[0] + rng.uniform(-150, 150), scene_height + 120.0),
        "W": (-120.0, reach[1] + rng.uniform(-120, 120)),
        "E": (scene_width + 120.0, reach[1] + rng.uniform(-120, 120)),
    }
    start = starts[edge]
    dx, dy = reach[0] - start[0], reach[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length  # along the arm, towards the fingertips
    px, py = -uy, ux  # across the arm

    def at(along: float, across: float) -> Point:
        return (reach[0] + (ux * along + px * across) * scale, reach[1] + (uy * along + py * across) * scale)

    tone = rng.choice([(196, 150, 120), (224, 180, 150), (150, 105, 80), (110, 75, 55), (235, 200, 175)])
    # Walk round the outline: arm (one side), palm, four fingers, thumb, palm, arm (other side).
    # The middle finger's tip is at ``reach``; the knuckles are one finger length behind it.
    lengths = [rng.uniform(52, 62), rng.uniform(66, 76), rng.uniform(62, 72), rng.uniform(48, 58)]
    knuckles = -lengths[1]
    spread = rng.uniform(0.0, 0.25)  # fingers fan out a little
    arm_end = -length / scale - 40.0
    outline: list[Point] = [
        at(arm_end, -36.0),
        at(knuckles - 100.0, -34.0),
        at(knuckles - 70.0, -42.0),
        at(knuckles - 10.0, -41.0),
    ]
    for across, finger in zip([-28.5, -9.5, 9.5, 28.5], lengths):
        tip_across = across * (1.0 + spread)
        tip = knuckles + finger
        outline += [
            at(knuckles, across - 8.5),
            at(tip - 7.0, tip_across - 7.5),
            at(tip - 2.0, tip_across - 5.0),
            at(tip, tip_across),
            at(tip - 2.0, tip_across + 5.0),
            at(tip - 7.0, tip_across + 7.5),
            at(knuckles, across + 8.5),
        ]
    thumb = rng.uniform(0.0, 15.0)
    outline += [
        at(knuckles - 18.0, 40.0),
        at(knuckles + 8.0 - thumb, 60.0 + thumb * 0.3),
        at(knuckles + 4.0 - thumb, 71.0 + thumb * 0.3),
        at(knuckles - 6.0 - thumb, 72.0 + thumb * 0.3),
        at(knuckles - 45.0, 50.0),
        at(knuckles - 80.0, 42.0),
        at(knuckles - 100.0, 34.0),
        at(arm_end, 36.0),
    ]
    return Occluder(polygon=tuple(outline), rgb=tone)


# ---------------------------------------------------------------------------------------------- render
def _as_random(rng: RngLike) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(0, 2**63 - 1)))
    return random.Random(rng if rng is not None else 0)


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


@lru_cache(maxsize=4)
def _noise_pool(height: int, width: int, sigma: float) -> np.ndarray:
    """Gaussian sensor noise (int16) larger than a frame; each frame adds a randomly offset window of it,
    which is much cheaper than drawing ~9 million fresh samples per frame."""
    state = np.random.default_rng(20240611)
    pool = np.round(state.standard_normal((height + 97, width + 131, 3), dtype=np.float32) * sigma)
    noise: np.ndarray = pool.astype(np.int16)
    noise.flags.writeable = False
    return noise


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

    def points(self, polygon: Sequence[Point]) -> np.ndarray:
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
) -> RenderedFrame:
    """Draw ``scene`` as ``camera`` would see it under ``effects``; deterministic for a given ``rng`` seed.

    ``rng`` may be an int seed, a ``random.Random`` or a numpy ``Generator`` (it drives random hands and the
    sensor noise). The table-space canvas has ``oversample`` times the frame's pixels per mm where the
    frame is sharpest. ``supersample`` > 1 renders that many times finer and averages blocks down (a
    sensor pixel integrating over its area): slower, and in our measurements it changed decoding little
    next to lens blur, so it is off by default.
    """
    camera = camera or CameraModel()
    effects = effects or Effects()
    chance = _as_random(rng)
    homography = camera.homography(scene.width, scene.height)
    area = camera.framed_area(scene.width, scene.height)
    factor = max(1, int(supersample))
    fine = np.array([[factor, 0.0, (factor - 1) / 2.0], [0.0, factor, (factor - 1) / 2.0], [0.0, 0.0, 1.0]])
    canvas = _Canvas(area, _canvas_ppm(fine @ homography, area, oversample), scene.background)

    occluders = list(scene.occluders)
    for _ in range(effects.hands):
        occluders.append(make_hand(scene.width, scene.height, chance))

    for zone in scene.zones:
        canvas.polygon(zone.polygon, None, _shade(scene.background, 1.25), width=1.2)
    for shape in scene.shapes:
        canvas.polygon(shape.polygon, shape.fill, shape.outline, width=0.8)
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
    for tag in scene.tags:
        modules = qr_matrix(tag.payload).shape[0]
        bitmap = _qr_bitmap(tag.payload)
        grow = (modules + 2 * QUIET_ZONE_MODULES) / modules
        outer = Tag(tag.payload, tag.center, tag.angle, tag.size * grow)
        canvas.paste(bitmap, tag_corners(outer))
    for peg in scene.pegs:
        _draw_peg(canvas, peg.center, peg.radius, peg.rgb, peg.height)
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
        cv2.fillPoly(occluded, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    mask = occluded.astype(bool)

    frame = RenderedFrame(
        image=image,
        homography=homography,
        scene=scene,
        camera=camera,
        occluders=pixel_occluders,
        occluded=mask,
    )
    frame.tags = [_tag_truth(tag, homography, mask, (width, height)) for tag in scene.tags]
    frame.markers = [
        _marker_truth(marker.marker_id, marker.center, marker.size, homography, mask)
        for marker in scene.markers
    ]
    frame.pegs = [_peg_truth(peg, homography, mask) for peg in scene.pegs]
    return frame


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
    cv2.fillPoly(local, [np.round(polygon_px - [x_lo, y_lo]).astype(np.int32)], 1)
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


@lru_cache(maxsize=8)
def _light_map(
    width: int,
    height: int,
    vignette: float,
    gradient: float,
    gradient_angle: float,
    brightness: float,
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> np.ndarray:
    """Per-pixel gain (float32, HxWx3, BGR): radial vignetting times a linear gradient times brightness,
    times the white balance per channel."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    nx = (xs - width / 2.0) / (width / 2.0)
    ny = (ys - height / 2.0) / (height / 2.0)
    radius2 = (nx * nx * (width / height) ** 2 + ny * ny) / (1.0 + (width / height) ** 2)
    gain = 1.0 - vignette * radius2
    radians = math.radians(gradient_angle)
    along = nx * math.cos(radians) - ny * math.sin(radians)  # +1 towards the darker side
    gain = gain * (1.0 - gradient * (along + 1.0) / 2.0) * brightness
    red, green, blue = white_balance
    result: np.ndarray = cv2.merge(
        [np.clip(gain * factor, 0.0, 4.0).astype(np.float32) for factor in (blue, green, red)]
    )
    result.flags.writeable = False
    return result


def _add_glare(image: np.ndarray, strength: float, radius: float, chance: random.Random) -> np.ndarray:
    """A soft white spot: each pixel moves towards white by ``strength`` times a Gaussian falloff."""
    height, width = image.shape[:2]
    cx, cy = chance.uniform(0.15, 0.85) * width, chance.uniform(0.15, 0.85) * height
    reach = int(3 * radius)
    x0, x1 = max(0, int(cx) - reach), min(width, int(cx) + reach)
    y0, y1 = max(0, int(cy) - reach), min(height, int(cy) + reach)
    if x1 <= x0 or y1 <= y0:
        return image
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    weight = strength * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2.0 * radius * radius))
    out = image.copy()
    roi = out[y0:y1, x0:x1].astype(np.float32)
    roi += (255.0 - roi) * weight[:, :, None]
    out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out


def apply_effects(image: np.ndarray, effects: Effects, rng: RngLike = None) -> np.ndarray:
    """The camera's photometric effects (blur, uneven light, noise, JPEG) on a rendered frame; hands are
    geometry and are drawn by :func:`render`. The input is returned unchanged when no effect is on."""
    chance = _as_random(rng)
    if effects.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), effects.blur)
    balanced = tuple(round(float(g), 4) for g in effects.white_balance)
    if (
        effects.vignette > 0
        or effects.gradient > 0
        or effects.brightness != 1.0
        or balanced != (1.0, 1.0, 1.0)
    ):
        height, width = image.shape[:2]
        gain = _light_map(
            width,
            height,
            round(effects.vignette, 4),
            round(effects.gradient, 4),
            round(effects.gradient_angle, 2),
            round(effects.brightness, 4),
            (balanced[0], balanced[1], balanced[2]),
        )
        image = cv2.multiply(image, gain, dtype=cv2.CV_8U)
    if effects.glare > 0:
        image = _add_glare(image, effects.glare, effects.glare_radius, chance)
    if effects.noise > 0:
        height, width = image.shape[:2]
        pool = _noise_pool(height, width, round(effects.noise, 3))
        dy, dx = chance.randrange(pool.shape[0] - height + 1), chance.randrange(pool.shape[1] - width + 1)
        image = cv2.add(image, pool[dy : dy + height, dx : dx + width], dtype=cv2.CV_8U)
    if effects.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        if decoded is None:
            raise RuntimeError("JPEG decoding failed")
        image = decoded
    return image
