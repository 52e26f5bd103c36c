"""Random playouts: bots for the demo, conformance tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engines.core.actions import Action
from engines.core.game import Game, State


def sample_chance(state: State, rng: random.Random) -> Action:
    """Draw one reveal at a chance node according to ``chance_outcomes()``."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    actions = [action for action, _ in outcomes]
    weights = [weight for _, weight in outcomes]
    return rng.choices(actions, weights=weights, k=1)[0]


Policy = Callable[[State, list[Action], random.Random], Action]


def uniform_policy(state: State, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def random_playout(
    game: Game,
    players: Sequence[str],
    rng: random.Random,
    options: dict[str, object] | None = None,
    policy: Policy = uniform_policy,
    max_steps: int = 20_000,
    on_step: Callable[[State, Action, State], None] | None = None,
) -> State:
    """Play a whole game with ``policy`` (uniform by default) and seeded chance; return the final state."""
    state = game.new_initial_state(players, rng=rng, options=options)
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            if not legal:
                raise RuntimeError(f"{game.name}: no legal action for {state.current_player()} in {state!r}")
            action = policy(state, legal, rng)
        next_state = state.apply(action)
        if on_step is not None:
            on_step(state, action, next_state)
        state = next_state
    raise RuntimeError(f"{game.name}: playout did not end within {max_steps} steps")
