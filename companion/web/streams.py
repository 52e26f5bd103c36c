"""Who holds the page's live-update streams. A browser that opens another tab (or comes back to the table
from the dispute page before its old stream has noticed the tab is gone) keeps the new stream and lets its
oldest go; when every stream is taken, the holder with the most gives its oldest up, so one device with many
tabs never keeps a seated phone from live updates; a seated player's newcomer then takes the place of the
oldest watcher's stream (watchers are counted by their device's address, however many watch-only links
it opened); with one stream each and none watching, a newcomer waits (None)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(eq=False)
class StreamSlot:
    """One open stream: ``ended`` is set when a newer stream took its place (the stream then closes)."""

    holder: str
    seated: bool = True
    ended: threading.Event = field(default_factory=threading.Event)


class StreamSlots:
    def __init__(self, most: int, per_holder: int) -> None:
        self.most, self.per_holder = most, per_holder
        self._lock = threading.Lock()
        self._open: list[StreamSlot] = []  # oldest first
        #: streams closed to make room for newer ones
        self.replaced = 0

    def admit(self, holder: str, seated: bool = True) -> StreamSlot | None:
        """A slot for a new stream of ``holder`` (``seated``: a player's, not a watcher's), the holder's
        or the greediest holder's oldest stream ended to make room when needed, else for a seated player
        the oldest watcher's; None when every stream is taken, one a holder, and none can give way."""
        with self._lock:
            own = [slot for slot in self._open if slot.holder == holder]
            if len(own) >= self.per_holder:
                self._end(own[0])
            elif len(self._open) >= self.most:
                oldest = self._greediest_oldest()
                if oldest is None and seated:
                    oldest = next((slot for slot in self._open if not slot.seated), None)
                if oldest is None:
                    return None
                self._end(oldest)
            slot = StreamSlot(holder, seated)
            self._open.append(slot)
            return slot

    def release(self, slot: StreamSlot) -> None:
        with self._lock:
            if slot in self._open:
                self._open.remove(slot)

    def held(self, holder: str | None = None) -> int:
        with self._lock:
            return sum(1 for slot in self._open if holder is None or slot.holder == holder)

    def _greediest_oldest(self) -> StreamSlot | None:
        """The oldest stream of the holder with the most (of several); None when each holds one."""
        counts: dict[str, int] = {}
        for slot in self._open:
            counts[slot.holder] = counts.get(slot.holder, 0) + 1
        greediest = max(counts, key=lambda holder: counts[holder], default=None)
        if greediest is None or counts[greediest] < 2:
            return None
        return next(slot for slot in self._open if slot.holder == greediest)

    def _end(self, slot: StreamSlot) -> None:
        slot.ended.set()
        self._open.remove(slot)
        self.replaced += 1
