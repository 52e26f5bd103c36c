"""The engine-core contract at one state of a playout, for any engine."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

from engines.core import Action, Game, State, sample_chance


def snapshot(state: State, shared: tuple[str, ...] = ()) -> dict[str, Any]:
    """A deep copy of the state's attributes, less the immutable data states share on purpose."""
    return copy.deepcopy({key: value for key, value in vars(state).items() if key not in shared})


def check_contract_step(
    game: Game,
    state: State,
    rng: random.Random,
    refused: Action | None = None,
    shared: tuple[str, ...] | None = None,
    check_views: Callable[[State], None] | None = None,
) -> Action:
    """Every contract point at one state; returns the action to play next.

    Purity is checked against a deep snapshot of the state's attributes when ``shared`` names what may be
    shared between states, else against ``to_dict()``. ``refused`` is an action the state must refuse with
    exactly one cited rule.
    """
    before: Any = snapshot(state, shared) if shared is not None else state.to_dict()
    data = json.loads(json.dumps(state.to_dict()))
    assert game.state_from_dict(data).to_dict() == data
    assert game.state_from_dict(data).fingerprint() == state.fingerprint()
    fingerprints = {state.fingerprint(): json.dumps(data, sort_keys=True)}
    if check_views is not None:
        check_views(state)
    else:
        for viewer in (None, *state.players):
            json.dumps(state.view(viewer))
    legal = state.legal_actions()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
        assert [action for action, _ in outcomes] == legal
    else:
        assert state.chance_outcomes() == []
    for action in legal:
        after = state.apply(action)
        now: Any = snapshot(state, shared) if shared is not None else state.to_dict()
        assert now == before, f"apply({action}) changed its input"
        assert after is not state
        seen = fingerprints.setdefault(after.fingerprint(), json.dumps(after.to_dict(), sort_keys=True))
        assert seen == json.dumps(after.to_dict(), sort_keys=True), f"two states, one fingerprint: {action}"
        explanation = state.explain(action)
        assert explanation.legal and explanation.rules
        assert game.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    if refused is not None:
        refusal = state.explain(refused)
        assert not refusal.legal and len(refusal.rules) == 1 and refusal.rules[0].passage
    assert (snapshot(state, shared) if shared is not None else state.to_dict()) == before
    return sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal)
