"""Corrupt states, positions and actions are refused with the typed one-line errors, never a crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction, InputError, StateFormatError
from engines.jurassic_brunch import GAME

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
STATE = json.loads((EXAMPLES / "jurassic-brunch-state.json").read_text())
POSITION = json.loads((EXAMPLES / "jurassic-brunch-position.json").read_text())
SCORE = json.loads((EXAMPLES / "jurassic-brunch-score.json").read_text())

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["blue", "YUMMY", "raptor", "", "x"])
    | st.floats(allow_nan=False, width=16),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["kind", "at", "a"]), inner,
                                                                  max_size=2),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def mutate(document: Any, path: tuple[Any, ...], replacement: Any, delete: bool) -> Any:
    if not path:
        return replacement
    data = copy.deepcopy(document)
    target = data
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = replacement
    return data


STATE_PATHS = paths(STATE)
POSITION_PATHS = paths(POSITION)
SCORE_PATHS = paths(SCORE)


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, len(STATE_PATHS) - 1), replacement=JSON, delete=st.booleans())
def test_corrupt_states_raise_state_format_errors(index: int, replacement: Any, delete: bool) -> None:
    data = mutate(STATE, STATE_PATHS[index], replacement, delete and bool(STATE_PATHS[index]))
    try:
        state = GAME.state_from_dict(data)
    except StateFormatError as error:
        assert "\n" not in str(error)
    else:
        assert GAME.state_from_dict(state.to_dict()) == state


@settings(max_examples=120, deadline=None)
@given(index=st.integers(0, len(POSITION_PATHS) - 1), replacement=JSON, delete=st.booleans())
def test_corrupt_positions_raise_input_errors(index: int, replacement: Any, delete: bool) -> None:
    data = mutate(POSITION, POSITION_PATHS[index], replacement, delete and bool(POSITION_PATHS[index]))
    try:
        report = GAME.legal_report(data)
    except InputError as error:
        assert "\n" not in str(error)
    else:
        assert isinstance(report["actions"], list)


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, len(SCORE_PATHS) - 1), replacement=JSON, delete=st.booleans())
def test_corrupt_score_input_raises_input_errors(index: int, replacement: Any, delete: bool) -> None:
    data = mutate(SCORE, SCORE_PATHS[index], replacement, delete and bool(SCORE_PATHS[index]))
    try:
        report = GAME.score_report(data)
    except InputError as error:
        assert "\n" not in str(error)
    else:
        assert set(report) == {"players", "winners", "tiebreak", "reason"}


@settings(max_examples=120, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["kind", "from", "to", "eats", "target", "at", "token", "cells",
                                             "scares", "origin"]), JSON, max_size=4),
       kind=st.sampled_from(["move", "charge", "raptor", "wake", "expel", "reveal", "steal", "birth", "look",
                             "hide", "super_yummy", "end_turn", "correct", "nope"]))
def test_malformed_actions_raise_state_format_errors(data: dict[str, Any], kind: str) -> None:
    state = GAME.state_from_dict(STATE)
    try:
        action = GAME.action_from_dict({**data, "kind": kind})
    except StateFormatError:
        return
    try:
        state.apply(action)
    except Exception as error:  # the point is which kinds of error come out
        assert isinstance(error, IllegalAction | StateFormatError), repr(error)
