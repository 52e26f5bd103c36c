"""A seat's spare pieces in a dim corner of the table are learned at calibration: a blue chisel there keeps
two fifths of its colour's chroma (a ray-traced table's far seat: Lab about 47, 140, 97), while the felt and
cards around it, however bluish, are not learned as the seat's colour."""

from __future__ import annotations

import cv2
import numpy as np

from vision import colour_learning


def _bgr(lab: tuple[int, int, int]) -> tuple[int, int, int]:
    pixel = cv2.cvtColor(np.array([[lab]], np.uint8), cv2.COLOR_Lab2BGR)[0, 0]
    return int(pixel[0]), int(pixel[1]), int(pixel[2])


def _zone(pieces_lab: tuple[int, int, int] | None) -> np.ndarray:
    image = np.full((200, 300, 3), _bgr((70, 128, 124)), np.uint8)  # dim grey-green felt
    cv2.rectangle(image, (200, 20), (290, 180), _bgr((95, 134, 112)), -1)  # a lavender card in the zone
    if pieces_lab is not None:
        for x in (50, 100, 150):
            cv2.circle(image, (x, 100), 7, _bgr(pieces_lab), -1)
    return image


ZONE = [("seat:blue", [(0.0, 0.0), (300.0, 0.0), (300.0, 200.0), (0.0, 200.0)])]


def test_a_seats_pieces_in_a_dim_corner_are_learned() -> None:
    learned = colour_learning.learn_seat_colours(_zone((47, 140, 97)), np.eye(3), ZONE)
    assert "blue" in learned
    assert abs(learned["blue"][2] - 97) < 12


def test_a_bluish_card_and_the_felt_are_not_learned_as_the_seats_colour() -> None:
    assert "blue" not in colour_learning.learn_seat_colours(_zone(None), np.eye(3), ZONE)
