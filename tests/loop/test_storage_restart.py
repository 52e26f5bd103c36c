"""A restart on a card that cannot be written (full, read-only, a folder with no database it may make): the
stored game resumes as it was, the page and the panel are up and say why, nothing is moved aside, the next
move waits and is saved once the cause is gone; only a database SQLite finds damaged is moved aside, saying
what it held. Real mounts where the machine allows them (root: tmpfs, read-only remounts)."""

from __future__ import annotations

import errno
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from loop_toygame import Take, Toy
from test_loop import feed, make_loop
from test_storage import fill, small_disk

from companion import store as stores
from companion.store import Store
from companion.store_open import Damaged, cause_outside
from companion.table import in_progress
from companion.web import WebConfig, create_app
from hw.panel import DEFAULT_PINS, Panel


@pytest.fixture(autouse=True)
def retry_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(in_progress, "RETRY_EVERY_S", 0.0)
    monkeypatch.setattr(stores, "REOPEN_EVERY_S", 0.0)


def remount(folder: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True, capture_output=True)


def one_move(loop: Any, source: Any, toy: Toy) -> None:
    state = loop.game.state
    feed(loop, source, toy.scene_for(state.apply(state.legal_actions()[0] if state.is_chance_node()
                                                 else Take(str(state.current_player()), 0))))


def restart_on(toy: Toy, disk: Path, pin_factory: Any, break_it: Callable[[], None],
               mend_it: Callable[[], None], says: str) -> None:
    panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
    loop, source = make_loop(toy, disk, panel)
    one_move(loop, source, toy)
    game_id, played = loop.game.game_id, loop.records.history()
    assert len(played) == 1
    loop.close()
    panel.close()
    break_it()
    panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
    loop, source = make_loop(toy, disk, panel)
    try:
        assert loop.game.game_id == game_id and loop.records.history() == played  # the same game
        storage = loop.snapshot()["storage"]
        assert storage["ok"] is False and says in storage["error"], storage
        assert panel.signals.storage_fault or loop.signals().storage_fault
        page = create_app(loop, WebConfig()).test_client().get("/")
        assert page.status_code == 200 and says in page.get_data(as_text=True)
        one_move(loop, source, toy)  # the next move waits, shown as not saved
        assert loop.records.history() == played and loop.snapshot()["storage"]["moves"] == 1
        mend_it()
        feed(loop, source)
        assert len(loop.records.history()) == 2 and loop.snapshot()["storage"] == {"ok": True}
        assert not list(disk.glob("*.corrupt-*"))
    finally:
        loop.close()
        panel.close()


def test_a_restart_on_a_full_card_keeps_the_game(toy: Toy, tmp_path: Path, pin_factory: Any) -> None:
    with small_disk(tmp_path / "disk", 2048) as disk:
        filler: list[Path] = []
        restart_on(toy, disk, pin_factory, lambda: filler.append(fill(disk)), lambda: filler[0].unlink(),
                   "the card is full")


def test_a_restart_on_a_read_only_card_keeps_the_game(toy: Toy, tmp_path: Path, pin_factory: Any) -> None:
    with small_disk(tmp_path / "disk", 2048) as disk:
        try:
            restart_on(toy, disk, pin_factory, lambda: remount(disk, "ro"), lambda: remount(disk, "rw"),
                       "read-only")
        finally:
            remount(disk, "rw")


def test_a_read_only_folder_with_no_database_plays_in_memory_and_keeps_it_later(
        toy: Toy, tmp_path: Path, pin_factory: Any) -> None:
    with small_disk(tmp_path / "disk", 2048) as disk:
        remount(disk, "ro")
        panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
        try:
            loop, source = make_loop(toy, disk, panel)
            assert loop.game.store.scratch and "read-only" in loop.snapshot()["storage"]["error"]
            one_move(loop, source, toy)
            assert len(loop.records.history()) == 1  # played meanwhile
            remount(disk, "rw")
            one_move(loop, source, toy)
            assert len(loop.records.history()) == 2 and loop.snapshot()["storage"] == {"ok": True}
            loop.close()
            again = Store(disk)
            assert len(again.events(again.latest_game_id() or 0)) == 2  # both kept in the folder
            again.close()
        finally:
            remount(disk, "rw")
            panel.close()


@pytest.mark.parametrize("error, outside", [
    (sqlite3.OperationalError("database or disk is full"), "the card is full"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "read-only"),
    (sqlite3.OperationalError("unable to open database file"), "cannot be opened"),
    (OSError(errno.EROFS, "Read-only file system"), "read-only"),
    (OSError(errno.ENOSPC, "No space left on device"), "the card is full"),
    (sqlite3.DatabaseError("file is not a database"), None),
    (sqlite3.DatabaseError("database disk image is malformed"), None),
    (Damaged("quick_check: row 3 missing from index"), None),
])
def test_damage_is_told_from_a_cause_outside_the_database(error: BaseException, outside: str | None) -> None:
    said = cause_outside(error)
    assert (said is None) if outside is None else (said is not None and outside in said)


def test_only_damage_is_moved_aside_and_what_it_held_is_said(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from engines.core import get_game

    store = Store(tmp_path)
    game = get_game("jurassik")
    store.new_game(game, game.new_initial_state(["red", "blue"]), [], {}, 1)
    store.close()
    real = stores.open_checked
    def failing(error: BaseException) -> Callable[[Path], sqlite3.Connection]:
        def open_checked(path: Path) -> sqlite3.Connection:
            raise error
        return open_checked

    monkeypatch.setattr(stores, "open_checked", failing(sqlite3.OperationalError("database or disk is full")))
    full = Store(tmp_path)
    assert full.unwritable and full.latest_game_id() == 1 and not list(tmp_path.glob("*.corrupt-*"))
    full.close()
    monkeypatch.setattr(stores, "open_checked", failing(Damaged("quick_check: bad")))
    damaged = Store(tmp_path)
    moved = list(tmp_path.glob("companion.db.corrupt-*"))
    assert moved and "could not be read" in str(damaged.problems[0])
    damaged.close()
    monkeypatch.setattr(stores, "open_checked", real)
