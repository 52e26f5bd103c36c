"""Corrupt states and positions are refused with a one-line InputError/StateFormatError, never a crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import InputError, StateFormatError, sample_chance
from engines.isla_nublar import GAME
from engines.isla_nublar.bots import bot_policy

JUNK = [None, -1, 0, 7, 2.5, "", "red", "C3R3", "DINO-1", "A2-AMBER2", [], {}, [1], {"x": 1}, True]


def _mid_game_state(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = GAME.new_initial_state(("red", "blue", "green"), rng=rng, options={"clients": True})
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(bot_policy(state, state.legal_actions(), rng))
    return state.to_dict()


BASE = [_mid_game_state(seed) for seed in (1, 2)]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@settings(max_examples=150, deadline=None)
@given(base=st.integers(0, 1), pick=st.integers(0, 10**6), junk=st.sampled_from(JUNK), drop=st.booleans())
def test_corrupt_states_are_refused_cleanly(base: int, pick: int, junk: Any, drop: bool) -> None:
    data = copy.deepcopy(BASE[base])
    paths = _paths(data)
    path = paths[pick % len(paths)]
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if drop and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(junk)
    try:
        state = GAME.state_from_dict(data)
    except StateFormatError as error:
        assert "\n" not in str(error).strip()
        return
    # accepted: it must then be a usable state
    state.legal_actions()
    state.scores()
    assert GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    try:
        GAME.legal_report(data)
        GAME.score_report(data)
    except InputError:
        pass


@settings(max_examples=80, deadline=None)
@given(
    fields=st.dictionaries(
        st.sampled_from(["C3R3", "C2R0", "C9R9", "C1R1", 5]),
        st.one_of(
            st.sampled_from(JUNK),
            st.fixed_dictionaries({"camps": st.sampled_from(JUNK)}),
            st.fixed_dictionaries({"boxes": st.sampled_from(JUNK)}),
        ),
        max_size=3,
    ),
    players=st.sampled_from([["red", "blue"], ["red"], "red", [1, 2], ["red", "red"], None]),
)
def test_corrupt_positions_are_input_errors(fields: Any, players: Any) -> None:
    try:
        GAME.score_report({"position": {"players": players, "fields": fields}})
    except InputError as error:
        assert "\n" not in str(error)
