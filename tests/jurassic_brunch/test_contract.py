"""The engine-core contract checked on random playouts: purity against deep copies, JSON round trips,
proper chance nodes, explanations that cite rules, views that hide tokens, and Correct."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engines.core import Action, Correct, State, sample_chance
from engines.jurassic_brunch import GAME, BrunchState, Wake
from engines.jurassic_brunch.tokens import TOKEN_KINDS

SHARED = ("game", "area", "options")  # immutable data shared between states on purpose


def snapshot(state: State) -> dict[str, Any]:
    return copy.deepcopy({key: value for key, value in vars(state).items() if key not in SHARED})


def check_views(state: BrunchState) -> None:
    for viewer in (None, *state.players):
        view = state.view(viewer)
        # public: looks and pending name the revealed token, discarded counts the used Super Yummies
        text = json.dumps({**view, "looks": [], "result": None, "pending": None, "discarded": {}})
        if viewer is None:
            assert "bag" not in view and not any(kind in text for kind in TOKEN_KINDS)
        for seat in state.players:
            if seat != viewer:
                assert isinstance(view["holdings"][seat]["tokens"], int)


def check_step(state: BrunchState, rng: random.Random) -> Action:
    """Every contract point at one state; returns the action to play next."""
    before = snapshot(state)
    options_before = dict(state.options)
    data = json.loads(json.dumps(state.to_dict()))
    assert GAME.state_from_dict(data).to_dict() == data
    check_views(state)
    legal = state.legal_actions()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
        assert [action for action, _ in outcomes] == legal
    else:
        assert state.chance_outcomes() == []
    for action in legal:
        after = state.apply(action)
        assert snapshot(state) == before, f"apply({action}) changed its input"
        assert after is not state
        explanation = state.explain(action)
        assert explanation.legal and explanation.rules
        assert GAME.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    refused = state.explain(Wake((-9, -9)))
    assert not refused.legal and len(refused.rules) == 1 and refused.rules[0].passage
    assert snapshot(state) == before and state.options == options_before
    return sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)


@pytest.mark.parametrize("seed, options", [
    (1, {}),
    (2, {"arrangement": "random", "charge_blocked_by_grass": True}),
    (3, {"arrangement": "corners", "wake_same_turn": True, "super_yummy_same_turn": True}),
])
def test_the_core_contract_holds_at_every_step_of_a_playout(seed: int, options: dict[str, Any]) -> None:
    rng = random.Random(seed)
    state = GAME.new_initial_state(["blue", "orange"], random.Random(seed), options)
    while not state.is_terminal():
        state = state.apply(check_step(state, rng))
    assert state.legal_actions() == [] and state.outcome() is not None
    corrected = state.apply(Correct(state.to_dict(), "replay check"))
    assert corrected == state and corrected is not state
