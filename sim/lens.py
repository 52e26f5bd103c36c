"""A lens that bends the picture: frames drawn through a perfect pinhole, then distorted as a real lens
would (the inverse of :meth:`vision.lens.Lens.undistort`), for measuring lens correction."""

from __future__ import annotations

import cv2
import numpy as np

from vision.lens import Lens


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
