"""Server-side sessions: what a browser's cookie is worth, decided here and not by the cookie.

The cookie carries a random session id; the book holds its kind (``player``: may change the table;
``spectator``: may only watch), when it was opened and last seen. A session ends when it has been idle too
long, when it is older than its lifetime, at logout, or when the PIN changes (every session opened under
the old PIN is closed). A captured cookie is therefore worth nothing after any of these.

The book is kept in ``<state_dir>/web-sessions.json`` (ids hashed, mode 0600) so that a restart of the
service does not log every phone out in the middle of a game; it is written when a session opens or ends
and at most once a minute as sessions are seen.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

KINDS = ("player", "spectator")
SAVE_EVERY_S = 60.0


@dataclass
class WebSession:
    kind: str
    opened: float
    seen: float


def _key(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class SessionBook:
    """The open sessions; thread-safe. ``clock`` is wall time (sessions outlive a restart)."""

    def __init__(self, idle_s: float, lifetime_s: float, path: Path | None = None, limit: int = 512,
                 clock: Callable[[], float] = time.time) -> None:
        self.idle_s = idle_s
        self.lifetime_s = lifetime_s
        self.path = path
        self.limit = limit
        self.clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, WebSession] = {}
        self._pin_mark = ""
        self._saved_at = 0.0
        self._load()

    # -- life of a session ------------------------------------------------------------------------------
    def open(self, kind: str) -> str:
        """A new session of ``kind``; returns the id for the cookie."""
        if kind not in KINDS:
            raise ValueError(f"unknown session kind {kind!r}")
        session_id = secrets.token_urlsafe(32)
        now = self.clock()
        with self._lock:
            self._expire(now)
            while len(self._sessions) >= self.limit:  # the oldest make room: bounded memory and file
                oldest = min(self._sessions, key=lambda k: self._sessions[k].seen)
                del self._sessions[oldest]
            self._sessions[_key(session_id)] = WebSession(kind, now, now)
            self._save(now)
        return session_id

    def kind_of(self, session_id: object) -> str | None:
        """The kind of a live session (and it counts as seen now); None when it is unknown or over."""
        if not isinstance(session_id, str) or not 20 <= len(session_id) <= 64:
            return None
        now = self.clock()
        with self._lock:
            key = _key(session_id)
            entry = self._sessions.get(key)
            if entry is None:
                return None
            if self._is_over(entry, now):
                del self._sessions[key]
                self._save(now)
                return None
            entry.seen = now
            if now - self._saved_at > SAVE_EVERY_S:
                self._save(now)
            return entry.kind

    def close(self, session_id: object) -> None:
        if not isinstance(session_id, str):
            return
        with self._lock:
            if self._sessions.pop(_key(session_id), None) is not None:
                self._save(self.clock())

    def close_all(self) -> None:
        with self._lock:
            self._sessions.clear()
            self._save(self.clock())

    def bind_pin(self, mark: str) -> None:
        """The PIN in force (as :func:`companion.pairing.pin_mark`): sessions of another PIN end."""
        with self._lock:
            if mark != self._pin_mark:
                self._sessions.clear()
                self._pin_mark = mark
                self._save(self.clock())

    def __len__(self) -> int:
        with self._lock:
            self._expire(self.clock())
            return len(self._sessions)

    # -- bookkeeping ------------------------------------------------------------------------------------
    def _is_over(self, entry: WebSession, now: float) -> bool:
        return now - entry.seen > self.idle_s or now - entry.opened > self.lifetime_s or now < entry.opened

    def _expire(self, now: float) -> None:
        for key in [k for k, entry in self._sessions.items() if self._is_over(entry, now)]:
            del self._sessions[key]

    def _save(self, now: float) -> None:
        self._saved_at = now
        if self.path is None:
            return
        data = {"pin": self._pin_mark,
                "sessions": {k: [e.kind, e.opened, e.seen] for k, e in self._sessions.items()}}
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(temporary, self.path)
        except OSError:
            pass  # a full or read-only disk: sessions still work until the next restart

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            pin = data["pin"]
            rows = data["sessions"]
            sessions = {
                str(key): WebSession(str(kind), float(opened), float(seen))
                for key, (kind, opened, seen) in rows.items()
                if kind in KINDS
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return  # no file, or one that is not ours: start with no sessions
        self._pin_mark = str(pin)
        self._sessions = dict(list(sessions.items())[: self.limit])
        self._expire(self.clock())
