"""The café board as its own part: its command (`python -m cafe`, installed as `dinotable-cafe`) refuses
bad input in one line, it loads nothing of the table's side, and its swatches wear the house colours."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cafe.command import broker_settings
from vision.scene import SEAT_COLOURS
from wire import seats

ROOT = Path(__file__).resolve().parents[2]


def board(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cafe", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cafe-configs")
    (folder / "bad-key.toml").write_text('[mqtt]\nurl = "mqtt://127.0.0.1"\npasword = "x"\n')
    (folder / "not-toml.toml").write_text("[mqtt\n")
    (folder / "mqtt-text.toml").write_text('mqtt = "mqtt://127.0.0.1"\n')
    (folder / "no-url.toml").write_text('[mqtt]\nusername = "cafe-board"\n')
    return folder


PROBES = [
    (["--port", "-1"], "port -1"),
    (["--port", "99999"], "port 99999"),
    (["--bind", "999.1.1.1", "--mqtt", "mqtt://127.0.0.1:1"], "999.1.1.1"),
    (["--config", "{configs}/bad-key.toml"], "pasword"),
    (["--config", "{configs}/not-toml.toml"], "not usable TOML"),
    (["--config", "{configs}/mqtt-text.toml"], "[mqtt]"),
    (["--config", "{configs}/missing.toml"], "no such config file"),
    (["--config", "{configs}/no-url.toml"], "no broker"),
    (["--mqtt", "mqtt://board:secret@127.0.0.1"], "password"),
    (["--write-logins", "{configs}/logins"], "--tables"),
]


@pytest.mark.parametrize(("argv", "words"), PROBES, ids=[" ".join(p[0])[:50] for p in PROBES])
def test_a_bad_command_line_is_one_error_line(argv: list[str], words: str, configs: Path) -> None:
    done = board(*[part.format(configs=configs) for part in argv])
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines


def test_the_config_file_gives_the_broker_login(tmp_path: Path) -> None:
    path = tmp_path / "cafe.toml"
    path.write_text('[mqtt]\nurl = "mqtts://cafe-pi.local"\nusername = "cafe-board"\n')
    settings = broker_settings(str(path))
    assert (settings.url, settings.username) == ("mqtts://cafe-pi.local", "cafe-board")
    assert settings.enabled


def test_the_board_loads_nothing_of_the_table_s_side() -> None:
    modules = sorted(p.stem for p in (ROOT / "cafe").glob("*.py") if p.stem != "__main__")
    probe = ("import importlib, sys\n"
             f"for name in {modules!r}:\n"
             "    importlib.import_module('cafe.' + name if name != '__init__' else 'cafe')\n"
             "print(sorted({m.split('.')[0] for m in sys.modules} & "
             "{'companion', 'engines', 'vision', 'hw', 'sim'}))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_every_seat_colour_has_the_house_shade() -> None:
    style = (ROOT / "lan" / "static" / "style.css").read_text()
    house = {name: tuple(int(v) for v in rgb.split(","))
             for name, rgb in re.findall(r"\.c-(\w+) \{ --seat: rgb\(([\d,]+)\); \}", style)}
    assert set(SEAT_COLOURS) == set(seats.SEAT_SHADES) == set(house)
    assert dict(seats.SEAT_SHADES) == house
    assert seats.rgb("teal") == "rgb(120,120,120)" and seats.colour_class("teal") == "c-none"
