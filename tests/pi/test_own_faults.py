"""A Pi's own faults in doctor and at start: a check that cannot look is a line with its fix (never a
traceback), the page's port held by another program is named, and a second table on one state directory
says it is already running."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import config_from_dict
from companion.doctor import report
from companion.doctor import service as service_checks
from companion.doctor.ports import Holder, port_holders
from companion.instance import AlreadyRunning, InstanceLock


def config(tmp_path: Path, port: int = 8080) -> object:
    return config_from_dict({"store": {"state_dir": str(tmp_path / "state")}, "web": {"port": port}})


def test_a_folder_doctor_may_not_look_into_is_a_line_with_its_fix(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pin = tmp_path / "state" / "pin"

    def refused(_config: object) -> object:
        raise PermissionError(13, "Permission denied", str(pin))

    monkeypatch.setattr(service_checks, "pin_check", refused)
    checks = service_checks.service_checks(config(tmp_path), None, "")
    [line] = [check for check in checks if check.name == "PIN"]
    assert line.level == "fail" and str(pin) in line.detail and "sudo -u dinotable" in line.fix
    assert "Traceback" not in report(checks)
    assert {check.name for check in checks} >= {"state directory", "disk", "page port", "clock"}


def test_the_pages_port_held_by_another_program_is_named(tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        taken, found = port_holders(port)
        assert taken and os.getpid() in [holder.pid for holder in found]
        check = service_checks.port_check(config(tmp_path, port))
        assert check.level == "fail" and f"pid {os.getpid()}" in check.detail
        assert f"[web] port = {port + 1}" in check.fix
    assert service_checks.port_check(config(tmp_path, port)).level == "ok"  # free again


def test_a_companion_serving_the_port_is_known_as_one() -> None:
    assert Holder(7, "companion", "/opt/dinotable/.venv/bin/python companion serve --config c").is_companion
    assert not Holder(8, "nginx", "nginx: master process").is_companion


def test_one_table_per_state_directory(tmp_path: Path) -> None:
    first = InstanceLock(tmp_path).acquire()
    try:
        with pytest.raises(AlreadyRunning, match=rf"another companion \(pid {os.getpid()}\)"):
            InstanceLock(tmp_path).acquire()
    finally:
        first.release()
    InstanceLock(tmp_path).acquire().release()  # free once the first has gone


def test_serve_started_twice_by_hand_says_already_running(tmp_path: Path) -> None:
    settings = tmp_path / "config.toml"
    settings.write_text(f'[camera]\nsource = "synthetic"\n[store]\nstate_dir = "{tmp_path / "state"}"\n'
                        '[web]\nport = 8765\n')
    held = InstanceLock(tmp_path / "state").acquire()
    try:
        second = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(settings)],
                                capture_output=True, text=True, timeout=120,
                                env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    finally:
        held.release()
    assert second.returncode != 0 and second.stdout == ""
    assert "already running" in second.stderr and "systemctl stop dinotable" in second.stderr
    assert "Traceback" not in second.stderr
