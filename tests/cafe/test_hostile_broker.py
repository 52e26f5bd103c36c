"""Hostile neighbours on a shared broker (a real Mosquitto with no ACL, as a careless café sets it up):
poisoned events, plays and retained states never stop the board, a table announced after them still
appears, every page answers 200, a board restarted on top of the poison works, and a table flooded with
hostile resend requests keeps publishing every event, sending its history again only as often as allowed."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from broker import Broker
from paho.mqtt.enums import CallbackAPIVersion

from cafe.app import create_board_app
from cafe.board import BoardStore
from cafe.listener import BoardListener
from companion.mqtt.link import RESENDS_PER_MINUTE, TableLink
from companion.store import Store
from engines.core import get_game
from wire.broker import MqttConfig

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]
DEEP = b"[" * 200_000 + b"]" * 200_000
GOOD_EVENT = {"table": "late", "game": "jurassik", "title": "Jurassik", "game_id": 1, "started": 100.0,
              "seq": 1, "kind": "action", "player": "Ana", "source": "camera", "at": 101.0, "action": None,
              "undoes": None, "description": "Ana: take", "scores": {"Ana": 1, "Bo": 0}}
GOOD_STATE = {"table": "late", "game": "jurassik", "title": "Jurassik", "game_id": 1,
              "players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}],
              "current": "Bo", "over": False, "scores": {"Ana": 1, "Bo": 0}, "winners": [], "event_count": 1,
              "waiting": None, "camera_ok": True, "at": 102.0}
GOOD_PLAY = {"table": "late", "game": "jurassik", "title": "Jurassik", "game_id": 1,
             "players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}],
             "scores": {"Ana": 20, "Bo": 18}, "winners": ["Ana"], "reason": "", "started": 100.0,
             "finished": 900.0, "duration_s": 800.0, "moves": 40}
POISON: list[tuple[str, bytes, bool]] = [
    ("events", json.dumps({**GOOD_EVENT, "table": "t1", "at": [1]}).encode(), False),
    ("events", json.dumps({**GOOD_EVENT, "table": "t1"}).replace("100.0", "NaN").encode(), False),
    ("events", json.dumps({**GOOD_EVENT, "table": "t1", "game_id": 2**64}).encode(), False),
    ("events", DEEP, False),
    ("events", b"\xff\xfe not utf-8", False),
    ("events", json.dumps({**GOOD_EVENT, "seq": 3, "description": "x" * 1_000_000}).encode(), False),
    ("plays", json.dumps({**GOOD_PLAY, "players": ["red"]}).encode(), False),
    ("plays", json.dumps(GOOD_PLAY).replace('"Ana": 20', '"Ana": 1' + "0" * 400).encode(), False),
    ("plays", json.dumps({**GOOD_PLAY, "players": [{"name": "Ana", "colour": ["red"]}]}).encode(), False),
    ("state", json.dumps({"players": 5}).encode(), True),
    ("state", DEEP, True),
    ("status", b"\x00" * 50, True),
]
#: retained poison goes to tables of its own (a topic keeps only its last retained message)
RETAINED_ON = ["t2", "t3", "t4"]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def publisher(broker: Broker) -> Iterator[Callable[[str, bytes, bool], None]]:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="neighbour")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()

    def publish(topic: str, payload: bytes, retain: bool = False) -> None:
        client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(timeout=10)

    yield publish
    client.loop_stop()
    client.disconnect()


def pages(board: BoardStore, listener: BoardListener) -> dict[str, int]:
    app = create_board_app(board, listener.status)
    client = app.test_client()
    paths = ["/", "/tables.html", "/league", "/api/league", "/league.csv", "/plays.csv", "/api/tables",
             "/api/plays", "/table/late"]
    return {path: client.get(path, headers={"Host": "localhost"}).status_code for path in paths}


def test_poison_never_stops_the_board_and_a_later_table_still_appears(
    broker: Broker, publisher: Callable[[str, bytes, bool], None], tmp_path: Path
) -> None:
    retained = iter(RETAINED_ON)
    for kind, payload, retain in POISON:
        publisher(f"dinotable/{next(retained) if retain else 't1'}/{kind}", payload, retain)
    board = BoardStore(tmp_path / "board")
    listener = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="hostile")
    listener.start()
    try:
        assert wait_for(lambda: listener.bad_messages >= 3)  # the retained poison, read at once
        for kind, payload, _ in POISON:  # and all of it again, live
            publisher(f"dinotable/t1/{kind}", payload, False)
        publisher("dinotable/late/status", b"online", True)
        publisher("dinotable/late/state", json.dumps(GOOD_STATE).encode(), True)
        publisher("dinotable/late/events", json.dumps(GOOD_EVENT).encode(), False)
        publisher("dinotable/late/plays", json.dumps(GOOD_PLAY).encode(), False)
        assert wait_for(lambda: len(board.plays()) == 1 and board.events("late")), listener.status()
        assert listener.alive() and listener.status()["ok"]
        assert listener.bad_messages >= len(POISON) + 3
        assert {t["name"]: t for t in board.tables()}["late"]["state"]["current"] == "Bo"
        assert set(pages(board, listener).values()) == {200}
    finally:
        listener.stop()
    again = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="hostile")  # redelivered
    again.start()
    try:
        publisher("dinotable/later/status", b"online", True)
        assert wait_for(lambda: "later" in {t["name"] for t in board.tables()})
        assert again.alive() and set(pages(board, again).values()) == {200}
    finally:
        again.stop()
        board.close()


def table_store(path: Path, events: int) -> Store:
    store = Store(path)
    game = get_game("jurassik")
    state = game.new_initial_state(["Ana", "Bo"], rng=random.Random(1))
    game_id = store.new_game(game, state, PLAYERS, {}, 1)
    for _ in range(events):
        store.append(game_id, "action", {"kind": "take", "player": "Ana", "row": 1, "col": 2}, player="Ana")
    return store


def summary_of(store: Store) -> Callable[[], dict[str, Any]]:
    """The table's snapshot as the loop gives it: its game and how many events that game has."""
    def summary() -> dict[str, Any]:
        return {"game": "jurassik", "title": "Jurassik", "game_id": 1, "players": PLAYERS, "current": "Ana",
                "over": False, "scores": {"players": {}}, "event_count": store.event_count(1),
                "pending": None, "camera": {"ok": True}}
    return summary


def test_a_table_flooded_with_hostile_resend_requests_publishes_every_event(
    broker: Broker, publisher: Callable[[str, bytes, bool], None], tmp_path: Path
) -> None:
    events = 40
    store = table_store(tmp_path / "table", events)
    board = BoardStore(tmp_path / "board")
    listener = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="flood")
    link = TableLink(MqttConfig(url=broker.url, table="t9", keepalive=5), store, summary_of(store))
    listener.start()
    link.start()
    try:
        assert wait_for(lambda: len(board.events("t9")) == events), link.status()
        for payload in (b'{"game_id": Infinity, "from": 1}', b'{"game_id": -Infinity, "from": 1}',
                        b'{"game_id": 1e400, "from": 1}', DEEP, b'{"game_id": 99, "from": 1}',
                        b'{"game_id": 1, "from": 100000}', b"not json"):
            publisher("dinotable/t9/resend", payload, False)
        for _ in range(10):
            publisher("dinotable/t9/resend", b'{"game_id": 1, "from": 1}', False)
        assert wait_for(lambda: link.bad_messages >= 5), link.status()  # the unreadable ones, at least
        store.append(1, "action", {"kind": "take", "player": "Bo", "row": 2, "col": 2}, player="Bo")
        link.notify()
        assert wait_for(lambda: len(board.events("t9")) == events + 1), link.status()
        assert link.network_alive() and link.status()["ok"]
        assert [e["seq"] for e in board.events("t9")] == list(range(1, events + 2))
        time.sleep(1.0)  # the ten requests are gathered into one rewind, not ten
        sent_again = link.published - (events + 1)
        assert sent_again <= events * 2 + 10, (link.published, link.status())
        assert 1 <= link.status()["resends_last_minute"] <= RESENDS_PER_MINUTE
    finally:
        link.stop(drain_s=0)
        listener.stop()
        board.close()
        store.close()


def test_a_board_started_after_a_table_sent_its_events_catches_up(broker: Broker, tmp_path: Path) -> None:
    store = table_store(tmp_path / "table", 3)
    board = BoardStore(tmp_path / "board")
    link = TableLink(MqttConfig(url=broker.url, table="t7", keepalive=5), store, summary_of(store))
    link.start()
    listener = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="late")
    try:
        assert wait_for(lambda: link.drained(0.2) and link.published >= 3), link.status()
        listener.start()  # nobody heard the three events; the table's retained snapshot says they exist
        assert wait_for(lambda: len(board.events("t7")) == 3), (link.status(), listener.status())
        assert [e["seq"] for e in board.events("t7")] == [1, 2, 3]
    finally:
        link.stop(drain_s=0)
        listener.stop()
        board.close()
        store.close()


def test_a_network_thread_that_ends_is_said_and_started_again(broker: Broker, tmp_path: Path) -> None:
    store = table_store(tmp_path / "table", 3)
    board = BoardStore(tmp_path / "board")
    listener = BoardListener(MqttConfig(url=broker.url, keepalive=5), board, name="restart")
    link = TableLink(MqttConfig(url=broker.url, table="t8", keepalive=5), store, summary_of(store))
    listener.start()
    link.start()
    try:
        assert wait_for(lambda: len(board.events("t8")) == 3)
        listener.client.loop_stop()  # as if paho's thread had died
        assert not listener.status()["ok"]
        listener.check()
        assert listener.status()["restarts"] == 1
        link.client.loop_stop()
        assert wait_for(lambda: link.status()["restarts"] == 1)  # its own sending thread notices
        store.append(1, "action", {"kind": "take", "player": "Bo", "row": 2, "col": 2}, player="Bo")
        link.notify()
        assert wait_for(lambda: len(board.events("t8")) == 4), (link.status(), listener.status())
        assert listener.status()["ok"] and link.status()["ok"]
    finally:
        link.stop(drain_s=0)
        listener.stop()
        board.close()
        store.close()
