"""HTTPS without a reverse proxy: a self-signed certificate and a small TLS front before waitress.

waitress speaks plain HTTP only and leaves TLS to a proxy; a Pi at a table has none, so this front does
the proxy's part. It listens where the page is configured to, completes the TLS handshake, reads one
request head, and passes the request to waitress on a loopback port with the client's address and the
scheme in ``X-Forwarded-For``/``X-Forwarded-Proto`` (waitress trusts them from loopback only; whatever a
client sent under those names is dropped). Each TLS connection carries one request (``Connection:
close``); TLS session resumption keeps reconnecting cheap. Connections are capped, and a handshake or a
request head that does not arrive in time is dropped.

The certificate is made at first start with Raspberry Pi OS's ``openssl`` (EC P-256, ten years, the
hostname, ``hostname.local`` and the machine's addresses as names) and kept in the state directory; its
SHA-256 fingerprint is logged and shown on the Pair page, so a player can check it when the browser asks.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import selectors
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from flask import Flask

from companion.web.settings import WebConfig
from lan import server as web_server
from lan.hosts import interface_addresses, machine_names
from lan.server import HEAD_DEADLINE_S, PER_ADDRESS

log = logging.getLogger(__name__)
CERT_FILE = "web-cert.pem"
KEY_FILE = "web-key.pem"
MAX_HEAD = 16 * 1024
DROPPED_HEADERS = frozenset({b"connection", b"keep-alive", b"proxy-connection", b"forwarded",
                             b"x-forwarded-for", b"x-forwarded-proto", b"x-forwarded-host",
                             b"x-forwarded-port", b"x-forwarded-by"})


def ensure_certificate(folder: Path) -> tuple[Path, Path]:
    """The certificate and key in ``folder``, made now when missing."""
    cert, key = folder / CERT_FILE, folder / KEY_FILE
    if cert.is_file() and key.is_file():
        return cert, key
    folder.mkdir(parents=True, exist_ok=True)
    names = sorted(machine_names())
    addresses = sorted(a for a in interface_addresses() if "%" not in a)
    alt = ",".join([f"DNS:{n}" for n in names] + [f"IP:{a}" for a in addresses])
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
               "-nodes", "-days", "3650", "-subj", f"/CN={names[0] if names else 'dinotable'}",
               "-keyout", str(key), "-out", str(cert)]
    if alt:
        command += ["-addext", f"subjectAltName={alt}"]
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        raise OSError(f"cannot make the HTTPS certificate with openssl: {error}") from error
    key.chmod(0o600)
    log.info("made a self-signed HTTPS certificate in %s", folder)
    return cert, key


def fingerprint(cert: Path) -> str:
    """SHA-256 of the certificate, as browsers show it (AB:CD:...)."""
    der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def forwarded_head(head: bytes, client: str) -> bytes:
    """The request head as waitress gets it: the client's forwarding headers replaced by ours."""
    lines = head.split(b"\r\n")
    kept = [lines[0]]
    for line in lines[1:]:
        name = line.split(b":", 1)[0].strip().lower()
        if line and name not in DROPPED_HEADERS:
            kept.append(line)
    kept += [b"Connection: close", b"X-Forwarded-For: " + client.encode(), b"X-Forwarded-Proto: https"]
    return b"\r\n".join(kept) + b"\r\n\r\n"


def _read_head(conn: ssl.SSLSocket, within_s: float = HEAD_DEADLINE_S) -> tuple[bytes, bytes] | None:
    """The request head and what came after it, or None when it is too long or not all there within
    ``within_s`` (a head dripped a line at a time would hold the connection for ever)."""
    deadline = time.monotonic() + within_s
    data = b""
    while b"\r\n\r\n" not in data:
        left = deadline - time.monotonic()
        if len(data) > MAX_HEAD or left <= 0:
            return None
        conn.settimeout(left)
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return head, rest


def _pipe(client: ssl.SSLSocket, backend: socket.socket, idle_s: float) -> None:
    """Copy both ways until either side closes or nothing moves for ``idle_s``."""
    with selectors.DefaultSelector() as selector:
        selector.register(client, selectors.EVENT_READ, backend)
        selector.register(backend, selectors.EVENT_READ, client)
        while True:
            ready = selector.select(timeout=idle_s)
            if not ready:
                return
            for key, _ in ready:
                source: Any = key.fileobj
                chunk = source.recv(65536)
                if not chunk:
                    return
                key.data.sendall(chunk)
                while isinstance(source, ssl.SSLSocket) and source.pending():
                    key.data.sendall(source.recv(65536))


class TlsFront:
    """Accepts TLS connections on ``listener`` and forwards each request to ``backend_port``."""

    def __init__(self, context: ssl.SSLContext, listener: socket.socket, backend_port: int,
                 max_connections: int = 64, handshake_s: float = 10.0, idle_s: float = 60.0,
                 per_address: int = PER_ADDRESS) -> None:
        self.context = context
        self.listener = listener
        self.backend_port = backend_port
        self.slots = threading.BoundedSemaphore(max_connections)
        self.per_address = per_address
        self._held: dict[str, int] = {}
        self._held_lock = threading.Lock()
        self.handshake_s = handshake_s
        self.idle_s = idle_s
        self.closed = threading.Event()

    def serve(self) -> None:
        while not self.closed.is_set():
            try:
                conn, address = self.listener.accept()
            except OSError:
                return  # the listener was closed
            client = str(address[0])
            with self._held_lock:
                crowded = self._held.get(client, 0) >= self.per_address
                if not crowded:
                    self._held[client] = self._held.get(client, 0) + 1
            if crowded or not self.slots.acquire(blocking=False):
                if not crowded:
                    self._release_address(client)
                conn.close()  # full: refuse at once rather than queue
                continue
            threading.Thread(target=self._serve_one, args=(conn, client), daemon=True,
                             name="tls-connection").start()

    def _release_address(self, client: str) -> None:
        with self._held_lock:
            left = self._held.get(client, 1) - 1
            if left > 0:
                self._held[client] = left
            else:
                self._held.pop(client, None)

    def _serve_one(self, conn: socket.socket, client: str) -> None:
        try:
            conn.settimeout(self.handshake_s)
            with self.context.wrap_socket(conn, server_side=True) as tls:
                read = _read_head(tls)
                if read is None:
                    return
                head, rest = read
                tls.settimeout(None)
                with socket.create_connection(("127.0.0.1", self.backend_port), timeout=10) as backend:
                    backend.settimeout(None)
                    backend.sendall(forwarded_head(head, client) + rest)
                    _pipe(tls, backend, self.idle_s)
        except (OSError, ssl.SSLError, ValueError):
            pass  # a client that went away or spoke no TLS: its connection only
        finally:
            with contextlib.suppress(OSError):
                conn.close()
            self.slots.release()
            self._release_address(client)

    def close(self) -> None:
        self.closed.set()
        with contextlib.suppress(OSError):
            self.listener.close()


class TlsServer:
    """The TLS front and the waitress server behind it, as one running server."""

    def __init__(self, front: TlsFront, backend: Any, threads: list[threading.Thread], cert: Path) -> None:
        self.front = front
        self.backend = backend
        self.threads = threads
        self.fingerprint = fingerprint(cert)
        self.port = int(front.listener.getsockname()[1])

    @property
    def url(self) -> str:
        host = str(self.front.listener.getsockname()[0])
        shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1", "::1") else host
        return f"https://{shown}:{self.port}/"

    def stop(self) -> None:
        self.front.close()
        self.backend.stop()


def start(app: Flask, config: WebConfig) -> TlsServer:
    folder = config.state_dir if config.state_dir is not None else Path.home() / ".local/state/dinotable"
    cert, key = ensure_certificate(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    backend_server = web_server.make(app, config, host="127.0.0.1", port=0, behind_proxy=True)
    backend_thread = threading.Thread(target=backend_server.run, name="web-server", daemon=True)
    backend_thread.start()
    backend = web_server.RunningServer(backend_server, backend_thread, scheme="https")
    listener = socket.create_server((config.host, config.port), backlog=64, reuse_port=False)
    front = TlsFront(context, listener, backend.port, max_connections=min(160, config.connection_limit),
                     idle_s=config.channel_timeout)
    front_thread = threading.Thread(target=front.serve, name="tls-front", daemon=True)
    front_thread.start()
    running = TlsServer(front, backend, [backend_thread, front_thread], cert)
    log.info("HTTPS certificate SHA-256 fingerprint %s", running.fingerprint)
    return running
