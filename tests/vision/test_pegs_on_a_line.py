"""A piece on a gap is a spot on the tiles' shared edge: a card of a seat's colour running along the edge is
not a piece, a spot of that colour on it is (``find_pegs(..., along=...)``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pegs import ColourModel, find_pegs
from vision.scene import SEAT_RGB

GREEN_BGR = tuple(int(v) for v in reversed(SEAT_RGB["green"]))
PLACES = {"a": (60.0, 100.0), "b": (160.0, 100.0), "c": (260.0, 100.0)}
ALONG = {key: (0.0, 1.0) for key in PLACES}  # each place's edge runs up and down the picture


def _table() -> np.ndarray:
    return np.full((200, 320, 3), (150, 150, 150), np.uint8)


def _read(image: np.ndarray, along: dict[str, tuple[float, float]] | None) -> dict[str | None, str | None]:
    found = find_pegs(image, PLACES, np.eye(3), ColourModel.nominal(), 3.0, along=along)
    return {peg.on: peg.colour for peg in found}


def test_a_card_of_a_seats_colour_along_the_edge_is_no_piece() -> None:
    image = _table()
    cv2.rectangle(image, (154, 20), (166, 180), GREEN_BGR, -1)  # the card's strip along b's edge
    assert _read(image, None) == {"b": "green"}  # the premise: one sample there looks like a piece
    assert _read(image, ALONG) == {}


def test_a_spot_of_a_seats_colour_on_the_edge_is_a_piece() -> None:
    image = _table()
    cv2.line(image, (160, 20), (160, 180), (60, 60, 60), 2)  # the gap itself
    cv2.circle(image, (160, 100), 5, GREEN_BGR, -1)
    assert _read(image, ALONG) == {"b": "green"}


def _washed_out(bgr: tuple[int, ...], white: float) -> tuple[int, ...]:
    return tuple(round(v * (1 - white) + 245 * white) for v in bgr)


def test_the_edges_colour_washed_out_by_a_white_sticker_beside_it_is_no_piece() -> None:
    image = _table()
    cv2.rectangle(image, (154, 20), (166, 180), GREEN_BGR, -1)
    # where the edge meets a sticker its card reads paler: still the card, not a piece standing there
    cv2.circle(image, (160, 100), 5, _washed_out(GREEN_BGR, 0.45), -1)
    assert _read(image, None) == {"b": "green"}  # the premise: alone it reads as a piece
    assert _read(image, ALONG) == {}


def test_a_piece_stronger_than_a_pale_card_of_its_colour_beside_it_is_a_piece() -> None:
    image = _table()
    cv2.rectangle(image, (154, 20), (166, 180), _washed_out(GREEN_BGR, 0.5), -1)  # a pastel card
    cv2.circle(image, (160, 100), 5, GREEN_BGR, -1)
    assert _read(image, ALONG) == {"b": "green"}
