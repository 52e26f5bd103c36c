"""The engine-core contract checked on random playouts: purity against deep copies, JSON round trips,
proper chance nodes, explanations that cite rules, views that hide tokens, and Correct."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest
from helpers.engine_contract import check_contract_step

from engines.core import Action, Correct
from engines.jurassic_brunch import GAME, BrunchState, Wake
from engines.jurassic_brunch.components import TOKEN_KINDS

SHARED = ("game", "area", "options")  # immutable data shared between states on purpose


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
    """Every contract point at one state (tests/helpers/engine_contract.py); the action to play next."""
    options_before = dict(state.options)
    action = check_contract_step(
        GAME, state, rng, refused=Wake((-9, -9)), shared=SHARED,
        check_views=lambda seen: check_views(cast(BrunchState, seen)),
    )
    assert state.options == options_before
    return action


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
