"""The pasture as the group joined it: the engine starts from the boards as laid (the figures on their
eggs, the grass on the rest follow from them) and refuses, naming the set-up rule, boards that are no one
pasture; the kit reads the boards' centre codes wherever the group laid them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.kits import kit_for
from companion.kits.jurassic_brunch import table as tables
from engines.core import IllegalAction, LaidByPlayers, StateFormatError, get_game
from sim.ideal import ideal_observation

GAME = get_game("jurassic-brunch")
COLOURS = ["blue", "orange"]


@pytest.mark.parametrize("seed", range(6))
def test_any_joining_the_rules_allow_starts_the_game_as_joined(seed: int) -> None:
    assert isinstance(GAME, LaidByPlayers)
    group = GAME.new_initial_state(COLOURS, random.Random(seed), {"arrangement": "random"})
    laid = {"boards": [board.to_dict() for board in group.area.boards]}
    state = GAME.state_as_laid(COLOURS, laid)
    assert state.to_dict() == group.to_dict()
    assert GAME.state_as_laid(COLOURS, laid, strict=False).to_dict() == group.to_dict()


def test_boards_that_are_not_one_pasture_are_refused_by_the_set_up_rule() -> None:
    centres = {"BOARD-1": [1, 1], "BOARD-2": [4, 1], "BOARD-3": [1, 8], "BOARD-4": [4, 8]}  # two pairs
    apart = [{"id": board, "centre": centre, "rotation": 0} for board, centre in centres.items()]
    with pytest.raises(IllegalAction) as refused:
        GAME.state_as_laid(COLOURS, {"boards": apart})
    assert refused.value.rule.rule_id == "JB-SETUP-AREA"
    with pytest.raises(StateFormatError):
        GAME.state_as_laid(COLOURS, {"tiles": []})


def test_the_boards_codes_are_read_wherever_the_pasture_lies() -> None:
    kit = kit_for("jurassic-brunch")
    group = GAME.new_initial_state(COLOURS, random.Random(4), {"arrangement": "random"})
    home = tables.BrunchLayout.for_area(group.area)
    laid = replace(home, origin=(home.origin[0] - 35.0, home.origin[1] + 20.0))
    scene = tables.scene_for(group, laid, boards_only=True)
    seen = kit.read_setup(ideal_observation(scene, "jurassic-brunch", kit.is_back), home)
    assert seen.laid == {"boards": [board.to_dict() for board in group.area.boards]}
    assert seen.placement["origin"] == [round(laid.origin[0], 1), round(laid.origin[1], 1)]
    # two boards' codes covered: which are seen, and what to show
    covered = replace(scene, tags=[t for t in scene.tags if not t.payload.endswith(("BOARD-2", "BOARD-4"))])
    short = kit.read_setup(ideal_observation(covered, "jurassic-brunch", kit.is_back), home)
    assert short.laid is None and tuple(map(str, short.steps)) == (
        "the camera sees pasture board 1 and pasture board 3: lay pasture board 2 and pasture board 4 "
        "beside them, nothing on their middle cells yet",)
    # all covered (the grass is down): the group is asked to lift what covers them
    full = tables.scene_for(group, laid)
    covered_all = kit.read_setup(ideal_observation(full, "jurassic-brunch", kit.is_back), home)
    assert covered_all.laid is None
    assert str(covered_all.steps[0]).startswith("the pasture boards' middle codes")
    empty = replace(full, tags=[])
    nothing = kit.read_setup(ideal_observation(empty, "jurassic-brunch", kit.is_back), home)
    assert nothing.laid is None and str(nothing.steps[0]).startswith("join the four pasture boards")
