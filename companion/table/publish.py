"""Live updates for the page: every subscriber (a server-sent-events stream) gets its own bounded queue;
a slow reader loses messages instead of holding the table up."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

Message = dict[str, Any]


class Link(Protocol):
    """Something that reports the table elsewhere (a café's broker): told of every change, asked how it
    is doing for the page."""

    def notify(self) -> None: ...

    def status(self) -> dict[str, Any]: ...


class Publisher:
    def __init__(self, stopped: threading.Event, queue_size: int = 1000) -> None:
        self._stopped = stopped
        self._queue_size = queue_size
        self._lock = threading.Lock()
        self._subscribers: list[queue.Queue[Message]] = []

    def publish(self, message: Message) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            with contextlib.suppress(queue.Full):
                subscriber.put_nowait(message)

    def stream(self, hello: Callable[[], Message], timeout: float = 15.0) -> Iterator[Message]:
        """``hello()`` first, then every message published, and a ``ping`` at least every ``timeout``
        seconds so that idle connections stay open; ends when the table stops."""
        subscriber: queue.Queue[Message] = queue.Queue(maxsize=self._queue_size)
        with self._lock:
            self._subscribers.append(subscriber)
        try:
            yield hello()
            while not self._stopped.is_set():
                try:
                    yield subscriber.get(timeout=timeout)
                except queue.Empty:
                    yield {"type": "ping"}
        finally:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)
