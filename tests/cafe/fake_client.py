"""A stand-in for paho's client in the link's unit tests: what was published, acknowledged when told."""

from __future__ import annotations

import itertools
from typing import Any


class Reason:
    def __init__(self, failure: bool = False) -> None:
        self.is_failure = failure

    def __str__(self) -> str:
        return "Not authorized" if self.is_failure else "Success"


class Info:
    def __init__(self, mid: int, connected: bool) -> None:
        self.mid = mid
        self.acked = False
        self.sent = connected

    def is_published(self) -> bool:
        if not self.sent:
            raise RuntimeError("not connected")
        return self.acked

    def wait_for_publish(self, timeout: float | None = None) -> None:
        self.acked = True


class FakeClient:
    def __init__(self, *_: Any, **__: Any) -> None:
        self.published: list[tuple[str, bytes, int, bool, Info]] = []
        self.subscribed: list[Any] = []
        self.connected = False
        self.will: Any = None
        self._mids = itertools.count(1)
        self.on_connect: Any = None
        self.on_disconnect: Any = None
        self.on_publish: Any = None
        self.on_message: Any = None

    def will_set(self, topic: str, payload: str, qos: int, retain: bool) -> None:
        self.will = (topic, payload, qos, retain)

    def connect_async(self, host: str, port: int, keepalive: int) -> None:
        pass

    def loop_start(self) -> None:
        pass

    def loop_stop(self) -> None:
        pass

    def disconnect(self) -> None:
        self.connected = False

    def subscribe(self, topic: Any, qos: int = 0) -> None:
        self.subscribed.append(topic)

    def publish(self, topic: str, payload: Any, qos: int = 0, retain: bool = False) -> Info:
        info = Info(next(self._mids), self.connected)
        data = payload.encode() if isinstance(payload, str) else payload
        self.published.append((topic, data, qos, retain, info))
        return info

    # the broker's side, driven by the test
    def come_up(self) -> None:
        self.connected = True
        self.on_connect(self, None, None, Reason(), None)

    def go_down(self) -> None:
        self.connected = False
        self.on_disconnect(self, None, None, Reason(), None)

    def ack_all(self) -> None:
        for *_, info in self.published:
            if info.sent:
                info.acked = True

    def on(self, suffix: str) -> list[bytes]:
        return [p for topic, p, *_ in self.published if topic.endswith(suffix)]
