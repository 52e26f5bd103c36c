"""What a table says on the broker: the shared view only, in words players read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import words
from companion.config import ConfigError, config_from_dict
from companion.mqtt import messages
from companion.store import GameRecord, StoredEvent
from wire.broker import MqttConfig, parse_url


def record(game: str = "isla-nublar") -> GameRecord:
    return GameRecord(4, game, "Isla Nublar", [{"name": "Ana", "colour": "red"}], {}, 1, {}, {}, 100.0, None,
                      None)


def event(kind: str, action: dict[str, object] | None, player: str | None = "Ana") -> StoredEvent:
    return StoredEvent(4, 7, kind, action, None, player, "camera", 101.0, None, False, None,
                       {"players": {"Ana": {"total": 3, "breakdown": {"camps": 3}}}, "winners": []})


@pytest.mark.parametrize("action", [
    {"kind": "draw", "player": "Ana", "card": "S-AMBER1-DEFENCE"},
    {"kind": "sell", "player": "Ana", "fossil": "T-REX-HEAD"},
    {"kind": "keep", "player": "Ana", "tiles": ["F01", "F02"]},
])
def test_a_concealed_holding_is_never_named(action: dict[str, object]) -> None:
    message = messages.event_message("t1", record(), event("action", action))
    text = json.dumps(message)
    hidden = [v for k, v in action.items() if k not in ("kind", "player")]
    for value in hidden:
        for part in value if isinstance(value, list) else [value]:
            assert str(part) not in text
    assert message["action"] is None
    assert message["description"].endswith("(concealed)")
    assert message["scores"] == {"Ana": 3}


def test_an_open_move_is_described_and_carried() -> None:
    action = {"kind": "place-box", "player": "Ana", "field": "C6R5"}
    message = messages.event_message("t1", record(), event("action", action))
    assert message["action"] == action
    assert message["description"] == "Ana: place a box column 7, field 5 (mountain)"
    assert (message["game_id"], message["seq"], message["started"]) == (4, 7, 100.0)


@pytest.mark.parametrize(("game", "action"), [
    ("jurassik", {"kind": "take", "player": "Ana", "row": 0, "col": 4}),
    ("isla-nublar", {"kind": "place-box", "player": "Ana", "field": "C1R1"}),
])
def test_a_move_is_described_in_the_page_s_words(game: str, action: dict[str, object]) -> None:
    message = messages.event_message("t1", record(game), event("action", action))
    page = words.event_label({"kind": "action", "action": action, "player": "Ana"},
                             {"game": game, "view": {}})
    assert message["description"] == f"Ana: {page}"
    assert "col 4" not in message["description"] and "C1R1" not in message["description"]


def test_an_undo_says_which_move_was_taken_back() -> None:
    undo = StoredEvent(4, 8, "undo", None, 7, "Ana", "page", 102.0, None, False, None, {})
    assert messages.event_message("t1", record(), undo)["description"].startswith("took back move #7")


def test_a_correction_carries_no_position() -> None:
    action = {"kind": "correct", "state": {"hands": {"Ana": ["EGG"]}}, "reason": "fix"}
    message = messages.event_message("t1", record(), event("correct", action))
    assert message["action"] is None and "EGG" not in json.dumps(message)


def test_state_message_has_no_board_view_nor_legal_moves() -> None:
    snapshot = {"game": "jurassik", "title": "Jurassik", "game_id": 2, "over": False, "current": "Bo",
                "players": [{"name": "Bo", "colour": "blue", "seat": 0}], "view": {"secret": 1},
                "legal": [{"kind": "take"}], "scores": {"players": {"Bo": {"total": 5}}, "winners": ["Bo"]},
                "event_count": 9, "pending": {"kind": "question"}, "camera": {"ok": True}}
    message = messages.state_message("t1", snapshot)
    assert "view" not in message and "legal" not in message
    assert message["scores"] == {"Bo": 5} and message["winners"] == [] and message["waiting"] == "question"


def test_broker_urls() -> None:
    assert parse_url("mqtt://cafe.local").port == 1883
    secure = parse_url("mqtts://table%2D1:p%40ss@cafe.local:9000")
    assert (secure.tls, secure.port, secure.username, secure.password) == (True, 9000, "table-1", "p@ss")
    for bad in ("http://x", "mqtt://", "mqtt://h/path", "mqtt://h:99999"):
        with pytest.raises(ValueError):
            parse_url(bad)


def test_config_mqtt_table_names_the_key(tmp_path: Path) -> None:
    config = config_from_dict({"mqtt": {"url": "mqtt://cafe", "table": "t-3", "home_assistant": True}})
    assert config.mqtt.enabled and config.mqtt.table_name == "t-3" and config.mqtt.home_assistant
    for bad, key in (({"table": "a/#"}, "mqtt"), ({"keepalive": True}, "mqtt.keepalive"),
                     ({"colour": 1}, "mqtt"), ({"ca_file": str(tmp_path / "none.crt")}, "mqtt")):
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
            config_from_dict({"mqtt": bad})
    assert not MqttConfig().enabled
    password = tmp_path / "password"
    password.write_text("s3cret\n")
    address = MqttConfig(url="mqtt://u@cafe", password_file=str(password)).address()
    assert (address.username, address.password) == ("u", "s3cret")
