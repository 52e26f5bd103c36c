"""Fuzzing a `companion score|legal GAME -` ruling: every input is an answer or one clean refusal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.cli import main


def mutated(document: Any, choices: list[int], replacement: Any) -> Any:
    """``document`` with one nested value (picked by ``choices``) replaced."""
    if not choices or not isinstance(document, dict | list) or not document:
        return replacement
    keys = list(document) if isinstance(document, dict) else list(range(len(document)))
    key = keys[choices[0] % len(keys)]
    copied = dict(document) if isinstance(document, dict) else list(document)
    copied[key] = mutated(document[key], choices[1:], replacement)
    return copied


def check_ruling_answers_cleanly(argv: list[str], document: Any, capsys: Any) -> None:
    """Exit 0 with one JSON line, or exit 2 with one `error:` line and nothing on stdout; never else."""
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(json.dumps(document))
    try:
        status = main(argv)
    finally:
        sys.stdin = old_stdin
    out, err = capsys.readouterr()  # drained on every example, so each one is read alone
    assert status in (0, 2)
    if status == 0:
        assert err == "" and out.count("\n") == 1 and isinstance(json.loads(out), dict)
    else:
        assert out == "" and err.startswith("error: ") and err.count("\n") == 1


#: the installed console script beside this interpreter (absent when the package is not installed)
COMPANION = Path(sys.executable).with_name("companion")


def run_console(command: str, game: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    """`companion COMMAND GAME -` as a user runs it, with ``stdin`` as its input."""
    return subprocess.run([str(COMPANION), command, game, "-"], input=stdin, capture_output=True,
                          timeout=60, check=False)


def assert_one_json_line(done: subprocess.CompletedProcess[bytes]) -> None:
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.count(b"\n") == 1 and isinstance(json.loads(done.stdout), dict)


def assert_one_error_line(done: subprocess.CompletedProcess[bytes]) -> None:
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.startswith(b"error: ") and done.stderr.count(b"\n") == 1
