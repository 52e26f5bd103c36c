"""A connection refused with words: ``429 Too Many Requests`` and a short page, not a reset.

A browser whose connection is reset shows nothing the person can act on; one that gets an answer shows it
and tries again later. The refusal holds no request thread: the server's own loop reads and throws away
what the client sends, writes the answer once, half-closes (so the answer is not lost to a reset of
unread data) and closes after :data:`REFUSAL_S` at the latest. Refusals take connection slots too, so
they are few and short-lived: past :data:`MAX_REFUSALS` for one address, or :data:`MAX_ALL_REFUSALS` in
all, a client is cut off at TCP as before (a flood is never answered at the phones' expense)."""

from __future__ import annotations

import socket
import time
from typing import Any

from waitress import wasyncore

#: seconds a refused connection is kept to deliver its answer
REFUSAL_S = 5.0
#: refusals being delivered to one address at once; a flood past this is reset
MAX_REFUSALS = 2
#: refusals being delivered at once in all
MAX_ALL_REFUSALS = 16

PAGE = (b"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">"
        b"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        b"<title>Busy</title><h1>Too many connections from this device</h1>"
        b"<p>This phone or computer has too many pages of the table open at once. Close some tabs, wait a "
        b"few seconds, then reload.</p></html>")
ANSWER = (b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Type: text/html; charset=utf-8\r\n"
          b"Cache-Control: no-store\r\nConnection: close\r\nContent-Length: " + str(len(PAGE)).encode()
          + b"\r\n\r\n" + PAGE)


class Refusal(wasyncore.dispatcher):  # type: ignore[misc]
    """One refused connection, answered by the server's loop."""

    def __init__(self, conn: socket.socket, address: str, server_map: dict[int, Any]) -> None:
        super().__init__(conn, server_map)
        self.address = address
        self.started = time.monotonic()
        self._out = ANSWER

    def readable(self) -> bool:
        return True

    def handle_read(self) -> None:
        try:
            data = self.recv(8192)
        except OSError:
            data = b""
        if not data and not self._out:
            self.close()

    def writable(self) -> bool:
        return bool(self._out)

    def handle_write(self) -> None:
        try:
            sent = self.send(self._out)
        except OSError:
            self.close()
            return
        self._out = self._out[sent:]
        if not self._out:
            try:
                self.socket.shutdown(socket.SHUT_WR)
            except OSError:
                self.close()

    def handle_close(self) -> None:
        self.close()

    def overdue(self, now: float) -> bool:
        return now - self.started > REFUSAL_S


def may_refuse(server_map: dict[int, Any], address: str) -> bool:
    """Whether one more refusal may be answered in words (else the connection is reset)."""
    refusals = [channel.address for channel in list(server_map.values()) if isinstance(channel, Refusal)]
    return len(refusals) < MAX_ALL_REFUSALS and refusals.count(address) < MAX_REFUSALS


def close_overdue(server_map: dict[int, Any], now: float) -> None:
    for channel in list(server_map.values()):
        if isinstance(channel, Refusal) and channel.overdue(now):
            channel.close()
