"""Faults at a table read by the real vision pipeline: the QR decoder crashing, the camera lost and back,
a corrupt database at start-up. (SIGKILL at random moments: tests/loop/test_faults.py.)"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from table import build_table

from companion.bots import bot_game
from companion.infer import state_key
from vision import qr


def test_a_crashing_qr_decoder_does_not_lose_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_decode = qr.decode
    rng = random.Random(5)
    crashes = 0

    def flaky_decode(*args: Any, **kwargs: Any) -> Any:
        nonlocal crashes
        if rng.random() < 0.25:
            crashes += 1
            raise RuntimeError("zxing: internal error")
        return real_decode(*args, **kwargs)

    monkeypatch.setattr(qr, "decode", flaky_decode)
    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=4)
    try:
        reference = bot_game(table.initial_state(), 4, model=table.loop.game.model)
        for _ in range(24):  # a good part of the game (the whole of it costs time, not evidence)
            table.driver.step()
        now = table.loop.current_state()
        assert crashes > 0 and table.loop.camera.errors == crashes
        assert now.to_dict() == reference[len(table.loop.records.history())].to_dict()
        assert state_key(table.loop.game.store.replay(table.loop.game.game_id).state) == state_key(now)
    finally:
        table.close()


def test_camera_lost_and_back_in_the_running_loop(tmp_path: Path) -> None:
    """The loop's own threads, with time kept by the camera: each read (a frame, or nothing while the
    camera stalls) moves the clock one frame, so "lost" means frames missing, not a busy machine."""
    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=6)
    loop = table.loop
    loop.config = type(loop.config)(
        **{**loop.config.__dict__, "camera": type(loop.config.camera)(max_age_s=0.3)}
    )

    class TickingCamera:
        def read(self) -> Any:
            table.clock.tick()
            return table.camera.read()

    loop.source = TickingCamera()
    table.camera.fps = 0.0

    def wait_until(condition: Any) -> bool:
        deadline = time.monotonic() + 120  # a bound for a broken loop only: the frames decide
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.02)
        return bool(condition())

    try:
        loop.start()
        assert wait_until(lambda: loop.camera.frames >= 5)
        assert loop.snapshot()["camera"]["ok"]
        table.camera.stall(150)  # the camera stops delivering: 150 reads, 10 s of frames
        assert wait_until(lambda: loop.panel.signals.camera_lost)
        snapshot = loop.snapshot()
        assert snapshot["camera"]["ok"] is False and snapshot["panel"]["pattern"] == "camera-lost"
        assert wait_until(lambda: not loop.panel.signals.camera_lost)
        assert loop.snapshot()["camera"]["ok"]
        # and the table is still read: a bot move through the running loop's own camera thread
        table.driver.pump = None
        before = len(loop.records.history())
        table.driver.max_frames = 6000
        table.driver.step()
        assert len(loop.records.history()) == before + 1
    finally:
        loop.stop()
        table.close()


def test_a_corrupt_database_is_reported_and_start_up_goes_on(tmp_path: Path) -> None:
    (tmp_path / "companion.db").write_bytes(b"\x00garbage" * 512)
    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=7)
    try:
        snapshot = table.loop.snapshot()
        assert snapshot["problems"] and "could not be read" in snapshot["problems"][0]["text"]
        assert list(tmp_path.glob("companion.db.corrupt-*"))
        table.driver.step()
        assert len(table.loop.records.history()) == 1
    finally:
        table.close()
