"""Where the camera stands over the table, from the calibration's markers: what heights need.

The calibration maps the markers' plane. A sticker on a 4 mm tile, or the top of a chisel standing 25 mm
tall, is not on that plane: a camera's ray through it meets the table farther from the camera's foot, by
``z / (height - z)`` of the distance. Knowing the camera's centre (its foot on the table and its height)
puts those points back where they stand, and tells where a standing piece's top shows in the frame.
The centre comes from the markers' 16 corners and the lens's focal length (the fitted lens's, else a
typical camera module's: an error of a tenth in it moves a sticker 4 mm up by a few hundredths of a mm).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.lens import Lens
from vision.precision import nominal_lens

Point = tuple[float, float]


@dataclass(frozen=True)
class Viewpoint:
    """The camera's centre over the table: ``foot`` (table mm) and ``height`` above it (mm)."""

    foot: Point
    height: float

    def apparent(self, points_mm: np.ndarray | Sequence[Point], z: float) -> np.ndarray:
        """Where points ``z`` mm above the table appear on the table plane (as the calibration reads
        them)."""
        array = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        foot = np.asarray(self.foot, dtype=np.float64)
        result: np.ndarray = foot + (array - foot) * (self.height / (self.height - z))
        return result

    def standing(self, apparent_mm: np.ndarray | Sequence[Point], z: float) -> np.ndarray:
        """Where points that appear at ``apparent_mm`` on the table plane stand if they are ``z`` mm up."""
        array = np.asarray(apparent_mm, dtype=np.float64).reshape(-1, 2)
        foot = np.asarray(self.foot, dtype=np.float64)
        result: np.ndarray = foot + (array - foot) * ((self.height - z) / self.height)
        return result


def estimate(corners_px: Mapping[int, np.ndarray], corners_mm: Mapping[int, np.ndarray],
             image_size: tuple[int, int], lens: Lens | None = None) -> Viewpoint | None:
    """The camera's centre from marker corners (pixels as found, table mm as laid); None when the view
    gives none (too few corners, a degenerate pose, or a camera below the table)."""
    ids = sorted(set(corners_px) & set(corners_mm))
    width, height = image_size
    if len(ids) < 2 or width <= 0 or height <= 0:
        return None
    pixels = np.vstack([np.asarray(corners_px[i], dtype=np.float64) for i in ids])
    table = np.vstack([np.asarray(corners_mm[i], dtype=np.float64) for i in ids])
    objects = np.column_stack([table, np.zeros(len(table))])
    camera, distortion = (lens or nominal_lens(image_size, 0.0)).intrinsics(image_size)
    ok, rotation, translation = cv2.solvePnP(objects, pixels, camera, distortion, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return None
    matrix, _ = cv2.Rodrigues(rotation)
    centre = (-matrix.T @ translation).ravel()
    # The markers' plane is z = 0 and the table's y runs south: the camera is on one side of it.
    up = abs(float(centre[2]))
    if not math.isfinite(up) or up < 50.0:
        return None
    return Viewpoint((float(centre[0]), float(centre[1])), up)
