"""How far from the truth the calibration puts a tile, estimated from the four markers themselves.

The markers fit one plane through their 16 corners; what is left over (the residual) is mostly the lens
bending the picture, and it understates the error inside the area several times over, because the
markers lie where a homography can absorb much of the bend. So the lens is estimated instead: the one
radial distortion (OpenCV's ``k1``, about the frame's centre, with the nominal 66 degree focal length)
that makes the 16 corners fit a plane best. Mapping a grid over the marked area through that lens and back
through the uncorrected fit gives how far a tile can be put from where it lies. With a fitted lens the
residual itself is the measure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.lens import Lens
from vision.scene import CALIBRATION_MARKER_IDS
from vision.sentences import Sentence, said

#: a calibration is called ok only while tiles lie within this many millimetres of where they are read
OK_MM = 3.0
NOMINAL_HFOV_DEGREES = 66.0
#: a bend is believed where it leaves at most this share of the markers' misfit, or where the misfit is
#: more than found corners wander (about half a millimetre: a pixel) and so no noise
BEND_EXPLAINS = 0.75
NOISE_MM = 0.5
Point = tuple[float, float]


@dataclass(frozen=True)
class Precision:
    """``expected_mm``: how far a tile may lie from where it is read; ``bend``: the estimated distortion
    at the frame's corner (a fraction; None with a fitted lens); ``lens_fitted``."""

    expected_mm: float
    bend: float | None
    lens_fitted: bool

    @property
    def ok(self) -> bool:
        return self.expected_mm <= OK_MM

    @property
    def looks_like_the_lens(self) -> bool:
        return not self.lens_fitted and self.bend is not None and self.bend >= 0.005

    def problem(self) -> str | None:
        """What to change, or None when tiles lie within :data:`OK_MM`."""
        sentence = self.problem_said()
        return None if sentence is None else str(sentence)

    def problem_said(self) -> Sentence | None:
        """:meth:`problem` for readers of any language."""
        if self.ok:
            return None
        if self.looks_like_the_lens:
            return said("tiles may lie up to %(mm).1f mm from where they are read: the lens bends the "
                        "picture (about %(bend).1f %% at the corners): fit the lens, companion calibrate "
                        "FRAME --lens PHOTO... with 6 to 15 photos of the lens board (the last page of "
                        "companion tags) from the camera's place", mm=self.expected_mm,
                        bend=100 * (self.bend or 0))
        return said("tiles may lie up to %(mm).1f mm from where they are read: the markers do not lie flat "
                    "or were moved; stick them down flat and calibrate again", mm=self.expected_mm)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Precision:
        bend = data.get("bend")
        return cls(float(data["expected_mm"]), None if bend is None else float(bend),
                   bool(data.get("lens_fitted", False)))

    def to_dict(self) -> dict[str, object]:
        return {"expected_mm": round(self.expected_mm, 2), "ok": self.ok,
                "bend": None if self.bend is None else round(self.bend, 4), "lens_fitted": self.lens_fitted,
                "problem": self.problem(), "problem_said": _said_dict(self.problem_said())}


def _said_dict(sentence: Sentence | None) -> dict[str, Any] | None:
    return None if sentence is None else sentence.to_dict()


def _corners_mm(layout: Mapping[int, Point], size: float) -> np.ndarray:
    half = size / 2
    centres = [layout[i] for i in CALIBRATION_MARKER_IDS]
    return np.vstack([np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                                [x - half, y + half]]) for x, y in centres])


def nominal_lens(image_size: tuple[int, int], k1: float) -> Lens:
    width, height = image_size
    focal = width / (2 * math.tan(math.radians(NOMINAL_HFOV_DEGREES) / 2))
    return Lens("estimate", (width, height), (focal, focal, width / 2, height / 2), (k1, 0.0, 0.0, 0.0, 0.0),
                "estimated from the markers")


def _fit(pixels: np.ndarray, mm: np.ndarray) -> tuple[np.ndarray, float]:
    homography, _ = cv2.findHomography(pixels, mm, 0)
    if homography is None:
        return np.eye(3), math.inf
    mapped = cv2.perspectiveTransform(pixels.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return homography, float(np.sqrt(np.mean(np.sum((mapped - mm) ** 2, axis=1))))


def radial_bend(found: Mapping[int, np.ndarray], layout: Mapping[int, Point], size: float,
                image_size: tuple[int, int]) -> float:
    """The ``k1`` that straightens the markers best, within what camera lenses bend (-0.3..0.2: beyond,
    undistorting folds over and means nothing); no bend unless the markers show one beyond their own
    corner noise (it explains a quarter of their misfit at least, or the misfit is more than noise: noise
    alone is "straightened" by a little bend either way)."""
    pixels = np.vstack([found[i] for i in CALIBRATION_MARKER_IDS]).astype(np.float64)
    mm = _corners_mm(layout, size)

    def residual(k1: float) -> float:
        return _fit(nominal_lens(image_size, k1).undistort(pixels, image_size), mm)[1]

    low, high = -0.3, 0.2
    best, step = 0.0, 0.02
    straight = best_residual = residual(0.0)
    while step > 0.0002:
        for k1 in np.arange(max(low, best - 5 * step), min(high, best + 5 * step) + 1e-12, step):
            value = residual(float(k1))
            if value < best_residual - 1e-6:
                best, best_residual = float(k1), value
        step /= 5
    beyond_noise = straight > NOISE_MM or best_residual < BEND_EXPLAINS * straight
    return best if beyond_noise else 0.0


def estimate(found: Mapping[int, np.ndarray], layout: Mapping[int, Point], size: float,
             image_size: tuple[int, int], reprojection_mm: float, lens: Lens | None) -> Precision:
    """How far a tile may lie from where this calibration reads it (see the module's docstring)."""
    if not all(i in found and i in layout for i in CALIBRATION_MARKER_IDS) or image_size[0] <= 0:
        return Precision(max(reprojection_mm * 3, OK_MM + 1), None, lens is not None)
    if lens is not None:
        return Precision(max(0.3, 2.0 * reprojection_mm), None, True)
    k1 = radial_bend(found, layout, size, image_size)
    model = nominal_lens(image_size, k1)
    pixels = np.vstack([found[i] for i in CALIBRATION_MARKER_IDS]).astype(np.float64)
    mm = _corners_mm(layout, size)
    straight, _ = _fit(model.undistort(pixels, image_size), mm)
    plain, _ = _fit(pixels, mm)
    xs = [p[0] for p in layout.values()]
    ys = [p[1] for p in layout.values()]
    grid = np.array([(x, y) for x in np.linspace(min(xs), max(xs), 9)
                     for y in np.linspace(min(ys), max(ys), 7)])
    ideal = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), np.linalg.inv(straight)).reshape(-1, 2)
    truth_px = model.distort(ideal, image_size)
    read = cv2.perspectiveTransform(truth_px.reshape(-1, 1, 2), plain).reshape(-1, 2)
    error = float(np.max(np.linalg.norm(read - grid, axis=1)))
    camera, _ = model.intrinsics(image_size)
    corner = (image_size[0] / 2 / camera[0, 0]) ** 2 + (image_size[1] / 2 / camera[1, 1]) ** 2
    return Precision(max(error, 1.5 * reprojection_mm), float(abs(k1) * corner), False)
