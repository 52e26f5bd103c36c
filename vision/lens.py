"""The camera's lens: intrinsics and distortion, fitted from ChArUco board photos or a shipped nominal
profile, applied to detected points only (a whole-frame remap would cost a Pi a frame's worth of time).

A :class:`Lens` is stated at the resolution it was fitted at and scales to any frame of the same aspect
(the Camera Module 3 bins its 4608x2592 sensor to 2304x1296). :meth:`Lens.undistort` takes frame pixels to
where a distortion-free lens with the same focal length would have put them; the table homography is
fitted and applied in those pixels (see :class:`vision.calibration.Calibration`).

The board: 9 x 6 squares of 28 mm, ArUco ``DICT_5X5_100`` markers of 21 mm (the table's own markers are
``DICT_4X4_50``, so a board lying on the table is never taken for them). Print it flat (it stands upright
on an A4 portrait page), photograph it 6 to 15 times from the camera's place, tilted and moved about so
the board covers the frame's corners; :func:`fit_lens` does the rest, and refuses photos that show the
board again from the same place or leave a corner of the frame without it (the fit would guess there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

BOARD_SQUARES = (9, 6)
BOARD_SQUARE_MM = 28.0
BOARD_MARKER_MM = 21.0
BOARD_MARGIN_MM = 4.0  # the white border printed around the squares (the board fills its A4 page)
MIN_VIEWS = 4
#: views tilted this far at least (degrees) that a fit needs: flat views leave the focal length unknown
MIN_TILT_DEGREES, MIN_TILTED_VIEWS = 5.0, 3
#: two photos whose board corners lie within this many pixels of each other (median) are one view
SAME_VIEW_PX = 3.0
#: the photos together must bring board corners this far into each corner of the frame (a fraction)
CORNER_REACH = 0.25
UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-9)
MIN_CORNERS = 12


class LensError(ValueError):
    """Photos a lens cannot be fitted from (too few, or the board not found in enough of them)."""


@dataclass(frozen=True)
class Lens:
    """``matrix`` (fx, fy, cx, cy) and ``distortion`` (k1, k2, p1, p2, k3) at ``resolution`` (w, h);
    ``source`` says where they come from (fitted, or a nominal profile: then say so to the user)."""

    name: str
    resolution: tuple[int, int]
    matrix: tuple[float, float, float, float]
    distortion: tuple[float, float, float, float, float]
    source: str
    rms_px: float | None = None

    def intrinsics(self, size: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """The camera matrix and distortion for frames of ``size`` (w, h), scaled from :attr:`resolution`."""
        width, height = int(size[0]), int(size[1])
        if width <= 0 or height <= 0:
            width, height = self.resolution
        sx, sy = width / self.resolution[0], height / self.resolution[1]
        fx, fy, cx, cy = self.matrix
        camera = np.array([[fx * sx, 0.0, cx * sx], [0.0, fy * sy, cy * sy], [0.0, 0.0, 1.0]])
        return camera, np.asarray(self.distortion, dtype=np.float64)

    def undistort(self, points_px: np.ndarray | Sequence[Any], size: Sequence[int]) -> np.ndarray:
        """Frame pixels -> where a distortion-free lens would have put them (same camera matrix)."""
        points = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        if not len(points):
            return points.reshape(-1, 2)
        camera, distortion = self.intrinsics(size)
        # iterated to convergence: OpenCV's default 5 steps leave ~0.1 px in a wide lens's corners
        iterate = getattr(cv2, "undistortPointsIter", None)  # OpenCV 4; OpenCV 5 takes the criteria
        if iterate is not None:
            corrected = iterate(points, camera, distortion, None, camera, UNDISTORT_CRITERIA)
        else:
            undistort: Any = cv2.undistortPoints  # OpenCV 5's signature: its stubs differ from 4's
            corrected = undistort(points, camera, distortion, None, None, camera, UNDISTORT_CRITERIA)
        result: np.ndarray = corrected.reshape(-1, 2)
        return result

    def distort(self, points_px: np.ndarray | Sequence[Any], size: Sequence[int]) -> np.ndarray:
        """The inverse of :meth:`undistort`: distortion-free pixels -> frame pixels."""
        points = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
        camera, distortion = self.intrinsics(size)
        normal = (points - camera[:2, 2]) / np.array([camera[0, 0], camera[1, 1]])
        rays = np.hstack([normal, np.ones((len(normal), 1))]).reshape(-1, 1, 3)
        projected, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), camera, distortion)
        result: np.ndarray = projected.reshape(-1, 2)
        return result

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "resolution": list(self.resolution), "matrix": list(self.matrix),
                "distortion": list(self.distortion), "source": self.source, "rms_px": self.rms_px}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Lens:
        try:
            matrix = tuple(float(v) for v in data["matrix"])
            distortion = tuple(float(v) for v in data["distortion"])
            width, height = (int(v) for v in data["resolution"])
            if len(matrix) != 4 or len(distortion) != 5 or width <= 0 or height <= 0:
                raise ValueError("matrix has 4 numbers, distortion 5, resolution 2 positive ones")
            if not all(np.isfinite([*matrix, *distortion])) or matrix[0] <= 0 or matrix[1] <= 0:
                raise ValueError("focal lengths must be positive finite numbers")
            rms = data.get("rms_px")
            return cls(str(data.get("name", "lens")), (width, height),
                       matrix, distortion, str(data.get("source", "")),
                       None if rms is None else float(rms))
        except (KeyError, TypeError, ValueError) as error:
            raise LensError(f"lens: {error}") from error


def _nominal(name: str, focal_mm: float, note: str) -> Lens:
    pixel_mm = 0.0014  # the IMX708's 1.4 um pixels at 4608 x 2592
    focal_px = focal_mm / pixel_mm
    return Lens(name, (4608, 2592), (focal_px, focal_px, 2304.0, 1296.0), (0.0, 0.0, 0.0, 0.0, 0.0),
                f"nominal: {note}; distortion not known, so not corrected: fit your own lens "
                "with 'companion calibrate --lens PHOTOS...'")


#: shipped profiles, marked nominal: focal length and sensor from the Camera Module 3 datasheet
DEFAULT_LENSES: dict[str, Lens] = {
    "camera-module-3": _nominal("camera-module-3", 4.74, "Camera Module 3, 4.74 mm lens, 66 degrees"),
    "camera-module-3-wide": _nominal("camera-module-3-wide", 2.75,
                                     "Camera Module 3 Wide, 2.75 mm lens, 102 degrees"),
}


def charuco_board() -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100)
    return cv2.aruco.CharucoBoard(BOARD_SQUARES, BOARD_SQUARE_MM, BOARD_MARKER_MM, dictionary)


def board_image(dpi: int = 300) -> np.ndarray:
    """The board as printed: its squares at their size on paper at ``dpi``, with a white margin."""
    columns, rows = BOARD_SQUARES
    px_per_mm = dpi / 25.4
    margin = round(BOARD_MARGIN_MM * px_per_mm)
    size = (round(columns * BOARD_SQUARE_MM * px_per_mm) + 2 * margin,
            round(rows * BOARD_SQUARE_MM * px_per_mm) + 2 * margin)
    image: np.ndarray = charuco_board().generateImage(size, marginSize=margin, borderBits=1)
    return image


def board_corners(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The board's inner corners found in a photo: (board mm as Nx3, frame pixels as Nx2); empty when the
    board is not in it."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    board = charuco_board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS:
        return np.empty((0, 3)), np.empty((0, 2))
    objects = np.asarray(board.getChessboardCorners(), dtype=np.float64)[np.asarray(ids).ravel()]
    return objects.reshape(-1, 3), np.asarray(corners, dtype=np.float64).reshape(-1, 2)


def _same_view(objects: np.ndarray, pixels: np.ndarray, other_objects: np.ndarray,
               other_pixels: np.ndarray) -> bool:
    """Whether two photos show the board in the same place (a copy, or the board not moved)."""
    keys = {tuple(np.round(point, 3)): index for index, point in enumerate(other_objects)}
    pairs = [(i, keys[tuple(np.round(point, 3))]) for i, point in enumerate(objects)
             if tuple(np.round(point, 3)) in keys]
    if len(pairs) < MIN_CORNERS:
        return False
    moved = np.linalg.norm(pixels[[a for a, _ in pairs]] - other_pixels[[b for _, b in pairs]], axis=1)
    return float(np.median(moved)) < SAME_VIEW_PX


def _uncovered_corners(pixels: Sequence[np.ndarray], size: tuple[int, int]) -> list[str]:
    """The frame's corners no photo brings a board corner near (within :data:`CORNER_REACH`)."""
    width, height = size
    points = np.vstack(pixels) / [width, height]
    corners = {"top left": (0, 0), "top right": (1, 0), "bottom right": (1, 1), "bottom left": (0, 1)}
    near = [(np.abs(points[:, 0] - cx) < CORNER_REACH) & (np.abs(points[:, 1] - cy) < CORNER_REACH)
            for cx, cy in corners.values()]
    return [name for name, close in zip(corners, near) if not np.any(close)]


def _tilt_degrees(turn: Any) -> float:
    """How far a view's board is tilted from facing the camera (the angle of its normal to the axis)."""
    rotation, _ = cv2.Rodrigues(np.asarray(turn, dtype=np.float64))
    return float(np.degrees(np.arccos(min(1.0, abs(float(rotation[2, 2]))))))


def fit_lens(images: Sequence[np.ndarray], name: str = "fitted") -> Lens:
    """Intrinsics and distortion from photos of the board (:func:`board_image`)."""
    if not images:
        raise LensError("no photos of the board given")
    sizes = {(int(im.shape[1]), int(im.shape[0])) for im in images}
    if len(sizes) != 1:
        raise LensError(f"the photos differ in size ({', '.join(f'{w}x{h}' for w, h in sorted(sizes))})")
    size = sizes.pop()
    objects: list[np.ndarray] = []
    pixels: list[np.ndarray] = []
    copies = 0
    for image in images:
        found_objects, found_pixels = board_corners(image)
        if len(found_pixels) < MIN_CORNERS:
            continue
        if any(_same_view(found_objects, found_pixels, o, p) for o, p in zip(objects, pixels)):
            copies += 1
            continue
        objects.append(found_objects.astype(np.float32))
        pixels.append(found_pixels.astype(np.float32))
    if len(objects) < MIN_VIEWS:
        twice = f", {copies} of them again from the same place" if copies else ""
        raise LensError(f"the board was found in {len(objects) + copies} of {len(images)} photos{twice}; "
                        f"at least {MIN_VIEWS} are needed, each a view of its own: move and tilt the board "
                        "between photos, the whole board in view and sharp")
    missing = _uncovered_corners(pixels, size)
    if missing:
        raise LensError(f"no photo shows the board near the frame's {' and '.join(missing)} corner"
                        f"{'s' if len(missing) > 1 else ''}: the fit would guess there; add photos with the "
                        "board held there")
    # k3 held at zero: photos that miss a corner would let it run away there (OpenCV's own advice)
    calibrate: Any = cv2.calibrateCamera  # no initial guess (None): the stubs of some releases want one
    rms, camera, distortion, turns, _ = calibrate(objects, pixels, size, None, None, flags=cv2.CALIB_FIX_K3)
    tilts = sorted((_tilt_degrees(turn) for turn in turns), reverse=True)
    if sum(1 for tilt in tilts if tilt >= MIN_TILT_DEGREES) < MIN_TILTED_VIEWS:
        raise LensError(f"the board is held nearly flat to the camera in the photos (tilted {tilts[0]:.0f} "
                        f"degrees at most): the lens cannot be told from such photos; add {MIN_TILTED_VIEWS} "
                        "or more with the board tilted about 20 to 40 degrees, turned toward each side in "
                        "turn (left, right, up, down)")
    fx, fy, cx, cy = camera[0, 0], camera[1, 1], camera[0, 2], camera[1, 2]
    k = [float(v) for v in np.asarray(distortion).ravel()[:5]]
    return Lens(name, size, (float(fx), float(fy), float(cx), float(cy)), tuple(k + [0.0] * (5 - len(k))),  # type: ignore[arg-type]
                f"fitted from {len(objects)} of {len(images)} photos of the board", float(rms))
