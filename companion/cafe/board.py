"""The board's own database: the tables as last reported, every event of every table once and in order,
and the finished plays.

A table's events carry ``(game_id, started, seq)``: the game is named by its id and its start time (a
table whose store was replaced starts again at game 1), ``seq`` counts from 1 within it. An event is kept
only when it is the next one; a duplicate is dropped; one that comes early waits in memory while the missing
ones are asked for again (:meth:`BoardStore.add_event` says which).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DB_NAME = "cafe.db"
#: events held back per game while an earlier one is missing
MAX_EARLY = 5000

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY, status TEXT NOT NULL, status_at REAL NOT NULL, state TEXT, state_at REAL
);
CREATE TABLE IF NOT EXISTS events (
    table_name TEXT NOT NULL, game_id INTEGER NOT NULL, started REAL NOT NULL, seq INTEGER NOT NULL,
    kind TEXT NOT NULL, player TEXT, description TEXT NOT NULL, message TEXT NOT NULL,
    at REAL NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (table_name, game_id, started, seq)
);
CREATE TABLE IF NOT EXISTS plays (
    table_name TEXT NOT NULL, game_id INTEGER NOT NULL, started REAL NOT NULL, game TEXT NOT NULL,
    title TEXT NOT NULL, players TEXT NOT NULL, scores TEXT NOT NULL, winners TEXT NOT NULL,
    reason TEXT NOT NULL, finished REAL NOT NULL, duration_s REAL NOT NULL, moves INTEGER NOT NULL,
    PRIMARY KEY (table_name, game_id, started)
);
"""


class BadMessage(ValueError):
    """A report the board cannot use (not JSON, a field missing or of the wrong type)."""


@dataclass(frozen=True)
class Added:
    """What became of an event: ``kept`` events stored now (it and any that waited for it),
    ``duplicate``, or ``missing_from`` the first seq to ask for again."""

    kept: int = 0
    duplicate: bool = False
    missing_from: int | None = None


def _int(message: Mapping[str, Any], key: str, low: int = 0) -> int:
    value = message.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BadMessage(f"{key} must be a whole number >= {low}")
    return value


def _number(message: Mapping[str, Any], key: str) -> float:
    value = message.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise BadMessage(f"{key} must be a number")
    return float(value)


def _text(message: Mapping[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str):
        raise BadMessage(f"{key} must be a text")
    return value


class BoardStore:
    """SQLite in WAL mode; one connection behind a lock (the listener writes, the page reads)."""

    def __init__(self, state_dir: str | Path) -> None:
        directory = Path(state_dir)
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / DB_NAME
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        self._last: dict[tuple[str, int, float], int] = {}
        self._early: dict[tuple[str, int, float], dict[int, dict[str, Any]]] = {}

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing (the listener) -------------------------------------------------------------------------
    def set_status(self, table: str, status: str) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (name, status, status_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE "
                "SET status=excluded.status, status_at=excluded.status_at", (table, status, now))

    def set_state(self, table: str, state: Mapping[str, Any]) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (name, status, status_at, state, state_at) "
                "VALUES (?, 'unknown', ?, ?, ?) ON CONFLICT(name) DO UPDATE "
                "SET state=excluded.state, state_at=excluded.state_at",
                (table, now, json.dumps(dict(state)), now))

    def add_event(self, table: str, message: Mapping[str, Any]) -> Added:
        game = (table, _int(message, "game_id", 1), _number(message, "started"))
        seq = _int(message, "seq", 1)
        _text(message, "kind")
        with self._lock:
            last = self._last_seq(game)
            if seq <= last or seq in self._early.get(game, {}):
                return Added(duplicate=True)
            if seq > last + 1:
                early = self._early.setdefault(game, {})
                if len(early) < MAX_EARLY:
                    early[seq] = dict(message)
                return Added(missing_from=last + 1)
            kept = 0
            waiting = self._early.get(game, {})
            while True:
                self._insert(table, game, seq, message)
                kept += 1
                seq += 1
                message = waiting.pop(seq, {})
                if not message:
                    break
            self._last[game] = seq - 1
            return Added(kept=kept, missing_from=seq if waiting else None)

    def _last_seq(self, game: tuple[str, int, float]) -> int:
        if game not in self._last:
            row = self._db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE table_name=? AND game_id=? AND started=?",
                game).fetchone()
            self._last[game] = int(row[0])
        return self._last[game]

    def _insert(self, table: str, game: tuple[str, int, float], seq: int, message: Mapping[str, Any]) -> None:
        player = message.get("player")
        who = player if isinstance(player, str) else None
        self._db.execute(
            "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table, game[1], game[2], seq, str(message.get("kind")), who,
             str(message.get("description", "")), json.dumps(dict(message)),
             float(message.get("at") or 0.0), time.time()))

    def add_play(self, table: str, message: Mapping[str, Any]) -> None:
        players = message.get("players")
        scores = message.get("scores")
        winners = message.get("winners")
        if not isinstance(players, list) or not isinstance(scores, dict) or not isinstance(winners, list):
            raise BadMessage("a play needs players, scores and winners")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
            raise BadMessage("scores must be whole numbers")
        row = (table, _int(message, "game_id", 1), _number(message, "started"), _text(message, "game"),
               _text(message, "title"), json.dumps(players), json.dumps(scores), json.dumps(winners),
               str(message.get("reason", "")), _number(message, "finished"), _number(message, "duration_s"),
               _int(message, "moves"))
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)

    # -- reading (the page) -----------------------------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, status, status_at, state, state_at FROM tables ORDER BY name").fetchall()
            last = {
                name: (seq, description) for name, seq, description in self._db.execute(
                    "SELECT table_name, seq, description FROM events AS e WHERE received = "
                    "(SELECT max(received) FROM events WHERE table_name = e.table_name)")
            }
        result = []
        for name, status, status_at, state, state_at in rows:
            seq, description = last.get(name, (None, None))
            result.append({"name": name, "online": status == "online", "status": status,
                           "status_at": status_at, "state": json.loads(state) if state else None,
                           "state_at": state_at, "last_move": description, "last_seq": seq})
        return result

    def events(self, table: str, limit: int = 10000) -> list[dict[str, Any]]:
        """A table's events as received, in game and move order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, started, seq, kind, player, description, at, received FROM events "
                "WHERE table_name=? ORDER BY started, game_id, seq LIMIT ?", (table, limit)).fetchall()
        keys = ("game_id", "started", "seq", "kind", "player", "description", "at", "received")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def plays(self, game: str | None = None) -> list[dict[str, Any]]:
        query = ("SELECT table_name, game_id, started, game, title, players, scores, winners, reason, "
                 "finished, duration_s, moves FROM plays")
        with self._lock:
            rows = self._db.execute(query + (" WHERE game=?" if game else "") + " ORDER BY finished",
                                    (game,) if game else ()).fetchall()
        return [{"table": r[0], "game_id": r[1], "started": r[2], "game": r[3], "title": r[4],
                 "players": json.loads(r[5]), "scores": json.loads(r[6]), "winners": json.loads(r[7]),
                 "reason": r[8], "finished": r[9], "duration_s": r[10], "moves": r[11]} for r in rows]

    def lags(self) -> list[float]:
        """Seconds from each event's commit at its table to its arrival here."""
        with self._lock:
            return [row[0] for row in self._db.execute("SELECT received - at FROM events WHERE at > 0")]
