"""Random playouts of the real engines against inference with a perfect camera: every bot action that
shows on the table is explained as exactly that action (or asked about with it among the options), and
what inference applies is never anything else."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import config_from_dict
from companion.infer import infer, state_key
from companion.kits import kit_for, kits
from companion.table.models import default_model
from engines.core import get_game, uniform_policy
from sim.ideal import ideal_observation

#: a playout stops after this many actions, or once this many that show on the table have been read
STEPS = 400
VISIBLE = 40


def check_playout(game_name: str, seed: int) -> int:
    game = get_game(game_name)
    colours = list(kit_for(game_name).demo_colours)[: game.max_players]
    config = config_from_dict({"game": game_name, "seed": seed, "seats": colours})
    model = default_model(config)
    is_back = kit_for(game_name).is_back
    state = game.new_initial_state(colours, rng=random.Random(seed))
    rng = random.Random(seed)
    checked = 0
    for index in range(STEPS):
        if state.is_terminal() or checked >= VISIBLE:
            break
        if state.is_chance_node():
            action = model.chance_outcome(state, rng)
        else:
            action = uniform_policy(state, state.legal_actions(), rng)
        after = state.apply(action)
        if model.expected(after).key(model.tolerance) != model.expected(state).key(model.tolerance):
            scene = model.display_scene(state, action, after)
            result = infer(state, ideal_observation(scene, game_name, is_back, index, float(index)), model)
            target = state_key(after)
            if result.kind == "apply":
                assert state_key(result.states[0]) == target, (action, result.actions)
            else:
                assert result.kind == "question", (action, result.kind, result.text)
                assert target in {state_key(s) for s in result.states}
            checked += 1
        state = after
    return checked


@pytest.mark.parametrize("game_name", sorted(kits()))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_every_visible_action_is_read_as_itself(game_name: str, seed: int) -> None:
    assert check_playout(game_name, seed) > 0
