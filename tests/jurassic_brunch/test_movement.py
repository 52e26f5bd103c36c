"""JB-MOVE / JB-EAT / JB-ASLEEP: peaceful moves, including non-rectangular areas."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, IllegalAction
from engines.jurassic_brunch import GAME, Move, PlayingArea, arrangement
from engines.jurassic_brunch.board import ORTHOGONAL, Cell
from engines.jurassic_brunch.state import BrunchState

from .conftest import Builder


def moves_from(state: BrunchState, cell: Cell) -> set[tuple[Cell, bool | None]]:
    return {
        (a.to, a.eats) for a in state.legal_actions() if isinstance(a, Move) and a.origin == cell
    }


def test_slides_until_blocked_by_edge_dinosaur_or_raptor(build: Builder) -> None:
    state = build(
        """
        .....
        .B..O
        .....
        .R...
        """
    )
    assert moves_from(state, (1, 1)) == {((3, 1), False), ((0, 1), False), ((1, 0), False), ((1, 2), False)}


def test_grass_stops_the_move_on_it_and_is_eaten(build: Builder) -> None:
    state = build(
        """
        B..g.
        """
    )
    assert moves_from(state, (0, 0)) == {((3, 0), True)}
    after = state.apply(Move((0, 0), (3, 0), True))
    assert after.triceratops[(3, 0)] == ("blue", None) and (3, 0) not in after.grass
    assert after.current_player() == CHANCE and after.pending == ("reveal", (3, 0))
    assert after.actions_left == 1 and after.progress


def test_adjacent_grass_is_eaten_with_a_one_cell_move(build: Builder) -> None:
    state = build("Bg")
    assert moves_from(state, (0, 0)) == {((1, 0), True)}


def test_no_move_without_leaving_the_cell(build: Builder) -> None:
    state = build(
        """
        OBO
        .O.
        """
    )
    assert moves_from(state, (1, 0)) == set()
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Move((1, 0), (1, 1)))
    assert refusal.value.rule.rule_id == "JB-MOVE"


def test_wrong_destination_or_eats_flag_names_the_rule(build: Builder) -> None:
    state = build("B...g")
    for bad in (Move((0, 0), (2, 0)), Move((0, 0), (1, 1)), Move((0, 0), (4, 0), False)):
        with pytest.raises(IllegalAction) as refusal:
            state.apply(bad)
        assert refusal.value.rule.rule_id in {"JB-MOVE", "JB-EAT"}
    assert state.apply(Move((0, 0), (4, 0))).triceratops[(4, 0)][0] == "blue"  # eats omitted: whatever
    assert state.explain(Move((0, 0), (2, 0))).rules[0].rule_id == "JB-MOVE"


def test_only_your_own_standing_triceratops_moves(build: Builder) -> None:
    state = build("b..O.")
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Move((0, 0), (2, 0)))
    assert refusal.value.rule.rule_id == "JB-ASLEEP"
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Move((3, 0), (4, 0)))
    assert refusal.value.rule.rule_id == "JB-MOVE"
    assert moves_from(state, (0, 0)) == set()


def test_l_shape_move_stops_at_the_concave_corner(build: Builder) -> None:
    # the row y=2 is only 2 wide: sliding east from (0, 2) stops at (1, 2) although (2, 1) exists above
    state = build(
        """
        ...
        ...
        B.
        ..
        """
    )
    assert moves_from(state, (0, 2)) == {((1, 2), False), ((0, 0), False), ((0, 3), False)}


def test_boards_touching_at_one_cell_pass_moves_through_that_cell_only() -> None:
    area = PlayingArea(arrangement("corners"))
    # BOARD-1 covers x 0..2, y 0..2; BOARD-2 covers x 3..5, y 2..4: the only link is (2, 2)-(3, 2)
    assert (2, 2) in area.cells and (3, 2) in area.cells and (3, 1) not in area.cells
    state = GAME.new_initial_state(["blue", "orange"], options={"arrangement": "corners"})
    state.grass.clear()
    state.triceratops = {(0, 2): ("blue", None), (7, 5): ("orange", None)}
    for cell in list(area.cells):
        if cell not in state.triceratops and cell[1] != 2:
            state.grass.add(cell)
    # east along y=2: (1,2) (2,2), across the single shared edge to BOARD-2 (3,2) (4,2) (5,2), then the edge
    assert ((5, 2), False) in moves_from(state, (0, 2))
    state.triceratops = {(0, 1): ("blue", None), (7, 5): ("orange", None)}
    state.grass.discard((1, 1))
    state.grass.discard((2, 1))
    # along y=1 the area ends at x=2: (3, 1) belongs to no board
    assert ((2, 1), False) in moves_from(state, (0, 1))


@pytest.mark.parametrize("name", ["l-shape", "t-shape", "stairs", "corners", "line"])
def test_every_generated_move_stays_on_the_area_and_lands_by_the_rule(name: str) -> None:
    state = GAME.new_initial_state(["blue", "orange"], options={"arrangement": name})
    state.grass = {cell for cell in state.grass if (cell[0] + cell[1]) % 3 == 0}
    for cell, (owner, _) in list(state.triceratops.items()):
        if owner != "blue":
            continue
        for to, eats in moves_from(state, cell):
            assert to in state.area.cells
            assert eats == (to in state.grass)
            dx = (to[0] > cell[0]) - (to[0] < cell[0])
            dy = (to[1] > cell[1]) - (to[1] < cell[1])
            assert (dx, dy) in ORTHOGONAL
            walk = (cell[0] + dx, cell[1] + dy)
            while walk != to:  # every cell passed is free of tokens and dinosaurs
                assert walk in state.area.cells and walk not in state.grass and not state.occupied(walk)
                walk = (walk[0] + dx, walk[1] + dy)
            if not eats:
                beyond = (to[0] + dx, to[1] + dy)
                assert beyond not in state.area.cells or state.occupied(beyond)
