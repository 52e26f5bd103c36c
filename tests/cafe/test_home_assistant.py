"""Home Assistant's MQTT discovery on a real Mosquitto, with a client standing in for Home Assistant: two
tables whose names differ by a dash are two sensors, each announced with its device and origin; Home
Assistant's birth message after its restart has every table announce itself again; a renamed table and one
whose Home Assistant setting is turned off take their old sensor back; the attributes change with the game
only."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import jinja2
import paho.mqtt.client as mqtt
from broker import Broker
from helpers.waiting import until
from test_link import new_store, summary

from companion.mqtt.link import TableLink
from companion.mqtt.messages import home_assistant_config, state_message
from companion.store import Store
from wire.broker import MqttConfig
from wire.topics import Topics

PREFIX = "ha"  # a discovery prefix of the user's choosing (Home Assistant's own setting)


class HomeAssistant:
    """What Home Assistant does on the broker: follows the discovery prefix, keeps each config (an empty
    one removes it) and says it is online when it starts."""

    def __init__(self, broker: Broker) -> None:
        self.configs: dict[str, dict[str, Any]] = {}
        self.received: list[str] = []
        self._lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="home-assistant")
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.subscribe(f"{PREFIX}/sensor/#", qos=1)
        self.client.loop_start()
        self.client.publish(f"{PREFIX}/status", "online", qos=1)  # its birth message

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        with self._lock:
            self.received.append(message.topic)
            if message.payload:
                self.configs[message.topic] = json.loads(message.payload)
            else:
                self.configs.pop(message.topic, None)

    def restart(self) -> None:
        self.client.publish(f"{PREFIX}/status", "offline", qos=1)
        with self._lock:
            self.received.clear()
        self.client.publish(f"{PREFIX}/status", "online", qos=1)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def table(broker: Broker, store: Store, name: str, announce: bool = True) -> TableLink:
    config = MqttConfig(url=broker.url, table=name, home_assistant=announce, home_assistant_prefix=PREFIX,
                        keepalive=5)
    link = TableLink(config, store, summary)
    link.start()
    until(f"{name} connected", lambda: link.connected)
    return link


def topic(name: str) -> str:
    return f"{PREFIX}/sensor/dinotable_{name}/turn/config"


def test_tables_are_found_again_after_a_restart_and_forgotten_when_renamed(broker: Broker,
                                                                           tmp_path: Path) -> None:
    first, _ = new_store(tmp_path / "first")
    second, _ = new_store(tmp_path / "second")
    assistant = HomeAssistant(broker)
    links = [table(broker, first, "t-1"), table(broker, second, "t_1")]
    try:
        until("both tables announced", lambda: {topic("t-1"), topic("t_1")} <= set(assistant.configs))
        one, other = assistant.configs[topic("t-1")], assistant.configs[topic("t_1")]
        assert one["unique_id"] != other["unique_id"]
        assert one["device"]["identifiers"] != other["device"]["identifiers"]
        assert one["origin"]["name"] == "Dino Table Companion" and one["device"]["sw_version"]
        assert one["availability_topic"] == "dinotable/t-1/status"

        assistant.restart()  # its retained configs aside, the tables answer its birth message
        both = {topic("t-1"), topic("t_1")}
        until("the tables announced again", lambda: both <= set(assistant.received))

        links[0].stop()  # t-1 is renamed t-9: its old sensor goes
        links[0] = table(broker, first, "t-9")
        until("the renamed table", lambda: topic("t-9") in assistant.configs
                 and topic("t-1") not in assistant.configs)
        links[1].stop()  # t_1 is no longer to be seen in Home Assistant
        links[1] = table(broker, second, "t_1", announce=False)
        until("t_1 taken back", lambda: topic("t_1") not in assistant.configs)
    finally:
        for link in links:
            link.stop()
        assistant.stop()
    late = HomeAssistant(broker)  # a Home Assistant started now finds what is retained: t-9 alone
    try:
        time.sleep(1.0)
        assert set(late.configs) == {topic("t-9")}
    finally:
        late.stop()


def test_the_attributes_change_with_the_game_only() -> None:
    config = home_assistant_config("t-1", Topics("dinotable", "t-1"))
    template = jinja2.Environment().from_string(config["json_attributes_template"])
    sent = state_message("t-1", summary())
    later = {**sent, "at": sent["at"] + 30.0}  # the same table sent again half a minute on
    assert template.render(value_json=sent) == template.render(value_json=later)
    moved = {**sent, "scores": {"Ana": 3, "Bo": 0}}
    attributes = json.loads(template.render(value_json=moved))
    assert attributes["scores"] == {"Ana": 3, "Bo": 0} and "at" not in attributes
