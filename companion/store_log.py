"""What a damaged write-ahead log cannot take with it.

SQLite in WAL mode keeps a committed write in the log file until a checkpoint copies it into the database
file; a log damaged before then (a flipped byte, a card that tore a write, another database's log laid
beside it) loses every move from the damage on, without a word. So the log is folded into the database and
emptied after every write, and the last committed move (its game, number and a fingerprint of it) is
written beside the database in a file of its own before that: at start, moves the database no longer holds
are counted and said."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import Said, said, said_n

log = logging.getLogger(__name__)


def fold(db: sqlite3.Connection) -> None:
    """Copy the log into the database file and empty it (nothing committed is left only in the log)."""
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()


def fingerprint(action_json: str | None, at: float) -> str:
    return hashlib.sha1(f"{action_json}|{at!r}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class LastMove:
    """The last move the store committed: its game, its number and its fingerprint."""

    game_id: int
    seq: int
    digest: str

    @staticmethod
    def path_for(database: Path) -> Path:
        return database.with_name(database.name + ".last")

    def write(self, database: Path) -> None:
        """Beside the database, replaced whole (written, synced, renamed): never half a record."""
        target = self.path_for(database)
        temporary = target.with_name(target.name + ".new")
        data = json.dumps({"game": self.game_id, "seq": self.seq, "digest": self.digest}).encode()
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(descriptor, data)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, target)

    @classmethod
    def read(cls, database: Path) -> LastMove | None:
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            data = json.loads(cls.path_for(database).read_text())
            return cls(int(data["game"]), int(data["seq"]), str(data["digest"]))
        return None


def moves_lost(db: sqlite3.Connection, database: Path) -> Said | None:
    """What the database lost since the last move written beside it, in words (None: nothing)."""
    last = LastMove.read(database)
    if last is None:
        return None
    try:
        game = db.execute("SELECT 1 FROM games WHERE id=?", (last.game_id,)).fetchone()
        held = int(db.execute("SELECT coalesce(max(seq), 0) FROM events WHERE game_id=?",
                              (last.game_id,)).fetchone()[0])
        row = db.execute("SELECT action, at FROM events WHERE game_id=? AND seq=?",
                         (last.game_id, last.seq)).fetchone()
    except sqlite3.Error:
        return None
    if game is None:
        return said_n("Game %(game)d and its move were lost to a damaged write-ahead log: a new game starts.",
                      "Game %(game)d and its %(num)d moves were lost to a damaged write-ahead log: a new "
                      "game starts.", last.seq, game=last.game_id)
    if held < last.seq:
        return said("Moves %(first)d to %(last)d of game %(game)d were lost to a damaged write-ahead log: "
                    "the game resumes after move %(held)d.", first=held + 1, last=last.seq,
                    game=last.game_id, held=held)
    if row is not None and fingerprint(row[0], row[1]) != last.digest:
        return said("Move %(seq)d of game %(game)d is not the one last written (the write-ahead log beside "
                    "the database was another's): check the game's history.", seq=last.seq,
                    game=last.game_id)
    return None
