"""How the table's web page is served: the one settings record the app, its guards and its servers read."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.pairing import pin_problem, resolve_pin
from lan.hosts import is_loopback
from lan.server import Limits

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class WebConfig:
    """How the web page is served.

    ``host``/``port``: where to listen. ``lan``: other machines may connect; then every page, the camera
    and every change need a session opened with ``pin`` (6-12 digits or a passphrase: see
    :mod:`companion.pairing`), and only this machine's own names are answered (``allowed_hosts`` adds
    names, e.g. a DNS name of the café's). ``spectators``: offer a watch-only link. ``secret_key`` signs
    session cookies (kept in ``state_dir`` when not given); ``state_dir`` also keeps the open sessions.
    Sessions end after ``idle_hours`` without use, after ``session_hours`` in all, at logout and when the
    PIN changes. ``https``: the page is served over TLS (cookies get the Secure flag). ``max_body``:
    largest request body; ``max_streams``: live-update connections at once; ``login_attempts``: free wrong
    PINs per address before it is blocked, ``login_budget``: wrong PINs per 10 minutes from everyone.
    ``connection_limit``, ``channel_timeout``: the server's open connections and idle timeout (s).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    lan: bool = False
    pin: str | None = None
    secret_key: str | None = None
    state_dir: Path | None = None
    https: bool = False
    allowed_hosts: tuple[str, ...] = ()
    spectators: bool = True
    session_hours: float = 12.0
    idle_hours: float = 4.0
    #: the PIN was made at this start (only then does the journal show it)
    pin_generated: bool = False
    #: the PIN is the one kept in ``state_dir`` (not the config's): a new one kept there applies at once
    pin_kept: bool = False
    max_body: int = 256 * 1024
    max_streams: int = 16
    login_attempts: int = 5
    login_budget: int = 30
    connection_limit: int = Limits.connection_limit
    channel_timeout: float = Limits.channel_timeout

    def __post_init__(self) -> None:
        if not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0..65535, not {self.port!r}")
        if self.lan:
            problem = pin_problem(self.pin) if isinstance(self.pin, str) else "LAN access needs a PIN"
            if problem:
                raise ValueError(f"LAN access needs a good PIN (web.pin in the config): {problem}")
        elif not is_loopback(self.host):
            raise ValueError(
                f"refusing to listen on {self.host}: LAN access is off (switch it on with a PIN to serve "
                "other machines)"
            )
        if not 0 < self.idle_hours <= self.session_hours <= 24 * 30:
            raise ValueError("sessions need 0 < idle_hours <= session_hours <= 720")

    @property
    def threads(self) -> int:
        """Request threads: one per live-update stream, and some for everything else."""
        return self.max_streams + 8

    @classmethod
    def from_config(cls, web: Any, state_dir: Path | None = None, **overrides: Any) -> WebConfig:
        """From the config file's ``[web]`` table (``companion.config.WebConfig``). In LAN mode with no PIN
        set, the PIN kept in ``state_dir`` is used, or one is generated there (and logged)."""
        values: dict[str, Any] = {
            "host": web.bind, "port": web.port, "lan": web.lan, "pin": web.pin or None,
            "state_dir": state_dir, "https": web.https, "allowed_hosts": tuple(web.allowed_hosts),
            "spectators": web.spectators, "session_hours": web.session_hours, "idle_hours": web.idle_hours,
        }
        values.update(overrides)
        if values["lan"]:
            if is_loopback(values["host"]):
                values["host"] = "0.0.0.0"
            configured = values["pin"] or ""
            pin, generated = resolve_pin(configured, values["state_dir"])
            values["pin"] = pin
            values["pin_generated"] = generated
            values["pin_kept"] = not configured and values["state_dir"] is not None
            if generated:
                where = f" (kept in {values['state_dir']})" if values["state_dir"] else ""
                log.warning("generated the table's PIN%s: set [web] pin to choose your own", where)
        return cls(**values)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> WebConfig:
        """Build from a config-file section; unknown keys are an error, not silently ignored."""
        data = dict(data or {})
        names = {field.name for field in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown web settings: {', '.join(sorted(unknown))}")
        if "allowed_hosts" in data:
            data["allowed_hosts"] = tuple(data["allowed_hosts"])
        return cls(**data)
