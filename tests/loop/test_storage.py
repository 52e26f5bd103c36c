"""A store that cannot write (a full disk, an I/O error): the move is kept and saved once the store takes it,
the panel and the page say why meanwhile, nothing new is read before it, nothing is dropped or crashes."""

from __future__ import annotations

import contextlib
import html
import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from loop_toygame import Pass, Take, Toy
from test_loop import direct_play, feed, make_loop

from companion.bots import BotDriver
from companion.store import Store
from companion.table import in_progress
from companion.web import create_app
from hw.panel import Panel


class FailingStore(Store):
    """A real store whose writes fail while ``full`` is set, as SQLite fails on a full disk."""

    full = False

    def append(self, *args: Any, **kwargs: Any) -> Any:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        return super().append(*args, **kwargs)


@pytest.fixture(autouse=True)
def retry_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(in_progress, "RETRY_EVERY_S", 0.0)  # no wall-clock wait in the tests


def test_a_move_the_store_cannot_write_is_kept_shown_and_saved_later(toy: Toy, tmp_path: Path,
                                                                      mock_panel: Panel) -> None:
    store = FailingStore(tmp_path)
    loop, source = make_loop(toy, tmp_path, mock_panel, store=store)
    store.full = True
    after = loop.game.state.apply(Take("red", 0))
    feed(loop, source, toy.scene_for(after))
    assert loop.records.history() == []  # nothing shown unsaved
    assert loop.game.state.to_dict() != after.to_dict()
    snapshot = loop.snapshot()
    assert snapshot["storage"]["ok"] is False and "disk is full" in snapshot["storage"]["text"]
    assert snapshot["panel"]["pattern"] == "storage"
    assert mock_panel.signals.storage_fault
    # nothing new is read or accepted meanwhile
    assert feed(loop, source) is None
    refused = loop.submit(Pass("red").to_dict())
    assert refused["ok"] is False and refused["storage"] is True
    assert loop.undo()["ok"] is False
    store.full = False
    feed(loop, source)  # the next frame saves it
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]
    assert loop.game.state.to_dict() == after.to_dict()
    assert loop.snapshot()["storage"] == {"ok": True}
    assert loop.snapshot()["panel"]["pattern"] != "storage"
    assert store.replay(loop.game.game_id).state.to_dict() == after.to_dict()


def test_the_watchdog_saves_it_too_when_no_frame_comes(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    store = FailingStore(tmp_path)
    loop, source = make_loop(toy, tmp_path, mock_panel, store=store)
    store.full = True
    feed(loop, source, toy.scene_for(loop.game.state.apply(Take("red", 0))))
    store.full = False
    loop.check_camera()
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]


def test_bots_wait_while_the_disk_is_full_and_the_game_ends_as_without(toy: Toy, tmp_path: Path,
                                                                        mock_panel: Panel) -> None:
    store = FailingStore(tmp_path)
    loop, source = make_loop(toy, tmp_path, mock_panel, store=store)
    frames = {"n": 0}

    def pump() -> None:
        frames["n"] += 1
        store.full = 10 <= frames["n"] % 40 < 25  # the disk fills and empties again, over and over
        feed(loop, source)

    driver = BotDriver(loop, source.show, seed=11, pump=pump)
    final = driver.run()
    assert final.to_dict() == direct_play(toy, 11).to_dict()
    kinds = [e["action"]["kind"] for e in loop.records.history()]
    assert len(kinds) == driver.physical + driver.submitted  # every move once, none dropped


@contextlib.contextmanager
def small_disk(folder: Path, size_kb: int) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(descriptor, b"\0" * 4096)
    finally:
        os.close(descriptor)
    return filler


@pytest.mark.skipif(shutil.which("mount") is None or os.geteuid() != 0, reason="needs root to mount tmpfs")
def test_a_real_full_disk(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    with small_disk(tmp_path / "disk", 2048) as disk:
        loop, source = make_loop(toy, disk, mock_panel)
        filler = fill(disk)
        after = loop.game.state.apply(Take("red", 0))
        feed(loop, source, toy.scene_for(after))
        assert loop.records.history() == []
        assert loop.snapshot()["storage"]["ok"] is False and mock_panel.signals.storage_fault
        page = create_app(loop, {"lan": False}).test_client()
        for language, words in (("en", ("The game is at risk", "the card is full")),
                                ("es", ("La partida está en peligro", "la tarjeta está llena"))):
            text = html.unescape(page.get("/", headers={"Host": "localhost", "Accept-Language": language})
                                 .get_data(as_text=True))
            assert all(word in text for word in words), language  # a banner with the cause, not a pill
        filler.unlink()
        feed(loop, source)
        assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]
        assert loop.snapshot()["storage"] == {"ok": True}
        loop.close()


def test_a_storage_fault_is_never_a_crash_of_the_loop_thread(toy: Toy, tmp_path: Path,
                                                             mock_panel: Panel) -> None:
    store = FailingStore(tmp_path)
    loop, source = make_loop(toy, tmp_path, mock_panel, store=store)
    store.full = True
    errors: list[BaseException] = []

    def run() -> None:
        try:
            feed(loop, source, toy.scene_for(loop.game.state.apply(Take("red", 0))))
            feed(loop, source)
        except BaseException as error:  # the test fails on any escape
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    assert errors == [] and loop.camera.errors == 0
