"""Hypothesis properties: nothing is created or lost, apply is pure, legality is exactly legal_actions()."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import Action, IllegalAction, sample_chance
from engines.jurassic_brunch import (
    ARRANGEMENTS,
    GAME,
    Birth,
    Charge,
    EndTurn,
    Expel,
    Hide,
    Look,
    Move,
    RaptorMove,
    Reveal,
    Steal,
    UseSuperYummy,
    Wake,
    check_conservation,
)
from engines.jurassic_brunch.components import TOKEN_COUNTS
from engines.jurassic_brunch.state import BrunchState

SETUPS = st.fixed_dictionaries(
    {
        "arrangement": st.sampled_from([*ARRANGEMENTS, "random"]),
        "charge_blocked_by_grass": st.booleans(),
        "wake_same_turn": st.booleans(),
        "super_yummy_same_turn": st.booleans(),
    }
)


def tokens_everywhere(state: BrunchState) -> int:
    return (
        sum(state.bag.values())
        + sum(state.discarded.values())
        + sum(sum(state.tokens[p].values()) + sum(state.hidden[p].values()) for p in state.players)
    )


def triceratops_everywhere(state: BrunchState, player: str) -> int:
    limbo = state.pending[1] if state.pending and state.pending[0] == "expel" else None
    return state.on_area(player) + state.pool[player] + (1 if limbo and limbo[0] == player else 0)


def walk(seed: int, options: dict[str, object], steps: int) -> list[BrunchState]:
    rng = random.Random(seed)
    state = GAME.new_initial_state(["blue", "orange"], rng, options)
    states = [state]
    for _ in range(steps):
        if state.is_terminal():
            break
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        before = state.to_dict()
        state = state.apply(action)
        assert states[-1].to_dict() == before  # apply never changes the state it is given
        states.append(state)
    return states


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=SETUPS)
def test_tokens_and_triceratops_are_never_created_or_lost(seed: int, options: dict[str, object]) -> None:
    for state in walk(seed, options, 100):
        check_conservation(state)
        assert tokens_everywhere(state) == sum(TOKEN_COUNTS.values()) == 28
        unrevealed_in_hand = 1 if state.pending and state.pending[0] == "reveal" else 0
        assert sum(state.bag.values()) == len(state.grass) + unrevealed_in_hand
        for player in state.players:
            assert triceratops_everywhere(state, player) == 5
        pieces = list(state.triceratops) + ([state.raptor] if state.raptor else [])
        assert len(set(pieces)) == len(pieces) and not set(pieces) & state.grass
        assert set(pieces) | state.grass <= state.area.cells


def key(action: Action) -> tuple[object, ...]:
    if isinstance(action, Look):  # the order of the two cells does not matter
        return action.kind, frozenset(action.cells), len(action.cells)
    origin = getattr(action, "origin", None) or getattr(action, "at", None)
    to = getattr(action, "to", None) or getattr(action, "target", None)
    return action.kind, origin, to, getattr(action, "token", None)


def candidate_actions(state: BrunchState, rng: random.Random) -> list[Action]:
    """Every kind of action over random cells and tokens: most are illegal."""
    cells = sorted(state.area.cells)
    found: list[Action] = [UseSuperYummy(), EndTurn()]
    for kind in TOKEN_COUNTS:
        found += [Reveal(kind), Steal(kind), Hide(kind)]
    for _ in range(40):
        origin, to = rng.choice(cells), rng.choice(cells)
        found += [Move(origin, to), Charge(origin, to), RaptorMove(origin, to), Wake(origin)]
        found += [Birth(origin), Expel(origin), Look((origin, to)), Look((origin,))]
    grass = sorted(state.grass)
    if len(grass) >= 2:
        found += [Look(tuple(rng.sample(grass, 2))) for _ in range(5)]
    return found


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=SETUPS)
def test_an_action_applies_exactly_when_it_is_listed(seed: int, options: dict[str, object]) -> None:
    rng = random.Random(seed)
    for state in walk(seed, options, 60)[::3]:
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        listed = {key(action) for action in legal}
        before = state.to_dict()
        for action in candidate_actions(state, rng):
            try:
                state.apply(action)
            except IllegalAction as refusal:
                assert key(action) not in listed, f"{action} is listed but refused: {refusal}"
                assert refusal.rule.rule_id in GAME.rulebook
            else:
                assert key(action) in listed, f"{action} applies but is not listed"
        assert state.to_dict() == before
        for action in legal:
            state.apply(action)  # every listed action applies
