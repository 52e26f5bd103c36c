"""Defects found in the QA audit of the Jurassic Brunch engine: each test failed before its fix."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import InputError, StateFormatError
from engines.jurassic_brunch import GAME, Hide, Move, Reveal, UseSuperYummy

from .conftest import Builder

FIELD = """
B.g.g
.....
O.g.g
"""


def test_hiding_a_super_yummy_keeps_an_older_one_usable(build: Builder) -> None:
    """Super Yummies are alike: hiding one of an older and a fresh one hides the fresh one, so the older one
    still gives its extra action this turn (the engine used to hide the older one and lock the other)."""
    held = {"blue": {"SUPER_YUMMY": 1, "HIDEOUT": 1}}
    state = build(FIELD, tokens=held, bag={"SUPER_YUMMY": 1, "YUMMY": 3})
    state = state.apply(Move((0, 0), (2, 0), True)).apply(Reveal("SUPER_YUMMY"))
    assert state.usable_super_yummies("blue") == 1
    hidden = state.apply(Hide("SUPER_YUMMY"))
    assert hidden.hidden["blue"]["SUPER_YUMMY"] == 1 and hidden.tokens["blue"]["SUPER_YUMMY"] == 1
    assert hidden.usable_super_yummies("blue") == 1
    assert hidden.apply(UseSuperYummy()).actions_left == 2


def test_hiding_the_only_fresh_super_yummy_leaves_nothing_to_use(build: Builder) -> None:
    state = build(FIELD, tokens={"blue": {"HIDEOUT": 1}}, bag={"SUPER_YUMMY": 1, "YUMMY": 3})
    state = state.apply(Move((0, 0), (2, 0), True)).apply(Reveal("SUPER_YUMMY"))
    hidden = state.apply(Hide("SUPER_YUMMY"))
    assert hidden.usable_super_yummies("blue") == 0 and hidden.fresh_super_yummy["blue"] == 0


def test_score_refuses_both_teams_gone() -> None:
    """The game ends as soon as one team has no triceratops on the area, so both at 0 is impossible (it
    used to print no winner at all)."""
    data = {"players": [{"name": "blue", "tokens": ["YUMMY"], "on_area": 0},
                        {"name": "orange", "tokens": [], "on_area": 0}]}
    with pytest.raises(InputError, match="both"):
        GAME.score_report(data)


def test_legal_refuses_a_position_with_both_teams_gone() -> None:
    position: dict[str, Any] = {"cells": [[0, 0], [1, 0]], "grass": [[1, 0]], "triceratops": [],
                                "current": "blue"}
    with pytest.raises(InputError, match="both"):
        GAME.legal_report(position)


def test_a_position_area_is_at_most_the_four_boards() -> None:
    """Four 3x3 boards make 36 cells; a larger area (300,000 cells were accepted) is not a position."""
    cells = [[x, y] for y in range(6) for x in range(7)]  # 42 cells
    herd = [{"owner": "blue", "at": [0, 0]}, {"owner": "orange", "at": [6, 5]}]
    position: dict[str, Any] = {"cells": cells, "grass": [[1, 0]], "triceratops": herd, "current": "blue"}
    with pytest.raises(InputError, match="36"):
        GAME.legal_report(position)
    position["cells"] = cells[:36]
    position["triceratops"][1]["at"] = [0, 5]
    assert GAME.legal_report(position)["actions"]


def test_a_state_area_given_by_cells_is_at_most_the_four_boards() -> None:
    state = GAME.new_initial_state().to_dict()
    state["area"] = {"cells": [[x, y] for y in range(6) for x in range(6)] + [[6, 0]]}
    with pytest.raises(StateFormatError, match="36"):
        GAME.state_from_dict(state)
