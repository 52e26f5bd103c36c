"""A store that cannot be read whole: a control byte in a stored action, text that is not UTF-8, another
program's database. None of them is a crash: the table starts a new game beside the damaged one and says
so, `companion history` names the damaged game, and a foreign database is moved aside, never adopted."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import config_from_dict
from companion.store import Store, StoreError
from companion.table.loop import TableLoop
from engines.core import get_game

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]


def stored_game(state_dir: Path, moves: int = 3) -> None:
    store = Store(state_dir)
    game = get_game("jurassik")
    state = game.new_initial_state(["Ana", "Bo"], rng=random.Random(2))
    game_id = store.new_game(game, state, PLAYERS, {}, 2)
    for _ in range(moves):
        action = state.legal_actions()[0]
        store.append(game_id, "action", action.to_dict(), player=state.current_player(),
                     state_after=(state := state.apply(action)))
    store.close()


def damage(state_dir: Path, sql: str) -> None:
    with sqlite3.connect(state_dir / "companion.db") as db:
        db.execute(sql)


def loop_on(state_dir: Path) -> TableLoop:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hw.panel import Panel

    config = config_from_dict({"game": "jurassik", "seats": [{"name": "Ana", "colour": "red"},
                                                             {"name": "Bo", "colour": "blue"}],
                               "store": {"state_dir": str(state_dir)}})
    panel = Panel(config.pins, ["red", "blue"], pin_factory=MockFactory(pin_class=MockPWMPin), start=False)
    return TableLoop(config, panel=panel)


def history(state_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "history", "--state-dir", str(state_dir)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})


@pytest.mark.parametrize("sql", [
    "UPDATE events SET action = '{\"kind\": \"take\u0001\"}' WHERE seq = 2",
    "UPDATE games SET initial_state = CAST(X'7B22FF22' AS TEXT)",
    "UPDATE games SET players = '5'",
], ids=["control byte in an action", "not UTF-8", "players not a list"])
def test_a_damaged_game_is_reported_and_a_new_one_starts_beside_it(tmp_path: Path, sql: str) -> None:
    stored_game(tmp_path)
    damage(tmp_path, sql)
    loop = loop_on(tmp_path)
    try:
        assert loop.game.game_id == 2  # a new game, the damaged one kept
        assert any("Game 1 could not be resumed" in str(problem) and "damaged" in str(problem)
                   for problem in loop.problems)
        assert loop.snapshot()["problems"]
    finally:
        loop.close()
    again = loop_on(tmp_path)  # and no crash loop on the next start: it carries on with game 2
    try:
        assert again.game.game_id == 2
    finally:
        again.close()
    listed = history(tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "warning: game 1 is damaged" in listed.stderr and "Traceback" not in listed.stderr
    first, second = listed.stdout.strip().splitlines()
    assert first.split()[0] == "1" and "damaged" in first and second.split()[0] == "2"
    store = Store(tmp_path)
    assert list(store.damaged()) == [1]
    with pytest.raises(StoreError, match="game 1 is damaged"):
        store.replay(1)
    store.close()


def test_another_programs_database_is_moved_aside_not_adopted(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "companion.db") as db:
        db.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, payload TEXT)")
        db.execute("INSERT INTO events (payload) VALUES ('theirs')")
    store = Store(tmp_path)
    assert store.problems and "not the companion's database" in str(store.problems[0])
    assert "its events table is another program's" in str(store.problems[0])
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1
    with sqlite3.connect(aside[0]) as db:
        assert db.execute("SELECT payload FROM events").fetchone() == ("theirs",)  # kept as it was
    store.close()
    stored_game(tmp_path)  # the fresh store works: the first move is saved
    assert Store(tmp_path).event_count(1) == 3


def test_tables_without_the_schema_mark_are_not_ours(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "companion.db") as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    store = Store(tmp_path)
    assert "no companion schema mark" in str(store.problems[0])
    store.close()
