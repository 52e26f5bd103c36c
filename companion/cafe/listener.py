"""The board's side of the broker: a persistent session (the broker keeps what arrives while the board is
away), every table's events, plays, state and status into the board's store; a gap in a table's events is
asked for again on the table's ``resend`` topic."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.cafe.board import BadMessage, BoardStore
from companion.mqtt.messages import OFFLINE, ONLINE, encode
from companion.mqtt.settings import MqttConfig, make_client

log = logging.getLogger(__name__)

#: a table is asked for the same gap again only after this long
ASK_AGAIN_S = 2.0
KINDS = ("events", "plays", "state", "status")


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
        self.on_change = on_change
        self.connected = False
        self.error: str | None = None
        self.bad_messages = 0
        self._asked: dict[tuple[str, int, int], float] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        address = self.config.address()
        self.client.connect_async(address.host, address.port, self.config.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def status(self) -> dict[str, Any]:
        return {"ok": self.connected, "broker": self.config.broker, "error": self.error,
                "bad_messages": self.bad_messages}

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
        self.error = self.config.unreachable()

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected = False
        self.error = f"the broker went away ({reason})"

    def _received(self, client: Any, userdata: Any, message: Any) -> None:
        parts = message.topic.split("/")
        if len(parts) != 3 or parts[2] not in KINDS:
            return
        table, kind = parts[1], parts[2]
        try:
            self._take(table, kind, message.payload)
        except (BadMessage, ValueError, UnicodeDecodeError) as error:
            self.bad_messages += 1
            log.warning("a bad report from table %s on %s: %s", table, kind, error)
            return
        if self.on_change is not None:
            self.on_change(table)

    def _take(self, table: str, kind: str, payload: bytes) -> None:
        if kind == "status":
            text = payload.decode("utf-8").strip()
            if text not in (ONLINE, OFFLINE):
                raise BadMessage(f"status {text[:20]!r}")
            self.board.set_status(table, text)
            return
        data = json.loads(payload)
        if not isinstance(data, dict):
            raise BadMessage("not a JSON object")
        if kind == "state":
            self.board.set_state(table, data)
        elif kind == "plays":
            self.board.add_play(table, data)
        else:
            added = self.board.add_event(table, data)
            if added.missing_from is not None:
                self._ask(table, int(data["game_id"]), added.missing_from)

    def _ask(self, table: str, game_id: int, first: int) -> None:
        now = time.monotonic()
        key = (table, game_id, first)
        with self._lock:
            if now - self._asked.get(key, -ASK_AGAIN_S) < ASK_AGAIN_S:
                return
            self._asked[key] = now
        log.info("table %s: events of game %s from %s are missing; asking again", table, game_id, first)
        asked = encode({"game_id": game_id, "from": first})
        self.client.publish(f"{self.config.prefix}/{table}/resend", asked, qos=1)
