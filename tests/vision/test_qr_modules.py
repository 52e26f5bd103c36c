"""A code read from its modules on a known grid: Reed-Solomon repair of lost and wrong codewords, and
codes half under a chisel's black shadow read where the decoder reads nothing."""

from __future__ import annotations

import random

import cv2
import numpy as np
import segno
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import covered, qr, qr_modules

ALPHANUMERIC = st.text(alphabet=qr_modules.ALPHANUMERIC.replace(" ", ""), min_size=1, max_size=14)


def printed(text: str, level: str = "m") -> tuple[np.ndarray, segno.QRCode]:
    code = segno.make_qr(text, error=level, boost_error=False)
    return np.array(code.matrix, dtype=bool), code


@settings(max_examples=60, deadline=None)
@given(text=ALPHANUMERIC, level=st.sampled_from("LMQH"), seed=st.integers(0, 10_000))
def test_codewords_lost_and_wrong_within_the_error_correction_are_repaired(text: str, level: str,
                                                                           seed: int) -> None:
    modules, code = printed(text, level.lower())
    version = int(code.version)
    if (version, level) not in qr_modules.BLOCKS:
        return
    order, _, _ = qr_modules.layout(version)
    total, ec_count = qr_modules.BLOCKS[(version, level)]
    rng = random.Random(seed)
    lost = rng.randint(0, ec_count)
    wrong = rng.randint(0, (ec_count - lost) // 2)
    chosen = rng.sample(range(total), lost + wrong)
    dark, shown = modules.copy(), np.ones_like(modules)
    for index in chosen[:lost]:
        for row, column in order[8 * index : 8 * index + 8]:
            shown[row, column] = False
            dark[row, column] = rng.random() < 0.5
    for index in chosen[lost:]:
        row, column = order[8 * index + rng.randrange(8)]
        dark[row, column] = not dark[row, column]
    assert qr_modules.read(dark, shown)[:1] == [text]


def test_a_codeword_wrong_beyond_repair_is_read_when_the_least_sure_are_taken_as_lost() -> None:
    modules, _ = printed("DT1:JP:F17")
    order, _, _ = qr_modules.layout(1)
    dark, shown = modules.copy(), np.ones_like(modules)
    sureness = np.ones(modules.shape)
    for index in range(8):  # eight codewords wrong: twice that is beyond the ten of level M
        row, column = order[8 * index + 3]
        dark[row, column] = not dark[row, column]
        sureness[row, column] = 0.05  # each called with little to go by
    assert "DT1:JP:F17" not in qr_modules.read(dark, shown)
    assert qr_modules.read(dark, shown, sureness)[:1] == ["DT1:JP:F17"]


def shadowed_sticker(text: str, px_per_module: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """A sticker as a camera sees it at ``px_per_module``, blurred, a black shadow 4 modules wide and 10
    long across it (as a chisel's under a lamp); with its corners in the picture."""
    modules, _ = printed(text)
    scale = 12
    crisp = np.pad(np.where(modules, 25, 235).astype(np.uint8), 4, constant_values=235)
    big = cv2.resize(crisp, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    side = round(big.shape[0] * px_per_module / scale)
    small = cv2.resize(cv2.GaussianBlur(big, (0, 0), scale * 0.45), (side, side),
                       interpolation=cv2.INTER_AREA)
    picture: np.ndarray = np.pad(small, 30, constant_values=200)
    start = 30 + 4 * px_per_module
    band = (slice(round(start + 9 * px_per_module), round(start + 13 * px_per_module)),
            slice(round(start + 10 * px_per_module), round(start + 20 * px_per_module)))
    picture[band] = 12
    corners = np.array([[start, start], [start + 21 * px_per_module, start],
                        [start + 21 * px_per_module, start + 21 * px_per_module],
                        [start, start + 21 * px_per_module]])
    return picture, corners


def test_a_code_under_a_black_shadow_is_read_from_the_modules_that_show() -> None:
    picture, corners = shadowed_sticker("DT1:JP:F33")
    backend = qr.get_backend("zxing")
    assert backend.decode(picture) == [], "the decoder reads it alone: nothing is tested"
    assert covered._read_one(picture, corners, 21, [], backend) is None
    found = covered._read_one(picture, corners, 21, [], backend, ["DT1:JP:F32", "DT1:JP:F33", "DT1:JP:F34"])
    assert found is not None and found.text == "DT1:JP:F33"


def test_a_sticker_not_among_those_unseen_is_never_told() -> None:
    picture, corners = shadowed_sticker("DT1:JP:F33")
    backend = qr.get_backend("zxing")
    assert covered._read_one(picture, corners, 21, [], backend, ["DT1:JP:F32", "DT1:JP:F34"]) is None
    blank = np.full_like(picture, 220)
    assert covered._read_one(blank, corners, 21, [], backend, ["DT1:JP:F33"]) is None


def test_a_told_code_with_a_finder_hidden_is_placed_by_the_two_that_show() -> None:
    px_per_module = 4.0
    picture, corners = shadowed_sticker("DT1:JP:F33", px_per_module)
    start = corners[0]
    bottom_left = (slice(round(start[1] + 13.5 * px_per_module), round(start[1] + 21.5 * px_per_module)),
                   slice(round(start[0] - 0.5 * px_per_module), round(start[0] + 8 * px_per_module)))
    picture[bottom_left] = 12  # the shadow over a finder pattern as well
    lattice_guess = corners + np.array([1.0, -0.8]) * px_per_module  # a hand-laid tile off the lattice
    backend = qr.get_backend("zxing")
    assert backend.decode(picture) == [], "the decoder reads it alone: nothing is tested"
    found = covered._read_one(picture, lattice_guess, 21, [], backend, ["DT1:JP:F33"])
    assert found is not None and found.text == "DT1:JP:F33"
    off = np.hypot(*(np.asarray(found.corners, dtype=np.float64) - corners).T)
    assert off.max() < 0.5 * px_per_module, off
