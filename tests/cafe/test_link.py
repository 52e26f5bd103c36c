"""The table's link: the event log past the acknowledged cursor is the outbox. Nothing is lost while the
broker is away or when the table restarts, everything goes out in order, a resend request rewinds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from fake_client import FakeClient, Reason

from companion.mqtt.link import CURSOR_KEY, TableLink
from companion.store import Store
from engines.core import get_game
from wire.broker import MqttConfig

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]
CONFIG = MqttConfig(url="mqtt://127.0.0.1:1", table="t1")


def summary() -> dict[str, Any]:
    return {"game": "jurassik", "title": "Jurassik", "game_id": 1, "players": PLAYERS, "current": "Ana",
            "over": False, "scores": {"players": {}}, "event_count": 0, "pending": None,
            "camera": {"ok": True}}


def new_store(path: Path) -> tuple[Store, int]:
    store = Store(path)
    game = get_game("jurassik")
    state = game.new_initial_state(["Ana", "Bo"], rng=random.Random(1))
    return store, store.new_game(game, state, PLAYERS, {}, 1)


def append(store: Store, game_id: int, count: int) -> None:
    for _ in range(count):
        store.append(game_id, "action", {"kind": "take", "player": "Ana", "row": 1, "col": 2}, player="Ana")


def link_on(store: Store) -> tuple[TableLink, FakeClient]:
    clients: list[FakeClient] = []

    def factory(*args: Any, **kwargs: Any) -> FakeClient:
        clients.append(FakeClient())
        return clients[-1]

    link = TableLink(CONFIG, store, summary, window=4, client_factory=factory)
    return link, clients[0]


def seqs(client: FakeClient) -> list[int]:
    return [json.loads(p)["seq"] for p in client.on("/events")]


def test_events_wait_for_the_broker_then_go_out_in_order(tmp_path: Path) -> None:
    store, game_id = new_store(tmp_path)
    link, client = link_on(store)
    assert client.will == ("dinotable/t1/status", "offline", 1, True)
    append(store, game_id, 6)
    link.send_round()
    assert client.published == [] and link.queued == 6
    client.come_up()
    link.send_round()
    assert client.on("/status") == [b"online"] and seqs(client) == [1, 2, 3, 4]  # the window: 4 in flight
    assert len(client.on("/state")) == 1 and link.queued == 6
    client.ack_all()
    link.send_round()
    assert seqs(client) == [1, 2, 3, 4, 5, 6]
    client.ack_all()
    link.send_round()
    assert link.queued == 0 and store.meta(CURSOR_KEY) in ([game_id, 4], [game_id, 6])  # written every 2 s
    link.stop(drain_s=0)
    assert store.meta(CURSOR_KEY) == [game_id, 6] and client.on("/status")[-1] == b"offline"


def test_a_lost_connection_sends_again_from_the_acknowledged_event(tmp_path: Path) -> None:
    store, game_id = new_store(tmp_path)
    link, client = link_on(store)
    client.come_up()
    append(store, game_id, 4)
    link.send_round()
    for *_, info in client.published[-3:-1]:  # 2 and 3 acknowledged, 1 and 4 not: the cursor stays at 0
        info.acked = True
    link.send_round()
    assert link.queued == 4
    client.go_down()
    append(store, game_id, 2)
    link.send_round()
    client.published.clear()
    client.come_up()
    link.send_round()
    assert seqs(client) == [1, 2, 3, 4]
    client.ack_all()
    link.send_round()
    client.ack_all()
    link.send_round()
    assert seqs(client) == [1, 2, 3, 4, 5, 6] and link.queued == 0


def test_a_restarted_table_carries_on_from_its_stored_cursor(tmp_path: Path) -> None:
    store, game_id = new_store(tmp_path)
    link, client = link_on(store)
    client.come_up()
    append(store, game_id, 3)
    link.send_round()
    client.ack_all()
    link.send_round()
    append(store, game_id, 2)  # committed, then the table dies before sending them
    store.close()
    reopened = Store(tmp_path)
    again, fresh = link_on(reopened)
    fresh.come_up()
    again.send_round()
    assert seqs(fresh) == [4, 5]


def test_a_resend_request_rewinds_and_a_play_follows_its_last_event(tmp_path: Path) -> None:
    store, game_id = new_store(tmp_path)
    link, client = link_on(store)
    client.come_up()
    append(store, game_id, 3)
    link.send_round()
    client.ack_all()
    store.finish(game_id, {"players": {"Ana": {"total": 9}, "Bo": {"total": 4}}, "winners": ["Ana"],
                           "reason": "the last tile was taken"})
    link.send_round()
    plays = [json.loads(p) for p in client.on("/plays")]
    assert [(p["game_id"], p["scores"], p["winners"], p["moves"]) for p in plays] == [
        (game_id, {"Ana": 9, "Bo": 4}, ["Ana"], 3)]
    client.published.clear()

    class Message:
        payload = json.dumps({"game_id": game_id, "from": 2}).encode()

    client.on_message(client, None, Message())
    link.send_round()
    assert seqs(client) == [2, 3]
    client.ack_all()
    link.send_round()
    assert len(client.on("/plays")) == 1  # the play again, after its events
    for junk in (b"{", b'{"game_id": "x", "from": 1}', b"[]", b'{"game_id": 1, "from": 0}'):
        Message.payload = junk
        client.on_message(client, None, Message())
    client.published.clear()
    link.send_round()
    assert seqs(client) == []


def test_a_refused_connection_is_reported_not_raised(tmp_path: Path) -> None:
    store, _ = new_store(tmp_path)
    link, client = link_on(store)
    client.on_connect(client, None, None, Reason(failure=True), None)
    assert not link.connected and "refused" in (link.status()["error"] or "")
    assert link.status()["ok"] is False and link.status()["broker"] == "127.0.0.1:1"


def test_home_assistant_discovery_when_asked(tmp_path: Path) -> None:
    store, _ = new_store(tmp_path)
    clients: list[FakeClient] = []
    config = MqttConfig(url="mqtt://127.0.0.1:1", table="t-1", home_assistant=True)

    def factory(*args: Any, **kwargs: Any) -> FakeClient:
        clients.append(FakeClient())
        return clients[-1]

    TableLink(config, store, summary, client_factory=factory)
    clients[0].come_up()
    found = [(t, json.loads(p), retain) for t, p, _, retain, _ in clients[0].published
             if t.startswith("homeassistant/")]
    assert len(found) == 1
    topic, discovery, retained = found[0]
    assert topic == "homeassistant/sensor/dinotable_t-1/turn/config" and retained
    assert discovery["unique_id"] == "dinotable_t-1_turn" and discovery["origin"]["name"]
    assert discovery["device"]["identifiers"] == ["dinotable_t-1"]
    assert discovery["state_topic"] == "dinotable/t-1/state"
    assert discovery["availability_topic"] == "dinotable/t-1/status"
    assert (discovery["payload_available"], discovery["payload_not_available"]) == ("online", "offline")
