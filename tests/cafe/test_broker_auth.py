"""Mosquitto's own authentication and TLS: a table with the right password over mqtts:// with the café's
certificate authority reports; a wrong password is refused and said so (nothing raised, nothing lost)."""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from broker import MOSQUITTO, Broker

from cafe.board import BoardStore
from cafe.listener import BoardListener
from companion.mqtt.link import TableLink
from companion.store import Store
from engines.core import get_game
from wire.broker import MqttConfig

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A café CA and the broker's certificate for 127.0.0.1 signed by it."""
    ca_key, ca, key, request, cert = (directory / n for n in ("ca.key", "ca.crt", "broker.key", "broker.csr",
                                                               "broker.crt"))
    extensions = directory / "san.cnf"
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
    run = [["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca,
            "-days", "2", "-subj", "/CN=Cafe test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
           ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj",
            "/CN=127.0.0.1"],
           ["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out",
            cert, "-days", "2", "-extfile", extensions]]
    for command in run:
        subprocess.run([str(part) for part in command], check=True, capture_output=True)
    return ca, cert, key


def table_store(path: Path) -> tuple[Store, int]:
    store = Store(path)
    game = get_game("jurassik")
    state = game.new_initial_state(["Ana", "Bo"], rng=random.Random(1))
    return store, store.new_game(game, state, PLAYERS, {}, 1)


def summary() -> dict[str, Any]:
    return {"game": "jurassik", "title": "Jurassik", "game_id": 1, "players": PLAYERS, "current": "Ana",
            "over": False, "scores": {"players": {}}, "event_count": 0, "pending": None,
            "camera": {"ok": True}}


def test_password_and_tls(tmp_path: Path) -> None:
    if not Path(MOSQUITTO).exists():
        pytest.skip("Debian's mosquitto is not installed")
    passwords = tmp_path / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), "table-1", "right horse battery"],
                   check=True, capture_output=True)
    subprocess.run(["mosquitto_passwd", "-b", str(passwords), "board", "board pass"], check=True,
                   capture_output=True)
    ca, cert, key = certificates(tmp_path)
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker", password_file=passwords, tls=(cert, key))
    broker.start()
    url = f"mqtts://127.0.0.1:{broker.port}"
    board = BoardStore(tmp_path / "board")
    listener = BoardListener(MqttConfig(url=url, username="board", password="board pass", ca_file=str(ca),
                                        keepalive=5), board)
    store, game_id = table_store(tmp_path / "table")
    store.append(game_id, "action", {"kind": "take", "player": "Ana", "row": 1, "col": 2}, player="Ana")
    secret = tmp_path / "table-password"
    secret.write_text("right horse battery\n")
    good = TableLink(MqttConfig(url=f"mqtts://table-1@127.0.0.1:{broker.port}", password_file=str(secret),
                                ca_file=str(ca), table="t1", keepalive=5), store, summary)
    wrong = TableLink(MqttConfig(url=f"mqtts://table-1:guess@127.0.0.1:{broker.port}", ca_file=str(ca),
                                 table="t2", keepalive=5), store, summary)
    untrusted = TableLink(MqttConfig(url=f"mqtts://table-1@127.0.0.1:{broker.port}",
                                     password_file=str(secret), table="t3", keepalive=5), store, summary)
    try:
        listener.start()
        assert wait_for(lambda: listener.connected)
        for link in (good, wrong, untrusted):
            link.start()
        assert wait_for(lambda: len(board.events("t1")) == 1), good.status()
        assert wait_for(lambda: "refused" in (wrong.status()["error"] or "")), wrong.status()
        assert wait_for(lambda: "not trusted" in (untrusted.status()["error"] or "")), untrusted.status()
        assert not wrong.connected and not untrusted.connected
        assert board.events("t2") == [] and board.events("t3") == []
    finally:
        for link in (good, wrong, untrusted):
            link.stop(drain_s=0)
        listener.stop()
        board.close()
        store.close()
        broker.stop()
