"""The synthetic camera's geometry: a pinhole camera above the table (tilt, yaw, roll, the frame's size)
and the homography from table millimetres to frame pixels."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.scene import Point

DEFAULT_RESOLUTION = (2304, 1296)


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

    def eye(self, scene_width: float, scene_height: float) -> tuple[float, float, float]:
        """The camera's centre: its foot on the table (x, y mm) and its height above the table (mm)."""
        x0, y0, x1, y1 = self.framed_area(scene_width, scene_height)
        position, _ = self._pose(x1 - x0)
        middle_x, middle_y = (x0 + x1) / 2.0, (y0 + y1) / 2.0
        return (middle_x + float(position[0]), middle_y + float(position[1]), -float(position[2]))

    def _pose(self, framed_width: float) -> tuple[np.ndarray, np.ndarray]:
        """The camera's position (relative to the framed area's middle) and rotation."""
        distance = self.distance if self.distance is not None else 0.8 * framed_width
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
        return position, roll_matrix @ rotation

    def homography(self, scene_width: float, scene_height: float) -> np.ndarray:
        """3x3 matrix mapping table mm (x, y, 1) to frame pixels for a table of the given size."""
        x0, y0, x1, y1 = self.framed_area(scene_width, scene_height)
        cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
        position, rotation = self._pose(x1 - x0)
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
