"""The café broker as docs/cafe.md sets it up: `dinotable-cafe --write-logins` writes each table's login and
the ACL, and a real Mosquitto holds them: a table reports only as itself, reads only its own resend requests,
the board reads every table and can forge none of their reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from broker import MOSQUITTO, Broker
from paho.mqtt.enums import CallbackAPIVersion

from cafe.logins import password_hash

EVENT = {"table": "table-1", "game": "jurassik", "title": "Jurassik", "game_id": 1, "started": 100.0,
         "seq": 1, "kind": "action", "player": "Ana", "at": 101.0, "description": "Ana: take", "scores": {}}


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def client(port: int, user: str, password: str, seen: list[tuple[str, bytes]] | None = None) -> Any:
    connected: list[Any] = []
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"acl-{user}-{time.monotonic_ns()}")
    made.username_pw_set(user, password)
    made.on_connect = lambda c, u, f, reason, p: connected.append(reason)
    if seen is not None:
        made.on_message = lambda c, u, message: seen.append((message.topic, message.payload))
    made.connect("127.0.0.1", port)
    made.loop_start()
    assert wait_for(lambda: bool(connected)) and not connected[0].is_failure, connected
    return made


def test_the_written_hash_is_the_one_mosquitto_passwd_makes() -> None:
    import base64

    salt = b"0123456789ab"
    made = password_hash("secret words", salt)
    kind, iterations, salt_text, digest = made.split("$")[1:]
    assert (kind, iterations, base64.b64decode(salt_text)) == ("7", "101", salt) and len(digest) == 88


def test_each_table_writes_only_its_own_topics(tmp_path: Path) -> None:
    if not Path(MOSQUITTO).exists():
        pytest.skip("Debian's mosquitto is not installed")
    logins = tmp_path / "logins"
    written = subprocess.run([sys.executable, "-m", "cafe", "--write-logins", str(logins),
                              "--tables", "table-1,table-2"], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert written.returncode == 0, written.stderr
    assert (logins / "mosquitto-passwords").stat().st_mode & 0o077 == 0
    assert (logins / "table-1.password").stat().st_mode & 0o077 == 0
    password = {name: (logins / f"{name}.password").read_text().strip()
                for name in ("table-1", "table-2", "cafe-board")}
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", password_file=logins / "mosquitto-passwords",
                    acl_file=logins / "mosquitto-acl")
    broker.start()
    try:
        board_seen: list[tuple[str, bytes]] = []
        board = client(broker.port, "cafe-board", password["cafe-board"], board_seen)
        board.subscribe("dinotable/#", qos=1)
        spy_seen: list[tuple[str, bytes]] = []
        table_1 = client(broker.port, "table-1", password["table-1"], spy_seen)
        table_1.subscribe([("dinotable/table-1/resend", 1), ("dinotable/table-2/#", 1)])
        time.sleep(0.5)
        own = json.dumps(EVENT).encode()
        forged = json.dumps({**EVENT, "table": "table-2"}).encode()
        table_1.publish("dinotable/table-1/events", own, qos=1).wait_for_publish(5)
        table_1.publish("dinotable/table-2/events", forged, qos=1).wait_for_publish(5)  # as table-2: dropped
        board.publish("dinotable/table-2/state", b'{"forged": true}', qos=1).wait_for_publish(5)  # dropped
        board.publish("dinotable/table-1/resend", b'{"game_id": 1, "from": 1}', qos=1).wait_for_publish(5)
        table_2 = client(broker.port, "table-2", password["table-2"])
        table_2.publish("dinotable/table-2/status", b"online", qos=1, retain=True).wait_for_publish(5)
        assert wait_for(lambda: ("dinotable/table-2/status", b"online") in board_seen), board_seen
        assert wait_for(lambda: ("dinotable/table-1/resend", b'{"game_id": 1, "from": 1}') in spy_seen)
        time.sleep(0.5)
        topics = [topic for topic, _ in board_seen]
        assert topics.count("dinotable/table-1/events") == 1
        assert "dinotable/table-2/events" not in topics and "dinotable/table-2/state" not in topics
        assert not [topic for topic, _ in spy_seen if topic.startswith("dinotable/table-2/")]  # reads nothing
        with pytest.raises(AssertionError):
            client(broker.port, "table-1", "a guess")
        for made in (board, table_1, table_2):
            made.loop_stop()
            made.disconnect()
    finally:
        broker.stop()


def test_no_login_can_take_another_table_s_connection(tmp_path: Path) -> None:
    """Under the written broker lines a login's client id is its name: table-1 connecting with the client
    id table-2's link uses leaves table-2 connected (without them it was thrown off again and again)."""
    if not Path(MOSQUITTO).exists():
        pytest.skip("Debian's mosquitto is not installed")
    from cafe.logins import broker_conf, write_logins

    logins = tmp_path / "logins"
    write_logins(logins, ["table-1", "table-2"])
    settings = tuple(line for line in broker_conf().splitlines()
                     if line and not line.startswith(("#", "password_file", "acl_file")))
    assert "use_username_as_clientid true" in settings
    password = {name: (logins / f"{name}.password").read_text().strip() for name in ("table-1", "table-2")}
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", password_file=logins / "mosquitto-passwords",
                    acl_file=logins / "mosquitto-acl", settings=settings)
    broker.start()
    dropped: list[Any] = []
    try:
        victim = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="dinotable-table-2")
        victim.username_pw_set("table-2", password["table-2"])
        connected: list[Any] = []
        victim.on_connect = lambda c, u, f, reason, p: connected.append(reason)
        victim.on_disconnect = lambda c, u, f, reason, p: dropped.append(reason)
        victim.connect("127.0.0.1", broker.port)
        victim.loop_start()
        assert wait_for(lambda: bool(connected))
        for _ in range(3):
            thief = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="dinotable-table-2")
            thief.username_pw_set("table-1", password["table-1"])
            thief.connect("127.0.0.1", broker.port)
            thief.loop_start()
            time.sleep(0.5)
            thief.loop_stop()
            thief.disconnect()
        assert dropped == [] and victim.is_connected()
        victim.loop_stop()
        victim.disconnect()
    finally:
        broker.stop()


def test_tables_whose_names_differ_by_a_dash_stay_two_in_home_assistant(tmp_path: Path) -> None:
    from cafe.logins import write_logins

    write_logins(tmp_path, ["table-1", "table_1"], home_assistant_prefix="ha")
    acl = (tmp_path / "mosquitto-acl").read_text(encoding="utf-8")
    assert "topic write ha/sensor/dinotable_table-1/#" in acl
    assert "topic write ha/sensor/dinotable_table_1/#" in acl
    assert "topic read ha/status" in acl and "homeassistant/" not in acl
