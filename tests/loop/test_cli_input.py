"""The command line's one-line errors for every bad file, integer or image: exit 2, one line on stderr,
no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers.images import huge_png

HUGE_INTEGER = "9" * 5000


def companion(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=env)


def one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]


@pytest.mark.parametrize("command", [["split", "-"], ["score", "jurassik", "-"],
                                     ["legal", "isla-nublar", "-"]])
def test_a_five_thousand_digit_integer_is_one_line(command: list[str]) -> None:
    one_line_refusal(companion(*command, stdin='{"players": [' + HUGE_INTEGER + "]}"), "4300 digits")


def test_a_config_with_a_huge_integer_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[web]\nport = {HUGE_INTEGER}\n")
    one_line_refusal(companion("serve", "--config", str(config)), str(config), "4300 digits")
    config.write_bytes(b"game = \"\xff\"\n")
    one_line_refusal(companion("serve", "--config", str(config)), "UTF-8")


def test_a_calibration_with_a_huge_integer_is_one_line(tmp_path: Path) -> None:
    calibration = tmp_path / "cal.json"
    calibration.write_text('{"homography": [' + HUGE_INTEGER + "]}")
    image = tmp_path / "frame.png"
    image.write_bytes(huge_png(64, 48))
    one_line_refusal(companion("observe", "jurassik", str(image), "--calibration", str(calibration)),
                     "4300 digits")


def test_export_to_a_folder_or_a_missing_path_is_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state"
    played = companion("demo", "--game", "jurassik", "--headless", "--state-dir", str(state),
                       "--max-actions", "3")
    assert played.returncode == 0, played.stderr
    exported = companion("history", "--state-dir", str(state), "--export", str(tmp_path))
    one_line_refusal(exported, "cannot write")
    missing = tmp_path / "no" / "such" / "dir" / "game.json"
    exported = companion("history", "--state-dir", str(state), "--export", str(missing))
    one_line_refusal(exported, "cannot write")


@pytest.mark.parametrize("command", [["decode", "IMAGE"], ["observe", "jurassic-parts", "IMAGE"],
                                     ["calibrate", "IMAGE", "--game", "jurassic-parts"]])
def test_a_huge_image_is_refused_before_decoding(tmp_path: Path, command: list[str]) -> None:
    image = tmp_path / "huge.png"
    image.write_bytes(huge_png(16000, 16000))
    one_line_refusal(companion(*[str(image) if c == "IMAGE" else c for c in command]), "16000 x 16000")
