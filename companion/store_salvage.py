"""Saving what a damaged database still holds before it is moved aside.

SQLite's checks fail a whole file for damage that may touch no row at all (a wrong count in its header, a
page of free space listed twice) or only some. So before a damaged database is moved aside every row of
ours that SQLite can still read is copied, inside SQLite (its bytes as they are, photos and texts alike),
into a fresh database that takes its place: games keep their numbers, moves theirs. Rows are copied in
runs of row ids; a run SQLite cannot read is halved until the readable rows in it are kept and the
unreadable ones counted. What the damaged file listed but could not hand over is said; the original stays
beside it (``*.corrupt-<time>``)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import Said, said, said_n
from companion.store_open import SCHEMA, SCHEMA_VERSION, move_aside

log = logging.getLogger(__name__)

#: the meta entry that lists every salvage of this store (when, and what was kept)
SALVAGES_KEY = "salvaged"
#: our tables in the order they are copied (a move needs its game)
TABLES = ("games", "events", "checkpoints", "notices", "meta")
#: row ids copied in one statement; a run that fails is halved
RUN = 512
#: how far row ids are probed for when the table cannot say its largest (2**62: any SQLite row id)
PROBE_BITS = 62


@dataclass(frozen=True)
class TableSalvage:
    """One table: the rows copied, and the rows the damaged file counted (None: it could not count)."""

    kept: int
    listed: int | None

    @property
    def lost(self) -> int | None:
        return None if self.listed is None else max(0, self.listed - self.kept)


@dataclass(frozen=True)
class Salvage:
    """What was copied out of a damaged database, table by table."""

    tables: dict[str, TableSalvage]
    #: row ids SQLite could not read (each may have held a row or none)
    unreadable_ids: int

    def kept(self, table: str) -> int:
        return self.tables[table].kept

    def lost(self, table: str) -> int | None:
        return self.tables[table].lost

    @property
    def complete(self) -> bool:
        """Every row the damaged file counted was copied, and nothing was unreadable."""
        return self.unreadable_ids == 0 and all(t.lost == 0 for t in self.tables.values())


def salvage(damaged: Path, into: Path) -> Salvage | None:
    """Copy the readable rows of ``damaged`` into a fresh database at ``into`` (replaced if there); None
    when ``damaged`` cannot be opened as a database at all (nothing to save)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(into) + suffix).unlink()
    fresh = sqlite3.connect(into.resolve().as_uri(), uri=True, isolation_level=None)
    try:
        fresh.executescript(SCHEMA)
        if not _attach(fresh, damaged):
            return None
        tables: dict[str, TableSalvage] = {}
        unreadable = 0
        for table in TABLES:
            copied, failed = _copy_table(fresh, table)
            tables[table] = TableSalvage(copied, _count(fresh, table))
            unreadable += failed
        fresh.execute("INSERT OR REPLACE INTO main.meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        fresh.execute("DETACH DATABASE old")
        return Salvage(tables, unreadable)
    finally:
        fresh.close()


def _attach(fresh: sqlite3.Connection, damaged: Path) -> bool:
    """The damaged file attached read-only as ``old`` (with its write-ahead log where SQLite can read it,
    else the main file alone); False when it is no database SQLite can read a table list of."""
    if not damaged.exists():
        return False
    uri = damaged.resolve().as_uri()
    for mode in ("?mode=ro", "?immutable=1"):
        try:
            fresh.execute("ATTACH DATABASE ? AS old", (uri + mode,))
        except sqlite3.Error:
            continue
        try:
            fresh.execute("SELECT count(*) FROM old.sqlite_master").fetchone()
            return True
        except sqlite3.Error:
            fresh.execute("DETACH DATABASE old")
    return False


def _columns(fresh: sqlite3.Connection, table: str) -> list[str] | None:
    """The columns of ``table`` both databases have (None: the damaged file has no such table)."""
    try:
        old = {row[1] for row in fresh.execute(f"PRAGMA old.table_info({table})")}
    except sqlite3.Error:
        return None
    ours = [row[1] for row in fresh.execute(f"PRAGMA main.table_info({table})")]
    shared = [column for column in ours if column in old]
    return shared or None


def _count(fresh: sqlite3.Connection, table: str) -> int | None:
    """The rows of ``table`` the damaged file counts (the schema mark is the fresh database's own)."""
    where = " WHERE key != 'schema'" if table == "meta" else ""
    try:
        return int(fresh.execute(f"SELECT count(*) FROM old.{table}{where}").fetchone()[0])
    except sqlite3.Error:
        return None


def _top_rowid(fresh: sqlite3.Connection, table: str) -> int:
    """The largest row id to copy up to: the table's own answer, else the largest one found by probing
    powers of two (a table whose last pages are damaged)."""
    try:
        top = fresh.execute(f"SELECT max(rowid) FROM old.{table}").fetchone()[0]
        return int(top or 0)
    except sqlite3.Error:
        pass
    found = 0
    for bit in range(PROBE_BITS + 1):
        with contextlib.suppress(sqlite3.Error):
            row = fresh.execute(f"SELECT rowid FROM old.{table} WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                                (1 << bit,)).fetchone()
            if row is None:
                break
            found = max(found, int(row[0]))
    return found + RUN


def _copy_table(fresh: sqlite3.Connection, table: str) -> tuple[int, int]:
    """(rows copied, row ids that could not be read) for one table."""
    columns = _columns(fresh, table)
    if columns is None:
        return 0, 0
    names = ", ".join(columns)
    statement = (f"INSERT OR IGNORE INTO main.{table} (rowid, {names}) SELECT rowid, {names} "
                 f"FROM old.{table} WHERE rowid >= ? AND rowid < ?")
    if table == "events":  # a move whose game was not saved cannot be replayed: it is counted as lost
        statement += " AND game_id IN (SELECT id FROM main.games)"
    elif table == "meta":
        statement += " AND key != 'schema'"
    top = _top_rowid(fresh, table)
    copied = failed = 0
    low = _first_rowid(fresh, table)
    while low <= top:
        high = min(low + RUN, top + 1)
        done, bad = _copy_run(fresh, statement, low, high)
        copied, failed = copied + done, failed + bad
        low = high
    return copied, failed


def _first_rowid(fresh: sqlite3.Connection, table: str) -> int:
    """The smallest row id (our tables number theirs from 1; 1 where the table cannot say)."""
    try:
        first = fresh.execute(f"SELECT min(rowid) FROM old.{table}").fetchone()[0]
    except sqlite3.Error:
        return 1
    return int(first) if first is not None else 1


def _copy_run(fresh: sqlite3.Connection, statement: str, low: int, high: int) -> tuple[int, int]:
    """Copy row ids [low, high): the rows copied, and how many single row ids could not be read."""
    try:
        fresh.execute("BEGIN")
        cursor = fresh.execute(statement, (low, high))
        fresh.execute("COMMIT")
        return max(cursor.rowcount, 0), 0
    except sqlite3.Error:
        with contextlib.suppress(sqlite3.Error):
            fresh.execute("ROLLBACK")
    if high - low <= 1:
        return 0, 1
    middle = (low + high) // 2
    left = _copy_run(fresh, statement, low, middle)
    right = _copy_run(fresh, statement, middle, high)
    return left[0] + right[0], left[1] + right[1]


def salvage_said(saved: Salvage | None, original: Path, listed: tuple[int, int] | None) -> Said:
    """What happened to a damaged database, for the page (every reader's language), the log and history:
    what was kept, what could not be read, where the original lies and what to do."""
    if saved is None or saved.kept("games") == 0:
        games, moves = listed or (0, 0)
        if games:
            return said("The saved games failed the database's own check and could not be copied out (it "
                        "still listed %(games)s and %(moves)s): a new database was started. The damaged file "
                        "is kept as %(original)s: keep it and ask for help before deleting it.",
                        games=said_n("%(num)d game", "%(num)d games", games).to_dict(),
                        moves=said_n("%(num)d move", "%(num)d moves", moves).to_dict(),
                        original=original.name)
        return said("The saved games could not be read: a new database was started. The damaged file is "
                    "kept as %(original)s.", original=original.name)
    kept = {"games": said_n("%(num)d game", "%(num)d games", saved.kept("games")).to_dict(),
            "moves": said_n("%(num)d move", "%(num)d moves", saved.kept("events")).to_dict()}
    if saved.complete:
        return said("The saved games failed the database's own check, but every game and move in them could "
                    "still be read: %(games)s and %(moves)s were copied into a new database and play goes "
                    "on. The damaged file is kept as %(original)s.", original=original.name, **kept)
    lost_moves, lost_games = saved.lost("events"), saved.lost("games")
    if lost_moves is None or lost_games is None:
        return said("The saved games were damaged: %(games)s and %(moves)s were copied into a new "
                    "database, some rows could not be read. The damaged file is kept as %(original)s: keep "
                    "it and check the history of the last games.",
                    original=original.name, **kept)
    if lost_games == 0:
        return said("The saved games were damaged: %(games)s and %(moves)s were copied into a new database; "
                    "%(lost_moves)s could not be read. The damaged file is kept as %(original)s: keep it and "
                    "check the history of the last games.", original=original.name, **kept,
                    lost_moves=said_n("%(num)d move", "%(num)d moves", lost_moves).to_dict())
    return said("The saved games were damaged: %(games)s and %(moves)s were copied into a new database; "
                "%(lost_games)s and %(lost_moves)s could not be read. The damaged file is kept as "
                "%(original)s: keep it and check the history of the last games.",
                original=original.name, **kept,
                lost_games=said_n("%(num)d game", "%(num)d games", lost_games).to_dict(),
                lost_moves=said_n("%(num)d move", "%(num)d moves", lost_moves).to_dict())


def listed_rows(path: Path) -> tuple[int, int] | None:
    """(games, moves) a damaged database still counts, as far as it can be read."""
    try:
        with contextlib.closing(sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)) as db:
            return (int(db.execute("SELECT count(*) FROM games").fetchone()[0]),
                    int(db.execute("SELECT count(*) FROM events").fetchone()[0]))
    except sqlite3.Error:
        return None


def replace_damaged(path: Path, foreign: str | None = None) -> Said:
    """Save what ``path`` still holds, move it aside and put the saved copy (or nothing) in its place;
    what happened, in words. A database that is not the companion's (``foreign`` says why) is moved
    aside untouched, nothing taken from it."""
    listed = listed_rows(path) if foreign is None else None
    copy = path.with_name(path.name + ".salvage")
    saved = None
    if foreign is None:
        try:
            saved = salvage(path, copy)
        except (sqlite3.Error, OSError) as error:
            log.error("nothing could be copied out of %s: %s", path, error)
    moved = move_aside(path)
    if saved is not None and saved.kept("games"):
        os.replace(copy, path)
    else:
        for suffix in ("", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(copy) + suffix).unlink()
    if foreign is not None:
        return said("The file %(name)s in the state folder is %(reason)s: it was moved aside untouched as "
                    "%(original)s and a new database was started.", name=path.name, reason=foreign,
                    original=moved.name)
    return salvage_said(saved, moved, listed)


def record_salvage(db: sqlite3.Connection, sentence: Said) -> None:
    """Note in the new database that it was copied out of a damaged one (its history says so for good)."""
    row = db.execute("SELECT value FROM meta WHERE key=?", (SALVAGES_KEY,)).fetchone()
    try:
        found = json.loads(row[0]) if row else []
    except ValueError:
        found = []
    entries = [entry for entry in found if isinstance(entry, dict)] if isinstance(found, list) else []
    entries.append({"at": time.time(), "said": sentence.to_dict()})
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (SALVAGES_KEY, json.dumps(entries)))
