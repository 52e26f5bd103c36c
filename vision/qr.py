"""QR decoding behind one interface, with pluggable backends (zxing-cpp, pyzbar).

Every backend returns :class:`QRCode` values: the text, the four corners in the code's own order
(top-left, top-right, bottom-right, bottom-left as printed), the centre, the rotation in degrees
counter-clockwise as seen in the image (0 = the code's top edge faces the top of the image) and the size of
one module in pixels. The default backend is the one the benchmark found faster while reading everything
(``benchmarks/bench_vision.py``): zxing-cpp.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
#: (x, y, width, height) in pixels.
Rect = tuple[int, int, int, int]
#: (x0, y0, x1, y1) in pixels: a crop ``gray[y0:y1, x0:x1]``.
Box = tuple[int, int, int, int]

#: Character capacity of alphanumeric QR codes at error correction M, by version.
_ALNUM_CAPACITY_M = (20, 38, 61, 90, 122, 154, 178, 221, 262, 311)


@dataclass(frozen=True)
class QRCode:
    text: str
    corners: Quad
    center: Point
    angle: float
    module_px: float

    def to_dict(self) -> dict[str, Any]:
        """The ``companion decode`` JSON shape."""
        return {
            "text": self.text,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "angle": round(self.angle, 1),
        }

    def shifted(self, dx: float, dy: float) -> QRCode:
        moved = tuple((x + dx, y + dy) for x, y in self.corners)
        return QRCode(
            self.text,
            (moved[0], moved[1], moved[2], moved[3]),
            (self.center[0] + dx, self.center[1] + dy),
            self.angle,
            self.module_px,
        )


def version_for(text: str) -> int:
    """The smallest QR version that holds ``text`` alphanumerically at level M (our tags' encoding)."""
    for version, capacity in enumerate(_ALNUM_CAPACITY_M, start=1):
        if len(text) <= capacity:
            return version
    return len(_ALNUM_CAPACITY_M)


def code_from_corners(text: str, corners: Sequence[Point], version: int | None = None) -> QRCode:
    """Build a :class:`QRCode` from corners in code order (TL, TR, BR, BL)."""
    pts = [(float(x), float(y)) for x, y in corners]
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    center = ((x0 + x1 + x2 + x3) / 4.0, (y0 + y1 + y2 + y3) / 4.0)
    # Top edge direction, averaged with the bottom edge; y points down so CCW angle = atan2(-dy, dx).
    dx = (x1 - x0) + (x2 - x3)
    dy = (y1 - y0) + (y2 - y3)
    angle = math.degrees(math.atan2(-dy, dx))
    sides = [math.dist(pts[i], pts[(i + 1) % 4]) for i in range(4)]
    modules = 17 + 4 * (version or version_for(text))
    return QRCode(text, (pts[0], pts[1], pts[2], pts[3]), center, _normalise(angle), sum(sides) / 4 / modules)


def _normalise(angle: float) -> float:
    """Degrees in (-180, 180]."""
    angle = math.fmod(angle, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle


def to_gray(image: np.ndarray) -> np.ndarray:
    import cv2

    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


class QRBackend(Protocol):
    name: str

    def decode(self, gray: np.ndarray) -> list[QRCode]:
        """Every QR code in a grayscale image; never raises on an image without codes."""
        ...


class ZxingBackend:
    """zxing-cpp: finds codes at any rotation; corners come in code order; QR Model 2 only (zxing-cpp 3's
    ``QRCode`` also admits Micro QR and rMQR, which gave false reads in busy frames).

    ``try_downscale`` and ``try_invert`` find codes much larger than zxing-cpp's window and light-on-dark
    codes; on the table's own frames they found nothing more and cost +60-100 % and +10-30 % (zxing-cpp
    3.1, 2304x1296 and 4608x2592): off for the table, on for ``companion decode`` of any picture."""

    name = "zxing"

    def __init__(self, try_downscale: bool = False, retry: bool = True, try_invert: bool = False) -> None:
        import zxingcpp

        self._zxing = zxingcpp
        self.retry = retry
        # the format, not a BarcodeFormats object: one held until the interpreter exits is reported by
        # nanobind as leaked ("nanobind: leaked 1 instances!") when the process stops
        self._format = getattr(zxingcpp.BarcodeFormat, "QRCodeModel2", zxingcpp.BarcodeFormat.QRCode)
        self._try_downscale = try_downscale
        self._try_invert = try_invert

    def _read(self, gray: np.ndarray, errors: bool) -> list[Any]:
        results: list[Any] = self._zxing.read_barcodes(
            np.ascontiguousarray(gray),
            formats=self._zxing.BarcodeFormats(self._format),
            try_rotate=True,
            try_downscale=self._try_downscale,
            try_invert=self._try_invert,
            return_errors=errors,
        )
        return results

    @staticmethod
    def _version(result: Any) -> int | None:
        """The decoded symbol's version (zxing-cpp 3 reports it), for the module size."""
        extra = getattr(result, "extra", None)
        try:
            return int(extra["Version"]) if isinstance(extra, dict) and "Version" in extra else None
        except (TypeError, ValueError):
            return None

    @staticmethod
    def _corners(result: Any) -> list[Point]:
        p = result.position
        return [(float(pt.x), float(pt.y)) for pt in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]

    def decode(self, gray: np.ndarray) -> list[QRCode]:
        codes = []
        failed: list[list[Point]] = []
        for result in self._read(gray, self.retry):
            if result.valid:
                codes.append(code_from_corners(result.text, self._corners(result), self._version(result)))
            else:
                failed.append(self._corners(result))
        if failed:
            # Codes found but not decoded (checksum errors at the edge of readability): read their
            # neighbourhoods again, enlarged (module edges are sharper after interpolation), all in one call.
            for code in self._retry(gray, failed, codes):
                if not any(c.text == code.text and math.dist(c.center, code.center) < 20 for c in codes):
                    codes.append(code)
        return codes

    def _retry(self, gray: np.ndarray, failed: list[list[Point]], known: list[QRCode]) -> list[QRCode]:

        h, w = gray.shape[:2]
        boxes: list[Box] = []
        for corners in failed:
            xs = [x for x, _ in corners]
            ys = [y for _, y in corners]
            side = max(max(xs) - min(xs), max(ys) - min(ys), 8.0)
            centre = (sum(xs) / 4.0, sum(ys) / 4.0)
            if any(math.dist(centre, code.center) < side / 2 for code in known):
                continue  # a second, failed detection of a code already read
            if any(
                abs(centre[0] - (b[0] + b[2]) / 2) < side / 2
                and abs(centre[1] - (b[1] + b[3]) / 2) < side / 2
                for b in boxes
            ):
                continue
            margin = 0.35 * side
            x0, y0 = max(0, int(min(xs) - margin)), max(0, int(min(ys) - margin))
            x1, y1 = min(w, int(max(xs) + margin)), min(h, int(max(ys) + margin))
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                boxes.append((x0, y0, x1, y1))

        def read_valid(canvas: np.ndarray) -> list[QRCode]:
            results = self._read(canvas, False)
            return [code_from_corners(r.text, self._corners(r), self._version(r)) for r in results if r.valid]

        return read_mosaics(gray, boxes, (1.6, 2.2), read_valid)


class PyzbarBackend:
    """pyzbar (libzbar): corners come as an unordered outline; the finder patterns tell which is which."""

    name = "pyzbar"

    def __init__(self) -> None:
        from pyzbar import pyzbar

        self._pyzbar = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]

    def decode(self, gray: np.ndarray) -> list[QRCode]:
        codes = []
        for result in self._pyzbar.decode(np.ascontiguousarray(gray), symbols=self._symbols):
            try:
                text = result.data.decode("utf-8")
            except UnicodeDecodeError:
                text = result.data.decode("latin-1")
            polygon = [(float(p.x), float(p.y)) for p in result.polygon]
            if len(polygon) < 4:
                continue
            by_finders = order_corners_by_finders(gray, polygon, 17 + 4 * version_for(text))
            turn = _ZBAR_TURNS.get(str(getattr(result, "orientation", None) or ""))
            # an older libzbar without orientation: the finder patterns alone tell
            corners = by_finders if turn is None else order_corners_by_turn(polygon, turn, by_finders[0])
            codes.append(code_from_corners(text, corners))
        return codes


#: libzbar's orientation of a code as quarter turns counter-clockwise on screen (its polygon comes in the
#: image's order, not the code's: the orientation says which corner is the code's top-left)
_ZBAR_TURNS = {"UP": 0, "LEFT": 1, "DOWN": 2, "RIGHT": 3}


def order_corners_by_turn(
    polygon: Sequence[Point], quarter_turns: int, hint: Point | None = None
) -> list[Point]:
    """Four corners in code order (TL, TR, BR, BL) from an outline and the code's rotation to the nearest
    quarter turn: the top-left is the corner nearest the upright top-left turned that far, the others
    follow clockwise on screen. Near 45 degrees the rounding can go either way: then ``hint`` (the
    top-left the finder patterns point at) decides between the two nearest corners."""
    hull = _screen_clockwise(polygon)
    centre = hull.mean(axis=0)
    upright = math.atan2(-1.0, -1.0)  # the top-left corner's direction from the centre, y down
    expected = upright - quarter_turns * math.pi / 2  # counter-clockwise on screen is -angle with y down

    def off(point: np.ndarray) -> float:
        angle = math.atan2(float(point[1] - centre[1]), float(point[0] - centre[0]))
        return abs(math.remainder(angle - expected, 2 * math.pi))

    ranked = sorted(range(4), key=lambda i: off(hull[i]))
    tl = ranked[0]
    if hint is not None and off(hull[ranked[1]]) - off(hull[tl]) < math.radians(30):
        tl = min(ranked[:2], key=lambda i: math.dist((float(hull[i][0]), float(hull[i][1])), hint))
    return [(float(hull[(tl + k) % 4][0]), float(hull[(tl + k) % 4][1])) for k in range(4)]


def _finder_scores(gray: np.ndarray, hull: np.ndarray, modules: int, threshold: float) -> list[int]:
    """How many of the 7x7 modules at each corner match a finder pattern, for a code of ``modules``."""
    import cv2

    h, w = gray.shape[:2]
    unit = np.array([[0, 0], [modules, 0], [modules, modules], [0, modules]], dtype=np.float32)
    grid = np.array([[c + 0.5, r + 0.5] for r in range(7) for c in range(7)], dtype=np.float32)
    scores = []
    for index in range(4):  # the code seen with this corner as its top-left
        order = np.array([hull[(index + k) % 4] for k in range(4)], dtype=np.float32)
        to_image = cv2.getPerspectiveTransform(unit, order)
        points = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), to_image).reshape(-1, 2)
        xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
        dark = (gray[ys, xs] < threshold).reshape(7, 7)
        scores.append(int(np.sum(dark == _FINDER)))
    return scores


def _screen_clockwise(polygon: Sequence[Point]) -> np.ndarray:
    """An outline's four corners clockwise on screen (y down)."""
    import cv2

    pts = np.array(polygon, dtype=np.float32)
    # OpenCV's "clockwise" is in y-up terms: with y down, clockwise on screen is clockwise=False
    hull = cv2.convexHull(pts, clockwise=False).reshape(-1, 2)
    if len(hull) != 4:
        box = cv2.boxPoints(cv2.minAreaRect(pts)).astype(np.float32)
        hull = cv2.convexHull(box, clockwise=False).reshape(-1, 2)
    return hull


#: a finder pattern, module by module from the code's corner: dark ring, light ring, dark 3x3 centre
_FINDER = np.array([[max(abs(r - 3), abs(c - 3)) in (0, 1, 3) for c in range(7)] for r in range(7)])


def order_corners_by_finders(gray: np.ndarray, polygon: Sequence[Point], modules: int) -> list[Point]:
    """Four corners in code order (TL, TR, BR, BL) from an unordered outline: the corner whose 7x7
    modules look least like a finder pattern is bottom-right; clockwise on screen from the top-left
    opposite it come the others. ``modules`` is a first guess at the code's size (from its text); the
    size whose three best corners look most like finders is taken (another encoder's code may be larger)."""
    hull = _screen_clockwise(polygon)
    h, w = gray.shape[:2]
    x0, y0 = hull.min(axis=0)
    x1, y1 = hull.max(axis=0)
    patch = gray[int(max(0, y0)) : int(min(h, y1 + 1)), int(max(0, x0)) : int(min(w, x1 + 1))]
    threshold = float(patch.mean()) if patch.size else 128.0
    sizes = sorted({modules, *range(21, 21 + 4 * 15, 4)}, key=lambda m: abs(m - modules))
    fits = [_finder_scores(gray, hull, size, threshold) for size in sizes]
    scores = max(fits, key=lambda s: sum(sorted(s)[1:]))  # ties: the size nearest the guess
    tl = (int(np.argmin(scores)) + 2) % 4
    return [(float(hull[(tl + k) % 4][0]), float(hull[(tl + k) % 4][1])) for k in range(4)]


_BACKENDS: dict[str, Callable[[], QRBackend]] = {
    "zxing": ZxingBackend,
    "pyzbar": PyzbarBackend,
}
DEFAULT_BACKEND = "zxing"


def backend_names() -> list[str]:
    return list(_BACKENDS)


def get_backend(name: str | None = None, any_picture: bool = False) -> QRBackend:
    """A backend by name (``zxing``, ``pyzbar``); None gives the default. ``any_picture``: settings for a
    picture that is not the table's (codes of any size, light on dark too)."""
    key = name or DEFAULT_BACKEND
    if any_picture and key == "zxing":
        return ZxingBackend(try_downscale=True, try_invert=True)
    try:
        factory = _BACKENDS[key]
    except KeyError:
        raise ValueError(f"unknown QR backend {key!r}; choose from {', '.join(_BACKENDS)}") from None
    return factory()


def decode(
    image: np.ndarray, backend: QRBackend | None = None, rois: Iterable[Rect] | None = None
) -> list[QRCode]:
    """Decode the whole image, or only the given regions (results in full-image pixels, deduplicated)."""
    reader = backend or get_backend()
    gray = to_gray(image)
    if rois is None:
        return reader.decode(gray)
    height, width = gray.shape[:2]
    found: list[QRCode] = []
    for x, y, w, h in rois:
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(width, int(x + w)), min(height, int(y + h))
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        for code in reader.decode(gray[y0:y1, x0:x1]):
            code = code.shifted(x0, y0)
            if not any(
                other.text == code.text and math.dist(other.center, code.center) < 2 * code.module_px * 3
                for other in found
            ):
                found.append(code)
    return found


def decode_enlarged(
    image: np.ndarray, backend: QRBackend, rects: Sequence[Rect], scales: Sequence[float] = (2.0,)
) -> list[QRCode]:
    """Decode small regions enlarged (where a code is expected but was not read: too few pixels per
    module), all regions of one scale in a single mosaic image; results in full-image pixels."""

    gray = to_gray(image)
    h, w = gray.shape[:2]
    boxes = []
    for x, y, bw, bh in rects:
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(w, int(x + bw)), min(h, int(y + bh))
        if x1 - x0 >= 8 and y1 - y0 >= 8:
            boxes.append((x0, y0, x1, y1))
    return read_mosaics(gray, boxes, scales, backend.decode)


def read_mosaics(
    gray: np.ndarray,
    boxes: Sequence[Box],
    scales: Sequence[float],
    decode: Callable[[np.ndarray], list[QRCode]],
) -> list[QRCode]:
    """Read crops of ``gray`` enlarged: per scale, every crop not read yet goes into one mosaic image,
    decoded in a single call (a call per crop costs more); codes come back in full-image pixels."""
    import cv2

    found: list[QRCode] = []
    for scale in scales:
        if not boxes:
            break
        tiles = [
            cv2.resize(gray[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            for x0, y0, x1, y1 in boxes
        ]
        canvas, places = _mosaic(tiles)
        solved = set()
        for code in decode(canvas):
            mx, my = code.center
            for index, (tile, (px, py)) in enumerate(zip(tiles, places)):
                if px <= mx < px + tile.shape[1] and py <= my < py + tile.shape[0]:
                    x0, y0 = boxes[index][0], boxes[index][1]
                    mapped = [((x - px) / scale + x0, (y - py) / scale + y0) for x, y in code.corners]
                    found.append(code_from_corners(code.text, mapped))
                    solved.add(index)
                    break
        boxes = [box for index, box in enumerate(boxes) if index not in solved]
    return found


def _mosaic(
    tiles: Sequence[np.ndarray], gap: int = 24, min_width: int = 1200
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Tiles in rows on a white canvas, ``gap`` pixels apart; the canvas and each tile's top-left corner."""
    width = max(min_width, max(t.shape[1] for t in tiles) + 2 * gap)
    places: list[tuple[int, int]] = []
    cx = cy = gap
    row_h = 0
    for tile in tiles:
        th, tw = tile.shape[:2]
        if cx + tw + gap > width:
            cx, cy, row_h = gap, cy + row_h + gap, 0
        places.append((cx, cy))
        cx += tw + gap
        row_h = max(row_h, th)
    canvas = np.full((cy + row_h + gap, width), 255, dtype=np.uint8)
    for tile, (px, py) in zip(tiles, places):
        canvas[py : py + tile.shape[0], px : px + tile.shape[1]] = tile
    return canvas, places
