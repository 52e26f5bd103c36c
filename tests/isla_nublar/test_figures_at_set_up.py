"""The dinosaur figures at a real table's set-up (IN-SETUP): the players stand them on the red volcanoes at
random, so which figure is on which volcano is chance, told by the table; the engine's own deal places
them at once."""

from __future__ import annotations

import random

import pytest

from engines.core import IllegalAction, get_game
from engines.isla_nublar.actions import PlaceDinosaurs

GAME = get_game("isla-nublar")
PLAYERS = ["red", "blue"]


def test_at_a_real_table_the_figures_are_chance_until_the_table_shows_them() -> None:
    state = GAME.new_initial_state(PLAYERS, random.Random(3), {"table_cards": "table"})
    assert state.is_chance_node() and all(at is None for at in state.dinos.values())
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and {a.kind for a, _ in outcomes} == {"place-dinosaurs"}
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    laid = PlaceDinosaurs(figures="DINO-3 DINO-1 DINO-4 DINO-2")
    placed = state.apply(laid)
    assert placed.dinos == dict(zip(["DINO-3", "DINO-1", "DINO-4", "DINO-2"], GAME.board.volcanoes))
    assert GAME.state_from_dict(state.to_dict()).to_dict() == state.to_dict()  # mid set-up, round trip
    assert state.rules_for(laid)[0].rule_id == "IN-SETUP"


def test_a_placement_that_is_not_the_four_figures_is_refused() -> None:
    state = GAME.new_initial_state(PLAYERS, random.Random(3), {"table_cards": "table"})
    with pytest.raises(IllegalAction) as refused:
        state.apply(PlaceDinosaurs(figures="DINO-1 DINO-1 DINO-2 DINO-3"))
    assert refused.value.rule.rule_id == "IN-SETUP"


def test_the_engine_s_own_deal_stands_the_figures_at_once() -> None:
    state = GAME.new_initial_state(PLAYERS, random.Random(3))
    assert sorted(state.dinos.values()) == sorted(GAME.board.volcanoes)
    assert not any(a.kind == "place-dinosaurs" for a in state.legal_actions())
