"""The production server: waitress streams live updates, slow or half-sent requests hold no request thread,
idle connections are closed, and the optional TLS front serves HTTPS with its own certificate."""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import shutil
import socket
import ssl
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web import WebConfig, create_app, serving
from lan import server as web_server

PIN = "204718"


@pytest.fixture
def served(table: Any) -> Iterator[tuple[Any, Any]]:
    config = WebConfig(port=0, channel_timeout=2.0)
    running = serving.start(create_app(table, config), config)
    yield running, table
    running.stop()


def _read_until(sock: socket.socket, marker: bytes, limit: int = 1 << 16) -> bytes:
    data = b""
    while marker not in data and len(data) < limit:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def test_live_updates_stream_through_the_server(served: tuple[Any, Any]) -> None:
    running, table = served
    with socket.create_connection(("127.0.0.1", running.port), timeout=30) as stream:
        stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        head = _read_until(stream, b"retry: 2000")
        assert b"200 OK" in head and b"text/event-stream" in head
        seen = b""
        for _ in range(10):  # the stream subscribes once it is running: move until a move comes through
            table.bot_step()
            seen = _read_until(stream, b"\n\n")
            if b'"type": "event"' in seen:
                break
        assert b'"type": "event"' in seen


def test_a_stream_whose_browser_left_ends_at_once(table: Any) -> None:
    """A page left for another closes its live stream: the server lets it go within a couple of seconds,
    before the stream next has something to write, so a phone tapping through the pages keeps its
    connections (each stream would otherwise hold one until its next ping)."""
    from helpers.waiting import until

    config = WebConfig(port=0, channel_timeout=2.0)
    app = create_app(table, config)
    running = serving.start(app, config)
    slots = app.extensions
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as stream:
            stream.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert b"retry: 2000" in _read_until(stream, b"retry: 2000")
            until("the stream held", lambda: slots["stream_slots"].held() >= 1)
    try:
        until("every stream let go", lambda: slots["stream_slots"].held() == 0, timeout=4.5)
    finally:
        running.stop()


def test_half_sent_requests_hold_no_request_thread(served: tuple[Any, Any]) -> None:
    running, _ = served
    threads_before = threading.active_count()
    sockets = []
    try:
        for n in range(200):  # from ten other loopback addresses: the cap per address is 24
            sock = socket.create_connection(("127.0.0.1", running.port), timeout=30,
                                            source_address=(f"127.0.0.{2 + n % 10}", 0))
            with contextlib.suppress(OSError):
                sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")  # never finished
            sockets.append(sock)
        with urllib.request.urlopen(running.url + "scores", timeout=30) as answer:
            assert answer.status == 200  # an ordinary request is still served
        assert threading.active_count() <= threads_before + 2
    finally:
        for sock in sockets:
            sock.close()


def test_one_address_cannot_take_every_connection(table: Any) -> None:
    config = WebConfig(port=0, channel_timeout=120.0)
    running = serving.start(create_app(table, config), config)
    held = [socket.create_connection(("127.0.0.1", running.port), timeout=30, source_address=("127.0.0.9", 0))
            for _ in range(web_server.PER_ADDRESS)]
    try:
        beyond = socket.create_connection(("127.0.0.1", running.port), timeout=30,
                                          source_address=("127.0.0.9", 0))
        beyond.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while chunk := beyond.recv(4096):  # answered in words, then closed
            answer += chunk
        beyond.close()
        head, _, page = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429 ") and b"Retry-After: 5" in head
        assert b"Too many connections from this device" in page
        with urllib.request.urlopen(running.url + "scores", timeout=30) as answer:
            assert answer.status == 200  # another address is served
    finally:
        for sock in held:
            sock.close()
        running.stop()


def test_idle_half_sent_connections_are_closed(served: tuple[Any, Any]) -> None:
    running, _ = served
    with socket.create_connection(("127.0.0.1", running.port), timeout=60) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        assert sock.recv(100) == b""  # closed by the server once idle past channel_timeout


def test_a_huge_request_head_is_refused(served: tuple[Any, Any]) -> None:
    running, _ = served
    with socket.create_connection(("127.0.0.1", running.port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        answer = _read_until(sock, b"\r\n\r\n")
        assert answer.split(b" ", 2)[1] == b"431"


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the certificate")
def test_https_serves_the_page_with_a_certificate_of_its_own(table: Any, tmp_path: Path) -> None:
    config = WebConfig(host="127.0.0.1", port=0, lan=True, pin=PIN, https=True, state_dir=tmp_path)
    app = create_app(table, config)
    running = serving.start(app, config)
    try:
        assert running.url.startswith("https://")
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection = http.client.HTTPSConnection("127.0.0.1", running.port, context=context, timeout=30)
        connection.request("GET", "/login", headers={"Host": "localhost", "X-Forwarded-For": "1.2.3.4"})
        answer = connection.getresponse()
        body = answer.read()
        assert answer.status == 200 and b"Enter the table" in body
        assert "Secure" in answer.getheader("Set-Cookie", "")
        connection.close()
        with socket.create_connection(("127.0.0.1", running.port), timeout=30) as raw, \
                context.wrap_socket(raw) as tls:
            der = tls.getpeercert(binary_form=True)
        assert der is not None
        assert running.fingerprint.replace(":", "") == hashlib.sha256(der).hexdigest().upper()
        plain = socket.create_connection(("127.0.0.1", running.port), timeout=30)
        plain.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")  # no TLS: dropped, nothing served
        assert b"HTTP/1.1 200" not in _read_until(plain, b"\r\n\r\n")
        plain.close()
        assert (tmp_path / "web-key.pem").stat().st_mode & 0o077 == 0
        throttle = app.extensions["login_throttle"]
        assert throttle.wait_s("1.2.3.4") == 0.0  # a client's own X-Forwarded-For is never believed
    finally:
        running.stop()


class Drip:
    """A slowloris: connections from several addresses, each sending a request head one line at a time
    and never finishing it."""

    def __init__(self, port: int, addresses: int, each: int, wrap: Any = None) -> None:
        self.sockets: list[Any] = []
        for n in range(addresses):
            for _ in range(each):
                with contextlib.suppress(OSError):
                    sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                                    source_address=(f"127.0.1.{n + 1}", 0))
                    sock = wrap(sock) if wrap is not None else sock
                    sock.sendall(b"GET /login HTTP/1.1\r\nHost: localhost\r\n")
                    self.sockets.append(sock)

    def drip(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.sendall(b"X-Slow: 1\r\n")

    def close(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()


def _phone_answered(url: str, context: Any = None) -> bool:
    try:
        request = urllib.request.Request(url + "login", headers={"Host": "localhost"})
        with urllib.request.urlopen(request, timeout=5, context=context) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@pytest.mark.parametrize("https", [False, True])
def test_a_phone_is_answered_under_a_slowloris_from_twelve_addresses(table: Any, tmp_path: Path,
                                                                     https: bool) -> None:
    """Twelve addresses, each opening as many connections as it may and dripping a header line every
    two seconds: a phone on another address is answered every time, and the dripping connections are
    closed once their head is overdue."""
    config = WebConfig(host="127.0.0.1", port=0, lan=True, pin=PIN, https=https, state_dir=tmp_path)
    running = serving.start(create_app(table, config), config)
    context = None
    if https:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    try:
        def wrap(sock: Any) -> Any:
            return context.wrap_socket(sock, server_hostname="localhost") if context else sock

        flood = Drip(running.port, 12, 24, wrap)
        answered = []
        deadline = time.monotonic() + web_server.HEAD_DEADLINE_S + 3 * web_server.CLEANUP_EVERY_S
        while time.monotonic() < deadline:
            flood.drip()
            answered.append(_phone_answered(running.url.replace("localhost", "127.0.0.1"), context))
            time.sleep(1.0)
        flood.drip()
        cut = sum(1 for sock in flood.sockets if _closed(sock))
        flood.close()
        assert all(answered), answered
        assert cut == len(flood.sockets) > 0  # every overdue head was closed
    finally:
        running.stop()


def _closed(sock: Any) -> bool:
    try:
        sock.settimeout(2)
        first = sock.recv(4096)
        if first.startswith(b"HTTP/1.1 429 "):  # one past its address's share: refused in words, closed
            while sock.recv(4096):
                pass
            return True
        return first == b""
    except (ConnectionResetError, ssl.SSLError, BrokenPipeError):
        return True
    except OSError:
        return False
