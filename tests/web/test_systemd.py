"""sd_notify over a real datagram socket, the watchdog that pings only on fresh frames, and the unit file."""

from __future__ import annotations

import configparser
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from companion.systemd_notify import STALE, Watchdog, notify, watchdog_interval

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def notify_socket(tmp_path: Path) -> Any:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(1.0)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    messages = []
    sock.setblocking(False)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    sock.setblocking(True)
    return messages


def test_notify_sends_datagrams_and_is_silent_outside_systemd(notify_socket: Any) -> None:
    path, sock = notify_socket
    assert notify("READY=1", {"NOTIFY_SOCKET": path}) is True
    assert sock.recv(100) == b"READY=1"
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "relative/path"}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "/nonexistent/socket"}) is False


def test_abstract_namespace_socket() -> None:
    name = f"dinotable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        assert notify("STATUS=hello", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"STATUS=hello"
    finally:
        sock.close()


def test_watchdog_interval_respects_pid() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(os.getpid())}) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({}) is None


def test_watchdog_pings_only_while_frames_are_fresh(notify_socket: Any) -> None:
    path, sock = notify_socket
    fresh = {"ok": True}
    dog = Watchdog(lambda: fresh["ok"], lambda: "3 players, 42 frames",
                   environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})
    assert dog.period == 2.0
    assert dog.beat() is True
    assert received(sock) == ["STATUS=3 players, 42 frames", "WATCHDOG=1"]
    fresh["ok"] = False
    assert dog.beat() is False and dog.beat() is False
    assert received(sock) == [f"STATUS={STALE} 3 players, 42 frames"]
    fresh["ok"] = True
    assert dog.beat() is True
    assert received(sock) == ["STATUS=3 players, 42 frames", "WATCHDOG=1"]
    assert (dog.pings, dog.missed) == (2, 2)


def test_a_crashing_health_check_counts_as_stale(notify_socket: Any) -> None:
    path, sock = notify_socket

    def broken() -> bool:
        raise RuntimeError("camera driver exploded")

    dog = Watchdog(broken, environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    assert dog.beat() is False
    assert "WATCHDOG=1" not in received(sock)


def test_a_status_line_that_cannot_be_made_never_stops_the_watchdog(notify_socket: Any) -> None:
    path, sock = notify_socket
    calls = {"n": 0}

    def describe() -> str:
        calls["n"] += 1
        if calls["n"] == 1:
            raise TypeError("unsupported format string passed to NoneType.__format__")
        return "Jurassik, game 1: 0 moves"

    dog = Watchdog(lambda: True, describe, environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    assert dog.beat() is True  # pinged all the same, and the status says it is unknown
    assert received(sock) == ["STATUS=status unknown (TypeError)", "WATCHDOG=1"]
    assert dog.beat() is True and received(sock)[0] == "STATUS=Jurassik, game 1: 0 moves"


def test_unit_file_has_the_required_hardening() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "systemd" / "dinotable.service")
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["User"] == "dinotable"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "video", "audio"}
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] in ("strict", "full")
    assert service["StateDirectory"] == "dinotable"
    assert "PrivateDevices" not in service
    assert "serve" in service["ExecStart"]


def test_protect_clock_never_hides_the_gpio_chips_or_the_camera() -> None:
    """ProtectClock=yes implies an rtc DeviceAllow entry, which makes the device policy an allow-list:
    the unit must then list every device class the companion opens."""
    lines = (ROOT / "systemd" / "dinotable.service").read_text().splitlines()
    settings = [line.split("=", 1) for line in lines if "=" in line and not line.startswith("#")]
    allowed = {value.split()[0] for key, value in settings if key == "DeviceAllow"}
    if ("ProtectClock", "yes") in [(k, v) for k, v in settings] or allowed:
        needed = {"char-gpiochip", "char-video4linux", "char-media", "char-dma_heap", "char-alsa"}
        assert needed <= allowed, allowed
        assert ("DevicePolicy", "closed") in [(k, v) for k, v in settings]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    """The unit parses cleanly (the ExecStart binary is swapped for one that exists on this machine)."""
    text = (ROOT / "systemd" / "dinotable.service").read_text()
    text = text.replace("/opt/dinotable/.venv/bin/companion", shutil.which("true") or "/bin/true")
    unit = tmp_path / "dinotable.service"
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True,
                            text=True, timeout=60)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "dinotable.service" in line and "Failed to" not in line.split(":")[0]]
    assert result.returncode == 0, result.stderr
    assert not problems, problems
