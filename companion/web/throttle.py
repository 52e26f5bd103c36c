"""Guessing the PIN is throttled per address and across all addresses.

- Per address: a few wrong PINs are free; after that each one blocks the address for twice as long as the
  last (``base_block_s``, doubling, at most ``max_block_s``). A right PIN clears the address.
- Across addresses: at most ``budget`` wrong PINs in ``window_s`` from everyone together; past it every
  login waits until the oldest failure leaves the window. Changing addresses therefore does not buy
  guesses: with the defaults (30 per 10 minutes, 4,320 a day) trying half of the 6-digit PINs takes
  about 4 months.
- While blocked, a login is refused before the PIN is compared; once the block ends the right PIN works.
- Memory is bounded: at most ``max_addresses`` addresses are remembered (the least recent go first), and
  forgetting an address never clears the global budget.
"""

from __future__ import annotations

import collections
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Address:
    failures: int = 0
    blocked_until: float = 0.0
    last: float = 0.0


class LoginThrottle:
    def __init__(self, free_attempts: int = 5, base_block_s: float = 30.0, max_block_s: float = 900.0,
                 budget: int = 30, window_s: float = 600.0, max_addresses: int = 4096,
                 forget_after_s: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.free_attempts = free_attempts
        self.base_block_s = base_block_s
        self.max_block_s = max_block_s
        self.budget = budget
        self.window_s = window_s
        self.max_addresses = max_addresses
        self.forget_after_s = forget_after_s
        self.clock = clock
        self._lock = threading.Lock()
        self._addresses: collections.OrderedDict[str, _Address] = collections.OrderedDict()
        self._recent: collections.deque[float] = collections.deque()

    def wait_s(self, address: str) -> float:
        """How long ``address`` must wait before its next try (0: it may try now)."""
        now = self.clock()
        with self._lock:
            self._drop_old(now)
            waits = [0.0]
            entry = self._addresses.get(address)
            if entry is not None:
                waits.append(entry.blocked_until - now)
            if len(self._recent) >= self.budget:
                waits.append(self._recent[0] + self.window_s - now)
            return max(waits)

    def failed(self, address: str) -> None:
        now = self.clock()
        with self._lock:
            self._drop_old(now)
            self._recent.append(now)
            entry = self._addresses.pop(address, None) or _Address()
            entry.failures += 1
            entry.last = now
            beyond = entry.failures - self.free_attempts
            if beyond >= 0:
                entry.blocked_until = now + min(self.max_block_s, self.base_block_s * math.pow(2, beyond))
            self._addresses[address] = entry
            while len(self._addresses) > self.max_addresses:
                self._addresses.popitem(last=False)

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._addresses.pop(address, None)

    def _drop_old(self, now: float) -> None:
        while self._recent and now - self._recent[0] >= self.window_s:
            self._recent.popleft()
        while self._addresses:
            oldest_key, oldest = next(iter(self._addresses.items()))
            if now - oldest.last < self.forget_after_s or oldest.blocked_until > now:
                break
            del self._addresses[oldest_key]
