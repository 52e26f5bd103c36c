"""The shared input handling of `companion split|score|legal`: exit 2, one stderr line, nothing on stdout."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from companion.cli import main


def run(argv: list[str], stdin: bytes, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("stdin, expected", [
    (b"", "empty"),
    (b"   \n", "empty"),
    (b"{nope", "malformed JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested"),
])
@pytest.mark.parametrize(
    "argv", [["split", "-"], ["score", "jurassic-parts", "-"], ["legal", "jurassik", "-"]]
)
def test_bad_documents_are_one_line_and_exit_2(argv: list[str], stdin: bytes, expected: str,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(argv, stdin, capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and expected in err


def test_unknown_game_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(["score", "chess", "-"], b"{}", capsys, monkeypatch)
    assert status == 2 and out == "" and "unknown game" in err and err.count("\n") == 1
    status, out, err = run(["split", str(tmp_path / "absent.json")], b"", capsys, monkeypatch)
    assert status == 2 and out == "" and "cannot read" in err


def test_a_byte_order_mark_is_accepted(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    document = b'\xef\xbb\xbf{"players": ["red", "blue"], "current": "red", "tiles": [' \
        b'{"id": "F01", "q": 0, "r": 0}, {"id": "F02", "q": 1, "r": 0}], "chisels": []}'
    status, out, err = run(["split", "-"], document, capsys, monkeypatch)
    assert status == 0 and err == "" and '"split": false' in out


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`companion legal GAME FILE | head`: the pipe closed before the answer is written ends quietly."""
    import json
    import os
    import random
    import subprocess

    from engines.core import get_game

    game = get_game("jurassic-parts")
    state = game.new_initial_state(["red", "blue", "green"], random.Random(1))
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    document = tmp_path / "position.json"
    document.write_text(json.dumps(state.to_dict()))
    process = subprocess.Popen([sys.executable, "-m", "companion", "legal", "jurassic-parts", str(document)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line is written
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0 and "Traceback" not in err and err == ""
