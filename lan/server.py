"""Serving the app with waitress: a production WSGI server in pure Python that runs well on a Pi.

Why waitress: one thread reads and writes every connection without blocking, so a slow or half-sent
request never holds a request thread (werkzeug's development server gives each connection a thread);
request threads only run the app. Each live-update stream holds one request thread while it is open, so
there are ``max_streams`` of them plus some for everything else (``threads``); connections are
capped (``connection_limit``) and idle ones closed (``channel_timeout``). Never the debugger.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from lan.hosts import is_loopback
from lan.refusal import Refusal, close_overdue, may_refuse


class Listening(Protocol):
    """What a server needs to know of its app's settings (the table's ``WebConfig`` is one)."""

    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def lan(self) -> bool: ...
    @property
    def https(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    @property
    def connection_limit(self) -> int: ...
    @property
    def channel_timeout(self) -> float: ...
    @property
    def max_body(self) -> int: ...


@dataclass(frozen=True)
class Limits:
    """Settings for an app with nothing to protect but its host names (the café board). The server's
    defaults, ``connection_limit`` open connections and ``channel_timeout`` seconds idle, are every
    page's."""

    host: str = "127.0.0.1"
    port: int = 8090
    lan: bool = False
    https: bool = False
    threads: int = 24
    connection_limit: int = 256
    channel_timeout: float = 30.0
    max_body: int = 64 * 1024


#: a request head larger than this is refused before the app sees it
MAX_HEADER_BYTES = 16 * 1024
#: open connections one client address may hold (a phone's browser opens six at most, a live stream
#: and a second tab a few more; a flood is cut off here, so a dozen flooding addresses fill half the server)
PER_ADDRESS = 12
#: seconds a connection may take to send a request's head (one dripping a header line every few seconds
#: holds a connection slot for ever otherwise: it is never idle)
HEAD_DEADLINE_S = 10.0
#: how often the server looks for connections past their deadline or idle too long, seconds
CLEANUP_EVERY_S = 2


class PageServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with a cap on the connections of one address: connections that never finish
    a request hold no thread, but they would still hold the server's connection slots. One past the cap
    is answered ``429`` with a page saying why (:mod:`lan.refusal`). Behind the TLS
    front every connection comes from loopback, and the front caps addresses itself (``per_address``
    None)."""

    per_address: int | None = PER_ADDRESS

    def maintenance(self, now: float) -> None:
        """Close idle connections (waitress's), and those whose request head is still coming in
        :data:`HEAD_DEADLINE_S` after it began."""
        super().maintenance(now)
        close_overdue(self._map, time.monotonic())
        started: dict[int, float] = self.__dict__.setdefault("_head_started", {})
        sending = set()
        for channel in list(self.active_channels.values()):
            parser = channel.request
            if parser is None or parser.headers_finished or channel.requests:
                continue
            sending.add(id(channel))
            if now - started.setdefault(id(channel), now) > HEAD_DEADLINE_S:
                channel.will_close = True
        for gone in set(started) - sending:
            del started[gone]

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, address = accepted
        host = address[0] if isinstance(address, tuple) else address
        held = sum(1 for channel in list(self.active_channels.values())
                   if isinstance(channel.addr, tuple) and channel.addr[0] == host)
        if self.per_address is not None and held >= self.per_address:
            if may_refuse(self._map, host):  # answered in words: a browser shows why
                Refusal(conn, host, self._map)
            else:
                conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(address), self.adj, map=self._map)


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
            try:
                self.server.trigger.pull_trigger(close_all)
            except OSError:  # the server's loop closed its wake-up pipe already (it is ending): join it
                close_all()
            stopped.wait(timeout=5)
        self.thread.join(timeout=5)
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)


def make(app: Flask, config: Listening, host: str | None = None, port: int | None = None,
         behind_proxy: bool = False, read_only: bool = False) -> Any:
    """A waitress server bound as the config says (loopback unless LAN access is on with a PIN).
    ``behind_proxy``: the only client is this machine's TLS front, whose forwarded headers are trusted.
    ``read_only``: an app with nothing to protect but its host names (the café board) may serve the LAN."""
    host = config.host if host is None else host
    # the table's settings refuse this too; never rely on one check
    if not (config.lan or read_only) and not is_loopback(host):
        raise ValueError("LAN access is off: the server binds to the loopback address only")
    app.debug = False
    options: dict[str, Any] = {
        "host": host, "port": config.port if port is None else port, "threads": config.threads,
        "connection_limit": config.connection_limit, "channel_timeout": config.channel_timeout,
        "cleanup_interval": CLEANUP_EVERY_S,
        # read ahead of the request being answered, so that a browser leaving a live stream is noticed
        # (``waitress.client_disconnected``) before the stream next writes
        "channel_request_lookahead": 1,
        "max_request_header_size": MAX_HEADER_BYTES, "max_request_body_size": config.max_body,
        "ident": "dinotable", "expose_tracebacks": False, "asyncore_use_poll": True,
        "clear_untrusted_proxy_headers": True, "url_scheme": "https" if config.https else "http",
    }
    if behind_proxy:
        options.update(trusted_proxy="127.0.0.1", trusted_proxy_count=1,
                       trusted_proxy_headers={"x-forwarded-for", "x-forwarded-proto"})
    adjustments = Adjustments(**options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adjustments.threads)
    server = PageServer(app, map={}, dispatcher=dispatcher, adj=adjustments)
    if behind_proxy:
        server.per_address = None
    return server


def start(app: Flask, config: Listening, read_only: bool = False) -> RunningServer:
    """Serve in a daemon thread; returns at once with the bound address (port 0 picks a free port)."""
    server = make(app, config, read_only=read_only)
    thread = threading.Thread(target=server.run, name="web-server", daemon=True)
    thread.start()
    return RunningServer(server, thread)


def quiet_request_log() -> None:
    """Per-connection noise does not belong in a Pi's journal: keep warnings and errors only."""
    logging.getLogger("waitress").setLevel(logging.WARNING)
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
