"""A table's link to the café's broker: it never slows or blocks the table.

The outbox is the table's own event log: a cursor in the store (``meta``) says up to which event the
broker has acknowledged (QoS 1 PUBACK). While the broker is away nothing is sent and nothing is lost: the
events simply stay past the cursor; once it is back they are sent in order, at most ``window`` in flight,
and the cursor moves over the acknowledged prefix only. A crash between a commit and its publish loses
nothing either (the cursor is behind it), at the price of a few events sent twice: consumers drop
duplicates by ``seq``, and one that sees a gap asks on ``resend`` for the events from a ``seq`` on.

The loop only calls :meth:`TableLink.notify` (it sets an event); a thread of its own reads the store and
hands messages to paho-mqtt's network thread.

A resend request is untrusted input like everything from the broker (:mod:`wire.reports`): one
that cannot be read, or names a game or move the table does not have, is counted and dropped; requests
are gathered (the earliest wins) and served at most every ``RESEND_EVERY_S`` and ``RESENDS_PER_MINUTE``
times a minute, so nobody can make the table send its history over and over. Should paho's network thread
end, the status says so and the sending thread starts it again.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.mqtt import messages
from companion.store import GameRecord, Store, StoreError
from engines.core import EngineError
from wire import topics
from wire.broker import MqttConfig, connection_problem, make_client
from wire.reports import read_json, resend_request

log = logging.getLogger(__name__)

CURSOR_KEY = "mqtt.acknowledged"
PLAYS_KEY = "mqtt.plays"
#: the Home Assistant discovery topic this table announced itself on last (taken back when it changes)
HOME_ASSISTANT_KEY = "mqtt.home_assistant"
#: how often the acknowledged cursor is written to the store at most (a crash re-sends the difference)
CURSOR_EVERY_S = 2.0
#: the retained state is sent again at least this often (it carries the camera's health)
STATE_EVERY_S = 30.0
#: resend requests are served at most this often, and this many times a minute
RESEND_EVERY_S = 5.0
RESENDS_PER_MINUTE = 6
Cursor = tuple[int, int]


class TableLink:
    """Publishes the table's committed events, finished plays, shared state and online status."""

    def __init__(self, config: MqttConfig, store: Store, summary: Callable[[], Mapping[str, Any]],
                 window: int = 32, client_factory: Callable[..., Any] = make_client) -> None:
        self.config = config
        self.table = config.table_name
        self.store = store
        self.summary = summary
        self.window = window
        self.topics = topics.Topics(config.prefix, self.table)
        self.home_assistant = topics.HomeAssistantTopics(config.home_assistant_prefix, self.table)
        announced = store.meta(HOME_ASSISTANT_KEY)
        self._announced: str | None = announced if isinstance(announced, str) else None
        self.client = client_factory(config, f"dinotable-table-{self.table}")
        self.client.will_set(self.topics.status, topics.OFFLINE, qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_connect_fail = self._connect_failed
        self.client.on_publish = self._published
        self.client.on_message = self._message
        self.client.suppress_exceptions = True  # a callback's error is logged, never the end of the thread
        self._lock = threading.Lock()
        self._views: dict[int, Mapping[str, Any] | None] = {}
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        stored = store.meta(CURSOR_KEY)
        self._acked: Cursor = (int(stored[0]), int(stored[1])) if stored else (0, 0)
        self._written: Cursor = self._acked
        self._written_at = 0.0
        self._sent: Cursor = self._acked
        #: what was handed to paho and not yet acknowledged, in order (the sending thread's own)
        self._in_flight: list[tuple[Any, Cursor]] = []
        #: set by paho's thread (a new connection, a lost one, a resend request): where to start again
        self._restart_from: Cursor | None = None
        self._plays: dict[str, float] = dict(store.meta(PLAYS_KEY) or {})
        self._records: dict[int, GameRecord] = {}
        self.connected = False
        self.error: str | None = None
        self._state_dirty = True
        self._state_sent: dict[str, Any] | None = None
        self._state_at = 0.0
        #: the earliest point a resend request asked for, not yet served; when requests were served
        self._resend_wanted: Cursor | None = None
        self._resends: collections.deque[float] = collections.deque()
        self.bad_messages = 0
        self.restarts = 0
        self._started = False
        self.queued = 0
        #: thread CPU seconds spent per message published (the table-side cost, for the benchmark)
        self.cpu_s = 0.0
        self.published = 0

    # -- the table's side ------------------------------------------------------------------------------
    def start(self) -> None:
        address = self.config.address()
        self.client.connect_async(address.host, address.port, self.config.keepalive)
        self.client.loop_start()
        self._started = True
        self._thread = threading.Thread(target=self._run, name="mqtt-outbox", daemon=True)
        self._thread.start()

    def notify(self) -> None:
        """Something was committed or the table changed: send it soon (returns at once)."""
        self._state_dirty = True
        self._wake.set()

    def status(self) -> dict[str, Any]:
        running = not self._started or self.network_alive()
        return {"ok": self.connected and running, "table": self.table, "broker": self.config.broker,
                "queued": self.queued, "error": self.error, "bad_messages": self.bad_messages,
                "resends_last_minute": len(self._resends), "restarts": self.restarts}

    def network_alive(self) -> bool:
        thread = getattr(self.client, "_thread", None)  # paho keeps its loop thread here (paho-mqtt 2)
        return thread is not None and thread.is_alive()

    def _check_network(self) -> None:
        """paho's thread ended (it should not): say so and start it again."""
        if not self._started or self._stopped.is_set() or self.network_alive():
            return
        self.connected = False
        self.error = "the link to the café's broker stopped: starting it again; moves are queued"
        log.error("%s", self.error)
        self.restarts += 1
        with contextlib.suppress(Exception):
            self.client.loop_stop()
        self.client.loop_start()
        if self.client.is_connected():  # the session held: no new on_connect will say so
            with self._lock:
                self.connected, self.error = True, None
                self._restart_from = self._acked  # what was in flight is sent again

    def drained(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until the broker has acknowledged every stored event."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected and self.store.count_after(*self._acked) == 0:
                return True
            self._wake.set()
            time.sleep(0.05)
        return False

    def stop(self, drain_s: float = 5.0) -> None:
        """Send what is left (a few seconds at most), say offline (retained), write the cursor, disconnect."""
        if drain_s > 0:
            self.drained(drain_s)
        self._stopped.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.connected:
            info = self.client.publish(self.topics.status, topics.OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=2)
        self._write_cursor(force=True)
        self.client.disconnect()
        self.client.loop_stop()

    # -- the sending thread -----------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stopped.is_set():
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            started = time.thread_time()
            try:
                self._check_network()
                count = self.send_round()
            except StoreError as error:  # a store that cannot be read now: the next round tries again
                self.error = f"cannot read the store: {error}"
                count = 0
            except Exception as error:  # the link must never take the table down
                log.exception("the broker link failed a round")
                self.error = str(error)
                count = 0
            if count:
                self.cpu_s += time.thread_time() - started
                self.published += count

    def send_round(self) -> int:
        """One round of the sending thread: take the acknowledgements, send what is due."""
        self._serve_resend(time.monotonic())
        self._take_acknowledged()
        if not self.connected:
            self.queued = self.store.count_after(*self._acked)
            return 0
        count = self._send_events()
        count += self._send_plays()
        count += self._send_state()
        self._write_cursor()
        self.queued = self.store.count_after(*self._acked)
        return count

    def _take_acknowledged(self) -> None:
        """Move the cursor over the acknowledged prefix; start again where paho's thread asked to."""
        with self._lock:
            restart, self._restart_from = self._restart_from, None
            if restart is not None:
                self._acked = min(self._acked, restart)
        if restart is not None:
            self._in_flight, self._sent = [], self._acked
            return
        while self._in_flight:
            info, key = self._in_flight[0]
            try:
                if not info.is_published():
                    break
            except (RuntimeError, ValueError):  # never sent (the connection dropped): from the cursor again
                self._in_flight, self._sent = [], self._acked
                return
            self._in_flight.pop(0)
            with self._lock:
                self._acked = key

    def _record(self, game_id: int) -> GameRecord:
        record = self._records.get(game_id)
        if record is None:
            record = self._records[game_id] = self.store.game(game_id)
        return record

    def _view(self, game_id: int) -> Mapping[str, Any] | None:
        """A game's shared view, for its moves' words (its board's cells as the page numbers them)."""
        if game_id not in self._views:
            try:
                self._views[game_id] = self.store.replay(game_id).state.view(None)
            except (StoreError, EngineError, LookupError) as error:
                log.warning("game %s has no view to word its moves by: %s", game_id, error)
                self._views[game_id] = None
        return self._views[game_id]

    def _send_events(self) -> int:
        room = self.window - len(self._in_flight)
        if room <= 0:
            return 0
        events = self.store.events_after(*self._sent, limit=room)
        for event in events:
            message = messages.event_message(self.table, self._record(event.game_id), event,
                                             self._view(event.game_id))
            payload = topics.encode(message)
            info = self.client.publish(self.topics.events, payload, qos=1)
            key = (event.game_id, event.seq)
            self._in_flight.append((info, key))
            self._sent = key
        return len(events)

    def _send_plays(self) -> int:
        if self._in_flight:
            return 0  # a play follows its game's last event
        acked = self._acked
        count = 0
        for game_id, finished in sorted(self.store.finished_games().items()):
            if self._plays.get(str(game_id)) == finished or game_id > acked[0]:
                continue
            moves = self.store.event_count(game_id)
            if game_id == acked[0] and moves > acked[1]:
                continue  # its last events are not acknowledged yet
            record = self._records[game_id] = self.store.game(game_id)  # finished: fresh from the store
            message = messages.play_message(self.table, record, moves)
            self.client.publish(self.topics.plays, topics.encode(message), qos=1)
            self._plays[str(game_id)] = finished
            count += 1
        if count:
            self._safe_meta(PLAYS_KEY, self._plays)
        return count

    def _send_state(self) -> int:
        now = time.monotonic()
        if not self._state_dirty and now - self._state_at < STATE_EVERY_S:
            return 0
        self._state_dirty = False
        message = messages.state_message(self.table, self.summary())
        same = self._state_sent is not None and {**self._state_sent, "at": 0} == {**message, "at": 0}
        if same and now - self._state_at < STATE_EVERY_S:
            return 0
        self.client.publish(self.topics.state, topics.encode(message), qos=1, retain=True)
        self._state_sent, self._state_at = message, now
        return 1

    def _write_cursor(self, force: bool = False) -> None:
        with self._lock:
            acked = self._acked
        due = force or time.monotonic() - self._written_at >= CURSOR_EVERY_S
        if acked != self._written and due and self._safe_meta(CURSOR_KEY, list(acked)):
            self._written, self._written_at = acked, time.monotonic()

    def _safe_meta(self, key: str, value: Any) -> bool:
        try:
            self.store.set_meta(key, value)
        except (StoreError, OSError, Exception) as error:  # a full disk: kept in memory, written later
            log.warning("could not write the broker cursor: %s", error)
            return False
        return True

    # -- paho's network thread: flags only, never a call into paho under our lock ------------------------
    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self.error = f"the broker refused the connection: {reason}"
            log.warning("%s", self.error)
            return
        with self._lock:
            self.connected, self.error = True, None
            self._restart_from = self._acked
        client.subscribe(self.topics.resend, qos=1)
        client.publish(self.topics.status, topics.ONLINE, qos=1, retain=True)
        if self.config.home_assistant:  # its birth message: Home Assistant started and must be told again
            client.subscribe(self.home_assistant.status, qos=1)
        self._announce(client)
        self._state_sent = None
        self.notify()
        log.info("reporting to the broker as table %s", self.table)

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        problem = connection_problem(self.config)
        if problem != self.error:
            log.warning("café broker: %s", problem)
        self.error = problem

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            was, self.connected = self.connected, False
            self._restart_from = self._acked
        if was and not self._stopped.is_set():
            self.error = f"the broker went away ({reason}); moves are queued"
            log.warning("%s", self.error)

    def _published(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._wake.set()

    def _announce(self, client: Any) -> None:
        """Tell Home Assistant about the table (retained, so it finds it whenever it starts), and take
        back what this table announced under another name or before Home Assistant was turned off (an
        empty retained config removes the sensor)."""
        current = self.home_assistant.config if self.config.home_assistant else None
        if self._announced is not None and self._announced != current:
            client.publish(self._announced, b"", qos=1, retain=True)
        if current is not None:
            config = messages.home_assistant_config(self.table, self.topics)
            client.publish(current, topics.encode(config), qos=1, retain=True)
        if self._announced != current and self._safe_meta(HOME_ASSISTANT_KEY, current):
            self._announced = current

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        """A message on a topic this table follows: Home Assistant's status, or a resend request."""
        if self.config.home_assistant and message.topic == self.home_assistant.status:
            if bytes(message.payload) == b"online":  # anything else (offline, junk) asks for nothing
                self._announce(client)
            return
        self._resend_asked(client, userdata, message)

    def _resend_asked(self, client: Any, userdata: Any, message: Any) -> None:
        """A consumer saw a gap: note the earliest point asked for; the sending thread serves it."""
        try:
            asked = resend_request(read_json(bytes(message.payload)))
        except Exception as error:  # untrusted: counted, dropped, never the end of paho's thread
            self.bad_messages += 1
            if self.bad_messages == 1:
                log.warning("dropped a bad resend request on %s: %s", self.topics.resend, error)
            return
        wanted = (asked.game_id, asked.first - 1)
        with self._lock:
            self._resend_wanted = wanted if self._resend_wanted is None else min(self._resend_wanted, wanted)
        self._wake.set()

    def _serve_resend(self, now: float) -> None:
        """Rewind to the earliest point asked for, when it names events this table has and the rate allows."""
        with self._lock:
            wanted = self._resend_wanted
        if wanted is None:
            return
        while self._resends and now - self._resends[0] >= 60.0:
            self._resends.popleft()
        if (self._resends and now - self._resends[-1] < RESEND_EVERY_S) or len(
                self._resends) >= RESENDS_PER_MINUTE:
            return  # gathered: served once the rate allows
        with self._lock:
            self._resend_wanted = None
        game_id, after = wanted
        latest = self.store.latest_game_id() or 0
        if game_id > latest or after >= self.store.event_count(game_id):
            self.bad_messages += 1  # a game or move this table does not have: nothing to send
            return
        self._resends.append(now)
        with self._lock:
            self._restart_from = wanted
            self._plays = {k: v for k, v in self._plays.items() if int(k) < game_id}


def link_table(loop: Any, config: MqttConfig) -> TableLink | None:
    """Report ``loop``'s table to the broker ``config`` names (None when it names none)."""
    if not config.enabled:
        return None
    link = TableLink(config, loop.game.store, loop.summary)
    loop.links.append(link)
    link.start()
    return link
