"""A quick way to stamp tag codes onto an image, for tests that need a frame with codes at known places
without the full synthetic renderer."""

from __future__ import annotations

import math

import numpy as np

from vision.tags import qr_matrix


def stamp_qr(
    canvas: np.ndarray,
    payload: str,
    center: tuple[float, float],
    module_px: float,
    angle: float = 0.0,
    quiet: int = 2,
) -> None:
    """Draw the code of ``payload`` onto ``canvas`` (BGR or gray, in place), centred at ``center``,
    rotated ``angle`` degrees counter-clockwise as seen, with ``quiet`` white modules around it."""
    import cv2

    matrix = qr_matrix(payload)
    n = matrix.shape[0]
    padded = np.pad(~matrix, quiet, constant_values=True).astype(np.uint8) * 255
    side = n + 2 * quiet
    scale = module_px
    theta = math.radians(angle)
    cos, sin = math.cos(theta), math.sin(theta)
    half = (side - 1) / 2.0  # source pixel centres are integers
    # Affine map from matrix pixel (u, v) (centre of module grid at half) to the canvas.
    a = np.array(
        [
            [scale * cos, scale * sin, center[0] - scale * (cos * half + sin * half)],
            [-scale * sin, scale * cos, center[1] - scale * (-sin * half + cos * half)],
        ],
        dtype=np.float64,
    )
    h, w = canvas.shape[:2]
    warped = cv2.warpAffine(padded, a, (w, h), flags=cv2.INTER_NEAREST, borderValue=(0,))
    mask = cv2.warpAffine(np.full_like(padded, 255), a, (w, h), flags=cv2.INTER_NEAREST, borderValue=(0,)) > 0
    if canvas.ndim == 3:
        canvas[mask] = warped[mask][:, None]
    else:
        canvas[mask] = warped[mask]


def code_corners(
    payload: str, center: tuple[float, float], module_px: float, angle: float = 0.0
) -> list[tuple[float, float]]:
    """Where :func:`stamp_qr` puts the code's corners (TL, TR, BR, BL in code order)."""
    n = qr_matrix(payload).shape[0]
    half = n * module_px / 2.0
    theta = math.radians(angle)
    cos, sin = math.cos(theta), math.sin(theta)
    corners = []
    for ux, uy in ((-half, -half), (half, -half), (half, half), (-half, half)):
        corners.append((center[0] + ux * cos + uy * sin, center[1] - ux * sin + uy * cos))
    return corners
