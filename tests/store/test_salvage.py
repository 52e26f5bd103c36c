"""A damaged store keeps what SQLite can still read: the rows are copied into a fresh database before the
original is moved aside, the page says what was kept and what was not in every language, and the history
remembers it."""

from __future__ import annotations

import random
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, speaking
from companion.status_words import sentence_words
from companion.store import Store
from companion.store_salvage import salvage
from engines.core import get_game, sample_chance

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]
GAMES, MOVES_EACH = 12, 20


def filled_store(state_dir: Path) -> dict[tuple[int, int], str]:
    """A store of whole games with photos, closed; every move's action JSON by (game, move)."""
    store = Store(state_dir, checkpoint_every=7)
    game = get_game("jurassik")
    for number in range(GAMES):
        rng = random.Random(number)
        state = game.new_initial_state(["Ana", "Bo"], rng=rng)
        game_id = store.new_game(game, state, PLAYERS, {}, number)
        for _ in range(MOVES_EACH):
            if state.is_terminal():
                break
            action = (sample_chance(state, rng) if state.is_chance_node()
                      else rng.choice(state.legal_actions()))
            state = state.apply(action)
            store.append(game_id, "action", action.to_dict(), photo=bytes([number]) * 900, state_after=state)
    store.close()
    return stored_moves(state_dir / "companion.db")


def stored_moves(path: Path) -> dict[tuple[int, int], str]:
    with sqlite3.connect(path) as db:
        return {(g, s): a for g, s, a in db.execute("SELECT game_id, seq, action FROM events")}


def wrong_freelist_count(path: Path) -> None:
    """The header's count of free pages one too many: every row is still readable."""
    data = bytearray(path.read_bytes())
    count = struct.unpack(">I", data[36:40])[0]
    data[36:40] = struct.pack(">I", count + 1)
    path.write_bytes(bytes(data))


def scribble_over_a_leaf_of_moves(path: Path) -> None:
    """One page of the moves table overwritten: the rows on it are gone, the others readable."""
    with sqlite3.connect(path) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = [row[0] for row in db.execute(
            "SELECT pageno FROM dbstat WHERE name='events' AND pagetype='leaf' ORDER BY pageno")]
    data = bytearray(path.read_bytes())
    middle = pages[len(pages) // 2]
    data[(middle - 1) * page_size:middle * page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))


def test_a_wrong_header_count_loses_nothing(tmp_path: Path) -> None:
    before = filled_store(tmp_path)
    wrong_freelist_count(tmp_path / "companion.db")
    store = Store(tmp_path)
    assert stored_moves(tmp_path / "companion.db") == before
    assert len(store.games()) == GAMES and store.damaged() == {}
    for record in store.games():  # every game replays from the copy
        store.replay(record.game_id)
    [problem] = store.problems  # and no move is said lost to the log beside it
    assert "every game and move in them could still be read" in str(problem)
    assert f"{GAMES} games and {len(before)} moves" in str(problem)
    aside = [p for p in tmp_path.glob("companion.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].name in str(problem)
    with sqlite3.connect(aside[0]) as db:  # the original kept as it was
        assert db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    game_id = store.new_game(get_game("jurassik"), get_game("jurassik").new_initial_state(
        ["Ana", "Bo"], rng=random.Random(99)), PLAYERS, {}, 99)
    assert game_id == GAMES + 1  # numbering goes on after the saved games
    store.close()


def test_a_damaged_page_loses_only_its_own_rows(tmp_path: Path) -> None:
    before = filled_store(tmp_path)
    scribble_over_a_leaf_of_moves(tmp_path / "companion.db")
    store = Store(tmp_path)
    after = stored_moves(tmp_path / "companion.db")
    assert after.items() <= before.items()  # nothing kept differs from what was written
    lost = len(before) - len(after)
    assert 0 < lost < len(before) // 3
    [problem] = [p for p in store.problems if "copied into a new database" in str(p)]
    assert f"{lost} moves could not be read" in str(problem) and f"{len(after)} moves" in str(problem)
    assert len(store.games()) == GAMES
    store.close()


def test_a_file_that_is_no_database_keeps_nothing_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "companion.db").write_bytes(b"not a database" * 300)
    store = Store(tmp_path)
    assert "could not be read" in str(store.problems[0]) and store.games() == []
    assert [entry["said"]["message"] for entry in store.salvages()] == [store.problems[0].message]
    store.close()


def test_salvage_copies_photos_byte_for_byte(tmp_path: Path) -> None:
    filled_store(tmp_path)
    wrong_freelist_count(tmp_path / "companion.db")
    saved = salvage(tmp_path / "companion.db", tmp_path / "copy.db")
    assert saved is not None and saved.complete
    with sqlite3.connect(tmp_path / "copy.db") as copy, sqlite3.connect(tmp_path / "companion.db") as old:
        query = "SELECT game_id, seq, photo, typeof(photo) FROM events ORDER BY game_id, seq"
        assert copy.execute(query).fetchall() == old.execute(query).fetchall()


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_what_was_kept_is_said_in_every_language(tmp_path: Path, code: str) -> None:
    filled_store(tmp_path)
    scribble_over_a_leaf_of_moves(tmp_path / "companion.db")
    store = Store(tmp_path)
    data = store.problems[0].to_dict()
    with speaking(code):
        words = sentence_words(data)
    with speaking("en"):
        english = sentence_words(data)
    assert "%(" not in words and ("games" in words) == (code == "en")
    assert (words == english) == (code == "en")
    store.close()


def test_history_says_the_store_was_salvaged(tmp_path: Path) -> None:
    filled_store(tmp_path)
    wrong_freelist_count(tmp_path / "companion.db")
    Store(tmp_path).close()
    listed = subprocess.run([sys.executable, "-m", "companion", "history", "--state-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "note:" in listed.stderr and "every game and move in them could still be read" in listed.stderr
    assert len(listed.stdout.strip().splitlines()) == GAMES
