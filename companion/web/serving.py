"""Starting the table's page: over plain HTTP with waitress, or behind the TLS front when ``https``."""

from __future__ import annotations

from flask import Flask

from companion.web import tls
from companion.web.settings import WebConfig
from lan import server as web_server


def start(app: Flask, config: WebConfig) -> web_server.RunningServer | tls.TlsServer:
    """Serve in daemon threads; returns at once with the bound address (port 0 picks a free port). With
    ``config.https`` a TLS front listens where the config says and serves the app over loopback."""
    if config.https:
        return tls.start(app, config)
    return web_server.start(app, config)
