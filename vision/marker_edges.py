"""A marker's corners where its edges truly lie, to a fraction of a pixel.

A lens blurs light, and the camera then encodes the picture with a gamma curve: the middle grey of a
blurred black-on-white edge is no longer halfway between black and white, and a detector that finds the
dark area (or a corner of it) finds every marker about a pixel too small. That shrinks the marker's
printed size, and every distance measured with it grows (an area of 1280 mm read as 1310) and bends what
is straight. Here each side's edge is found along many short profiles across it: the place where the
light (the encoded values taken back to linear light) is halfway between the marker's black and the
paper's white, which a symmetric blur leaves where the edge is; a line is fitted to each side and the
corners are where those lines meet.
"""

from __future__ import annotations

import cv2
import numpy as np

#: profiles across each side, spread over its middle (the corners' own blur is left out)
PROFILES = 14
#: samples per pixel along a profile
STEPS_PER_PX = 10
#: the profiles' black and white are read at their ends: a profile straddling the edge unevenly reads
#: one of them short of its plateau, so the edge is found a second time from where the first found it
PASSES = 2


def _linear_table() -> np.ndarray:
    encoded = np.arange(256, dtype=np.float64) / 255.0
    result: np.ndarray = np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)
    return result.astype(np.float32)


LINEAR = _linear_table()


def refine(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The corners (4 x 2, clockwise) of a dark square on white moved onto its edges; the corners given
    back unchanged where a side's edge cannot be measured (too small, cut by the frame's border)."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    reach = min(5.0, side / 10.0)
    if reach < 1.5:
        return corners
    light = LINEAR[gray] if gray.dtype == np.uint8 else gray.astype(np.float32)
    refined = corners
    for _ in range(PASSES):  # again from where the edges were found: the profiles then straddle them evenly
        lines = []
        for index in range(4):
            line = _side(light, refined[index], refined[(index + 1) % 4], refined.mean(axis=0), reach)
            if line is None:
                return corners
            lines.append(line)
        refined = np.array([_meet(lines[(index - 1) % 4], lines[index]) for index in range(4)])
        if not np.all(np.isfinite(refined)) or np.max(np.linalg.norm(refined - corners, axis=1)) > reach:
            return corners
    return refined


def _side(light: np.ndarray, start: np.ndarray, end: np.ndarray, middle: np.ndarray,
          reach: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A point on the side's edge and its direction, fitted to where each profile crosses halfway."""
    along = end - start
    length = float(np.linalg.norm(along))
    direction = along / length
    normal = np.array([-direction[1], direction[0]])
    if float(np.dot(normal, (start + end) / 2 - middle)) < 0:
        normal = -normal  # pointing out of the marker, towards the paper
    offsets = np.linspace(-reach, reach, int(2 * reach * STEPS_PER_PX) + 1)
    shares = np.linspace(0.2, 0.8, PROFILES)
    bases = start[None, :] + shares[:, None] * along[None, :]
    xs = (bases[:, None, 0] + offsets[None, :] * normal[0]).astype(np.float32)
    ys = (bases[:, None, 1] + offsets[None, :] * normal[1]).astype(np.float32)
    height, width = light.shape[:2]
    if xs.min() < 1 or ys.min() < 1 or xs.max() > width - 2 or ys.max() > height - 2:
        return None
    profiles = cv2.remap(light, xs, ys, cv2.INTER_LINEAR)
    quarter = max(2, len(offsets) // 5)
    dark = profiles[:, :quarter].mean(axis=1)
    bright = profiles[:, -quarter:].mean(axis=1)
    points = []
    for row, base in enumerate(bases):
        if bright[row] - dark[row] < 0.05:
            continue  # no edge here (a shadow, a finger)
        level = (dark[row] + bright[row]) / 2.0
        above = np.nonzero(profiles[row] >= level)[0]
        if len(above) == 0 or above[0] == 0:
            continue
        right = int(above[0])
        low, high = profiles[row, right - 1], profiles[row, right]
        fraction = (level - low) / max(high - low, 1e-9)
        offset = offsets[right - 1] + fraction * (offsets[right] - offsets[right - 1])
        points.append(base + offset * normal)
    if len(points) < PROFILES // 2:
        return None
    fitted = cv2.fitLine(np.asarray(points, dtype=np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return fitted[2:4].astype(np.float64), fitted[0:2].astype(np.float64)


def _meet(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where two lines (point, direction) cross."""
    (p, u), (q, v) = first, second
    matrix = np.array([[u[0], -v[0]], [u[1], -v[1]]])
    if abs(np.linalg.det(matrix)) < 1e-9:
        return np.array([np.nan, np.nan])
    t, _ = np.linalg.solve(matrix, q - p)
    result: np.ndarray = p + t * u
    return result
