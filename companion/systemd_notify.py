"""sd_notify without dependencies: readiness, status and a watchdog fed only while frames are fresh.

systemd gives a ``Type=notify`` service the datagram socket ``$NOTIFY_SOCKET`` (a path, or ``@name`` in the
abstract namespace) and, with ``WatchdogSec=``, ``$WATCHDOG_USEC``. The service sends ``READY=1`` when it
serves, ``STATUS=...`` lines that ``systemctl status`` shows, and ``WATCHDOG=1`` at least every half
interval. The companion pings only while the camera delivers fresh frames: a hung camera pipeline stops the
pings and systemd restarts the service (``Restart=on-failure``), which is the recovery we want on a Pi
left alone in a café.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send one notification (e.g. ``"READY=1"``); False when not run by systemd or the send fails."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    elif not address.startswith("/"):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as error:
        log.warning("sd_notify to %r failed: %s", address, error)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """The watchdog timeout in seconds, or None when systemd does not watch this process."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid and (not pid.isdigit() or int(pid) != os.getpid()):
        return None
    return int(usec) / 1_000_000


#: what the status line says first while the watchdog is not fed
STALE = "no fresh frames or the loop is stuck (systemd restarts it if this lasts):"


class Watchdog:
    """Pings ``WATCHDOG=1`` every half interval while ``is_healthy()`` says so (frames are fresh).

    ``describe()`` gives the STATUS line shown by ``systemctl status``. Without ``$WATCHDOG_USEC`` the
    thread still updates the status every ``fallback_s`` seconds (harmless outside systemd).
    """

    def __init__(self, is_healthy: Callable[[], bool], describe: Callable[[], str] = lambda: "",
                 environ: Mapping[str, str] | None = None, fallback_s: float = 5.0) -> None:
        self._env = dict(os.environ if environ is None else environ)
        self.interval = watchdog_interval(self._env)
        self.period = self.interval / 2 if self.interval else fallback_s
        self._is_healthy = is_healthy
        self._describe = describe
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pings = 0
        self.missed = 0
        self._last_status = ""

    def beat(self) -> bool:
        """One round: ping if healthy, update the status line if it changed. Returns whether it pinged."""
        try:
            healthy = bool(self._is_healthy())
        except Exception:  # a failing health check is unhealthy, never a crash of the watchdog
            log.exception("health check failed")
            healthy = False
        try:
            now = self._describe()
        except Exception as error:  # the status line says so; the watchdog thread goes on
            log.exception("the status line could not be made")
            now = f"status unknown ({type(error).__name__})"
        status = now if healthy else f"{STALE} {now}"
        if status and status != self._last_status:
            notify(f"STATUS={status}", self._env)
            self._last_status = status
        if not healthy:
            self.missed += 1
            return False
        if self.interval is not None:
            notify("WATCHDOG=1", self._env)
        self.pings += 1
        return True

    def start(self) -> Watchdog:
        self._thread = threading.Thread(target=self._run, name="sd-watchdog", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        self.beat()
        while not self._stop.wait(self.period):
            self.beat()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
