"""The board's own database: the tables as last reported, every event of every table once and in order,
and the finished plays.

A table's events carry ``(game_id, started, seq)``: the game is named by its id and its start time (a
table whose store was replaced starts again at game 1), ``seq`` counts from 1 within it. An event is kept
only when it is the next one; a duplicate is dropped; one that comes early waits in memory while the missing
ones are asked for again (:meth:`BoardStore.add_event` says which).
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wire.reports import (
    BadWire,
    EventReport,
    ResendRequest,
    descriptions,
    event_report,
    play_report,
    state_report,
    table_name,
)
from wire.topics import STATUSES

log = logging.getLogger(__name__)

DB_NAME = "cafe.db"
#: events held back per game while an earlier one is missing, and in all (messages and bytes)
MAX_EARLY = 2000
MAX_EARLY_TOTAL = 5000
MAX_EARLY_BYTES = 8 * 1024 * 1024
#: tables the board keeps (a broker without an ACL lets anyone announce more)
MAX_TABLES = 200
#: games whose last seq is kept in memory (the rest are read from the database again when needed)
MAX_CACHED_GAMES = 10000

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
TABLES = {"tables", "events", "plays"}


class BadMessage(BadWire):
    """A report the board cannot use (not JSON, a field missing or of the wrong type, too many tables)."""


@dataclass(frozen=True)
class Added:
    """What became of an event: ``kept`` events stored now (it and any that waited for it),
    ``duplicate``, or ``missing_from`` the first seq to ask for again."""

    kept: int = 0
    duplicate: bool = False
    missing_from: int | None = None


def _size(message: Mapping[str, Any]) -> int:
    return len(json.dumps(message))


def _open(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """The board's database, or a fresh one with the unreadable (or foreign) one moved aside and why."""
    try:
        return _connect(path), None
    except sqlite3.DatabaseError as error:
        aside = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
        problem = (f"the board's database {path} could not be read ({error}): moved to {aside.name}, "
                   "started afresh")
        log.error("%s", problem)
        return _connect(path), problem


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        found = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if found and not found <= TABLES:
            raise sqlite3.DatabaseError(f"it holds other tables ({', '.join(sorted(found - TABLES))[:80]})")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(SCHEMA)
        db.execute("SELECT count(*) FROM events").fetchone()
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


class BoardStore:
    """SQLite in WAL mode; one connection behind a lock (the listener writes, the page reads). Every
    report is checked by :mod:`wire.reports` before it is kept, and again when it is read back."""

    def __init__(self, state_dir: str | Path) -> None:
        directory = Path(state_dir)
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / DB_NAME
        self._db, problem = _open(self.path)
        self.problems: list[str] = [problem] if problem else []
        self._lock = threading.Lock()
        self._last: collections.OrderedDict[tuple[str, int, float], int] = collections.OrderedDict()
        self._early: dict[tuple[str, int, float], dict[int, dict[str, Any]]] = {}
        self._early_bytes = 0
        self._known = {row[0] for row in self._db.execute("SELECT name FROM tables")}
        #: reports refused because the board keeps no more tables; idle tables forgotten to make room
        self.refused_tables = self.forgotten_tables = 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing (the listener) -------------------------------------------------------------------------
    def _admit(self, table: str) -> None:
        """A table may report when the board knows it or still has room (called under the lock)."""
        table_name(table)
        if table in self._known:
            return
        if len(self._known) >= MAX_TABLES and not self._forget_an_idle_table():
            self.refused_tables += 1
            raise BadMessage(f"the board keeps {MAX_TABLES} tables; {table!r} is one more")
        self._known.add(table)

    def _forget_an_idle_table(self) -> bool:
        """Make room for a new table: the one heard from longest ago that never reported a move or a play
        (an announcement and nothing more, as anyone can send on a broker without an ACL)."""
        row = self._db.execute(
            "SELECT name FROM tables WHERE name NOT IN (SELECT table_name FROM events) AND name NOT IN "
            "(SELECT table_name FROM plays) ORDER BY max(status_at, coalesce(state_at, 0)) LIMIT 1"
        ).fetchone()
        if row is None:
            return False
        self._db.execute("DELETE FROM tables WHERE name=?", (row[0],))
        self._known.discard(row[0])
        self.forgotten_tables += 1
        return True

    def set_status(self, table: str, status: str) -> None:
        now = time.time()
        if status not in STATUSES:
            raise BadMessage("a status is online or offline")
        with self._lock:
            self._admit(table)
            self._db.execute(
                "INSERT INTO tables (name, status, status_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE "
                "SET status=excluded.status, status_at=excluded.status_at", (table, status, now))

    def set_state(self, table: str, state: Mapping[str, Any]) -> ResendRequest | None:
        """Keep the table's snapshot; what to ask the table for again when it says it has more events of its
        game than the board holds (a board that started after they were sent), else None."""
        report = state_report(state)
        now = time.time()
        with self._lock:
            self._admit(table)
            self._db.execute(
                "INSERT INTO tables (name, status, status_at, state, state_at) "
                "VALUES (?, 'unknown', ?, ?, ?) ON CONFLICT(name) DO UPDATE "
                "SET state=excluded.state, state_at=excluded.state_at",
                (table, now, json.dumps(report.to_dict()), now))
            if report.game_id < 1:
                return None
            held = self._latest_seq(table, report.game_id)
        return ResendRequest(report.game_id, held + 1) if report.event_count > held else None

    def _latest_seq(self, table: str, game_id: int) -> int:
        """The last seq kept of the table's latest game with this id (0 when none is kept)."""
        row = self._db.execute(
            "SELECT started FROM events WHERE table_name=? AND game_id=? ORDER BY started DESC LIMIT 1",
            (table, game_id)).fetchone()
        return 0 if row is None else self._last_seq((table, game_id, float(row[0])))

    def add_event(self, table: str, message: Mapping[str, Any]) -> Added:
        report = event_report(dict(message))
        game = (table, report.game_id, report.started)
        seq = report.seq
        with self._lock:
            self._admit(table)
            last = self._last_seq(game)
            if seq <= last or seq in self._early.get(game, {}):
                return Added(duplicate=True)
            if seq > last + 1:
                self._hold(game, seq, report.message)
                return Added(missing_from=last + 1)
            kept = 0
            waiting = self._early.get(game, {})
            held: dict[str, Any] | None = report.message
            while held is not None:
                self._insert(table, game, seq, event_report(held))
                kept += 1
                seq += 1
                held = waiting.pop(seq, None)
                if held is not None:
                    self._early_bytes -= _size(held)
            if not waiting:
                self._early.pop(game, None)
            self._last[game] = seq - 1
            return Added(kept=kept, missing_from=seq if waiting else None)

    def _hold(self, game: tuple[str, int, float], seq: int, message: dict[str, Any]) -> None:
        """Keep an early event in memory while the budget allows (the table sends it again if not)."""
        early = self._early.setdefault(game, {})
        size = _size(message)
        total = sum(len(held) for held in self._early.values())
        if (len(early) < MAX_EARLY and total < MAX_EARLY_TOTAL
                and self._early_bytes + size <= MAX_EARLY_BYTES):
            early[seq] = message
            self._early_bytes += size
        elif not early:
            del self._early[game]

    def _last_seq(self, game: tuple[str, int, float]) -> int:
        if game in self._last:
            self._last.move_to_end(game)
        else:
            row = self._db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE table_name=? AND game_id=? AND started=?",
                game).fetchone()
            self._last[game] = int(row[0])
            while len(self._last) > MAX_CACHED_GAMES:
                self._last.popitem(last=False)
        return self._last[game]

    def _insert(self, table: str, game: tuple[str, int, float], seq: int, report: EventReport) -> None:
        self._db.execute(
            "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table, game[1], game[2], seq, report.kind, report.player, report.description,
             json.dumps(report.message), report.at, time.time()))

    def add_play(self, table: str, message: Mapping[str, Any]) -> None:
        play = play_report(message)
        row = (table, play.game_id, play.started, play.game, play.title,
               json.dumps([seat.to_dict() for seat in play.players]), json.dumps(play.scores),
               json.dumps(list(play.winners)), play.reason, play.finished, play.duration_s, play.moves)
        with self._lock:
            self._admit(table)
            self._db.execute("INSERT OR REPLACE INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)

    # -- reading (the page): what is stored is checked again, so a bad row is left out, never a 500 --------
    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, status, status_at, state, state_at FROM tables ORDER BY name").fetchall()
            last = {
                name: (seq, description, message) for name, seq, description, message in self._db.execute(
                    "SELECT table_name, seq, description, message FROM events AS e WHERE received = "
                    "(SELECT max(received) FROM events WHERE table_name = e.table_name)")
            }
        result = []
        for name, status, status_at, state, state_at in rows:
            seq, description, message = last.get(name, (None, None, None))
            result.append({"name": str(name), "online": status == "online", "status": str(status),
                           "status_at": _seconds(status_at), "state": _stored_state(state),
                           "state_at": _seconds(state_at), "last_move": _short(description),
                           "last_moves": _descriptions(message),
                           "last_seq": seq if isinstance(seq, int) else None})
        return result

    def events(self, table: str, limit: int = 10000) -> list[dict[str, Any]]:
        """A table's events as received, in game and move order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, started, seq, kind, player, description, at, received, message FROM events "
                "WHERE table_name=? ORDER BY started, game_id, seq LIMIT ?", (table, limit)).fetchall()
        keys = ("game_id", "started", "seq", "kind", "player", "description", "at", "received")
        return [{**dict(zip(keys, row[:-1], strict=True)), "descriptions": _descriptions(row[-1])}
                for row in rows]

    def plays(self, game: str | None = None) -> list[dict[str, Any]]:
        query = ("SELECT table_name, game_id, started, game, title, players, scores, winners, reason, "
                 "finished, duration_s, moves FROM plays")
        with self._lock:
            rows = self._db.execute(query + (" WHERE game=?" if game else "") + " ORDER BY finished",
                                    (game,) if game else ()).fetchall()
        plays = []
        for row in rows:
            try:
                stored = {"game_id": row[1], "started": row[2], "game": row[3], "title": row[4],
                          "players": json.loads(row[5]), "scores": json.loads(row[6]),
                          "winners": json.loads(row[7]), "reason": row[8], "finished": row[9],
                          "duration_s": row[10], "moves": row[11]}
                plays.append({"table": str(row[0]), **play_report(stored).to_dict()})
            except (BadWire, ValueError, TypeError, RecursionError):
                continue  # written by an older board or by hand: left out of the league
        return plays

    def lags(self) -> list[float]:
        """Seconds from each event's commit at its table to its arrival here."""
        with self._lock:
            return [row[0] for row in self._db.execute("SELECT received - at FROM events WHERE at > 0")]


def _stored_state(text: Any) -> dict[str, Any] | None:
    if not isinstance(text, str):
        return None
    try:
        return state_report(json.loads(text)).to_dict()
    except (BadWire, ValueError, TypeError, RecursionError):
        return None


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _descriptions(message: Any) -> dict[str, str]:
    """A stored move's description in each language its table sent (checked again: a bad row says none)."""
    try:
        return descriptions(json.loads(message)) if isinstance(message, str) else {}
    except (BadWire, ValueError, TypeError, RecursionError, AttributeError):
        return {}


def _short(value: Any) -> str | None:
    return value[:400] if isinstance(value, str) else None
