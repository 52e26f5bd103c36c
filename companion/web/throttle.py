"""Guessing the PIN is throttled, without letting anyone on the LAN lock the table's own phones out.

- Per address: a few wrong PINs are free; after that each one blocks the address for twice as long as the
  last (``base_block_s``, doubling, at most ``max_block_s``). A right PIN clears the address.
- Per paired device: a phone that once entered the right PIN carries a signed device cookie
  (:mod:`companion.web.security`); it is throttled by its own wrong PINs only, never by the address it
  shares or by anyone else's guesses, so a paired phone always gets back in with the right PIN.
- Across addresses, for browsers that were never paired: their wrong PINs together spend one allowance
  of ``budget`` guesses that refills evenly over ``window_s`` (one every 20 s by default). Changing
  addresses therefore does not buy guesses (three a minute in the long run: trying half of the 6-digit
  PINs takes about 4 months), and after a burst of wrong PINs a new phone waits one refill at most, never
  the whole window.
- The table's own Mode button (the physical one) opens a short window in which that global wait and the
  address blocks are lifted for a new phone, at most ``window_budget`` wrong PINs in all: someone at the
  table pairs a new phone even while the LAN is being flooded with guesses.
- While blocked, a login is refused before the PIN is compared. Memory is bounded: at most
  ``max_addresses`` addresses and devices are remembered (the least recent go first), and forgetting one
  never clears the global budget.
"""

from __future__ import annotations

import collections
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Entry:
    failures: int = 0
    blocked_until: float = 0.0
    last: float = 0.0


@dataclass(frozen=True)
class Client:
    """Who is trying: the address, the device id from a signed device cookie (a phone once paired)."""

    address: str
    device: str | None = None

    @property
    def paired(self) -> bool:
        return self.device is not None


class LoginThrottle:
    def __init__(self, free_attempts: int = 5, base_block_s: float = 30.0, max_block_s: float = 900.0,
                 budget: int = 30, window_s: float = 600.0, max_addresses: int = 4096,
                 forget_after_s: float = 3600.0, window_budget: int = 10,
                 button_window: Callable[[], bool] = lambda: False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free_attempts = free_attempts
        self.base_block_s = base_block_s
        self.max_block_s = max_block_s
        self.budget = budget
        self.window_s = window_s
        self.max_addresses = max_addresses
        self.forget_after_s = forget_after_s
        self.window_budget = window_budget
        self.button_window = button_window
        self.clock = clock
        self._lock = threading.Lock()
        self._entries: collections.OrderedDict[str, _Entry] = collections.OrderedDict()
        #: what is left of the shared allowance of never-paired browsers, and when it was last refilled
        self._allowance = float(budget)
        self._filled_at = clock()
        self._window_failures = 0
        self._window_open = False

    @staticmethod
    def _key(client: Client) -> str:
        return f"device:{client.device}" if client.device is not None else f"address:{client.address}"

    def _in_button_window(self) -> bool:
        """Whether the table's button window is open and still has guesses left (under the lock)."""
        open_now = self.button_window()
        if open_now and not self._window_open:
            self._window_failures = 0  # a new press: a new window
        self._window_open = open_now
        return open_now and self._window_failures < self.window_budget

    def wait_s(self, client: Client | str) -> float:
        """How long ``client`` must wait before its next try (0: it may try now)."""
        client = client if isinstance(client, Client) else Client(client)
        now = self.clock()
        with self._lock:
            self._drop_old(now)
            entry = self._entries.get(self._key(client))
            own = 0.0 if entry is None else entry.blocked_until - now
            if client.paired:
                return max(0.0, own)
            if self._in_button_window():
                return 0.0
            waits = [0.0, own]
            if self._allowance < 1.0:
                waits.append((1.0 - self._allowance) * self.window_s / self.budget)
            return max(waits)

    def failed(self, client: Client | str) -> None:
        client = client if isinstance(client, Client) else Client(client)
        now = self.clock()
        with self._lock:
            self._drop_old(now)
            if not client.paired:
                self._allowance = max(0.0, self._allowance - 1.0)
                if self._in_button_window():
                    self._window_failures += 1
            key = self._key(client)
            entry = self._entries.pop(key, None) or _Entry()
            entry.failures += 1
            entry.last = now
            beyond = entry.failures - self.free_attempts
            if beyond >= 0:
                entry.blocked_until = now + min(self.max_block_s, self.base_block_s * math.pow(2, beyond))
            self._entries[key] = entry
            while len(self._entries) > self.max_addresses:
                self._entries.popitem(last=False)

    def succeeded(self, client: Client | str) -> None:
        client = client if isinstance(client, Client) else Client(client)
        with self._lock:
            self._entries.pop(self._key(client), None)
            self._entries.pop(self._key(Client(client.address)), None)

    def _drop_old(self, now: float) -> None:
        refill = max(0.0, now - self._filled_at) * self.budget / self.window_s
        self._allowance, self._filled_at = min(float(self.budget), self._allowance + refill), now
        while self._entries:
            oldest_key, oldest = next(iter(self._entries.items()))
            if now - oldest.last < self.forget_after_s or oldest.blocked_until > now:
                break
            del self._entries[oldest_key]
