"""Each game laid out on the table area the markers mark: the seats along its edges, the play in its
middle, and a clear reason when the game does not fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import config_from_dict
from companion.kits import kit_for
from companion.kits.tabletop import TableAreaError
from companion.table.models import model_for_table
from vision.calibration import Calibration, corner_layout

COLOURS = ["red", "blue", "green"]


@pytest.mark.parametrize("game", ["jurassic-parts", "jurassik", "isla-nublar"])
@pytest.mark.parametrize(("width", "height"), [(1280.0, 720.0), (1440.0, 810.0), (1500.0, 900.0)])
def test_a_game_lies_on_a_larger_area_within_its_edges(game: str, width: float, height: float) -> None:
    kit = kit_for(game)
    zones = kit.layout_zones(kit.layout_for_area(COLOURS, width, height))
    assert zones
    for zone in zones:
        assert all(-1 <= x <= width + 1 and -1 <= y <= height + 1 for x, y in zone.polygon), zone.name
    seats = [z for z in zones if z.name.startswith("seat:")]
    assert max(x for z in seats for x, _ in z.polygon) > width - 20  # the east seats at the east edge


@pytest.mark.parametrize("game", ["jurassic-parts", "jurassik", "isla-nublar", "jurassic-brunch"])
def test_an_area_too_small_says_what_does_not_fit(game: str) -> None:
    with pytest.raises(TableAreaError, match=r"700 x 400"):
        kit_for(game).layout_for_area(COLOURS, 700.0, 400.0)


def test_each_brunch_playing_area_lies_in_the_middle_of_the_table_given() -> None:
    import random

    from engines.core import get_game

    kit = kit_for("jurassic-brunch")
    on = kit.layout_for_area(["blue", "orange"], 1500.0, 900.0)
    state = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], random.Random(2))
    model = kit.model({"blue": "blue", "orange": "orange"}, on)
    scene = model.scene(state)
    assert (scene.width, scene.height) == (1500.0, 900.0)
    play = next(z for z in scene.zones if z.name == "play")
    xs = [p[0] for p in play.polygon]
    assert abs((min(xs) + max(xs)) / 2 - 750.0) < 1.0  # the boards in the middle
    seats = [z for z in scene.zones if z.name.startswith("seat:")]
    assert max(p[0] for z in seats for p in z.polygon) > 1480  # the east seat at the east edge


def test_narrower_seats_make_room_on_a_narrower_table() -> None:
    layout = kit_for("jurassik").layout_for_area(COLOURS, 1100.0, 720.0)
    assert layout.seat_strip < 330.0


def _calibration(width: float, height: float) -> Calibration:
    import numpy as np

    return Calibration(np.eye(3), {}, corner_layout(width, height))


def test_the_loop_plays_on_the_calibrated_area(tmp_path: Path) -> None:
    config = config_from_dict({"game": "jurassic-parts", "seats": COLOURS}, source="<test>")
    model, problem = model_for_table(config, _calibration(1440.0, 810.0))
    assert problem is None and model.layout.width == 1440.0  # type: ignore[attr-defined]
    model, problem = model_for_table(config, _calibration(1000.0, 500.0))
    assert problem is not None and "does not fit" in problem and "marks 1000 x 500 mm" in problem
    assert model.layout.width == 1280.0  # type: ignore[attr-defined]
    model, problem = model_for_table(config, None)
    assert problem is None and model.layout.width == 1280.0  # type: ignore[attr-defined]
