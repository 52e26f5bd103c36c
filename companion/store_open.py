"""Opening the game store's database: damage told from a cause outside it.

A database SQLite reports damaged (not a database, malformed, failing its quick check) has what it still
holds copied into a fresh one (:mod:`companion.store_salvage`) and is moved aside (``*.corrupt-<time>``);
one that is another program's (:class:`Foreign`) is moved aside untouched and a fresh one started. A
database that cannot be opened or written because of what lies outside it (the card full, read-only or
not permitted, an input/output error) is never moved aside or replaced: it is opened read-only (its games
are read as they are) and written again once the cause is gone (:class:`Unwritable` names the cause and
the fix meanwhile)."""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from pathlib import Path

from companion.i18n import N_

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    title TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    settings TEXT NOT NULL,
    initial_state TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    action TEXT,
    undoes INTEGER,
    player TEXT,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    observation TEXT,
    photo BLOB,
    rule TEXT,
    scores TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS checkpoints (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    detail TEXT NOT NULL,
    at REAL NOT NULL
);
"""


#: less room than this left on the card counts as full (SQLite needs room for its logs beside the file)
FULL_BELOW_BYTES = 1 << 20


def folder_cause(folder: Path, cause: str) -> str:
    """``cause`` made plain by what the folder shows: a read-only mount, a full card, a folder the user may
    not write (SQLite reports several of these as an input/output or open error)."""
    try:
        stat = os.statvfs(folder)
    except OSError:
        return cause
    if stat.f_flag & os.ST_RDONLY:
        return OUTSIDE_CODES[sqlite3.SQLITE_READONLY]
    if stat.f_bavail * stat.f_frsize < FULL_BELOW_BYTES:
        return OUTSIDE_CODES[sqlite3.SQLITE_FULL]
    if not os.access(folder, os.W_OK):
        return OUTSIDE_CODES[sqlite3.SQLITE_PERM]
    return cause


class Damaged(sqlite3.DatabaseError):
    """The database itself is damaged or not the companion's (what SQLite's checks or ours found)."""


class Foreign(Damaged):
    """The database is not one the companion can take rows from: another program's, or a newer schema's."""


class Unwritable(sqlite3.OperationalError):
    """The database cannot be written now for a cause outside it: the cause and what to do, in words."""


#: SQLite's primary result codes that mean the file itself is damaged (any other failure lies outside it)
DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
#: a cause outside the database, by SQLite primary result code, and what to do about it
OUTSIDE_CODES = {
    sqlite3.SQLITE_FULL: N_("the card is full: free some space (old photos, logs) and it saves again by "
                            "itself"),
    sqlite3.SQLITE_READONLY: N_("the card or the state folder is read-only: a card that went read-only is "
                                "failing (copy the state folder off it and replace the card); a folder "
                                "mounted read-only: mount it read-write"),
    sqlite3.SQLITE_CANTOPEN: N_("the database cannot be opened: the state folder is missing, read-only or "
                                "not the service user's (run companion doctor)"),
    sqlite3.SQLITE_IOERR: N_("the card reports an input/output error: it may be failing (copy the state "
                             "folder off it and replace the card)"),
    sqlite3.SQLITE_PERM: N_("the database is not the service user's to write (run companion doctor)"),
    sqlite3.SQLITE_BUSY: N_("another program holds the database (stop it, then the table saves again)"),
    sqlite3.SQLITE_LOCKED: N_("another program holds the database (stop it, then the table saves again)"),
}
OUTSIDE_ERRNOS = {
    errno.ENOSPC: OUTSIDE_CODES[sqlite3.SQLITE_FULL],
    errno.EDQUOT: OUTSIDE_CODES[sqlite3.SQLITE_FULL],
    errno.EROFS: OUTSIDE_CODES[sqlite3.SQLITE_READONLY],
    errno.EACCES: OUTSIDE_CODES[sqlite3.SQLITE_PERM],
    errno.EPERM: OUTSIDE_CODES[sqlite3.SQLITE_PERM],
    errno.EIO: OUTSIDE_CODES[sqlite3.SQLITE_IOERR],
}
#: SQLite's words for the same causes, where an error carries no result code
OUTSIDE_WORDS = (("disk is full", sqlite3.SQLITE_FULL), ("readonly", sqlite3.SQLITE_READONLY),
                 ("read-only", sqlite3.SQLITE_READONLY), ("unable to open", sqlite3.SQLITE_CANTOPEN),
                 ("disk i/o error", sqlite3.SQLITE_IOERR), ("locked", sqlite3.SQLITE_BUSY))


def cause_outside(error: BaseException) -> str | None:
    """What outside the database stops it being opened or written, with the fix; None when the database
    itself is damaged (or not ours)."""
    if isinstance(error, Unwritable):
        return str(error)
    if isinstance(error, Damaged):
        return None
    if isinstance(error, OSError):
        return OUTSIDE_ERRNOS.get(error.errno or 0, f"the state folder cannot be written ({error.strerror})")
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        primary = code & 0xFF
        if primary in DAMAGE_CODES:
            return None
        if primary in OUTSIDE_CODES:
            return OUTSIDE_CODES[primary]
    text = str(error).lower()
    for words, primary in OUTSIDE_WORDS:
        if words in text:
            return OUTSIDE_CODES[primary]
    if "malformed" in text or "not a database" in text:
        return None
    return None if isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, sqlite3.OperationalError) else f"the database cannot be used now ({' '.join(text.split())})"


#: our tables and a column each of them must have (a database whose tables lack them is another program's)
OUR_COLUMNS = {"meta": "key", "games": "initial_state", "events": "seq", "checkpoints": "state",
               "notices": "after_seq"}


def foreign_reason(db: sqlite3.Connection) -> str | None:
    """Why the database is not one of ours (None when it is, or is empty)."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    tables.discard("sqlite_sequence")
    if not tables:
        return None
    for table, column in OUR_COLUMNS.items():
        if table in tables and column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            return f"its {table} table is another program's (no {column} column)"
    if "meta" not in tables or db.execute("SELECT 1 FROM meta WHERE key='schema'").fetchone() is None:
        return f"it holds tables ({', '.join(sorted(tables))[:80]}) but no companion schema mark"
    return None



def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def open_checked(path: Path) -> sqlite3.Connection:
    """The database read-write, checked (SQLite's quick check, our tables, our schema version) and given
    the schema; :class:`Damaged` when the file is damaged or another program's."""
    db = connect(path)
    try:
        check = db.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise Damaged(f"quick_check: {check[0] if check else 'no answer'}")
        foreign = foreign_reason(db)
        if foreign is not None:
            raise Foreign(f"not the companion's database: {foreign}")
        db.executescript(SCHEMA)
        row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise Foreign(f"unknown schema version {row[0]} (a newer companion's)")
    except BaseException:
        db.close()
        raise
    return db


def open_fresh(path: Path) -> sqlite3.Connection:
    db = connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    return db


def open_read_only(path: Path) -> sqlite3.Connection | None:
    """The database as it lies, read-only (its write-ahead log read too where SQLite can; else the main
    file alone); None where there is no file to read."""
    uri = path.resolve().as_uri()
    for mode in ("?mode=ro", "?immutable=1"):
        if not path.exists():
            break
        try:
            db = sqlite3.connect(uri + mode, uri=True, check_same_thread=False, isolation_level=None)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            continue
        db.execute("PRAGMA query_only=ON")
        return db
    return None


def open_scratch() -> sqlite3.Connection:
    """A database in memory, for a table whose state folder holds no database it can read or write: the
    game is played meanwhile and copied to the folder once it can be written."""
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA foreign_keys=ON")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    return db


def move_aside(path: Path) -> Path:
    """Move a damaged database (and its log files) aside as ``<name>.corrupt-<time>``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        counter += 1
    for suffix in ("", "-wal", "-shm"):
        source = Path(str(path) + suffix)
        if source.exists():
            source.rename(Path(str(target) + suffix))
    return target
