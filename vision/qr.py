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
        model2 = getattr(zxingcpp.BarcodeFormat, "QRCodeModel2", zxingcpp.BarcodeFormat.QRCode)
        self._formats = zxingcpp.BarcodeFormats(model2)
        self._try_downscale = try_downscale
        self._try_invert = try_invert

    def _read(self, gray: np.ndarray, errors: bool) -> list[Any]:
        results: list[Any] = self._zxing.read_barcodes(
            np.ascontiguousarray(gray),
            formats=self._formats,
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
            corners = order_corners_by_finders(gray, polygon, 17 + 4 * version_for(text))
            codes.append(code_from_corners(text, corners))
        return codes


# Dark/light modules along the diagonal of a finder pattern, from the code's corner inwards.
_FINDER_DIAGONAL = (True, False, True, True, True, False, True)


def order_corners_by_finders(gray: np.ndarray, polygon: Sequence[Point], modules: int) -> list[Point]:
    """Four corners in code order (TL, TR, BR, BL) from an unordered outline: the corner without a
    finder pattern on its diagonal is bottom-right; the sense of turning fixes the other two."""
    import cv2

    pts = np.array(polygon, dtype=np.float32)
    hull = cv2.convexHull(pts).reshape(-1, 2)
    if len(hull) != 4:
        hull = cv2.boxPoints(cv2.minAreaRect(pts)).astype(np.float32)
    h, w = gray.shape[:2]

    def sample(x: float, y: float) -> float:
        return float(gray[int(min(h - 1, max(0, round(y)))), int(min(w - 1, max(0, round(x))))])

    threshold = 128.0
    x0, y0 = hull.min(axis=0)
    x1, y1 = hull.max(axis=0)
    patch = gray[int(max(0, y0)) : int(min(h, y1 + 1)), int(max(0, x0)) : int(min(w, x1 + 1))]
    if patch.size:
        threshold = float(patch.mean())
    scores = []
    for index in range(4):
        corner, opposite = hull[index], hull[(index + 2) % 4]
        score = 0
        for step, dark in enumerate(_FINDER_DIAGONAL):
            x, y = corner + (opposite - corner) * ((step + 0.5) / modules)
            score += (sample(float(x), float(y)) < threshold) == dark
        scores.append(score)
    br = int(np.argmin(scores))
    tl = (br + 2) % 4
    first, second = (tl + 1) % 4, (tl + 3) % 4

    def turns_clockwise(candidate: int) -> bool:
        a, b = hull[candidate] - hull[tl], hull[br] - hull[candidate]
        return float(a[0] * b[1] - a[1] * b[0]) > 0

    tr, bl = (first, second) if turns_clockwise(first) else (second, first)
    return [(float(hull[i][0]), float(hull[i][1])) for i in (tl, tr, br, bl)]


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
