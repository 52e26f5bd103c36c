"""Three demo tables and the café board on a real Mosquitto: the broker is stopped mid-game and started
again, one table is killed. The board ends up with every move of every table exactly once and in order (the
same moves the tables stored), the finished plays in its league, and the killed table offline."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from broker import Broker

from cafe.board import BoardStore
from cafe.league import leagues
from cafe.listener import BoardListener
from wire.broker import MqttConfig

pytestmark = pytest.mark.slow

#: t3 plays the longest game: it is still playing when it is killed
TABLES = {"t1": ("jurassik", 3), "t2": ("jurassic-brunch", 4), "t3": ("jurassic-parts", 5)}


def wait_for(what: str, condition: Callable[[], bool], timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def table_seqs(state_dir: Path) -> list[int]:
    with sqlite3.connect(state_dir / "companion.db") as db:
        return [row[0] for row in db.execute("SELECT seq FROM events WHERE game_id=1 ORDER BY seq")]


def start_table(name: str, url: str, state_dir: Path) -> subprocess.Popen[str]:
    game, seed = TABLES[name]
    command = [sys.executable, "-m", "companion", "demo", "--game", game, "--seed", str(seed), "--headless",
               "--until-end", "--pace", "0.2", "--mqtt", url, "--table", name, "--state-dir", str(state_dir)]
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_three_tables_a_broker_restart_and_a_killed_table(broker: Broker, tmp_path: Path) -> None:
    board = BoardStore(tmp_path / "board")
    listener = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="test")
    listener.start()
    dirs = {name: tmp_path / name for name in TABLES}
    tables = {name: start_table(name, broker.url, dirs[name]) for name in TABLES}
    outputs: dict[str, str] = {}
    try:
        def board_count(name: str) -> int:
            return len(board.events(name))

        wait_for("moves of every table on the board", lambda: all(board_count(n) >= 5 for n in TABLES))
        broker.stop()  # mid-game: the tables go on playing and keep what they cannot send
        stopped_at = {name: len(table_seqs(dirs[name])) for name in TABLES}
        time.sleep(3.0)
        away = {name: len(table_seqs(dirs[name])) - stopped_at[name] for name in TABLES}
        broker.start()
        assert away["t3"] > 0, away  # moves were made while the broker was away
        wait_for("t3 reporting again", lambda: board_count("t3") > stopped_at["t3"])
        assert tables["t3"].poll() is None, "t3 finished before it could be killed"
        tables["t3"].send_signal(signal.SIGKILL)
        tables["t3"].wait(timeout=30)
        for name in ("t1", "t2"):
            outputs[name], _ = tables[name].communicate(timeout=300)
            assert tables[name].returncode == 0, outputs[name]
            assert "game over" in outputs[name]
        for name in ("t1", "t2"):
            stored = table_seqs(dirs[name])
            seen = board.events(name)
            wait_for(f"every move of {name} ({len(stored)} stored; on the board {[e['seq'] for e in seen]}; "
                     f"the table said {outputs[name]})",
                     lambda name=name, stored=stored: board_count(name) == len(stored), timeout=60)
            assert [e["seq"] for e in board.events(name)] == stored == list(range(1, len(stored) + 1))
        killed = [e["seq"] for e in board.events("t3")]
        assert killed == list(range(1, len(killed) + 1))  # what it sent before dying: once, in order
        assert set(killed) <= set(table_seqs(dirs["t3"]))
        wait_for("the killed table shown offline",
                 lambda: not {t["name"]: t for t in board.tables()}["t3"]["online"], timeout=60)
        states = {t["name"]: t for t in board.tables()}
        assert states["t1"]["state"]["over"] and states["t2"]["state"]["over"]
        wait_for("both finished plays", lambda: len(board.plays()) == 2, timeout=30)
        games = {g.game: g for g in leagues(board.plays())}
        assert set(games) == {"jurassik", "jurassic-brunch"}
        assert listener.bad_messages == 0
    finally:
        for process in tables.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
        listener.stop()
        board.close()
