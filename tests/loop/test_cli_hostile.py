"""Bad command lines: every one is a single `error:` line and exit 2, never a traceback. The probes that
once ended in tracebacks, and a check that every typed option of every command is range-checked."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.commands import arguments

IMAGE = str(Path(__file__).resolve().parents[2] / "docs/images/jp-midgame-tilt15-hand.png")
#: options typed as plain numbers because the command checks them itself, with their own words
CHECKED_LATER = {("tags", "--size")}


def companion(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})


def refused_in_one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile-cli")
    depth = 2000
    (folder / "deep.toml").write_text("a = " + "[" * depth + "1" + "]" * depth + "\n")
    (folder / "a-file").write_text("")
    return folder


PROBES = [
    (["serve", "--config", "{files}/deep.toml"], "nested too deeply"),
    (["serve", "--write-config", "/proc/nope/x.toml"], "cannot write"),
    (["serve", "--port", "70000"], "70000"),
    (["demo", "--players", "red,red", "--headless", "--max-actions", "1"], "share a colour"),
    (["demo", "--pace", "-1", "--headless"], "--pace"),
    (["demo", "--state-dir", "{files}/a-file", "--headless"], "is a file"),
    (["demo", "--mqtt", "mqtt://t1:secret@127.0.0.1", "--headless"], "password"),
    (["demo", "--fps", "inf"], "--fps"),
    (["calibrate", IMAGE, "--marker-size", "0"], "--marker-size"),
    (["calibrate", IMAGE, "--game", "jurassik", "--seats", "0"], "--seats"),
    (["calibrate", IMAGE, "--game", "jurassik", "--seats", "99"], "--seats"),
    (["calibrate", IMAGE, "--width", "nan", "--height", "nan"], "--width"),
    (["calibrate", IMAGE, "--width", "1e308", "--height", "1e308"], "--width"),
    (["history", "1" + "0" * 30, "--state-dir", "{files}"], "game's id"),
    (["explain", "1", "--game", "-4", "--state-dir", "{files}"], "game's id"),
    (["tags", "JP", "--size", "nan", "--out", "{files}"], "8 to 100 mm"),
    (["replay", "{files}", "--seed", "1" + "0" * 40], "a seed"),
    (["run", "--record-every", "0"], "--record-every"),
    (["run", "--state-dir", "{files}/a-file"], "is a file"),
    (["doctor", "--config", "{files}/deep.toml"], "nested too deeply"),
]


@pytest.mark.parametrize(("argv", "words"), PROBES, ids=[" ".join(p[0])[:60] for p in PROBES])
def test_a_bad_command_line_is_one_error_line(argv: list[str], words: str, files: Path) -> None:
    line = refused_in_one_line(companion(*[part.format(files=files) for part in argv]))
    assert words in line, line


def _typed_options() -> list[tuple[str, str, object]]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in commands.choices.items():
        for action in command._actions:
            if action.type is not None:
                found.append((name, (action.option_strings or [action.dest])[0], action.type))
    return found


def test_every_typed_option_is_range_checked() -> None:
    checkers = {value for value in vars(arguments).values() if callable(value)}
    loose = [(name, option) for name, option, kind in _typed_options()
             if kind not in checkers and getattr(kind, "__module__", "") != arguments.__name__
             and (name, option) not in CHECKED_LATER]
    assert loose == []


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e308", "abc", ""])
def test_the_number_checkers_refuse_what_is_not_a_sensible_number(text: str) -> None:
    for check in (arguments.millimetres, arguments.seconds, arguments.seat_count, arguments.port_number,
                  arguments.game_id):
        with pytest.raises(argparse.ArgumentTypeError):
            check(text)
