"""What keeping a game needs besides the game: the moves the store could not write yet, what a store that
cannot write raises, and who hears of what the game in progress did."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Protocol

from companion.store import StoredEvent
from companion.table.referee import Pending
from engines.core import Action, State
from vision.observation import Observation

#: what a decision on the game answers the page: ``{"ok": ...}`` and what it did or why not
Answer = dict[str, Any]
#: what a store that cannot write raises (sqlite's "database or disk is full", an I/O error, ...)
STORAGE_ERRORS = (sqlite3.Error, OSError)


@dataclass
class Unsaved:
    """Actions the store could not write yet, with the evidence they came with."""

    actions: list[Action]
    source: str
    observation: Observation | None
    photo: bytes | None
    since: float
    error: str
    tried_at: float
    tries: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"moves": len(self.actions), "since": self.since, "error": self.error, "tries": self.tries}


def storage_text(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    if "full" in text.lower() or getattr(error, "errno", None) == 28:
        return f"the disk is full ({text})"
    return text


class Announcer(Protocol):
    """Who hears of what the game in progress did (the loop: it signals on the panel and tells the page)."""

    def committed(self, events: list[StoredEvent], state: State) -> None: ...

    def pending_changed(self, pending: Pending | None, reason: str) -> None: ...

    def undone(self, event: StoredEvent) -> None: ...

    def storage_changed(self, unsaved: Unsaved | None) -> None: ...

    def laid_out(self, state: State) -> None:
        """The game now lies where the players laid it (the table's zones and lattice moved with it)."""
