"""Serving the app with waitress: a production WSGI server in pure Python that runs well on a Pi.

Why waitress: one thread reads and writes every connection without blocking, so a slow or half-sent
request never holds a request thread (werkzeug's development server gives each connection a thread);
request threads only run the app. Each live-update stream holds one request thread while it is open, so
there are ``max_streams`` of them plus some for everything else (``WebConfig.threads``); connections are
capped (``connection_limit``) and idle ones closed (``channel_timeout``). Never the debugger.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask
from waitress.server import create_server

from companion.web.app import WebConfig, is_loopback

#: a request head larger than this is refused before the app sees it
MAX_HEADER_BYTES = 16 * 1024


@dataclass
class RunningServer:
    """A server running in a background thread."""

    server: Any
    thread: threading.Thread
    scheme: str = "http"

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    @property
    def host(self) -> str:
        return str(self.server.effective_host)

    @property
    def url(self) -> str:
        shown = "localhost" if is_loopback(self.host) or self.host in ("0.0.0.0", "::") else self.host
        return f"{self.scheme}://{shown}:{self.port}/"

    def stop(self) -> None:
        """Close every connection and the listener, then end the request threads."""
        stopped = threading.Event()

        def close_all() -> None:
            for channel in list(self.server._map.values()):
                channel.close()
            stopped.set()

        if self.thread.is_alive():
            self.server.trigger.pull_trigger(close_all)
            stopped.wait(timeout=5)
        self.thread.join(timeout=5)
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)


def make(app: Flask, config: WebConfig, host: str | None = None, port: int | None = None,
         behind_proxy: bool = False) -> Any:
    """A waitress server bound as the config says (loopback unless LAN access is on with a PIN).
    ``behind_proxy``: the only client is this machine's TLS front, whose forwarded headers are trusted."""
    host = config.host if host is None else host
    if not config.lan and not is_loopback(host):  # WebConfig refuses this too; never rely on one check
        raise ValueError("LAN access is off: the server binds to the loopback address only")
    app.debug = False
    options: dict[str, Any] = {
        "host": host, "port": config.port if port is None else port, "threads": config.threads,
        "connection_limit": config.connection_limit, "channel_timeout": config.channel_timeout,
        "cleanup_interval": min(30, max(1, int(config.channel_timeout // 2))),
        "max_request_header_size": MAX_HEADER_BYTES, "max_request_body_size": config.max_body,
        "ident": "dinotable", "expose_tracebacks": False, "asyncore_use_poll": True,
        "clear_untrusted_proxy_headers": True, "url_scheme": "https" if config.https else "http",
    }
    if behind_proxy:
        options.update(trusted_proxy="127.0.0.1", trusted_proxy_count=1,
                       trusted_proxy_headers={"x-forwarded-for", "x-forwarded-proto"})
    return create_server(app, **options)


def start(app: Flask, config: WebConfig) -> Any:
    """Serve in a daemon thread; returns at once with the bound address (port 0 picks a free port). With
    ``config.https`` a TLS front listens where the config says and serves this over loopback."""
    if config.https:
        from companion.web import tls as tls_front

        return tls_front.start(app, config)
    server = make(app, config)
    thread = threading.Thread(target=server.run, name="web-server", daemon=True)
    thread.start()
    return RunningServer(server, thread)


def quiet_request_log() -> None:
    """Per-connection noise does not belong in a Pi's journal: keep warnings and errors only."""
    logging.getLogger("waitress").setLevel(logging.WARNING)
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
