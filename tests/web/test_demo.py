"""`companion demo --headless`: the real loop reads a bot-played game from rendered frames."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.table.pipeline import VisionPipeline


@pytest.mark.parametrize("game", ["jurassic-parts", "jurassik"])
def test_headless_demo_reads_moves_from_the_camera(game: str, capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    status = main(["demo", "--headless", "--game", game, "--max-actions", "12", "--verbose",
                   "--state-dir", str(tmp_path)])
    out = capsys.readouterr()
    assert status == 0, out.err
    lines = out.out.splitlines()
    assert "read by the camera" in lines[0] and "perfect camera" not in lines[0]
    moves = [line for line in lines if line.strip().startswith("#")]
    assert len(moves) >= 12 and "[camera]" in "".join(moves)
    assert any("committed moves" in line for line in lines)
    # every committed move is in the real store
    databases = list(tmp_path.glob("*.sqlite*")) + list(tmp_path.glob("*.db"))
    assert databases, list(tmp_path.iterdir())
    with sqlite3.connect(databases[0]) as connection:
        tables = {row[0] for row in connection.execute("select name from sqlite_master where type='table'")}
    assert tables


def test_unknown_game_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--headless", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_demo_serves_the_page_and_says_where(tmp_path: Path) -> None:
    import os
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    env = {**os.environ, "TMPDIR": str(tmp_path), "GPIOZERO_PIN_FACTORY": "mock"}
    process = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--port", "0", "--pace", "0.2"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert process.stdout is not None
        url = None
        for _ in range(5):
            line = process.stdout.readline()
            found = re.search(r"Open (http://localhost:\d+/) in your browser", line)
            if found:
                url = found.group(1)
                break
        assert url is not None
        with urllib.request.urlopen(url, timeout=10) as page:
            assert b"Jurassic Parts" in page.read()
        assert list(tmp_path.glob("dinotable-demo-*"))  # the game's store while it runs
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert not list(tmp_path.glob("dinotable-demo-*"))  # and cleaned up after
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_stalled_demo_camera_costs_frames_not_the_game(tmp_path: Path) -> None:
    """SyntheticCamera.read() returns None while the camera stalls: the demo's pump skips those reads and
    the bots' moves are read once frames come again."""
    from companion.commands.demo import build

    demo = build("jurassik", seed=1, state_dir=tmp_path, synchronous=True)
    try:
        assert isinstance(demo.loop.pipeline, VisionPipeline)
        frames_before = demo.loop.camera.frames
        demo.camera.stall(5)
        pump = demo.driver.pump
        assert pump is not None
        assert [pump() for _ in range(5)] == [None] * 5  # nothing read, nothing raised
        assert demo.loop.camera.frames == frames_before
        demo.camera.stall(3)  # and again in the middle of a move: the driver waits it out
        for _ in range(3):
            assert demo.driver.step()
        assert len(demo.loop.records.history()) >= 3 and demo.loop.camera.errors == 0
    finally:
        demo.close()
