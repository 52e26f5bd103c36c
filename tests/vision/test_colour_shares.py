"""Colours told by their shares of red, green and blue in linear light, which a lamp's brightness does not
change, where Lab's a and b bend with lightness: a bright orange chisel top under a warm lamp sits nearer
a yellow learned elsewhere on the table in Lab, and a beige tile brightened by the lamp looks as colourful
as an orange piece there."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.colour_learning import learn_from_pieces
from vision.pegs import ColourModel, bgr_to_lab, chromaticity, rgb_to_lab

#: as calibration learned them under a warm lamp, orange's chisels far from the lamp (a measured frame)
LEARNED = {"red": (108.0, 186.0, 172.0), "blue": (72.0, 141.0, 89.0), "green": (108.0, 88.0, 163.0),
           "yellow": (146.0, 134.0, 181.0), "purple": (53.0, 157.0, 113.0), "orange": (89.0, 154.0, 168.0)}
SHADES = {"red": (72.0, 168.0, 156.0), "blue": (51.0, 136.0, 101.0), "green": (69.0, 102.0, 151.0),
          "yellow": (87.0, 128.0, 161.0), "orange": (52.0, 140.0, 151.0)}


def _lab_of_linear(linear: tuple[float, float, float]) -> np.ndarray:
    srgb = np.where(np.array(linear) <= 0.0031308, 12.92 * np.array(linear),
                    1.055 * np.array(linear) ** (1 / 2.4) - 0.055)
    bgr = np.clip(np.rint(srgb[::-1] * 255.0), 0, 255)
    return bgr_to_lab(bgr.reshape(1, 3))


@given(st.floats(0.05, 0.6), st.floats(0.05, 0.6), st.floats(0.05, 0.6), st.floats(0.4, 1.6))
def test_shares_stay_when_the_light_changes(red: float, green: float, blue: float, light: float) -> None:
    base = chromaticity(_lab_of_linear((red, green, blue)))
    lit = chromaticity(_lab_of_linear((red * light, green * light, blue * light)))
    assert abs(float(base.sum()) - 1.0) < 1e-9
    assert np.abs(base - lit).max() < 0.05  # 8-bit rounding and Lab's own steps only


def test_black_has_even_shares() -> None:
    assert np.allclose(chromaticity(np.array([[0.0, 128.0, 128.0]])), 1.0 / 3.0)


def test_a_bright_orange_top_under_the_lamp_is_orange_not_the_yellow_lab_finds_nearer() -> None:
    model = ColourModel.seats(LEARNED, shades=SHADES)
    top = np.array([[150.0, 151.0, 190.0]])  # an orange chisel's top near the lamp, as the camera saw it
    lab_only = ColourModel(model.centroids, shades=model.shades)
    assert lab_only._distances(top)[1][0][3] < lab_only._distances(top)[1][0][5]  # Lab: nearer yellow
    assert model.classify(tuple(top[0]))[0] == "orange"  # type: ignore[arg-type]


def test_a_plain_yellow_and_a_plain_orange_keep_their_colours() -> None:
    model = ColourModel.seats(LEARNED, shades=SHADES)
    assert model.classify(LEARNED["yellow"])[0] == "yellow"
    assert model.classify(LEARNED["orange"])[0] == "orange"
    assert model.classify(rgb_to_lab((230, 200, 40)))[0] == "yellow"


def test_an_orange_piece_on_a_lamp_lit_beige_card_is_learned_as_orange() -> None:
    image = np.zeros((120, 120, 3), np.uint8)
    image[:] = (96, 174, 213)  # a beige card, bright under the lamp (BGR)
    cv2.circle(image, (60, 60), 9, (30, 100, 225), -1)  # the orange chisel's top, lit
    cv2.circle(image, (64, 60), 4, (14, 45, 110), -1)  # its wall in its own shade
    image = cv2.GaussianBlur(image, (5, 5), 1.2)  # the lens mixes the piece's edge with the card
    model = learn_from_pieces(image, {"orange": [(60.0, 60.0)]}, 4.0, standing=True)
    shares = chromaticity(np.array([model.centroids["orange"]]))[0]
    card = chromaticity(bgr_to_lab(np.array([[96.0, 174.0, 213.0]])))[0]
    assert np.linalg.norm(shares - card) > 0.2  # not the card's colour
    assert shares[0] > 0.7  # orange: most of its light is red


def test_a_piece_s_top_outweighs_a_wall_lower_down() -> None:
    from vision.pegs import _whole_piece

    # a warm lamp makes an orange chisel's lower wall look yellow; its top shows its own colour
    wall_and_top = [(None, 0.0, False), (None, 0.0, False), ("yellow", 0.589, False),
                    ("orange", 0.547, False)]
    assert _whole_piece(wall_and_top) == ("orange", 0.547)
    mostly = [(None, 0.0, False), ("yellow", 0.9, False), ("yellow", 0.8, False), ("orange", 0.5, False)]
    assert _whole_piece(mostly)[0] == "yellow"  # seen plainly at two heights, not outweighed by the top
