"""A damaged write-ahead log loses no move without a word: the log is folded into the database after every
write (a log damaged later holds nothing the database lacks), and where the process died between a
commit and the fold, the moves the damaged log took with it are counted and said at start."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import store as stores
from companion.store import Store
from engines.core import get_game

MOVES = 25


def flip_mid_log(wal: Path) -> None:
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0xFF
    wal.write_bytes(bytes(data))


def change_salt(wal: Path) -> None:
    data = bytearray(wal.read_bytes())
    data[16] ^= 0x5A  # the header's first salt word: no frame matches it any more
    wal.write_bytes(bytes(data))


def garbage(wal: Path) -> None:
    wal.write_bytes(random.Random(1).randbytes(max(wal.stat().st_size, 4096)))


def cut_short(wal: Path) -> None:
    data = wal.read_bytes()
    wal.write_bytes(data[: len(data) // 3])


DAMAGE: dict[str, Callable[[Path], None]] = {"flipped byte": flip_mid_log, "salt": change_salt,
                                             "garbage": garbage, "cut short": cut_short}


def played(folder: Path) -> tuple[Store, int]:
    game = get_game("jurassik")
    store = Store(folder)
    state = game.new_initial_state(["red", "blue"], rng=random.Random(1))
    game_id = store.new_game(game, state, [], {}, 1)
    rng = random.Random(2)
    for _ in range(MOVES):
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        store.append(game_id, "action", action.to_dict(), player="red", source="bot")
    return store, game_id


def crash_copy(folder: Path, to: Path) -> Path:
    """The files as a power cut leaves them (the store still open)."""
    to.mkdir()
    for path in folder.iterdir():
        shutil.copy(path, to / path.name)
    (to / "companion.db-shm").unlink(missing_ok=True)
    return to / "companion.db-wal"


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_log_damaged_after_a_move_was_kept_loses_nothing(tmp_path: Path, damage: str) -> None:
    store, game_id = played(tmp_path / "table")
    wal = crash_copy(tmp_path / "table", tmp_path / "after")
    store.close()
    assert wal.exists() and wal.stat().st_size == 0  # folded after every write
    wal.write_bytes(b"\0" * 32 + random.Random(3).randbytes(8192))
    DAMAGE[damage](wal)
    again = Store(tmp_path / "after")
    assert again.event_count(game_id) == MOVES and again.problems == []
    again.close()


@pytest.mark.parametrize("damage", DAMAGE)
def test_moves_a_damaged_log_took_with_it_are_counted_and_said(tmp_path: Path, damage: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stores, "fold", lambda db: None)  # the power went before any fold
    store, game_id = played(tmp_path / "table")
    wal = crash_copy(tmp_path / "table", tmp_path / "after")
    store.close()
    monkeypatch.undo()
    DAMAGE[damage](wal)
    again = Store(tmp_path / "after")
    held = again.event_count(game_id) if again.latest_game_id() else 0
    assert held < MOVES
    said = " ".join(map(str, again.problems))
    if again.latest_game_id() is None:
        assert f"Game {game_id} and its {MOVES} moves were lost to a damaged write-ahead log" in said
    else:
        assert (f"Moves {held + 1} to {MOVES} of game {game_id} were lost to a damaged write-ahead log: "
                f"the game resumes after move {held}") in said
    again.close()


def test_another_database_s_log_beside_it_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stores, "fold", lambda db: None)
    ours, game_id = played(tmp_path / "ours")
    ours_wal = crash_copy(tmp_path / "ours", tmp_path / "after")
    ours.close()
    theirs, _ = played(tmp_path / "theirs")
    theirs.append(game_id, "action", {"kind": "remove-start", "player": "blue"}, player="blue", source="bot")
    theirs_wal = crash_copy(tmp_path / "theirs", tmp_path / "other")
    theirs.close()
    monkeypatch.undo()
    shutil.copy(theirs_wal, ours_wal)
    again = Store(tmp_path / "after")
    assert any("were lost" in str(p) or "not the one last written" in str(p) for p in again.problems)
    again.close()
