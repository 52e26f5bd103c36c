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
SCORE = {"players": [{"name": "ana", "tiles": ["D1-1", "D1-2", "D3-4"]}, {"name": "ben", "tiles": ["D2-1"]}]}


def console(command: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return run_console(command, "jurassik", stdin)


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
@pytest.mark.parametrize("command, stdin", [
    ("score", json.dumps(SCORE).encode()),
    ("legal", (EXAMPLES / "jurassik-state.json").read_bytes()),
])
def test_the_console_script_answers_one_json_line(command: str, stdin: bytes) -> None:
    assert_one_json_line(console(command, stdin))


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
@pytest.mark.parametrize("command", ["score", "legal"])
@pytest.mark.parametrize("stdin", [
    b"", b"{", b"\xff\xfe\x00\x01", b"[]", b'{"players": [{"name": "ana", "tiles": ["D11-1"]}]}',
    b'{"game": "jurassik", "format": 1, "players": ["ana", "ana"], "grid": [["?"]]}',
    b'{"players": [{"name": "\xff", "tiles": []}, {"name": "ben", "tiles": []}]}',  # not UTF-8 in a string
])
def test_the_console_script_refuses_bad_input_in_one_line(command: str, stdin: bytes) -> None:
    assert_one_error_line(console(command, stdin))


@pytest.mark.skipif(not COMPANION.exists(), reason="the console script is not installed in this environment")
def test_deeply_nested_json_is_bad_input_not_a_traceback() -> None:
    done = console("score", b"[" * 100_000 + b"]" * 100_000)
    assert done.returncode == 2 and done.stdout == b"" and done.stderr.count(b"\n") == 1


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["D1-1", "D3-2L", "?", "ROCK", "START", "ana", "ben", "take", "en", "es", "jurassik"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["players", "name", "tiles", "game", "format", "grid", "hands", "phase", "box", "x"]),
        inner, max_size=4),
    max_leaves=12,
)
DOCUMENTS = [json.loads(path.read_text()) for path in sorted(EXAMPLES.glob("jurassik-*.json"))] + [SCORE]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["score", "legal"]), document=st.sampled_from(DOCUMENTS) | JSON,
       choices=st.lists(st.integers(0, 50), max_size=5), replacement=JSON)
def test_no_input_makes_a_traceback_or_exit_1(command: str, document: Any, choices: list[int],
                                              replacement: Any, capsys: Any) -> None:
    check_ruling_answers_cleanly([command, "jurassik", "-"], mutated(document, choices, replacement), capsys)
