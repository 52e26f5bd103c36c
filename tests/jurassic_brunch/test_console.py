"""The CLI contract (JSON out, one error line, exit 2): the console script, and cli.main fuzzed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers.console_fuzz import (
    COMPANION,
    assert_one_error_line,
    assert_one_json_line,
    check_ruling_answers_cleanly,
    mutated,
    run_console,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SCORE = {"players": [{"name": "blue", "tokens": ["YUMMY", "STODGY"], "on_area": 3},
                    {"name": "orange", "tokens": ["YUMMY"], "on_area": 2}]}


def console(command: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return run_console(command, "jurassic-brunch", stdin)


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
@pytest.mark.parametrize("command, stdin", [
    ("score", json.dumps(SCORE).encode()),
    ("legal", (EXAMPLES / "jurassic-brunch-position.json").read_bytes()),
    ("legal", (EXAMPLES / "jurassic-brunch-state.json").read_bytes()),
])
def test_the_console_script_answers_one_json_line(command: str, stdin: bytes) -> None:
    assert_one_json_line(console(command, stdin))


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
@pytest.mark.parametrize("command", ["score", "legal"])
@pytest.mark.parametrize("stdin", [
    b"", b"{", b"\xff\xfe\x00\x01", b"[]",
    b'{"players": [{"name": "blue", "tokens": ["CAKE"], "on_area": 1}]}',
    b'{"cells": [[0, 0]], "grass": [], "triceratops": [{"owner": "green", "at": [0, 0]}], "current": "blue"}',
    b'{"game": "jurassic-brunch", "format": 1}',
])
def test_the_console_script_refuses_bad_input_in_one_line(command: str, stdin: bytes) -> None:
    assert_one_error_line(console(command, stdin))


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
def test_deeply_nested_json_is_bad_input_not_a_traceback() -> None:
    done = console("score", b"[" * 100_000 + b"]" * 100_000)
    assert done.returncode == 2 and done.stdout == b"" and done.stderr.count(b"\n") == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["blue", "orange", "YUMMY", "super-yummy", "HIDEOUT", "raptor", "jurassic-brunch"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["players", "name", "tokens", "on_area", "cells", "grass", "triceratops", "owner",
                         "at", "current", "game", "format", "x"]),
        inner, max_size=4),
    max_leaves=12,
)
EXAMPLE_FILES = sorted(EXAMPLES.glob("jurassic-brunch-*.json"))
DOCUMENTS = [json.loads(path.read_text()) for path in EXAMPLE_FILES] + [SCORE]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["score", "legal"]), document=st.sampled_from(DOCUMENTS) | JSON,
       choices=st.lists(st.integers(0, 50), max_size=5), replacement=JSON)
def test_no_input_makes_a_traceback_or_exit_1(command: str, document: Any, choices: list[int],
                                              replacement: Any, capsys: Any) -> None:
    document = mutated(document, choices, replacement)
    check_ruling_answers_cleanly([command, "jurassic-brunch", "-"], document, capsys)
