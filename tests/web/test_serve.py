"""`companion serve` as systemd runs it: READY, STATUS and watchdog pings over $NOTIFY_SOCKET while frames
are fresh, the page on loopback only, and a clean stop on SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_serve_notifies_systemd_and_pings_the_watchdog(tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        'game = "jurassik"\nseed = 3\n[[seats]]\nname = "Ana"\ncolour = "red"\n[[seats]]\nname = "Bo"\n'
        f'colour = "blue"\n[camera]\nsource = "synthetic"\nfps = 5\n'
        f'[store]\nstate_dir = "{tmp_path / "state"}"\n'
        f"[web]\nlan = false\nport = {port}\n"
    )
    notify_path = tmp_path / "notify.sock"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(notify_path))
    notify.settimeout(30)
    env = {**os.environ, "NOTIFY_SOCKET": str(notify_path), "WATCHDOG_USEC": "2000000",
           "GPIOZERO_PIN_FACTORY": "mock"}
    env.pop("WATCHDOG_PID", None)
    process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--config", str(config)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        messages: list[str] = []
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not any("WATCHDOG=1" in m for m in messages):
            messages.append(notify.recv(4096).decode())
        assert any(m.startswith("READY=1") for m in messages), messages
        status = next(m for m in messages if "STATUS=" in m)
        assert "Jurassik" in status and f"http://localhost:{port}/" in status
        assert any("WATCHDOG=1" in m for m in messages), messages
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/snapshot", timeout=10) as answer:
            assert b'"game":"jurassik"' in answer.read().replace(b" ", b"")
        listening = [c for c in psutil.Process(process.pid).net_connections(kind="inet")
                     if c.status == psutil.CONN_LISTEN]
        assert listening and all(c.laddr.ip in ("127.0.0.1", "::1") for c in listening), listening
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        tail = []
        notify.settimeout(2)
        try:
            while True:
                tail.append(notify.recv(4096).decode())
        except TimeoutError:
            pass
        assert "STOPPING=1" in tail, tail
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        notify.close()


def test_serve_refuses_lan_without_a_pin(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\nlan = true\npin = "1234"\n')
    result = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(config)],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2
    assert "PIN" in result.stderr


def test_write_config_gives_a_valid_annotated_file(tmp_path: Path) -> None:
    from companion.cli import main
    from companion.config import load_config

    target = tmp_path / "config.toml"
    assert main(["serve", "--write-config", str(target)]) == 0
    text = target.read_text()
    assert "[web]" in text and "lan = true" in text and "# state_dir" in text
    config = load_config(target)
    assert config.game == "jurassic-parts" and config.seed is None and config.web.lan and not config.web.pin
    assert main(["serve", "--write-config", str(target)]) == 2  # never overwrites
