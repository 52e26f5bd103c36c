"""Where a table's messages go on the broker and how they are written.

Topics under ``<prefix>/<table>/``: ``events`` (every committed event, QoS 1, in order), ``plays`` (a
finished game, QoS 1), ``state`` (the shared snapshot, retained), ``status`` (``online``/``offline``,
retained, ``offline`` also the last will) and ``resend`` (a consumer that saw a gap asks for the events
from a ``seq`` on).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

DEFAULT_PREFIX = "dinotable"
#: Home Assistant's default discovery prefix (its MQTT integration lets a user change it)
HOME_ASSISTANT_PREFIX = "homeassistant"
#: a table's name on the broker: one topic level, short, nothing a topic filter could read as a wildcard
TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
ONLINE, OFFLINE = "online", "offline"
STATUSES = (ONLINE, OFFLINE)


class Topics:
    """The topics of one table."""

    def __init__(self, prefix: str, table: str) -> None:
        base = f"{prefix}/{table}"
        self.events = f"{base}/events"
        self.plays = f"{base}/plays"
        self.state = f"{base}/state"
        self.status = f"{base}/status"
        self.resend = f"{base}/resend"


def encode(message: Mapping[str, Any]) -> bytes:
    """A message as the wire carries it: compact JSON, keys sorted (the same message, the same bytes)."""
    return json.dumps(message, separators=(",", ":"), sort_keys=True).encode("utf-8")


def home_assistant_unique(table: str) -> str:
    """The table's id in Home Assistant (its discovery topic's node id): the table's name as it is, since
    a node id may hold letters, digits, ``_`` and ``-`` (distinct table names stay distinct)."""
    return f"dinotable_{table}"


class HomeAssistantTopics:
    """Where a table meets Home Assistant under its discovery ``prefix``: the table's discovery config
    and Home Assistant's own status (its birth message, ``online``, after it starts)."""

    def __init__(self, prefix: str, table: str) -> None:
        self.config = f"{prefix}/sensor/{home_assistant_unique(table)}/turn/config"
        self.status = f"{prefix}/status"
        #: what a table may write there (the café's ACL)
        self.writes = f"{prefix}/sensor/{home_assistant_unique(table)}/#"
