"""Camera pixels <-> table millimetres from the four ArUco calibration markers, zones, self-test, bump check.

The markers (``cv2.aruco.DICT_4X4_50`` ids 0..3, clockwise from the top-left corner of the table area,
axis-aligned on the table) give 16 corners with known table positions; a homography fitted to them maps
frame pixels to table mm. While running, :class:`CalibrationMonitor` looks for the markers again near
where they were (cheap: small crops) and reports a moved camera instead of trusting stale geometry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import marker_edges, viewpoint
from vision import precision as precision_estimate
from vision.lens import Lens
from vision.observation import CalibrationStatus
from vision.precision import Precision
from vision.scene import CALIBRATION_MARKER_IDS, DEFAULT_MARKER_SIZE_MM, Point, Zone
from vision.table_area import AreaCheck, check_area, size_of
from vision.viewpoint import Viewpoint

#: A marker that moved more than this many pixels (beyond detection jitter) means the camera moved.
DEFAULT_BUMP_TOLERANCE_PX = 6.0


class CalibrationError(ValueError):
    """The markers needed for a calibration are not (all) visible; the message says which."""


def _detectors() -> list[cv2.aruco.ArucoDetector]:
    """The usual detector, then the second looks for a marker it missed: its cells read at their middles
    only (blur and noise thin a black cell from its edges), then other thresholding windows (a blurred,
    noisy frame thins a marker's black border below what the usual windows keep)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    usual = cv2.aruco.DetectorParameters()
    usual.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    middles = cv2.aruco.DetectorParameters()
    middles.perspectiveRemoveIgnoredMarginPerCell = 0.3
    windows = cv2.aruco.DetectorParameters()
    windows.adaptiveThreshWinSizeMin, windows.adaptiveThreshWinSizeMax = 5, 53
    windows.adaptiveThreshWinSizeStep = 6
    windows.perspectiveRemoveIgnoredMarginPerCell = 0.3
    return [cv2.aruco.ArucoDetector(dictionary, parameters) for parameters in (usual, middles, windows)]


_DETECTORS: list[cv2.aruco.ArucoDetector] = []


def detect_markers(
    image: np.ndarray, rois: Iterable[tuple[int, int, int, int]] | None = None
) -> dict[int, np.ndarray]:
    """Calibration markers in the image: id -> (4, 2) corners (clockwise from the marker's top-left), on
    the markers' edges (:mod:`vision.marker_edges`).

    With ``rois`` only those crops are searched (what the running monitor does)."""
    if not _DETECTORS:
        _DETECTORS.extend(_detectors())
    height, width = image.shape[:2]
    found: dict[int, np.ndarray] = {}
    regions = [(0, 0, width, height)] if rois is None else list(rois)
    for x, y, w, h in regions:
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(width, int(x + w)), min(height, int(y + h))
        if x1 - x0 < 16 or y1 - y0 < 16:
            continue
        crop = image[y0:y1, x0:x1]
        gray = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)  # only what is searched
        for detector in _DETECTORS:
            corners, ids, _ = detector.detectMarkers(gray)
            for marker_corners, marker_id in zip(corners, () if ids is None else ids.ravel()):
                if int(marker_id) in CALIBRATION_MARKER_IDS and int(marker_id) not in found:
                    edges = marker_edges.refine(gray, marker_corners.reshape(4, 2))
                    found[int(marker_id)] = edges + np.array([x0, y0])
            if _all_in(found, rois is None):
                break
    return found


def _all_in(found: Mapping[int, np.ndarray], whole_frame: bool) -> bool:
    """Whether a look found what it looks for: every marker in the whole frame; in a crop, one."""
    return all(i in found for i in CALIBRATION_MARKER_IDS) if whole_frame else bool(found)


def marker_corners_mm(center: Point, size: float) -> np.ndarray:
    half = size / 2.0
    cx, cy = center
    return np.array(
        [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]]
    )


def corner_layout(width: float, height: float) -> dict[int, Point]:
    """Marker centres at the corners of a ``width`` x ``height`` mm table area (vision.scene's layout)."""
    return dict(zip(CALIBRATION_MARKER_IDS, [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]))


def _apply(matrix: np.ndarray, points: np.ndarray | Sequence[Point]) -> np.ndarray:
    array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.hstack([array, np.ones((len(array), 1))]) @ matrix.T
    result: np.ndarray = mapped[:, :2] / mapped[:, 2:3]
    return result


@dataclass(frozen=True)
class Calibration:
    """A fitted camera-to-table mapping and what the running monitor re-checks.

    ``homography`` maps frame pixels to table mm. ``markers_px`` are the marker corners seen at calibration,
    ``layout`` the marker centres in mm, ``zones`` the table's named regions, ``colours`` the seat colours
    learned from the seats' own pieces (name -> Lab), ``image_size`` (width, height) of the frames.
    ``tag_mm``: the printed size of the codes (``companion tags --size``; None: the game's default size).
    ``precision``: how far a tile may lie from where it is read (:mod:`vision.precision`), the verdict
    every later reader of this calibration sees (an imprecise one is never called ok).
    """

    homography: np.ndarray
    markers_px: Mapping[int, np.ndarray]
    layout: Mapping[int, Point]
    marker_size: float = DEFAULT_MARKER_SIZE_MM
    image_size: tuple[int, int] = (0, 0)
    zones: tuple[Zone, ...] = ()
    colours: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    reprojection_mm: float = 0.0
    #: the area the markers mark, measured from their printed size (None: not measured)
    measured: tuple[float, float] | None = None
    #: the lens whose distortion is taken out of every detected point first (None: not corrected)
    lens: Lens | None = None
    tag_mm: float | None = None
    precision: Precision | None = None
    #: the seat colours in their own shade (name -> Lab), where calibration saw the pieces' shaded sides
    shades: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Derived once: the inverse mapping and the zones as OpenCV contours (point tests in C).
        object.__setattr__(self, "_inverse", np.linalg.inv(self.homography))
        contours = [(z.name, np.asarray(z.polygon, dtype=np.float32).reshape(-1, 1, 2)) for z in self.zones]
        object.__setattr__(self, "_contours", contours)

    @cached_property
    def viewpoint(self) -> Viewpoint | None:
        """Where the camera stands over the table (None: the markers do not tell)."""
        corners_mm = {i: marker_corners_mm(self.layout[i], self.marker_size) for i in self.layout}
        return viewpoint.estimate(self.markers_px, corners_mm, self.image_size, self.lens)

    def to_table_at(self, points_px: np.ndarray | Sequence[Point], z: float) -> np.ndarray:
        """Frame pixels of points ``z`` mm above the markers' plane -> where they stand (table mm)."""
        seen = self.to_table(points_px)
        eye = self.viewpoint
        return seen if not z or eye is None else eye.standing(seen, z)

    @property
    def inverse(self) -> np.ndarray:
        """Table mm -> frame pixels."""
        inverse: np.ndarray = self._inverse  # type: ignore[attr-defined]
        return inverse

    def to_table(self, points_px: np.ndarray | Sequence[Point]) -> np.ndarray:
        if self.lens is not None:
            points_px = self.lens.undistort(points_px, self.image_size)
        return _apply(self.homography, points_px)

    def to_pixels(self, points_mm: np.ndarray | Sequence[Point]) -> np.ndarray:
        pixels = _apply(self.inverse, points_mm)
        return pixels if self.lens is None else self.lens.distort(pixels, self.image_size)

    def px_per_mm(self, point_mm: Point) -> float:
        """Local scale near a table point (geometric mean of the two axes)."""
        x, y = point_mm
        base, east, south = self.to_pixels([(x, y), (x + 1.0, y), (x, y + 1.0)])
        (ax, ay), (bx, by) = east - base, south - base
        return float(math.sqrt(abs(ax * by - ay * bx)))

    def zone_at(self, point_mm: Point) -> str | None:
        """The first zone containing the point (None outside every zone)."""
        point = (float(point_mm[0]), float(point_mm[1]))
        for name, contour in self._contours:  # type: ignore[attr-defined]
            if len(contour) >= 3 and cv2.pointPolygonTest(contour, point, False) >= 0:
                return str(name)
        return None

    def area_check(self) -> AreaCheck | None:
        """The measured area against the layout's (None when it was not measured)."""
        if self.measured is None or not all(i in self.layout for i in CALIBRATION_MARKER_IDS):
            return None
        width, height = size_of(self.layout)
        focal = None if self.lens is None else float(self.lens.intrinsics(self.image_size)[0][0, 0])
        verdict = self.verdict()
        bend = verdict.bend if verdict.looks_like_the_lens and verdict.bend is not None else 0.0
        return check_area(self.measured, (width, height), self.px_per_mm((width / 2, height / 2)),
                          self.image_size, focal, bend)

    def area_problem(self) -> str | None:
        check = self.area_check()
        return None if check is None else check.problem()

    def with_zones(self, zones: Iterable[Zone]) -> Calibration:
        return _replace(self, zones=tuple(zones))

    def with_colours(self, colours: Mapping[str, tuple[float, float, float]],
                     shades: Mapping[str, tuple[float, float, float]] | None = None) -> Calibration:
        return _replace(self, colours=dict(colours), shades=dict(shades or {}))

    def with_tag_mm(self, tag_mm: float | None) -> Calibration:
        if tag_mm is not None and not 8.0 <= tag_mm <= 100.0:
            raise CalibrationError(f"a code of {tag_mm:g} mm: give 8 to 100 mm")
        return _replace(self, tag_mm=tag_mm)

    def verdict(self) -> Precision:
        """How far tiles may lie from where they are read (estimated now for a file that did not say)."""
        if self.precision is not None:
            return self.precision
        return precision_estimate.estimate(self.markers_px, self.layout, self.marker_size, self.image_size,
                                           self.reprojection_mm, self.lens)

    def to_dict(self) -> dict[str, Any]:
        return {
            "homography": [[float(v) for v in row] for row in self.homography],
            "markers_px": {str(k): v.round(2).tolist() for k, v in self.markers_px.items()},
            "layout": {str(k): list(v) for k, v in self.layout.items()},
            "marker_size": self.marker_size,
            "image_size": list(self.image_size),
            "zones": [{"name": z.name, "polygon": [list(p) for p in z.polygon]} for z in self.zones],
            "colours": {k: list(v) for k, v in self.colours.items()},
            "shades": {k: list(v) for k, v in self.shades.items()},
            "reprojection_mm": self.reprojection_mm,
            "measured_mm": None if self.measured is None else list(self.measured),
            "lens": None if self.lens is None else self.lens.to_dict(),
            "tag_mm": self.tag_mm,
            "precision": self.verdict().to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Calibration:
        try:
            homography = np.array(data["homography"], dtype=np.float64)
            if homography.shape != (3, 3) or not np.all(np.isfinite(homography)):
                raise ValueError("homography must be a finite 3x3 matrix")
            width, height = (int(v) for v in data.get("image_size", (0, 0)))
            return cls(
                homography=homography,
                markers_px={
                    int(k): np.array(v, dtype=np.float64).reshape(4, 2) for k, v in data["markers_px"].items()
                },
                layout={int(k): (float(v[0]), float(v[1])) for k, v in data["layout"].items()},
                marker_size=float(data.get("marker_size", DEFAULT_MARKER_SIZE_MM)),
                image_size=(width, height),
                zones=tuple(
                    Zone(str(z["name"]), tuple((float(p[0]), float(p[1])) for p in z["polygon"]))
                    for z in data.get("zones", ())
                ),
                colours=_labs(data.get("colours", {})),
                shades=_labs(data.get("shades", {})),
                reprojection_mm=float(data.get("reprojection_mm", 0.0)),
                measured=None if data.get("measured_mm") is None else (
                    float(data["measured_mm"][0]), float(data["measured_mm"][1])),
                lens=None if data.get("lens") is None else Lens.from_dict(data["lens"]),
                tag_mm=None if data.get("tag_mm") is None else float(data["tag_mm"]),
                precision=Precision.from_dict(data["precision"]) if data.get("precision") else None,
            )
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a calibration: {error}") from error

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror or error}") from error
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} is not JSON: {error.msg}") from error
        except ValueError as error:  # not UTF-8, or an integer of thousands of digits
            words = " ".join(str(error).split())
            if "integer string conversion" in words:
                words = "it holds an integer of more than 4300 digits"
            raise ValueError(f"{path} is not a calibration: {words[:200]}") from error
        return cls.from_dict(data)


def _labs(data: Mapping[str, Any]) -> dict[str, tuple[float, float, float]]:
    return {str(k): (float(v[0]), float(v[1]), float(v[2])) for k, v in data.items()}


def _replace(calibration: Calibration, **changes: Any) -> Calibration:
    from dataclasses import replace

    return replace(calibration, **changes)


def _fit(
    found: Mapping[int, np.ndarray], layout: Mapping[int, Point], size: float
) -> tuple[np.ndarray, float]:
    ids = [i for i in CALIBRATION_MARKER_IDS if i in found and i in layout]
    px = np.vstack([found[i] for i in ids])
    mm = np.vstack([marker_corners_mm(layout[i], size) for i in ids])
    homography, _ = cv2.findHomography(px, mm, 0)
    if homography is None:
        raise CalibrationError("the markers do not fit a plane (degenerate view)")
    error = float(np.sqrt(np.mean(np.sum((_apply(homography, px) - mm) ** 2, axis=1))))
    return homography, error


def estimate_layout(
    found: Mapping[int, np.ndarray], size: float = DEFAULT_MARKER_SIZE_MM
) -> dict[int, Point]:
    """The table area's size from the markers alone (their printed size fixes the scale): the rectangle
    (width, height) whose homography fits all 16 corners best, found by a coarse-to-fine search."""
    if not all(i in found for i in CALIBRATION_MARKER_IDS):
        raise CalibrationError("estimating the table size needs all four markers")
    # First guess: marker 0's own square mapped out to the other markers' centres.
    local, _ = cv2.findHomography(found[0], marker_corners_mm((0.0, 0.0), size), 0)
    centres = {i: found[i].mean(axis=0) for i in CALIBRATION_MARKER_IDS}
    guess = _apply(local, [centres[1], centres[3]])
    width, height = max(size * 2, float(abs(guess[0][0]))), max(size * 2, float(abs(guess[1][1])))

    def cost(w: float, h: float) -> float:
        return _fit(found, corner_layout(w, h), size)[1]

    step = 0.25
    best = cost(width, height)
    while step > 0.0005:
        improved = False
        for dw, dh in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            w, h = width * (1 + dw * step), height * (1 + dh * step)
            candidate = cost(w, h)
            if candidate < best:
                best, width, height, improved = candidate, w, h, True
        if not improved:
            step /= 2
    return corner_layout(round(width, 1), round(height, 1))


def calibrate(
    image: np.ndarray,
    layout: Mapping[int, Point] | None = None,
    marker_size: float = DEFAULT_MARKER_SIZE_MM,
    zones: Iterable[Zone] = (),
    lens: Lens | None = None,
    tag_mm: float | None = None,
) -> Calibration:
    """Fit the pixel -> mm homography from the four markers (all must be visible).

    ``layout`` gives the marker centres in mm (e.g. :func:`corner_layout` of the table area); None
    estimates the table area from the markers' printed size. With ``lens``, its distortion is taken out of
    the marker corners first, and out of every point the calibration maps afterwards."""
    found = detect_markers(image)
    missing = [i for i in CALIBRATION_MARKER_IDS if i not in found]
    if missing:
        raise CalibrationError(f"calibration markers not visible: {', '.join(map(str, missing))}")
    height, width = image.shape[:2]
    straight = found if lens is None else {
        i: lens.undistort(corners, (width, height)) for i, corners in found.items()}
    measured_layout = estimate_layout(straight, marker_size)
    if lens is None:  # measured through the bend the markers show, so the area check is not fooled by it
        bend = precision_estimate.radial_bend(found, measured_layout, marker_size, (width, height))
        nominal = precision_estimate.nominal_lens((width, height), bend)
        measured_layout = estimate_layout(
            {i: nominal.undistort(corners, (width, height)) for i, corners in found.items()}, marker_size)
    used = dict(layout) if layout is not None else measured_layout
    homography, error_mm = _fit(straight, used, marker_size)
    verdict = precision_estimate.estimate(found, used, marker_size, (width, height), error_mm, lens)
    return Calibration(homography, found, used, marker_size, (width, height), tuple(zones), {}, error_mm,
                       size_of(measured_layout), lens, tag_mm, verdict)


# ------------------------------------------------------------------------------------------- bump check
class CalibrationMonitor:
    """Re-checks the markers every ``every`` frames near where they were at calibration.

    All markers seen within ``tolerance_px``: ``ok``; fewer than two seen (hands over the corners):
    ``markers-hidden`` (the homography is still used); two or more seen and any moved beyond tolerance:
    ``bumped`` (untrusted, until :meth:`recalibrate` or the markers come back).
    """

    def __init__(
        self, calibration: Calibration, tolerance_px: float = DEFAULT_BUMP_TOLERANCE_PX, every: int = 1
    ):
        self.calibration = calibration
        self.tolerance_px = tolerance_px
        self.every = max(1, every)
        self.patch_tolerance = 12.0  # mean grey-level difference still counted as the same picture
        self._count = 0
        self._last = self._fitted(CalibrationStatus("ok", tuple(sorted(calibration.markers_px)), 0.0,
                                                    "calibrated"))

    def _fitted(self, status: CalibrationStatus) -> CalibrationStatus:
        """``misfit`` (not used) while the markers mark another area than the layout's; ``imprecise``
        (read, never called ok) while tiles may lie further off than :data:`vision.precision.OK_MM` (an
        uncorrected lens still reads cells and chisels: their places are snapped to the lattice)."""
        if status.state == "bumped":
            return status
        problem = self.calibration.area_problem()
        if problem is not None:
            return CalibrationStatus("misfit", status.markers_seen, status.drift_px, problem)
        verdict = self.calibration.verdict()
        if not verdict.ok and status.state == "ok":
            return CalibrationStatus("imprecise", status.markers_seen, status.drift_px,
                                     verdict.problem() or "")
        return status

    def _rois(self, image_shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
        rois = []
        for corners in self.calibration.markers_px.values():
            x0, y0 = corners.min(axis=0)
            x1, y1 = corners.max(axis=0)
            pad = max(24.0, 0.8 * max(x1 - x0, y1 - y0))
            rois.append((int(x0 - pad), int(y0 - pad), int(x1 - x0 + 2 * pad), int(y1 - y0 + 2 * pad)))
        return rois

    def check(self, image: np.ndarray, force: bool = False) -> CalibrationStatus:
        self._count += 1
        if not force and self._count % self.every != 1 and self.every > 1:
            return self._last
        if not force and self._patches_unchanged(image):
            # Every marker looks exactly as when last found in place: no need to search for them again.
            self._last = self._fitted(CalibrationStatus(
                "ok", tuple(sorted(self.calibration.markers_px)), 0.0, "markers in place"
            ))
            return self._last
        found = detect_markers(image, self._rois(image.shape))
        drifts = {
            i: float(np.max(np.linalg.norm(found[i] - self.calibration.markers_px[i], axis=1)))
            for i in found
            if i in self.calibration.markers_px
        }
        seen = tuple(sorted(drifts))
        worst = max(drifts.values(), default=0.0)
        if len(seen) < 2:
            hidden = [i for i in self.calibration.markers_px if i not in found]
            status = CalibrationStatus("markers-hidden", seen, worst, f"markers not visible: {hidden}")
            # A bumped camera stays bumped until the markers are seen back in place.
            if self._last.state == "bumped":
                status = CalibrationStatus("bumped", seen, self._last.drift_px, self._last.message)
        elif worst > self.tolerance_px:
            moved = [i for i, d in drifts.items() if d > self.tolerance_px]
            status = CalibrationStatus(
                "bumped", seen, worst, f"markers {moved} moved {worst:.1f} px: the camera moved; recalibrate"
            )
        else:
            status = CalibrationStatus("ok", seen, worst, "markers in place")
            if len(seen) == len(self.calibration.markers_px):
                self._remember_patches(image)
        self._last = self._fitted(status)
        return self._last

    def _patch(self, image: np.ndarray, marker_id: int) -> np.ndarray | None:
        corners = self.calibration.markers_px[marker_id]
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        h, w = image.shape[:2]
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 - x0 < 4 or y1 - y0 < 4:
            return None
        crop = image[y0:y1, x0:x1]
        patch = crop[..., 1] if crop.ndim == 3 else crop
        result: np.ndarray = patch.astype(np.int16)
        return result

    def _remember_patches(self, image: np.ndarray) -> None:
        self._patches = {i: self._patch(image, i) for i in self.calibration.markers_px}

    def _patches_unchanged(self, image: np.ndarray) -> bool:
        """True when each marker's picture matches the one remembered (sensor noise aside). A marker that
        moved by a few pixels changes its black/white edges, which this sees at once."""
        patches = getattr(self, "_patches", None)
        if not patches:
            return False
        for marker_id, before in patches.items():
            now = self._patch(image, marker_id)
            if before is None or now is None or now.shape != before.shape:
                return False
            if float(np.mean(np.abs(now - before))) > self.patch_tolerance:
                return False
        return True

    @property
    def last(self) -> CalibrationStatus:
        """The status of the last check (what a frame that is not checked inherits)."""
        return self._last

    def recalibrate(self, image: np.ndarray) -> Calibration:
        """Refit from this frame, keeping the layout, zones and colours."""
        old = self.calibration
        fresh = calibrate(image, old.layout, old.marker_size, old.zones, lens=old.lens, tag_mm=old.tag_mm)
        self.calibration = fresh.with_colours(self.calibration.colours, self.calibration.shades)
        self._patches = {}
        self._last = self._fitted(CalibrationStatus("ok", tuple(sorted(fresh.markers_px)), 0.0,
                                                    "recalibrated"))
        return self.calibration
