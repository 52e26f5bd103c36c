"""`companion replay`, `history` (with export) and `explain` over recorded frames of a real game, and
`companion run` started and stopped as a process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import bot_action
from companion.cli import main
from companion.config import config_from_dict
from companion.store import Store
from companion.table.loop import TableLoop
from hw.panel import Panel
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera
from sim.ideal import IdealPipeline

MOVES = 6


def record(folder: Path) -> list[dict[str, object]]:
    """Frames of the first moves of a Jurassik bot game, three per table picture, as the camera took them."""
    config = config_from_dict({"game": "jurassik", "seed": 1, "seats": ["red", "blue"]})
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, ["red", "blue"], pin_factory=factory, start=False)
    loop = TableLoop(
        config,
        store=Store(folder.parent / "scratch"),
        panel=panel,
        pipeline=IdealPipeline("jurassik", lambda _: False),
    )
    camera = SyntheticCamera(camera=recommended_camera(tilt=6.0), seed=1)
    state = loop.game.state
    pictures = [loop.game.model.scene(state)]
    actions = []
    for _ in range(MOVES):
        action = bot_action(state, 1, model=loop.game.model)
        after = state.apply(action)
        pictures.append(loop.game.model.display_scene(state, action, after))
        actions.append(action.to_dict())
        state = after
    folder.mkdir()
    index = 0
    for scene in pictures:
        camera.show(scene)
        for _ in range(3):
            frame = camera.read()
            assert frame is not None
            image = frame.image
            cv2.imwrite(str(folder / f"frame{index:04d}.jpg"), image)
            index += 1
    loop.close()
    factory.reset()
    return actions


@pytest.fixture(scope="module")
def replayed(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[dict[str, object]], dict[str, object]]:
    base = tmp_path_factory.mktemp("replay")
    actions = record(base / "frames")
    state_dir = base / "state"
    args = [
        "replay",
        str(base / "frames"),
        "--game",
        "jurassik",
        "--players",
        "red,blue",
        "--seed",
        "1",
        "--state-dir",
        str(state_dir),
        "--json",
    ]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(args) == 0
    return state_dir, actions, json.loads(out.getvalue())


def test_replay_reads_the_recorded_moves(
    replayed: tuple[Path, list[dict[str, object]], dict[str, object]],
) -> None:
    _, actions, result = replayed
    events = result["events"]
    assert isinstance(events, list)
    assert [e["action"] for e in events] == actions
    assert result["frames"] == 3 * (MOVES + 1)


def test_history_lists_games_and_events_and_exports(
    replayed: tuple[Path, list[dict[str, object]], dict[str, object]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    state_dir, actions, result = replayed
    assert main(["history", "--state-dir", str(state_dir)]) == 0
    assert "Jurassik" in capsys.readouterr().out
    assert main(["history", str(result["game_id"]), "--state-dir", str(state_dir), "--json"]) == 0
    assert [e["action"] for e in json.loads(capsys.readouterr().out)] == actions
    target = tmp_path / "game.json"
    assert main(["history", "--state-dir", str(state_dir), "--export", str(target)]) == 0
    exported = json.loads(target.read_text())
    assert exported["game"] == "jurassik" and len(exported["events"]) == MOVES
    assert exported["final_state"]["game"] == "jurassik"


def test_explain_cites_the_rules_and_the_evidence(
    replayed: tuple[Path, list[dict[str, object]], dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    state_dir, _, _ = replayed
    assert main(["explain", "2", "--state-dir", str(state_dir)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["explanation"]["legal"] is True
    assert data["evidence"]["photo"] is True and data["evidence"]["tags"] > 0
    assert main(["explain", "--notices", "--state-dir", str(state_dir)]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)


def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["replay", str(tmp_path / "nowhere"), "--game", "jurassik", "--state-dir", str(tmp_path)]) == 2
    )
    assert main(["history", "--state-dir", str(tmp_path / "empty")]) == 2
    assert main(["explain", "99", "--state-dir", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("error: ") for line in err)


@pytest.mark.skipif(sys.platform == "win32", reason="signals")
def test_run_starts_and_stops_cleanly(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        'game = "jurassik"\nseed = 2\n[[seats]]\ncolour = "red"\n[[seats]]\ncolour = "blue"\n'
        f'[camera]\nsource = "synthetic"\nfps = 10\n[store]\nstate_dir = "{tmp_path / "state"}"\n'
    )
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--config",
            str(config),
            "--record",
            str(tmp_path / "rec"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if line.startswith("recording"):
            line = process.stdout.readline()
        assert "Jurassik: game 1" in line, line + (process.stderr.read() if process.stderr else "")
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert (tmp_path / "state" / "companion.db").exists()
    assert list((tmp_path / "rec").glob("frame*.jpg"))  # frames recorded for `companion replay`
