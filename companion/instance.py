"""One table per state directory: a second `companion serve` or `run` started by hand beside the service
would fight it for the camera, the pins, the port and the store. The first one holds an advisory lock on
``STATE_DIR/companion.lock`` (released by the kernel when it ends, however it ends); a second one is told
who holds it and what to do."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_NAME = "companion.lock"


class AlreadyRunning(RuntimeError):
    """Another companion holds this state directory."""


class InstanceLock:
    """Held for as long as this process runs the table (``release()`` or the process's end frees it)."""

    def __init__(self, state_dir: str | os.PathLike[str]) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> InstanceLock:
        """Take the lock; :class:`AlreadyRunning` naming the holder when another process has it. A state
        directory that cannot hold a lock file (read-only, another user's) is no reason to stop: the
        store says what is wrong with it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open while running
        except OSError:
            return self
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise AlreadyRunning(
                f"already running: another companion (pid {holder}) uses {self.path.parent}; stop it first "
                "(on a Pi: sudo systemctl stop dinotable), or give this one another [store] state_dir"
            ) from None
        with contextlib.suppress(OSError):
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")
            handle.flush()
        self._file = handle
        return self

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None
