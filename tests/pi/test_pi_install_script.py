"""scripts/pi-install.sh without a Pi: what the whole install would do (--dry-run), and one clear line for a
system it cannot serve (32-bit, an old Python, not a Pi, not root)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts/pi-install.sh"


def install(*args: str, python: str = "/usr/bin/python3") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHON": python})


def fake_python(tmp_path: Path, bits: int, machine: str, version: str, new_enough: bool) -> str:
    fake = tmp_path / "python3"
    fake.write_text(f'#!/bin/sh\ncase "$2" in *calcsize*) echo "{bits} {machine} {version}";;\n'
                    f'*version_info*) exit {0 if new_enough else 1};; esac\n')
    fake.chmod(0o755)
    return str(fake)


def test_the_dry_run_lists_every_step_of_the_whole_install() -> None:
    plan = install("--dry-run")
    assert plan.returncode in (0, 1), plan.stderr
    lines = plan.stdout.splitlines()
    assert "systemd-sysusers /etc/sysusers.d/dinotable.conf" in lines
    assert "install -d -o dinotable -g dinotable -m 750 /var/lib/dinotable" in lines
    assert any(line.endswith("--state-dir /var/lib/dinotable") and "--write-config /etc/dinotable/config.toml"
               in line for line in lines) or any("companion.service_config" in line for line in lines)
    unit = "/etc/systemd/system/dinotable.service"
    assert f"sed s#/opt/dinotable#{ROOT}#g systemd/dinotable.service > {unit}" in lines
    assert "systemctl enable dinotable" in lines
    assert any("doctor --config /etc/dinotable/config.toml" in line and "runuser -u dinotable" in line
               for line in lines)
    # the service stopped for doctor has lost its runtime directory (LG_WD): made again before doctor
    stop, runtime = lines.index("systemctl stop dinotable"), lines.index(
        "install -d -o dinotable -g dinotable -m 750 /run/dinotable")
    doctor = next(n for n, line in enumerate(lines) if " doctor --config " in line)
    assert stop < runtime < doctor
    if any(line.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install") for line in lines):
        assert any("python3-picamera2" in line for line in lines)


def test_a_32_bit_system_gets_one_line_saying_what_to_install(tmp_path: Path) -> None:
    done = install("--venv-only", python=fake_python(tmp_path, 32, "armv7l", "3.11.2", True))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("pi-install: a 32-bit system (armv7l")
    assert "Raspberry Pi OS (64-bit)" in done.stderr


def test_an_old_python_gets_one_line(tmp_path: Path) -> None:
    done = install("--venv-only", python=fake_python(tmp_path, 64, "aarch64", "3.9.2", False))
    assert done.returncode == 1
    assert "Python 3.9.2" in done.stderr and "3.11 or newer" in done.stderr


def test_the_whole_install_needs_a_pi_and_root(tmp_path: Path) -> None:
    done = install()
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert ("not a Raspberry Pi" in last and "--venv-only" in last) or "run it as root" in last


def test_an_unknown_option_is_refused() -> None:
    done = install("--fast")
    assert done.returncode == 1 and "unknown option --fast" in done.stderr


def test_the_unit_gives_lgpio_a_writable_runtime_directory() -> None:
    unit = (ROOT / "systemd/dinotable.service").read_text(encoding="utf-8")
    assert "RuntimeDirectory=dinotable" in unit and "Environment=LG_WD=/run/dinotable" in unit
    assert "ProtectSystem=strict" in unit  # why the working directory cannot serve
