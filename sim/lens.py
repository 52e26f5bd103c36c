"""A lens that bends the picture: frames drawn through a perfect pinhole, then distorted as a real lens
would (the inverse of :meth:`vision.lens.Lens.undistort`), for measuring lens correction."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.lens import BOARD_MARGIN_MM, BOARD_SQUARE_MM, BOARD_SQUARES, Lens, board_image


def distort_image(image: np.ndarray, lens: Lens) -> np.ndarray:
    """``image`` as seen through ``lens`` (a pinhole picture with the lens's camera matrix in, the same
    size out): each output pixel takes the colour of the straight-line point it shows."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    grid = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    source = lens.undistort(grid, (width, height)).astype(np.float32)
    map_x = source[:, 0].reshape(height, width)
    map_y = source[:, 1].reshape(height, width)
    bent: np.ndarray = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return bent


def board_photos(lens: Lens, count: int = 12, seed: int = 3, tilt: float = 0.5) -> list[np.ndarray]:
    """Photos of the printed board, tilted (up to ``tilt`` radians each way) and moved about over the whole
    frame, through ``lens`` (held as far off as fills about half the frame with the board, whatever the
    focal length)."""
    sheet = cv2.cvtColor(board_image(dpi=120), cv2.COLOR_GRAY2BGR)
    px_per_mm = 120 / 25.4
    h, w = sheet.shape[:2]
    width_mm, height_mm = w / px_per_mm, h / px_per_mm
    corners_mm = np.array([[0, 0, 0], [width_mm, 0, 0], [width_mm, height_mm, 0], [0, height_mm, 0]],
                          dtype=np.float64) - [BOARD_MARGIN_MM, BOARD_MARGIN_MM, 0]
    camera, _ = lens.intrinsics(lens.resolution)
    reach = camera[0, 0] / lens.resolution[0] / (1000 / 1280)  # 1: a 65-degree lens, board 40 cm off
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        rvec = np.array([rng.uniform(-tilt, tilt), rng.uniform(-tilt, tilt), rng.uniform(-0.3, 0.3)])
        centre = [BOARD_SQUARES[0] * BOARD_SQUARE_MM / 2, BOARD_SQUARES[1] * BOARD_SQUARE_MM / 2]
        rotation, _ = cv2.Rodrigues(rvec)
        offset = -rotation @ np.array([*centre, 0.0])  # the board's middle on the optical axis...
        moved = np.array([rng.uniform(-200, 200), rng.uniform(-110, 110), rng.uniform(360, 440)])
        tvec = offset + moved * reach  # ...moved about
        pixels, _ = cv2.projectPoints(corners_mm, rvec, tvec, camera, np.zeros(5))
        warp = cv2.getPerspectiveTransform(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32),
                                           pixels.reshape(4, 2).astype(np.float32))
        pinhole = cv2.warpPerspective(sheet, warp, lens.resolution, borderValue=(120, 120, 120))
        views.append(distort_image(pinhole, lens))
    return views
