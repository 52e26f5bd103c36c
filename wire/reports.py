"""Reading what comes off the broker: every message is untrusted input, read by one validating reader.

The broker is shared ground: anyone with a login (or none, on a broker set up without an ACL) can publish
anything on any topic. :func:`read_json` takes a payload only within a size and nesting limit, with finite
numbers and bounded integers; the ``*_report`` functions turn an event, a play, a table's state, a status
or a resend request into a checked record, or raise :class:`BadWire` saying what is wrong. The board and
the table read the same way; nothing past these functions sees a raw payload.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wire.topics import STATUSES, TABLE_NAME

MAX_PAYLOAD = 64 * 1024
MAX_DEPTH = 16
MAX_TEXT = 400
MAX_PLAYERS = 6
#: whole numbers on the wire (ids, counts, scores, seconds) stay within what SQLite and JSON keep exactly
MAX_INT = 2**53
#: seconds since 1970 a report may carry (to the year 2100)
MAX_TIME = 4.2e9


class BadWire(ValueError):
    """A message that cannot be taken; the text says what is wrong (never echoing much of it)."""


def _no_constant(name: str) -> Any:
    raise BadWire(f"{name} is not a number this wire carries")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadWire("a number too large to be finite")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise BadWire("a whole number of more than 16 digits")
    return int(text)


def json_depth(text: str, enough: int = MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped), without parsing it
    (a recursive parser must not meet a deep one); the count stops once past ``enough``."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > enough:
                return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def read_json(payload: bytes, limit: int = MAX_PAYLOAD) -> dict[str, Any]:
    """A JSON object from ``payload`` within the limits, or :class:`BadWire`."""
    if len(payload) > limit:
        raise BadWire(f"{len(payload)} bytes, more than the {limit} a report may have")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadWire("not UTF-8") from error
    if json_depth(text) > MAX_DEPTH:
        raise BadWire(f"nested more than {MAX_DEPTH} deep")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded_int)
    except BadWire:
        raise
    except (ValueError, RecursionError) as error:
        raise BadWire("not JSON") from error
    if not isinstance(data, dict):
        raise BadWire("not a JSON object")
    return data


def whole(data: Mapping[str, Any], key: str, low: int = 0, high: int = MAX_INT) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadWire(f"{key} must be a whole number {low}..{high}")
    return value


def moment(data: Mapping[str, Any], key: str, default: float | None = None) -> float:
    """Seconds since 1970 (or a duration), finite and within the wire's range."""
    value = data.get(key, default)
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= MAX_TIME:
        raise BadWire(f"{key} must be a number of seconds 0..{MAX_TIME:g}")
    return float(value)


def text(data: Mapping[str, Any], key: str, default: str | None = None, limit: int = MAX_TEXT,
         optional: bool = False) -> str:
    value = data.get(key, default)
    if value is None and optional:
        return ""
    if not isinstance(value, str) or len(value) > limit:
        raise BadWire(f"{key} must be a text of at most {limit} characters")
    return value


def table_name(name: str) -> str:
    if not TABLE_NAME.match(name):
        raise BadWire("a table name is 1-40 letters, digits, - or _")
    return name


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour}


def seats(data: Mapping[str, Any], key: str = "players") -> tuple[Seat, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise BadWire(f"{key} must be a list of at most {MAX_PLAYERS} players")
    found = []
    for entry in value:
        if not isinstance(entry, dict):
            raise BadWire(f"each of {key} must be an object with a name")
        colour = entry.get("colour")
        if colour is not None and (not isinstance(colour, str) or len(colour) > 20):
            raise BadWire("a player's colour must be a short text")
        found.append(Seat(text(entry, "name", limit=40), colour))
    if len({seat.name for seat in found}) != len(found):
        raise BadWire(f"two of {key} share a name")
    return tuple(found)


def score_table(data: Mapping[str, Any], key: str = "scores") -> dict[str, int]:
    value = data.get(key, {})
    if not isinstance(value, dict) or len(value) > MAX_PLAYERS:
        raise BadWire(f"{key} must map at most {MAX_PLAYERS} players to their scores")
    scores = {}
    for name, score in value.items():
        if len(name) > 40 or not isinstance(score, int) or isinstance(score, bool) or abs(score) > 10**6:
            raise BadWire(f"{key} must map players to whole numbers up to a million")
        scores[name] = score
    return scores


def names(data: Mapping[str, Any], key: str, allowed: set[str] | None = None) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_PLAYERS or not all(
            isinstance(name, str) and len(name) <= 40 for name in value):
        raise BadWire(f"{key} must be a list of at most {MAX_PLAYERS} names")
    if allowed is not None and not set(value) <= allowed:
        raise BadWire(f"{key} must name players of the game")
    return tuple(value)


def flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise BadWire(f"{key} must be true or false")
    return value


@dataclass(frozen=True)
class EventReport:
    """One committed event of a table's game: ``(game_id, started)`` name the game, ``seq`` counts from 1."""

    game_id: int
    started: float
    seq: int
    kind: str
    player: str | None
    description: str
    at: float
    message: dict[str, Any]


#: what a table's event message carries (companion.mqtt.messages.event_message): only these are kept
EVENT_FIELDS = ("table", "game", "title", "game_id", "started", "seq", "kind", "player", "source", "at",
                "action", "undoes", "description", "descriptions", "scores")
#: at most this many languages a move is described in (each a short tag: "es", "de")
MAX_LANGUAGES = 8


def event_report(data: dict[str, Any]) -> EventReport:
    player = text(data, "player", optional=True, limit=40) or None
    score_table(data)
    action = data.get("action")
    if action is not None and not isinstance(action, dict):
        raise BadWire("action must be an object or null")
    for name in ("game", "title", "source"):
        text(data, name, optional=True, limit=MAX_TEXT)
    kept = {name: data[name] for name in EVENT_FIELDS if name in data}  # never a sender's extra keys
    kept["descriptions"] = descriptions(data)
    return EventReport(whole(data, "game_id", 1), moment(data, "started"), whole(data, "seq", 1, 10**9),
                       text(data, "kind", limit=40), player, text(data, "description", "", limit=MAX_TEXT),
                       moment(data, "at", 0.0), kept)


def descriptions(data: Mapping[str, Any]) -> dict[str, str]:
    """A move described in each language a table speaks (``{"es": "...", "de": "..."}``): a short language
    tag to a text of at most ``MAX_TEXT``; anything else is refused."""
    said = data.get("descriptions", {})
    if not isinstance(said, Mapping) or len(said) > MAX_LANGUAGES:
        raise BadWire(f"descriptions must be an object of at most {MAX_LANGUAGES} languages")
    for code, words in said.items():
        if not (isinstance(code, str) and code.isalpha() and len(code) <= 3 and isinstance(words, str)
                and len(words) <= MAX_TEXT):
            raise BadWire("descriptions must map a language tag to a short text")
    return dict(said)


@dataclass(frozen=True)
class PlayReport:
    """A finished game: who played, their scores, who won."""

    game_id: int
    started: float
    game: str
    title: str
    players: tuple[Seat, ...]
    scores: dict[str, int]
    winners: tuple[str, ...]
    reason: str
    finished: float
    duration_s: float
    moves: int

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "started": self.started, "game": self.game, "title": self.title,
                "players": [seat.to_dict() for seat in self.players], "scores": dict(self.scores),
                "winners": list(self.winners), "reason": self.reason, "finished": self.finished,
                "duration_s": self.duration_s, "moves": self.moves}


def play_report(data: Mapping[str, Any]) -> PlayReport:
    players = seats(data)
    playing = {seat.name for seat in players}
    scores = score_table(data)
    if not set(scores) <= playing:
        raise BadWire("scores must be of the players")
    return PlayReport(whole(data, "game_id", 1), moment(data, "started"), text(data, "game", limit=40),
                      text(data, "title", limit=100), players, scores, names(data, "winners", playing),
                      text(data, "reason", "", limit=MAX_TEXT), moment(data, "finished"),
                      moment(data, "duration_s"), whole(data, "moves", 0, 10**7))


@dataclass(frozen=True)
class StateReport:
    """A table's retained state: its game, seats, whose turn, the scores."""

    game: str
    title: str
    game_id: int
    players: tuple[Seat, ...]
    current: str | None
    over: bool
    scores: dict[str, int]
    winners: tuple[str, ...]
    event_count: int
    waiting: str | None
    camera_ok: bool
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "game_id": self.game_id,
                "players": [seat.to_dict() for seat in self.players], "current": self.current,
                "over": self.over, "scores": dict(self.scores), "winners": list(self.winners),
                "event_count": self.event_count, "waiting": self.waiting, "camera_ok": self.camera_ok,
                "at": self.at}


def state_report(data: Mapping[str, Any]) -> StateReport:
    players = seats(data)
    playing = {seat.name for seat in players}
    current = text(data, "current", optional=True, limit=40) or None
    return StateReport(text(data, "game", limit=40), text(data, "title", limit=100),
                       whole(data, "game_id", 0), players, current,
                       flag(data, "over"), score_table(data), names(data, "winners", playing),
                       whole(data, "event_count", 0, 10**9),
                       text(data, "waiting", optional=True, limit=40) or None, flag(data, "camera_ok"),
                       moment(data, "at", 0.0))


@dataclass(frozen=True)
class ResendRequest:
    game_id: int
    first: int


def resend_request(data: Mapping[str, Any]) -> ResendRequest:
    return ResendRequest(whole(data, "game_id", 1), whole(data, "from", 1, 10**9))


def status_report(payload: bytes) -> str:
    if len(payload) > 16:
        raise BadWire("a status is online or offline")
    status = payload.decode("utf-8", errors="replace").strip()
    if status not in STATUSES:
        raise BadWire("a status is online or offline")
    return status
