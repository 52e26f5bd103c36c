"""Camera frames made outside the product: the stickers, markers and lens board cut out of the product's own
PDF (rasterised by poppler's ``pdftoppm``, found on the page by zxing-cpp and OpenCV's ArUco detector), laid
on a wooden table of our own drawing and photographed through a camera model of our own: pinhole with tilt,
OpenCV's radial distortion, blur, a Bayer mosaic and its demosaic, shot noise and JPEG. Nothing here uses
the product's renderer (``sim/``) or its layouts: what the product reads here it has never drawn itself.

Table coordinates are millimetres from marker 0's centre, x to marker 1, y to marker 3 (``corner_layout``).
"""

from __future__ import annotations

import functools
import math
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

HEX_PITCH_MM = 66.0
#: a Jurassic Parts tile with its sticker: the code lies this far above the table
TILE_MM = 4.15


def rasterise(pdf: Path, dpi: int, first: int | None = None, last: int | None = None) -> list[np.ndarray]:
    """The pages of ``pdf`` (all, or ``first`` to ``last``, from 1) as BGR images at ``dpi`` (pdftoppm)."""
    pages = [*(["-f", str(first)] if first else []), *(["-l", str(last)] if last else [])]
    with tempfile.TemporaryDirectory(prefix="pages-") as folder:
        subprocess.run(["pdftoppm", "-r", str(dpi), *pages, "-png", str(pdf), f"{folder}/page"], check=True,
                       capture_output=True, timeout=600)
        return [cv2.imread(str(path)) for path in sorted(Path(folder).glob("page-*.png"))]


@dataclass(frozen=True)
class Sticker:
    """A code cut out of the sheet: its picture (quiet zone included) and how many modules wide it is."""

    image: np.ndarray
    modules: int
    quiet_modules: float

    def side_mm(self, tag_mm: float) -> float:
        """The sticker's printed side when a version-1 code (21 modules) is ``tag_mm`` wide."""
        return (self.modules + 2 * self.quiet_modules) * tag_mm / 21


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True,
                          timeout=60).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def cut_codes(pages: Iterable[np.ndarray], quiet_modules: float = 2.0) -> dict[str, Sticker]:
    """Each QR code found on the pages, cut out square with its quiet zone, upright: payload -> sticker."""
    import zxingcpp

    found: dict[str, Sticker] = {}
    for page in pages:
        for code in zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormat.QRCode):
            corners = np.array([[p.x, p.y] for p in (code.position.top_left, code.position.top_right,
                                                      code.position.bottom_right, code.position.bottom_left)],
                               dtype=np.float32)
            side = float(np.linalg.norm(corners[1] - corners[0]))
            modules = 4 * int(code.extra.get("Version", 1)) + 17
            pad = side / modules * quiet_modules
            out = round(side + 2 * pad)
            target = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]],
                              dtype=np.float32)
            warp = cv2.getPerspectiveTransform(corners, target)
            cut = cv2.warpPerspective(page, warp, (out, out), borderValue=(255, 255, 255))
            found[code.text] = Sticker(cut, modules, quiet_modules)
    return found


def cut_markers(pages: Iterable[np.ndarray]) -> dict[int, tuple[np.ndarray, float]]:
    """The calibration markers (ArUco 4x4) on the pages, each cut out upright with a white border the size
    of one of its cells: id -> (image, the fraction of the image the black square spans)."""
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    found: dict[int, tuple[np.ndarray, float]] = {}
    for page in pages:
        corners, ids, _ = detector.detectMarkers(page)
        for quad, marker in zip(corners, [] if ids is None else ids.ravel()):
            square = quad.reshape(4, 2).astype(np.float32)
            side = float(np.linalg.norm(square[1] - square[0]))
            pad = side / 6
            out = round(side + 2 * pad)
            target = np.array([[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]],
                              dtype=np.float32)
            warp = cv2.getPerspectiveTransform(square, target)
            found[int(marker)] = (cv2.warpPerspective(page, warp, (out, out), borderValue=(255, 255, 255)),
                                  side / out)
    return found


def cut_board(page: np.ndarray, white_mm: float, dpi: int) -> tuple[np.ndarray, tuple[float, float]]:
    """The lens board: the bounding box of the page's dark ink below its heading, with ``white_mm`` of the
    paper around it; and its size in mm."""
    gray = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    top = page.shape[0] // 12  # below the heading
    ys, xs = np.nonzero(gray[top:] < 100)
    pad = round(white_mm * dpi / 25.4)
    y0, y1 = max(0, top + ys.min() - pad), min(page.shape[0], top + ys.max() + 1 + pad)
    x0, x1 = max(0, xs.min() - pad), min(page.shape[1], xs.max() + 1 + pad)
    board = page[y0:y1, x0:x1].copy()
    return board, (board.shape[1] * 25.4 / dpi, board.shape[0] * 25.4 / dpi)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table: ``height_mm`` above the point it looks at, pitched by ``tilt_deg``
    (moved towards +y and looking back), OpenCV's radial distortion ``k1``, ``k2``."""

    width: int
    height: int
    hfov_deg: float = 66.0
    height_mm: float = 900.0
    tilt_deg: float = 0.0
    target_mm: tuple[float, float] = (500.0, 250.0)
    k1: float = 0.0
    k2: float = 0.0
    #: the sensor bins 2 x 2 (Camera Module 3 at 2304 x 1296): drawn and mosaicked at twice the size,
    #: then averaged down, as the sensor does
    binned: bool = False

    def sensor(self) -> Camera:
        """The camera at the sensor's own resolution (itself unless it bins)."""
        from dataclasses import replace

        if not self.binned:
            return self
        return replace(self, width=self.width * 2, height=self.height * 2, binned=False)

    def matrix(self) -> np.ndarray:
        focal = self.width / (2 * math.tan(math.radians(self.hfov_deg) / 2))
        return np.array([[focal, 0, self.width / 2], [0, focal, self.height / 2], [0, 0, 1]],
                        dtype=np.float64)

    def distortion(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """World -> camera (R, t); the world's z points into the table (x right, y down the table)."""
        tx, ty = self.target_mm
        centre = np.array([tx, ty + self.height_mm * math.tan(math.radians(self.tilt_deg)), -self.height_mm])
        forward = np.array([tx, ty, 0.0]) - centre
        forward /= np.linalg.norm(forward)
        right = np.cross([0.0, 1.0, 0.0], forward)
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rotation = np.vstack([right, down, forward])
        return rotation, -rotation @ centre

    def table_homography(self, up_mm: float = 0.0) -> np.ndarray:
        """Table mm -> ideal (undistorted) frame pixels, for the plane ``up_mm`` above the table."""
        rotation, translation = self.pose()
        lifted = translation - up_mm * rotation[:, 2]  # the world's z points into the table
        return self.matrix() @ np.column_stack([rotation[:, 0], rotation[:, 1], lifted])

    def corner_distortion(self) -> float:
        """How much the lens moves the frame's corner, as a fraction of its distance from the centre."""
        camera = self.matrix()
        x, y = self.width / 2 / camera[0, 0], self.height / 2 / camera[1, 1]
        r2 = x * x + y * y
        return abs(self.k1 * r2 + self.k2 * r2 * r2)


@dataclass(frozen=True)
class Looks:
    blur_sigma: float = 0.7
    noise: float = 3.0
    jpeg_quality: int = 88
    bayer: bool = True
    light: float = 1.0
    seed: int = 1


def wood(width_mm: float, height_mm: float, px_per_mm: float, seed: int) -> np.ndarray:
    """A wooden table top: planks with grain and knots, in a warm brown."""
    rng = np.random.default_rng(seed)
    w, h = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    plank = (ys / (110 * px_per_mm)).astype(np.int32)
    phase = rng.uniform(0, 6.3, size=int(plank.max()) + 2).astype(np.float32)[plank]
    grain = 0.5 + 0.5 * np.sin(xs / (7.0 * px_per_mm) + 3.0 * np.sin(ys / (23.0 * px_per_mm) + phase) + phase)
    shade = 0.75 + 0.25 * grain + rng.normal(0, 0.03, size=(h, w)).astype(np.float32)
    shade *= (0.85 + 0.3 * (rng.uniform(size=int(plank.max()) + 2).astype(np.float32)[plank]))
    seams = (ys % (110 * px_per_mm)) < 1.2 * px_per_mm
    shade = np.where(seams, shade * 0.55, shade)
    table = np.stack([70 * shade, 110 * shade, 160 * shade], axis=2)
    for _ in range(6):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        axes = (int(9 * px_per_mm), int(5 * px_per_mm))
        cv2.ellipse(table, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, (40, 65, 95), -1)
    return np.clip(table, 0, 255).astype(np.uint8)


@dataclass
class Table:
    """What lies on the table: marker and sticker images at table positions, hexagonal tiles under them."""

    area_mm: tuple[float, float]
    #: (image, 4 corners in mm, its height above the table in mm)
    items: list[tuple[np.ndarray, np.ndarray, float]] = field(default_factory=list)
    tiles: list[tuple[tuple[float, float], tuple[int, int, int]]] = field(default_factory=list)
    truth: dict[str, tuple[float, float]] = field(default_factory=dict)

    def put(self, image: np.ndarray, centre: tuple[float, float], side_mm: float, angle_deg: float,
            up_mm: float = 0.0) -> None:
        """An image ``side_mm`` square centred at ``centre``, turned ``angle_deg`` clockwise on the table,
        ``up_mm`` above it (a sticker on a tile)."""
        half = side_mm / 2
        turn = math.radians(angle_deg)
        c, s = math.cos(turn), math.sin(turn)
        corners = [(centre[0] + c * x - s * y, centre[1] + s * x + c * y)
                   for x, y in ((-half, -half), (half, -half), (half, half), (-half, half))]
        self.items.append((image, np.array(corners, dtype=np.float64), up_mm))

    def put_marker(self, image: np.ndarray, share: float, centre: tuple[float, float],
                   size_mm: float) -> None:
        self.put(image, centre, size_mm / share, 0.0)


def jurassic_parts_slab(table: Table, codes: dict[str, Sticker], tiles: Sequence[str], code_mm: float,
                        centre: tuple[float, float], seed: int) -> None:
    """Jurassic Parts tiles in pointy-top hex rows around ``centre``, each with its sticker on it, turned
    by a multiple of 60 degrees (and a little by hand)."""
    rng = np.random.default_rng(seed)
    columns = math.ceil(len(tiles) / 5)
    cells = [(q, r) for r in range(5) for q in range(columns)][: len(tiles)]
    xs = [HEX_PITCH_MM * (q + r / 2) for q, r in cells]
    ys = [HEX_PITCH_MM * math.sqrt(3) / 2 * r for q, r in cells]
    ox, oy = centre[0] - (min(xs) + max(xs)) / 2, centre[1] - (min(ys) + max(ys)) / 2
    for payload, x, y in zip(tiles, xs, ys):
        colour = tuple(int(v) for v in rng.integers(150, 230, size=3))
        table.tiles.append(((x + ox, y + oy), colour))  # type: ignore[arg-type]
        sticker = codes[payload]
        where = (x + ox + rng.normal(0, 1.0), y + oy + rng.normal(0, 1.0))
        turn = 60 * int(rng.integers(0, 6)) + rng.normal(0, 2.0)
        table.put(sticker.image, where, sticker.side_mm(code_mm), turn, TILE_MM)
        table.truth[payload] = where


def photograph(table: Table, camera: Camera, looks: Looks = Looks()) -> np.ndarray:
    """The table as ``camera`` takes it."""
    if camera.binned:
        full = photograph(table, camera.sensor(), Looks(looks.blur_sigma, looks.noise, 100, looks.bayer,
                                                        looks.light, looks.seed))
        binned = cv2.resize(full, (camera.width, camera.height), interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", binned, [cv2.IMWRITE_JPEG_QUALITY, looks.jpeg_quality])
        assert ok
        return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    homography = camera.table_homography()
    size = (camera.width, camera.height)
    margin = 400.0
    px_per_mm = 1.5
    top = wood(table.area_mm[0] + 2 * margin, table.area_mm[1] + 2 * margin, px_per_mm, looks.seed)
    for (x, y), colour in table.tiles:
        radius = (HEX_PITCH_MM / math.sqrt(3) - 1.5) * px_per_mm
        angles = [math.radians(60 * k + 30) for k in range(6)]
        cx, cy = (x + margin) * px_per_mm, (y + margin) * px_per_mm
        corners = [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles]
        cv2.fillPoly(top, [np.round(np.array(corners)).astype(np.int32)], colour)
    place = np.array([[1 / px_per_mm, 0, -margin], [0, 1 / px_per_mm, -margin], [0, 0, 1]])
    frame = cv2.warpPerspective(top, homography @ place, size, flags=cv2.INTER_LINEAR,
                                borderValue=(60, 60, 60))
    for image, corners_mm, up_mm in table.items:
        _composite(frame, image, camera.table_homography(up_mm), corners_mm)
    return _through_the_lens(frame, camera, looks)


def _composite(frame: np.ndarray, image: np.ndarray, homography: np.ndarray, corners_mm: np.ndarray) -> None:
    h, w = image.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    corners_px = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
    x0, y0 = np.floor(corners_px.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners_px.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    warp = cv2.getPerspectiveTransform(source, (corners_px - [x0, y0]).astype(np.float32))
    patch = cv2.warpPerspective(image, warp, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), warp, (x1 - x0, y1 - y0)) > 127
    frame[y0:y1, x0:x1][mask] = patch[mask]


@functools.lru_cache(maxsize=4)
def _lens_maps(camera: Camera) -> tuple[np.ndarray, np.ndarray]:
    """For each pixel of the bent frame, the straight frame's pixel it shows (OpenCV's own model)."""
    matrix = camera.matrix()
    maps: tuple[np.ndarray, np.ndarray] = cv2.initInverseRectificationMap(
        matrix, camera.distortion(), np.eye(3), matrix, (camera.width, camera.height), cv2.CV_32FC1)
    return maps


def _through_the_lens(frame: np.ndarray, camera: Camera, looks: Looks) -> np.ndarray:
    rng = np.random.default_rng(looks.seed)
    if camera.k1 or camera.k2:
        map_x, map_y = _lens_maps(camera)
        frame = cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    image = frame.astype(np.float32) * looks.light
    if looks.blur_sigma:
        image = cv2.GaussianBlur(image, (0, 0), looks.blur_sigma)
    image += rng.normal(0, looks.noise, size=image.shape).astype(np.float32) * np.sqrt(
        np.maximum(image, 1) / 128)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if looks.bayer:
        mosaic = np.zeros(image.shape[:2], np.uint8)
        mosaic[0::2, 0::2] = image[0::2, 0::2, 2]
        mosaic[0::2, 1::2] = image[0::2, 1::2, 1]
        mosaic[1::2, 0::2] = image[1::2, 0::2, 1]
        mosaic[1::2, 1::2] = image[1::2, 1::2, 0]
        image = cv2.cvtColor(mosaic, cv2.COLOR_BayerBG2BGR)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, looks.jpeg_quality])
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def board_photos(board: np.ndarray, board_mm: tuple[float, float], camera: Camera, count: int = 12,
                 seed: int = 5) -> list[np.ndarray]:
    """The lens board held up to the camera ``count`` times: turned up to 25 degrees each way, moved so
    that its views together cover the frame's corners, about 45 cm off."""
    rng = np.random.default_rng(seed)
    width_mm, height_mm = board_mm
    corners = np.array([[-width_mm / 2, -height_mm / 2, 0], [width_mm / 2, -height_mm / 2, 0],
                        [width_mm / 2, height_mm / 2, 0], [-width_mm / 2, height_mm / 2, 0]])
    h, w = board.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = camera.matrix()
    spots = [(sx, sy) for sx in (-1, 0, 1) for sy in (-1, 1)] + [(0, 0)] * 2 + [(-1, 0), (1, 0)] * 2
    photos = []
    for index in range(count):
        sx, sy = spots[index % len(spots)]
        distance = rng.uniform(420, 520)
        half_w = distance * camera.width / 2 / matrix[0, 0]
        half_h = distance * camera.height / 2 / matrix[1, 1]
        centre = np.array([sx * (half_w - width_mm / 2) * rng.uniform(0.7, 0.95),
                           sy * (half_h - height_mm / 2) * rng.uniform(0.6, 0.95), distance])
        rvec = np.radians(rng.uniform(-25, 25, size=3)) * [1, 1, 0.6]
        pixels, _ = cv2.projectPoints(corners, rvec, centre, matrix, np.zeros(5))
        warp = cv2.getPerspectiveTransform(source, pixels.reshape(4, 2).astype(np.float32))
        frame = cv2.warpPerspective(board, warp, (camera.width, camera.height), flags=cv2.INTER_AREA,
                                    borderValue=(95, 90, 85))
        photos.append(_through_the_lens(frame, camera, Looks(seed=seed + index, blur_sigma=0.6)))
    return photos
