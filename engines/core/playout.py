"""Playouts: bots for the demo, conformance tests and benchmarks.

:func:`playout_states` is the one playout: it yields every state of a game played by a policy, with chance
decided by a chance function (drawn by weight unless a caller knows better, e.g. the tile really lying under
a back). :func:`random_playout` plays a whole game and returns its final state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

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
Chance = Callable[[State, random.Random], Action]


def uniform_policy(state: State, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def steps_from(
    state: State,
    rng: random.Random,
    policy: Policy = uniform_policy,
    chance: Chance = sample_chance,
) -> Iterator[tuple[State, Action, State]]:
    """Every step ``(before, action, after)`` from ``state`` until the game is over (unbounded: callers
    stop when they like)."""
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance(state, rng)
        else:
            legal = state.legal_actions()
            if not legal:
                player = state.current_player()
                raise RuntimeError(f"{state.game.name}: no legal action for {player} in {state!r}")
            action = policy(state, legal, rng)
        after = state.apply(action)
        yield state, action, after
        state = after


def playout_states(
    game: Game,
    players: Sequence[str],
    rng: random.Random,
    options: dict[str, object] | None = None,
    policy: Policy = uniform_policy,
    chance: Chance = sample_chance,
) -> Iterator[State]:
    """The initial state of a new game and every state after it, to the end."""
    state = game.new_initial_state(players, rng=rng, options=options)
    yield state
    for _, _, after in steps_from(state, rng, policy, chance):
        yield after


def random_playout(
    game: Game,
    players: Sequence[str],
    rng: random.Random,
    options: dict[str, object] | None = None,
    policy: Policy = uniform_policy,
    max_steps: int = 20_000,
    on_step: Callable[[State, Action, State], None] | None = None,
) -> State:
    """Play a whole game with ``policy`` (uniform by default) and seeded chance; return the final state.
    ``on_step(before, action, after)`` sees every step."""
    state = game.new_initial_state(players, rng=rng, options=options)
    for count, (before, action, after) in enumerate(steps_from(state, rng, policy), start=1):
        if count > max_steps:
            break
        if on_step is not None:
            on_step(before, action, after)
        state = after
    if not state.is_terminal():
        raise RuntimeError(f"{game.name}: playout did not end within {max_steps} steps")
    return state
