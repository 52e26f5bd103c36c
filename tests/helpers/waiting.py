"""Waiting for a running table (a loop on its own threads, a page in a browser) without a fixed sleep."""

from __future__ import annotations

import time
from typing import Any


def until(what: str, condition: Any, timeout: float = 60.0) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)
