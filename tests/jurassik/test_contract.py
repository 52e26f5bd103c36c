"""The engine-core contract checked on random playouts: purity against deep copies, JSON round trips,
proper chance nodes, explanations that cite rules, views and Correct."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers.engine_contract import check_contract_step

from engines.core import Action, Correct
from engines.jurassik import GAME, JurassikState, Take

SHARED = ("game", "rules")  # immutable rule data shared between states on purpose


def check_step(state: JurassikState, rng: random.Random) -> Action:
    """Every contract point at one state (tests/helpers/engine_contract.py); the action to play next."""
    return check_contract_step(GAME, state, rng, refused=Take(state.to_play, -1, 0), shared=SHARED)


@pytest.mark.parametrize("players, options", [
    (["ana", "ben"], {}),
    (["ana", "ben", "cy", "dee", "eve"], {"compulsory_actions": True}),
    (["ana", "ben", "cy"], {"edition": "es"}),
])
def test_the_core_contract_holds_at_every_step_of_a_playout(
    players: list[str], options: dict[str, Any]
) -> None:
    rng = random.Random(len(players))
    state = GAME.new_initial_state(players, random.Random(7), options)
    while not state.is_terminal():
        state = state.apply(check_step(state, rng))
    assert state.legal_actions() == [] and state.outcome() is not None
    corrected = state.apply(Correct(state.to_dict(), "replay check"))
    assert corrected == state and corrected is not state


def test_legal_list_is_the_same_after_a_json_round_trip_and_corrections_decode() -> None:
    """Found by the loop: the order of legal actions changed after a round trip, and the codec refused the
    core's correction action."""
    import random

    from engines.core import Correct, get_game, sample_chance

    game = get_game("jurassik")
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state(["a", "b", "c"], rng=rng)
        while not state.is_terminal():
            again = game.state_from_dict(json.loads(json.dumps(state.to_dict())))
            legal = state.legal_actions()
            assert [a.to_dict() for a in again.legal_actions()] == [a.to_dict() for a in legal]
            action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
            state = state.apply(action)
        correction = game.action_from_dict(Correct(state.to_dict(), "referee").to_dict())
        assert isinstance(correction, Correct) and state.apply(correction) == state
