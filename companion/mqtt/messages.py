"""What a table says on the broker (the topics of :mod:`wire.topics`), as JSON: only the shared view,
ever. An action that could name a concealed holding (a fossil, a card drawn, a hand) is
described without it, by the one rule of :mod:`companion.shared_view`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from importlib import metadata
from typing import Any

from companion.i18n import DEFAULT, LANGUAGES, gettext, speaking
from companion.shared_view import is_shareable, shared_action
from companion.store import GameRecord, StoredEvent
from companion.words import event_label
from wire.topics import OFFLINE, ONLINE, Topics, home_assistant_unique


def _words(value: Any) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(_words(v) for v in value) + ")"
    return str(value)


def describe(kind: str, action: Mapping[str, Any] | None, player: str | None, undoes: int | None,
             game: str | None = None, view: Mapping[str, Any] | None = None) -> str:
    """The event in the words the table's page uses for it (its kit's, with the game's shared ``view``
    for its board's cells), naming nothing concealed."""
    who = player or gettext("the table")
    if kind == "correct":
        return gettext("%(player)s: a correction of the table") % {"player": who}
    shared = shared_action(action, game)
    label = event_label({"kind": kind, "action": shared, "undoes": undoes, "player": player},
                        {"game": game, "view": view or {}} if game else None)
    if kind == "undo":
        return label
    if shared is None:
        return who
    concealed = gettext("(concealed)")
    hidden = f" {concealed}" if shared.get("concealed") and concealed not in label else ""
    return f"{who}: {label}{hidden}"


def event_message(table: str, record: GameRecord, event: StoredEvent,
                  view: Mapping[str, Any] | None = None) -> dict[str, Any]:
    action = event.action
    descriptions = {code: described_in(code, event, record.game, view) for code in LANGUAGES}
    shared = (action if action is not None and is_shareable(action, record.game) and event.kind == "action"
              else None)
    return {
        "table": table,
        "game": record.game,
        "title": record.title,
        "game_id": event.game_id,
        "started": record.started,
        "seq": event.seq,
        "kind": event.kind,
        "player": event.player,
        "source": event.source,
        "at": event.at,
        "action": shared,
        "undoes": event.undoes,
        "description": descriptions[DEFAULT],
        # each reader of the café board reads the move in their own language
        "descriptions": descriptions,
        "scores": _totals(event.scores),
    }


def described_in(code: str, event: StoredEvent, game: str | None, view: Mapping[str, Any] | None) -> str:
    with speaking(code):
        return describe(event.kind, event.action, event.player, event.undoes, game, view)


def _totals(scores: Mapping[str, Any] | None) -> dict[str, int]:
    players = (scores or {}).get("players", {})
    return {name: int(entry.get("total", 0)) for name, entry in players.items()}


def play_message(table: str, record: GameRecord, moves: int) -> dict[str, Any]:
    outcome = record.outcome or {}
    finished = record.finished or record.started
    return {
        "table": table,
        "game": record.game,
        "title": record.title,
        "game_id": record.game_id,
        "players": [{"name": p["name"], "colour": p.get("colour")} for p in record.players],
        "scores": _totals(outcome),
        "winners": list(outcome.get("winners", [])),
        "reason": outcome.get("reason", ""),
        "started": record.started,
        "finished": finished,
        "duration_s": round(finished - record.started, 1),
        "moves": moves,
    }


def state_message(table: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The retained snapshot: who plays what, whose turn, the scores (no board view, no legal moves)."""
    scores = snapshot.get("scores") or {}
    pending = snapshot.get("pending") or {}
    return {
        "table": table,
        "game": snapshot.get("game"),
        "title": snapshot.get("title"),
        "game_id": snapshot.get("game_id"),
        "players": [{"name": p["name"], "colour": p.get("colour")} for p in snapshot.get("players", [])],
        "current": snapshot.get("current"),
        "over": bool(snapshot.get("over")),
        "scores": _totals(scores),
        "winners": list(scores.get("winners", [])) if snapshot.get("over") else [],
        "event_count": snapshot.get("event_count", 0),
        "waiting": pending.get("kind"),
        "camera_ok": bool((snapshot.get("camera") or {}).get("ok")),
        "at": time.time(),
    }


#: the state's fields Home Assistant keeps as the sensor's attributes: what changes with the game only (not
#: the time the state was sent, which would make every resend an update)
ATTRIBUTES = ("game", "title", "game_id", "players", "scores", "over", "winners", "waiting", "camera_ok")


def home_assistant_config(table: str, topics: Topics) -> dict[str, Any]:
    """Home Assistant's MQTT discovery config of a table (sent to :class:`HomeAssistantTopics`' config):
    one sensor, whose turn it is, with the game as its attributes, available while the table is online;
    its device and the origin (the software that announces it) as the discovery docs ask."""
    unique = home_assistant_unique(table)
    attributes = ", ".join(f"'{name}': value_json.{name}" for name in ATTRIBUTES)
    return {
        "name": "Turn",
        "unique_id": f"{unique}_turn",
        "state_topic": topics.state,
        "value_template": "{{ 'game over' if value_json.over else (value_json.current or '-') }}",
        "json_attributes_topic": topics.state,
        "json_attributes_template": "{{ {" + attributes + "} | tojson }}",
        "availability_topic": topics.status,
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "icon": "mdi:dice-multiple",
        "device": {"identifiers": [unique], "name": f"Dino Table {table}", "manufacturer": "Dino Table",
                   "model": "Dino Table Companion", "sw_version": software_version()},
        "origin": {"name": "Dino Table Companion", "sw_version": software_version()},
    }


def software_version() -> str:
    """The installed companion's version (its package's), or "dev" when run from a checkout only."""
    try:
        return metadata.version("dinotable")
    except metadata.PackageNotFoundError:
        return "dev"
