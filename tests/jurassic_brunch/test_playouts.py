"""Random-playout conformance to the end of the game, with JSON round trips at every step."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.core import Action, State, random_playout
from engines.jurassic_brunch import GAME, Move, RaptorMove, check_conservation
from engines.jurassic_brunch.state import BrunchState


def eater(state: State, legal: list[Action], rng: random.Random) -> Action:
    eats = [a for a in legal if isinstance(a, Move) and a.eats]
    if eats and rng.random() < 0.9:
        return rng.choice(eats)
    return rng.choice(legal)


def hunter(state: State, legal: list[Action], rng: random.Random) -> Action:
    scares = [a for a in legal if isinstance(a, RaptorMove) and a.scares]
    if scares:
        return rng.choice(scares)
    eats = [a for a in legal if isinstance(a, Move) and a.eats]
    return rng.choice(eats) if eats and rng.random() < 0.5 else rng.choice(legal)


def uniform(state: State, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def conform(before: State, action: Action, after: State) -> None:
    assert isinstance(before, BrunchState) and isinstance(after, BrunchState)
    data = json.loads(json.dumps(after.to_dict()))
    assert GAME.state_from_dict(data).to_dict() == data
    assert GAME.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    check_conservation(after)
    if not before.is_chance_node():
        assert action in before.legal_actions()
    else:
        assert action in [outcome for outcome, _ in before.chance_outcomes()]
    shared = after.view(None)
    assert "bag" not in shared and all(isinstance(h["tokens"], int) for h in shared["holdings"].values())


@pytest.mark.parametrize("policy", [uniform, eater, hunter])
def test_playouts_reach_the_end_with_round_trips(policy: object) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(20):
        options = {"arrangement": "random"} if seed % 2 else {"arrangement": "square"}
        final = random_playout(GAME, ["blue", "orange"], random.Random(seed), options, policy,  # type: ignore[arg-type]
                               on_step=conform)
        assert isinstance(final, BrunchState) and final.is_terminal() and final.result is not None
        assert final.legal_actions() == []
        outcome = final.outcome()
        assert outcome is not None and outcome.winners
        if final.result["rule"] == "JB-END-NO-TRICERATOPS":
            assert outcome.winners == tuple(p for p in final.players if final.on_area(p) > 0)
        reasons[final.result["rule"]] += 1
    assert sum(reasons.values()) == 20


def test_every_end_condition_is_reached_by_some_playout() -> None:
    reasons: Counter[str] = Counter()
    for policy in (eater, hunter):
        for seed in range(25):
            final = random_playout(GAME, ["blue", "orange"], random.Random(seed), {"arrangement": "random"},
                                   policy)
            assert isinstance(final, BrunchState) and final.result is not None
            reasons[final.result["rule"]] += 1
    assert set(reasons) == {"JB-END-NO-GRASS", "JB-END-NO-TRICERATOPS", "JB-END-QUIET"}


def test_playouts_are_reproducible_from_the_seed() -> None:
    first = random_playout(GAME, ["blue", "orange"], random.Random(99), {"arrangement": "random"}, eater)
    again = random_playout(GAME, ["blue", "orange"], random.Random(99), {"arrangement": "random"}, eater)
    assert first == again
