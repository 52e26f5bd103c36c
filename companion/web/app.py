"""App factory and web configuration."""

from __future__ import annotations

import dataclasses
import ipaddress
import logging
import re
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.session import TableSession

log = logging.getLogger(__name__)

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
PIN_PATTERN = re.compile(r"^[0-9]{4,12}$")


def is_loopback(host: str) -> bool:
    """True for names and addresses that only this machine can reach."""
    host = host.strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclasses.dataclass(frozen=True)
class WebConfig:
    """How the web page is served. LAN access is off unless switched on with a PIN.

    ``host``/``port``: where to listen (loopback by default). ``lan``: accept other machines; then ``pin``
    (4-12 digits) is required and every change needs a PIN-backed session. ``secret_key`` signs the session
    cookie (random per process when not given). ``max_body``: largest request body in bytes.
    ``max_streams``: live-update connections served at once. ``login_attempts``: wrong PINs allowed per
    client per minute.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    lan: bool = False
    pin: str | None = None
    secret_key: str | None = None
    max_body: int = 256 * 1024
    max_streams: int = 16
    login_attempts: int = 5
    allowed_hosts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0..65535, not {self.port!r}")
        if self.lan:
            if not isinstance(self.pin, str) or not PIN_PATTERN.match(self.pin):
                raise ValueError("LAN access needs a PIN of 4 to 12 digits (web.pin in the config)")
        elif not is_loopback(self.host):
            raise ValueError(
                f"refusing to listen on {self.host}: LAN access is off (switch it on with a PIN to serve "
                "other machines)"
            )

    @classmethod
    def from_config(cls, web: Any, **overrides: Any) -> WebConfig:
        """From the config file's ``[web]`` table (``companion.config.WebConfig``: bind, port, lan, pin)."""
        values = {"host": web.bind, "port": web.port, "lan": web.lan, "pin": web.pin or None}
        values.update(overrides)
        if values["lan"] and is_loopback(values["host"]):
            values["host"] = "0.0.0.0"
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


def create_app(session: TableSession, config: WebConfig | Mapping[str, Any] | None = None) -> Flask:
    """The Flask app for one live table. ``config`` is a :class:`WebConfig` or its mapping form."""
    from companion.web import api, pages, security, svg

    if not isinstance(config, WebConfig):
        config = WebConfig.from_mapping(config)
    app = Flask(__name__, static_folder="static", template_folder="templates")
    # Never the debugger, whatever the environment says: it runs arbitrary code for whoever reaches it.
    app.debug = False
    app.config.update(
        SECRET_KEY=config.secret_key or secrets.token_hex(32),
        MAX_CONTENT_LENGTH=config.max_body,
        MAX_FORM_MEMORY_SIZE=min(config.max_body, 64 * 1024),
        MAX_FORM_PARTS=50,
        SESSION_COOKIE_NAME="dinotable",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        JSON_SORT_KEYS=False,
        TEMPLATES_AUTO_RELOAD=False,
        PROPAGATE_EXCEPTIONS=False,
        TRAP_HTTP_EXCEPTIONS=False,
    )
    app.extensions["table_session"] = session
    app.extensions["web_config"] = config
    security.install(app, config)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(api.blueprint, url_prefix="/api")
    app.jinja_env.globals["web_config"] = config
    app.jinja_env.globals["rgb"] = svg.rgb
    return app
