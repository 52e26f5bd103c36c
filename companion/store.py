"""The game store: SQLite in WAL mode in the state directory, an append-only event log that loses nothing.

Tables:

- ``games``: one row per game (engine name, players with seats and colours, options, seed, the initial
  state as JSON, start and finish times, the outcome once over);
- ``events``: one row per committed action, append-only: the action JSON, who made it, where it came from
  (camera, button, web, bot), the stable observation that explained it, a JPEG of the frame, the rule
  cited, the scores after it. Undo is an event (``kind = "undo"``, naming the event it takes back) and a
  correction is the engine's ``Correct`` action; nothing is ever updated or deleted;
- ``checkpoints``: the full state after some events, so that resuming a long game replays only the tail;
- ``notices``: objections and questions raised by the loop (the audit trail of disputes; not game events).

Every append is its own transaction with ``synchronous=FULL``: when :meth:`Store.append` returns, the event
survives a crash or a power cut, so the loop shows a signal only after it. Resuming replays the events
from the stored initial state (or the newest usable checkpoint) and gives exactly the same state.

A database SQLite reports damaged, failing its quick check, has every row SQLite can still read copied
into a fresh database that takes its place (:mod:`companion.store_salvage`); the original is moved aside
(``*.corrupt-<time>``) and :attr:`Store.problems` says what was kept and what was not. One another program
owns (tables of ours with other columns, or tables but no schema mark) is moved aside whole. One that cannot
be opened or written for a cause outside it (the card full, read-only, not permitted) is read as it lies
and :attr:`Store.unwritable` says why; every write tries it again (see :mod:`companion.store_open`).
After every write the write-ahead log is folded into the database, the last move written beside it first
(:mod:`companion.store_log`): moves a damaged log lost are counted and said at start. A row that cannot
be read back (text that is not UTF-8, JSON with a control byte in it) is a :class:`StoreError` naming its
game, never a crash: the loop starts a new game beside it and ``companion history`` says which game is
damaged.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.i18n import Said
from companion.store_log import LastMove, fingerprint, fold, moves_lost
from companion.store_open import (
    Damaged,
    Foreign,
    Unwritable,
    cause_outside,
    folder_cause,
    move_aside,
    open_checked,
    open_fresh,
    open_read_only,
    open_scratch,
)
from companion.store_salvage import SALVAGES_KEY, record_salvage, replace_damaged, salvage_said
from engines.core import Action, Correct, EngineError, Game, State, StateFormatError, get_game

log = logging.getLogger(__name__)

DB_NAME = "companion.db"
#: a checkpoint (full state JSON) every this many events
CHECKPOINT_EVERY = 25
#: while the database cannot be written: how often a write tries to open it read-write again, seconds
REOPEN_EVERY_S = 2.0


class StoreError(Exception):
    """The store cannot do what was asked (unknown game, an event log the engine no longer accepts)."""


class UnknownGame(StoreError, LookupError):
    """No game with that id in the store."""


@dataclass(frozen=True)
class StoredEvent:
    """One committed event as stored."""

    game_id: int
    seq: int
    kind: str  # "action" | "correct" | "undo"
    action: dict[str, Any] | None
    undoes: int | None
    player: str | None
    source: str
    at: float
    observation: dict[str, Any] | None
    has_photo: bool
    rule: dict[str, Any] | None
    scores: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "kind": self.kind,
            "action": self.action,
            "undoes": self.undoes,
            "player": self.player,
            "source": self.source,
            "at": self.at,
            "has_photo": self.has_photo,
            "rule": self.rule,
            "scores": self.scores,
        }


@dataclass(frozen=True)
class GameRecord:
    game_id: int
    game: str
    title: str
    players: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int | None
    settings: dict[str, Any]
    initial_state: dict[str, Any]
    started: float
    finished: float | None
    outcome: dict[str, Any] | None

    @property
    def player_names(self) -> list[str]:
        return [p["name"] for p in self.players]

    def summary(self) -> dict[str, Any]:
        winners = (self.outcome or {}).get("winners", [])
        return {
            "game_id": self.game_id,
            "game": self.game,
            "title": self.title,
            "started": self.started,
            "finished": self.finished,
            "players": self.players,
            "over": self.finished is not None,
            "winners": winners,
        }


def _copy(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if value is None else dict(value)


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        why = " ".join(str(error).split())[:120]
        raise StoreError(f"a stored value is not readable JSON ({why})") from error


class Store:
    """The companion's database in ``state_dir``. Thread-safe (one connection behind a lock)."""

    def __init__(self, state_dir: str | os.PathLike[str], checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.state_dir = Path(state_dir)
        with contextlib.suppress(OSError):  # a folder that cannot be made is said when it is opened
            self.state_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.state_dir / DB_NAME
        self.checkpoint_every = checkpoint_every
        #: what went wrong opening the store, said for every reader
        self._opened_with: list[Said] = []
        #: why the database cannot be written now (None: it can), with what to do
        self.unwritable: str | None = None
        #: the games are in memory (no database could be read or written in the folder)
        self.scratch = False
        self._tried_at = 0.0
        self._last: LastMove | None = None
        self._lock = threading.RLock()
        self._db = self._open()
        lost = moves_lost(self._db, self.path)
        if lost is not None:
            log.error("%s", lost)
            self._opened_with.append(lost)

    @property
    def problems(self) -> list[Said]:
        """What went wrong opening the store (why it cannot be written now is :attr:`unwritable`)."""
        return list(self._opened_with)

    # -- opening: damage, or a cause outside the database ------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        try:
            return open_checked(self.path)
        except (sqlite3.Error, OSError) as error:
            cause = cause_outside(error)
            if cause is None:
                try:
                    return self._start_fresh(error)
                except (sqlite3.Error, OSError) as moving:  # the card fails as the damage is moved aside
                    cause = cause_outside(moving) or str(moving)
            return self._read_only(cause)

    def _start_fresh(self, error: BaseException) -> sqlite3.Connection:
        """A damaged database: what it still holds copied into a fresh one in its place, the original kept."""
        sentence = replace_damaged(self.path, str(error) if isinstance(error, Foreign) else None)
        log.error("the database %s could not be used (%s): %s", self.path, error, sentence)
        try:
            db = open_checked(self.path)
        except Damaged:  # the copy itself fails the check: nothing of it is trusted
            sentence = salvage_said(None, move_aside(self.path), None)
            db = open_fresh(self.path)
        self._opened_with.append(sentence)
        record_salvage(db, sentence)
        return db

    def salvages(self) -> list[dict[str, Any]]:
        """Each time this store was found damaged and copied out: when, and what was kept (a sentence)."""
        found = self.meta(SALVAGES_KEY)
        return [entry for entry in found if isinstance(entry, dict)] if isinstance(found, list) else []

    def _read_only(self, cause: str) -> sqlite3.Connection:
        """The database read as it lies while ``cause`` stops it being written (never moved aside); with
        no database to read, a game in memory, copied to the folder once it can be written."""
        self.unwritable = cause = folder_cause(self.state_dir, cause)
        db = open_read_only(self.path)
        self.scratch = db is None
        kept = "a game is played in memory meanwhile" if self.scratch else "its games are read as they are"
        log.error("the database %s cannot be written: %s; %s", self.path, cause, kept)
        self._tried_at = time.monotonic()
        return open_scratch() if db is None else db

    def _writable(self) -> None:
        """Before a write: while the database could not be written, try it again (every few seconds); the
        write then goes through, or fails with the cause in words."""
        if self.unwritable is None:
            return
        if time.monotonic() - self._tried_at >= REOPEN_EVERY_S:
            self._tried_at = time.monotonic()
            try:
                db = open_checked(self.path)
            except (sqlite3.Error, OSError) as error:
                self.unwritable = folder_cause(self.state_dir, cause_outside(error) or self.unwritable)
            else:
                if self.scratch and db.execute("SELECT count(*) FROM games").fetchone()[0] == 0:
                    self._db.backup(db)  # the game played in memory, kept where it belongs
                self._db.close()
                self._db, self.unwritable, self.scratch = db, None, False
                log.warning("the database %s can be written again", self.path)
                return
        if not self.scratch:
            raise Unwritable(self.unwritable)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._writable()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                self._last = None
                raise
            self._db.execute("COMMIT")
            self._kept()

    def _kept(self) -> None:
        """After a commit: the last move written beside the database, then the log folded into it."""
        last, self._last = self._last, None
        if self.scratch:
            return
        try:
            if last is not None:
                last.write(self.path)
            fold(self._db)
        except (OSError, sqlite3.Error) as error:  # committed all the same: the log keeps it meanwhile
            log.warning("the write-ahead log could not be folded into %s: %s", self.path, error)

    # -- games ------------------------------------------------------------------------------------------
    def new_game(
        self,
        game: Game,
        initial_state: State,
        players: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Record a new game and its initial state; returns its id."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, title, players, options, seed, settings, initial_state, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.name,
                    game.title,
                    _dumps([dict(p) for p in players]),
                    _dumps(dict(options or {})),
                    seed,
                    _dumps(dict(settings or {})),
                    _dumps(initial_state.to_dict()),
                    time.time(),
                ),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Rows of a query; a row SQLite cannot hand back (text that is not UTF-8) is a StoreError."""
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.OperationalError as error:
                if "decode" not in str(error):
                    raise
                raise StoreError(f"stored text is not UTF-8 ({' '.join(str(error).split())[:80]})") from error

    def game(self, game_id: int) -> GameRecord:
        """A stored game; StoreError naming it when its row cannot be read back."""
        try:
            rows = self._rows(
                "SELECT id, game, title, players, options, seed, settings, initial_state, started, finished,"
                " outcome FROM games WHERE id=?", (game_id,))
            if not rows:
                raise UnknownGame(f"no game {game_id} in the store")
            row = rows[0]
            record = GameRecord(row[0], row[1], row[2], _loads(row[3]), _loads(row[4]), row[5],
                                _loads(row[6]), _loads(row[7]), row[8], row[9], _loads(row[10]))
        except UnknownGame:
            raise
        except StoreError as error:
            raise StoreError(f"game {game_id} is damaged: {error}") from error
        if not isinstance(record.players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) for p in record.players):
            raise StoreError(f"game {game_id} is damaged: its players are not readable")
        if not isinstance(record.initial_state, dict) or not isinstance(record.settings, dict):
            raise StoreError(f"game {game_id} is damaged: its set-up is not readable")
        return record

    def games(self) -> list[GameRecord]:
        """Every readable stored game (a damaged one is left out: :meth:`damaged` names it)."""
        return [record for record in map(self._readable, self._game_ids()) if record is not None]

    def damaged(self) -> dict[int, str]:
        """The stored games that cannot be read back, and why."""
        found = {}
        for game_id in self._game_ids():
            try:
                self.game(game_id)
                self.events(game_id, with_observation=True)
            except StoreError as error:
                found[game_id] = str(error)
        return found

    def _game_ids(self) -> list[int]:
        return [int(row[0]) for row in self._rows("SELECT id FROM games ORDER BY id")]

    def _readable(self, game_id: int) -> GameRecord | None:
        try:
            return self.game(game_id)
        except StoreError:
            return None

    def latest_game_id(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def finish(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET finished=?, outcome=? WHERE id=? AND finished IS NULL",
                (time.time(), _dumps(dict(outcome)), game_id),
            )

    def lay_out(self, game_id: int, state: State, options: Mapping[str, Any], at: Mapping[str, Any]) -> None:
        """A game not yet begun starts as the players laid it: its initial state, options and where it
        lies, ``at`` (``settings["laid"]``); StoreError once a move of it is stored."""
        with self._transaction() as db:
            settings = {**self.game(game_id).settings, "laid": dict(at)}
            if db.execute("UPDATE games SET initial_state=?, options=?, settings=? WHERE id=? AND NOT EXISTS"
                          " (SELECT 1 FROM events WHERE game_id=?)", (_dumps(state.to_dict()), _dumps(
                              dict(options)), _dumps(settings), game_id, game_id)).rowcount != 1:
                raise StoreError(f"game {game_id} has begun: its set-up is what it was")

    def reopen(self, game_id: int) -> None:
        """An undo after the end makes the game run again."""
        with self._transaction() as db:
            db.execute("UPDATE games SET finished=NULL, outcome=NULL WHERE id=?", (game_id,))

    # -- events -----------------------------------------------------------------------------------------
    def append(
        self,
        game_id: int,
        kind: str,
        action: Mapping[str, Any] | None,
        *,
        player: str | None = None,
        source: str = "camera",
        observation: Mapping[str, Any] | None = None,
        photo: bytes | None = None,
        rule: Mapping[str, Any] | None = None,
        scores: Mapping[str, Any] | None = None,
        undoes: int | None = None,
        state_after: State | None = None,
    ) -> StoredEvent:
        """Append one event durably (committed with synchronous=FULL before this returns)."""
        if kind not in ("action", "correct", "undo"):
            raise StoreError(f"unknown event kind {kind!r}")
        at = time.time()
        with self._transaction() as db:
            row = db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE game_id=?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            db.execute(
                "INSERT INTO events (game_id, seq, kind, action, undoes, player, source, at, observation,"
                " photo, rule, scores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, _dumps(_copy(action)), undoes, player, source, at,
                 _dumps(_copy(observation)), photo, _dumps(_copy(rule)), _dumps(_copy(scores))),
            )
            if state_after is not None and self.checkpoint_every and seq % self.checkpoint_every == 0:
                db.execute(
                    "INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?)",
                    (game_id, seq, _dumps(state_after.to_dict())),
                )
            self._last = LastMove(game_id, seq, fingerprint(_dumps(_copy(action)), at))
        return StoredEvent(game_id, seq, kind, _copy(action), undoes, player, source, at, _copy(observation),
                           photo is not None, _copy(rule), _copy(scores))

    def attach_photo(self, game_id: int, seqs: Sequence[int], photo: bytes) -> None:
        """Store the evidence photo of events already committed (written after the move's signal)."""
        with self._transaction() as db:
            db.executemany("UPDATE events SET photo=? WHERE game_id=? AND seq=?",
                           [(photo, game_id, seq) for seq in seqs])

    def events(self, game_id: int, with_observation: bool = False) -> list[StoredEvent]:
        """Every event of a game, oldest first."""
        return self._events("game_id=? ORDER BY seq", (game_id,), with_observation)

    def _events(self, where: str, params: tuple[Any, ...], with_observation: bool) -> list[StoredEvent]:
        columns = "observation" if with_observation else "NULL"
        rows = self._rows(
            "SELECT game_id, seq, kind, action, undoes, player, source, at, "
            f"{columns}, photo IS NOT NULL, rule, scores FROM events WHERE {where}", params)
        events = []
        for r in rows:
            try:
                events.append(StoredEvent(r[0], r[1], r[2], _loads(r[3]), r[4], r[5], r[6], r[7],
                                          _loads(r[8]), bool(r[9]), _loads(r[10]), _loads(r[11])))
            except StoreError as error:
                raise StoreError(f"game {r[0]} is damaged: its move {r[1]}: {error}") from error
        return events

    def event(self, game_id: int, seq: int) -> StoredEvent | None:
        for event in self.events(game_id, with_observation=True):
            if event.seq == seq:
                return event
        return None

    def event_count(self, game_id: int) -> int:
        with self._lock:
            row = self._db.execute("SELECT count(*) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0])

    def observation(self, game_id: int, seq: int) -> dict[str, Any] | None:
        """The reading one move was committed from (None for a tap or a move the game made itself)."""
        with self._lock:
            row = self._db.execute(
                "SELECT observation FROM events WHERE game_id=? AND seq=?", (game_id, seq)
            ).fetchone()
        return None if row is None else _loads(row[0])

    def photo(self, game_id: int, seq: int) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT photo FROM events WHERE game_id=? AND seq=?", (game_id, seq)
            ).fetchone()
        return None if row is None or row[0] is None else bytes(row[0])

    def add_notice(
        self, game_id: int, after_seq: int, kind: str, text: str, detail: Mapping[str, Any]
    ) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO notices (game_id, after_seq, kind, text, detail, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, after_seq, kind, text, _dumps(dict(detail)), time.time()),
            )

    def notices(self, game_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT after_seq, kind, text, detail, at FROM notices WHERE game_id=? ORDER BY id",
                (game_id,),
            ).fetchall()
        return [
            {"after_seq": r[0], "kind": r[1], "text": r[2], "detail": _loads(r[3]), "at": r[4]} for r in rows
        ]

    # -- what has left the table (the broker's outbox is the event log past a cursor) --------------------
    def events_after(self, game_id: int, seq: int, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events after event ``seq`` of game ``game_id``, across games, oldest first."""
        return self._events("game_id > ? OR (game_id = ? AND seq > ?) ORDER BY game_id, seq LIMIT ?",
                            (game_id, game_id, seq, limit), False)

    def count_after(self, game_id: int, seq: int) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT count(*) FROM events WHERE game_id > ? OR (game_id = ? AND seq > ?)",
                (game_id, game_id, seq)).fetchone()
        return int(row[0])

    def finished_games(self) -> dict[int, float]:
        """Every finished game's id and finishing time."""
        with self._lock:
            rows = self._db.execute("SELECT id, finished FROM games WHERE finished IS NOT NULL").fetchall()
        return {int(row[0]): float(row[1]) for row in rows}

    def meta(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else _loads(row[0])

    def set_meta(self, key: str, value: Any) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, _dumps(value)))

    # -- replay -----------------------------------------------------------------------------------------
    def replay(self, game_id: int, upto: int | None = None) -> ReplayResult:
        """The state of a game after its events (up to and including ``upto``), replayed from the stored
        initial state or the newest checkpoint that lies on the surviving line of play."""
        record = self.game(game_id)
        try:
            game = get_game(record.game)
        except KeyError as error:
            raise StoreError(str(error)) from error
        events = [e for e in self.events(game_id) if upto is None or e.seq <= upto]
        # the effective line of play: undo takes back the newest surviving action
        line: list[StoredEvent] = []
        line_at: dict[int, tuple[int, ...]] = {}
        for event in events:
            if event.kind == "undo":
                if line:
                    line.pop()
            else:
                line.append(event)
            line_at[event.seq] = tuple(e.seq for e in line)
        final_line = tuple(e.seq for e in line)
        start_state: State | None = None
        start_index = 0
        with self._lock:
            checkpoints = self._db.execute(
                "SELECT seq, state FROM checkpoints WHERE game_id=? ORDER BY seq DESC", (game_id,)
            ).fetchall()
        for seq, text in checkpoints:
            prefix = line_at.get(seq)
            if prefix is None or final_line[: len(prefix)] != prefix:
                continue
            try:
                start_state = game.state_from_dict(json.loads(text))
            except (EngineError, ValueError) as error:
                log.warning("game %s: checkpoint %s unusable (%s); replaying further back",
                            game_id, seq, error)
                continue
            start_index = len(prefix)
            break
        try:
            state = start_state if start_state is not None else game.state_from_dict(record.initial_state)
            for event in line[start_index:]:
                state = state.apply(decode_action(game, event.action))
        except EngineError as error:
            raise StoreError(f"game {game_id}: the event log does not replay ({error})") from error
        return ReplayResult(record, game, state, line, len(events))


@dataclass
class ReplayResult:
    record: GameRecord
    game: Game
    state: State
    line: list[StoredEvent]  # the surviving actions, oldest first
    event_count: int


def decode_action(game: Game, data: Any) -> Action:
    """An action from its JSON form. The core's ``correct`` action is decoded here for every game (an
    engine's own codec may check its own actions' fields more strictly than a correction needs)."""
    if isinstance(data, Mapping) and data.get("kind") == "correct":
        state, reason = data.get("state"), data.get("reason", "")
        if not isinstance(state, Mapping) or not isinstance(reason, str):
            raise StateFormatError("a correction needs a 'state' object and a text 'reason'")
        return Correct(state=dict(state), reason=reason)
    return game.action_from_dict(data)
