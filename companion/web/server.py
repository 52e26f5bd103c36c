"""Serving the app: werkzeug's threaded server, never with the debugger or the reloader.

The companion serves a handful of browsers at a table, so a threaded WSGI server from the standard Flask
stack is enough and adds no dependency. Each live-update stream holds one thread; their number is bounded
by ``WebConfig.max_streams``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from companion.web.app import WebConfig, is_loopback


@dataclass
class RunningServer:
    """A server running in a background thread."""

    server: BaseWSGIServer
    thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.server.server_port)

    @property
    def url(self) -> str:
        host = self.server.host
        shown = "localhost" if is_loopback(host) else host
        return f"http://{shown}:{self.port}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def make(app: Flask, config: WebConfig) -> BaseWSGIServer:
    """A threaded server bound as the config says (loopback unless LAN access is on with a PIN)."""
    if not config.lan and not is_loopback(config.host):  # WebConfig refuses this too; never rely on one check
        raise ValueError("LAN access is off: the server binds to the loopback address only")
    app.debug = False
    server = make_server(config.host, config.port, app, threaded=True, passthrough_errors=False)
    server.daemon_threads = True  # type: ignore[attr-defined]
    return server


def start(app: Flask, config: WebConfig) -> RunningServer:
    """Serve in a daemon thread; returns at once with the bound address (port 0 picks a free port)."""
    server = make(app, config)
    thread = threading.Thread(target=server.serve_forever, name="web-server", daemon=True)
    thread.start()
    return RunningServer(server, thread)


def quiet_request_log() -> None:
    """One log line per request is noise on a Pi's journal: keep warnings and errors only."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
