"""The same frame reads the same whatever was read before it: k-means (the frame's background colours, the
colours learned at calibration) starts at random from OpenCV's one generator, which every other k-means in
the process moves on."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pegs import dominant_colours


def _samples() -> np.ndarray:
    rng = np.random.default_rng(3)
    centres = ((90, 120, 140), (160, 110, 150), (200, 128, 128), (60, 140, 120), (120, 100, 100))
    return np.vstack([rng.normal(centre, 9.0, (150, 3)) for centre in centres])


def test_the_backgrounds_colours_do_not_hang_on_what_was_read_before() -> None:
    lab = _samples()
    first = dominant_colours(lab, 4, 0.12)
    for seed in (1, 2, 12345):
        cv2.setRNGSeed(seed)  # as other k-means in the process leave OpenCV's generator
        assert np.array_equal(dominant_colours(lab, 4, 0.12), first)
