"""JB-CHARGE / JB-CHARGE-EXPEL (with and without the house rule), JB-RAPTOR / JB-RAPTOR-ONCE."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.jurassic_brunch import Charge, EndTurn, Expel, Move, RaptorMove
from engines.jurassic_brunch.board import Cell
from engines.jurassic_brunch.state import BrunchState

from .conftest import Builder


def charges(state: BrunchState) -> set[tuple[Cell, Cell]]:
    return {(a.origin, a.target) for a in state.legal_actions() if isinstance(a, Charge)}


def raptor_moves(state: BrunchState) -> set[tuple[Cell, bool | None]]:
    return {(a.to, a.scares) for a in state.legal_actions() if isinstance(a, RaptorMove)}


def test_charge_passes_over_grass_without_eating_and_takes_the_cell(build: Builder) -> None:
    state = build("Bgg.O.")
    assert charges(state) == {((0, 0), (4, 0))}
    after = state.apply(Charge((0, 0), (4, 0)))
    assert after.triceratops == {(4, 0): ("blue", None)}
    assert after.grass == {(1, 0), (2, 0)}  # not eaten
    assert after.pending == ("expel", ("orange", None)) and after.current_player() == "blue"
    assert after.actions_left == 1
    legal = {a.to for a in after.legal_actions()}
    assert legal == {(0, 0), (3, 0), (5, 0)}  # empty cells: no dinosaur, no token
    placed = after.apply(Expel((5, 0)))
    assert placed.triceratops[(5, 0)] == ("orange", None) and placed.pending is None


def test_expel_only_to_an_empty_cell_and_before_anything_else(build: Builder) -> None:
    state = build("B.Og.").apply(Charge((0, 0), (2, 0)))
    for bad in ((3, 0), (2, 0), (9, 9)):
        with pytest.raises(IllegalAction) as refusal:
            state.apply(Expel(bad))
        assert refusal.value.rule.rule_id == "JB-CHARGE-EXPEL"
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Move((2, 0), (3, 0)))
    assert refusal.value.rule.rule_id == "JB-PENDING"
    assert state.apply(Expel((0, 0))).triceratops[(0, 0)] == ("orange", None)  # the charger's old cell


def test_charging_own_sleeping_and_the_raptor(build: Builder) -> None:
    state = build(
        """
        B.b
        ...
        R..
        """
    )
    assert charges(state) == {((0, 0), (2, 0)), ((0, 0), (0, 2))}
    sleeper = state.apply(Charge((0, 0), (2, 0)))
    assert sleeper.pending == ("expel", ("blue", 1))
    assert sleeper.apply(Expel((1, 1))).triceratops[(1, 1)] == ("blue", 1)  # stays asleep
    raptor = state.apply(Charge((0, 0), (0, 2)))
    assert raptor.raptor is None and raptor.pending == ("expel", ("raptor", None))
    assert raptor.apply(Expel((2, 2))).raptor == (2, 2)


def test_no_dinosaur_in_line_no_charge(build: Builder) -> None:
    state = build(
        """
        B.g
        .
        O
        """
    )
    state = state.clone()
    state.triceratops[(0, 2)] = ("orange", None)
    assert charges(state) == {((0, 0), (0, 2))}
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Charge((0, 0), (2, 0)))
    assert refusal.value.rule.rule_id == "JB-CHARGE"


def test_charge_hits_the_first_dinosaur_only(build: Builder) -> None:
    state = build("B.O.O")
    assert charges(state) == {((0, 0), (2, 0))}
    with pytest.raises(IllegalAction, match="hits the dinosaur on"):
        state.apply(Charge((0, 0), (4, 0)))


def test_house_rule_tokens_block_a_charge(build: Builder) -> None:
    default = build("B.g.O\nO....")
    house = build("B.g.O\nO....", options={"charge_blocked_by_grass": True})
    assert ((0, 0), (4, 0)) in charges(default)
    assert ((0, 0), (4, 0)) not in charges(house)
    with pytest.raises(IllegalAction) as refusal:
        house.apply(Charge((0, 0), (4, 0)))
    assert refusal.value.rule.rule_id == "JB-CHARGE" and "tokens block" in refusal.value.detail
    assert house.apply(Charge((0, 0), (0, 1))) is not None  # a clear line still charges


def test_sleeping_triceratops_cannot_charge(build: Builder) -> None:
    state = build("b.O")
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Charge((0, 0), (2, 0)))
    assert refusal.value.rule.rule_id == "JB-ASLEEP"


def test_raptor_moves_in_eight_directions_and_stops_before_grass_or_edge(build: Builder) -> None:
    state = build(
        """
        .....
        .....
        ..R.g
        .....
        .....
        """
    )
    assert raptor_moves(state) == {
        ((3, 2), False), ((0, 2), False), ((2, 0), False), ((2, 4), False),
        ((4, 0), False), ((0, 0), False), ((4, 4), False), ((0, 4), False),
    }


def test_raptor_scares_a_triceratops_back_to_its_pool(build: Builder) -> None:
    state = build(
        """
        R..
        .g.
        ..O
        ...
        B..
        """
    )
    assert ((0, 4), True) in raptor_moves(state)  # south: scares blue's own
    assert ((2, 2), True) not in raptor_moves(state)  # diagonal is blocked by the grass at (1, 1)
    pool = state.pool["blue"]
    after = state.apply(RaptorMove((0, 0), (0, 4), True))
    assert after.raptor == (0, 4) and (0, 4) not in after.triceratops
    assert after.pool["blue"] == pool + 1
    assert not after.progress  # scaring your own triceratops is not progress (JB-END-QUIET)


def test_scaring_the_opponent_counts_as_progress(build: Builder) -> None:
    state = build("R.O\nB..")
    after = state.apply(RaptorMove((0, 0), (2, 0), True))
    assert after.progress and after.pool["orange"] == 5 and after.result is not None
    assert after.result["losers"] == ["orange"]


def test_raptor_once_per_turn_by_either_player(build: Builder) -> None:
    state = build(
        """
        R....
        .....
        B...O
        g....
        """
    )
    moved = state.apply(RaptorMove((0, 0), (4, 0), False))
    assert raptor_moves(moved) == set()
    with pytest.raises(IllegalAction) as refusal:
        moved.apply(RaptorMove((4, 0), (0, 0), False))
    assert refusal.value.rule.rule_id == "JB-RAPTOR-ONCE"
    moved = moved.apply(Move((0, 2), (3, 2)))
    orange = moved.apply(EndTurn())
    assert orange.current_player() == "orange" and raptor_moves(orange)  # a new turn: once again


def test_raptor_only_when_on_the_area(build: Builder) -> None:
    state = build("B..O")
    assert raptor_moves(state) == set()
    with pytest.raises(IllegalAction) as refusal:
        state.apply(RaptorMove((0, 0), (1, 0)))
    assert refusal.value.rule.rule_id == "JB-RAPTOR"


def test_raptor_diagonal_across_an_l_corner(build: Builder) -> None:
    state = build(
        """
        R..
        ...
        ...###
        ...B..
        """
    )
    state = state.clone()
    state.triceratops[(1, 3)] = ("orange", None)
    # diagonal south-east from (0,0): (1,1) (2,2) (3,3) holds a triceratops: it is scared
    assert ((3, 3), True) in raptor_moves(state)
    assert ((1, 3), True) not in raptor_moves(state)  # not on one of the 8 lines
    assert ((0, 3), False) in raptor_moves(state)
