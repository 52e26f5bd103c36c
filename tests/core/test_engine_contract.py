"""One contract for every registered engine, checked the same way on seeded random playouts.

Each engine's own suite goes deeper; this is the common floor: JSON round trip, views that serialize, proper
chance nodes, pure apply (checked through to_dict), explanations that cite rules, actions that round-trip,
and a Correct at the end that gives back an equal state.
"""

from __future__ import annotations

import copy
import enum
import random
from typing import Any

import pytest
from helpers.engine_contract import check_contract_step

from engines.core import Correct, Outcome, State, available_games, get_game, sample_chance

PLAYERS = {
    "jurassic-parts": ["red", "blue", "green"],
    "jurassik": ["ana", "ben", "cy"],
    "jurassic-brunch": ["blue", "orange"],
    "isla-nublar": ["red", "blue", "green"],
}
MAX_STEPS = 250  # per playout: enough to pass through every phase of these games' openings and splits


def test_every_game_of_the_product_is_registered() -> None:
    product = {name for name in available_games() if type(get_game(name)).__module__.startswith("engines.")}
    assert product == set(PLAYERS)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_the_core_contract_holds_along_a_playout(name: str, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    state: State = game.new_initial_state(PLAYERS[name], random.Random(seed))
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        assert state.outcome() is None
        assert isinstance(state.scores(), Outcome)
        state = state.apply(check_contract_step(game, state, rng))
    corrected = state.apply(Correct(state.to_dict(), "contract check"))
    assert corrected == state and corrected is not state


def test_the_contract_check_catches_an_impure_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("jurassik")
    state = game.new_initial_state(PLAYERS["jurassik"], random.Random(3))
    original = type(state).apply

    def leaky_apply(self: Any, action: Any) -> Any:
        after = original(self, action)
        self.__dict__.update(after.__dict__)  # the bug: the input becomes the output
        return after

    monkeypatch.setattr(type(state), "apply", leaky_apply)
    with pytest.raises(AssertionError, match="changed its input"):
        check_contract_step(game, state, random.Random(0))


def _perturbed(value: Any) -> Any:
    """Another value of the same shape (a field changed the way a move might change it)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, enum.Enum):
        return next(member for member in type(value) if member is not value)
    if isinstance(value, list | tuple):
        return type(value)([_perturbed(value[0]), *value[1:]]) if value else type(value)([0])
    if isinstance(value, set | frozenset):
        return type(value)(value | {10_000})
    if isinstance(value, dict):
        return {**value, "perturbed": 1}
    return {"perturbed": 1} if value is None else value


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_fingerprint_changes_whenever_the_state_does(name: str) -> None:
    """Caches key positions by fingerprint: a field that to_dict reads must be in it."""
    game = get_game(name)
    rng = random.Random(5)
    state: State = game.new_initial_state(PLAYERS[name], random.Random(5))
    for _ in range(30):
        chance = state.is_chance_node()
        state = state.apply(sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))
    before = state.to_dict()
    checked = 0
    for field, value in vars(state).items():
        changed = state.clone()
        try:
            setattr(changed, field, _perturbed(copy.deepcopy(value)))
            after = changed.to_dict()
        except Exception:  # a shape to_dict cannot read is no state at all
            continue
        if after != before:
            checked += 1
            assert changed.fingerprint() != state.fingerprint(), f"{field} is not in the fingerprint"
    assert checked >= 5
