"""The board's side of the broker: a persistent session (the broker keeps what arrives while the board is
away), every table's events, plays, state and status into the board's store; a gap in a table's events is
asked for again on the table's ``resend`` topic.

Everything from the broker is untrusted: a message is read by :mod:`wire.reports`, and one that
cannot be taken (not JSON, out of range, too deep, too large, from one table too many) is counted, logged
once per topic, acknowledged and dropped. No message stops the listener; should paho's network thread end
anyway, :meth:`BoardListener.check` (called every few seconds) says so on the page and starts it again."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from cafe.board import BoardStore
from wire.broker import MqttConfig, connection_problem, make_client
from wire.reports import BadWire, event_report, read_json, status_report, table_name
from wire.topics import encode

log = logging.getLogger(__name__)

#: a table is asked for the same gap again only after this long
ASK_AGAIN_S = 2.0
KINDS = ("events", "plays", "state", "status")
#: topics whose first bad message was logged (more are counted, not logged)
MAX_LOGGED_TOPICS = 1000


class BoardListener:
    def __init__(self, config: MqttConfig, board: BoardStore, name: str = "board",
                 client_factory: Callable[..., Any] = make_client,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.board = board
        self.client = client_factory(config, f"dinotable-cafe-{name}", clean=False)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._connect_failed
        self.client.on_message = self._received
        self.client.suppress_exceptions = True  # a second line: a callback's error is logged, not fatal
        self.on_change = on_change
        self.connected = False
        self.error: str | None = None
        self.bad_messages = 0
        self.bad_by_kind: dict[str, int] = {}
        self.restarts = 0
        self._logged: set[str] = set()
        self._asked: dict[tuple[str, int, int], float] = {}
        self._lock = threading.Lock()
        self._started = False

    def start(self) -> None:
        address = self.config.address()
        self.client.connect_async(address.host, address.port, self.config.keepalive)
        self.client.loop_start()
        self._started = True

    def stop(self) -> None:
        self._started = False
        self.client.disconnect()
        self.client.loop_stop()

    def alive(self) -> bool:
        """Whether paho's network thread runs (it reads the broker and calls us back)."""
        thread = getattr(self.client, "_thread", None)  # paho keeps its loop thread here (paho-mqtt 2)
        return thread is not None and thread.is_alive()

    def check(self) -> None:
        """Start the network thread again if it has ended (the page said so meanwhile)."""
        if not self._started or self.alive():
            return
        self.connected = False
        self.error = "the board stopped listening to the broker: starting again"
        log.error("%s", self.error)
        self.restarts += 1
        try:
            self.client.loop_stop()
            self.client.loop_start()
        except Exception as error:  # paho's own state may be broken; the next check tries again
            log.error("the listener could not start again: %s", error)
            return
        if self.client.is_connected():  # the session held: no new on_connect will say so
            self.connected, self.error = True, None

    def status(self) -> dict[str, Any]:
        return {"ok": self.connected and (not self._started or self.alive()), "broker": self.config.broker,
                "error": self.error, "bad_messages": self.bad_messages, "bad_by_kind": dict(self.bad_by_kind),
                "refused_tables": self.board.refused_tables, "restarts": self.restarts}

    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.error = f"the broker refused the connection: {reason}"
            log.warning("%s", self.error)
            return
        self.connected, self.error = True, None
        prefix = self.config.prefix
        client.subscribe([(f"{prefix}/+/{kind}", 1) for kind in KINDS])
        log.info("listening to the café's tables on %s", self.status()["broker"])

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        problem = connection_problem(self.config)
        if problem != self.error:
            log.warning("broker: %s", problem)
        self.error = problem

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected = False
        self.error = f"the broker went away ({reason})"

    def _received(self, client: Any, userdata: Any, message: Any) -> None:
        topic = str(getattr(message, "topic", ""))[:200]
        parts = topic.split("/")
        if len(parts) != 3 or parts[2] not in KINDS:
            return
        table, kind = parts[1], parts[2]
        try:
            self._take(table_name(table), kind, bytes(message.payload))
        except Exception as error:  # untrusted input: whatever it does, it is dropped and counted
            self._bad(topic, kind, error)
            return
        if self.on_change is not None:
            try:
                self.on_change(table)
            except Exception:
                log.exception("the board's change hook failed")

    def _bad(self, topic: str, kind: str, error: BaseException) -> None:
        with self._lock:
            self.bad_messages += 1
            self.bad_by_kind[kind] = self.bad_by_kind.get(kind, 0) + 1
            first = topic not in self._logged and len(self._logged) < MAX_LOGGED_TOPICS
            if first:
                self._logged.add(topic)
        if first:
            why = str(error) if isinstance(error, BadWire) else type(error).__name__
            log.warning("dropped a bad message on %s: %s (further ones there are counted only)", topic,
                        " ".join(why.split())[:200])

    def _take(self, table: str, kind: str, payload: bytes) -> None:
        if kind == "status":
            self.board.set_status(table, status_report(payload))
            return
        data = read_json(payload)
        if kind == "state":
            behind = self.board.set_state(table, data)
            if behind is not None:
                self._ask(table, behind.game_id, behind.first)
        elif kind == "plays":
            self.board.add_play(table, data)
        else:
            added = self.board.add_event(table, data)
            if added.missing_from is not None:
                self._ask(table, event_report(data).game_id, added.missing_from)

    def _ask(self, table: str, game_id: int, first: int) -> None:
        now = time.monotonic()
        key = (table, game_id, first)
        with self._lock:
            if now - self._asked.get(key, -ASK_AGAIN_S) < ASK_AGAIN_S:
                return
            if len(self._asked) > 1000:  # bounded: forget the gaps asked for long ago
                self._asked = {k: t for k, t in self._asked.items() if now - t < ASK_AGAIN_S}
            self._asked[key] = now
        log.info("table %s: events of game %s from %s are missing; asking again", table, game_id, first)
        asked = encode({"game_id": game_id, "from": first})
        self.client.publish(f"{self.config.prefix}/{table}/resend", asked, qos=1)
