"""`companion doctor`: each check finds what it is for, says what to do, and the exit status follows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import config_from_dict
from companion.doctor import Check, failed, report
from companion.doctor import machine as machine_checks
from companion.doctor import service as service_checks

PI = "Raspberry Pi 5 Model B Rev 1.0"
UNIT = (Path(__file__).resolve().parents[2] / "systemd/dinotable.service").read_text(encoding="utf-8")


def config(tmp_path: Path, **extra: object) -> object:
    return config_from_dict({"store": {"state_dir": str(tmp_path / "state")}, **extra})


def test_a_32_bit_system_and_an_old_python_are_refused_with_what_to_install() -> None:
    thirty_two = machine_checks.python_check((3, 11, 2), 32, "armv7l")
    assert thirty_two.level == "fail" and "64-bit" in thirty_two.fix
    old = machine_checks.python_check((3, 9, 2), 64, "aarch64")
    assert old.level == "fail" and "3.11" in old.fix
    assert machine_checks.python_check((3, 11, 2), 64, "aarch64").level == "ok"


def test_pins_on_a_pi_are_checked_and_mock_pins_there_are_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    mock = machine_checks.pins_check(PI, {"GPIOZERO_PIN_FACTORY": "mock"})
    assert mock.level == "warn" and "not driven" in mock.detail
    assert machine_checks.pins_check("", {}).level == "ok"  # a laptop: the virtual panel
    import hw.pins

    def no_chip() -> object:
        raise OSError("can not open gpiochip")

    monkeypatch.setattr(hw.pins, "import_lgpio", no_chip)
    dead = machine_checks.pins_check(PI, {})
    assert dead.level == "fail" and "can not open gpiochip" in dead.detail
    assert dead.fix == hw.pins.pins_fix(OSError("can not open gpiochip"))  # for what this machine shows


def test_the_pins_fix_follows_what_the_machine_shows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hw.pins import PI_FIX, pins_fix

    chips = str(tmp_path / "gpiochip*")
    none = pins_fix(OSError("can not open gpiochip"), chips)
    assert "no /dev/gpiochip*" in none and "pi-install" not in none  # no install mends a missing chip
    (tmp_path / "gpiochip0").write_text("")
    assert pins_fix(ImportError("No module named 'lgpio'"), chips) == "sudo apt install python3-lgpio"
    assert pins_fix(OSError("can not open gpiochip"), chips) == PI_FIX
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert "gpio group" in pins_fix(OSError("can not open gpiochip"), chips)


def test_gpio_devices_must_be_usable_by_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert machine_checks.gpiochip_check("").level == "skip"
    assert machine_checks.gpiochip_check(PI, str(tmp_path / "gpiochip*")).level == "fail"
    chip = tmp_path / "gpiochip0"
    chip.write_text("")
    assert machine_checks.gpiochip_check(PI, str(tmp_path / "gpiochip*")).level == "ok"
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    refused = machine_checks.gpiochip_check(PI, str(tmp_path / "gpiochip*"))
    assert refused.level == "fail" and "gpio group" in refused.fix


def test_lgpio_work_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.doctor.machine as module

    monkeypatch.setattr(module, "writable", lambda d: str(d) != "/nope")
    assert module.lgpio_dir_check({"LG_WD": "/nope"}).level == "fail"
    assert module.lgpio_dir_check({"LG_WD": str(tmp_path)}, UNIT).level == "ok"
    old_unit = UNIT.replace("Environment=LG_WD=/run/dinotable\n", "")
    stale = module.lgpio_dir_check({}, old_unit)
    assert stale.level == "warn" and "pi-install" in stale.fix
    monkeypatch.setattr(module, "writable", lambda d: False)  # the service stopped: systemd removed it
    stopped = module.lgpio_dir_check({"LG_WD": "/run/dinotable"}, UNIT + "RuntimeDirectory=dinotable\n")
    assert stopped.level == "ok" and "each time the service starts" in stopped.detail


def test_a_config_whose_state_directory_is_not_the_services_is_a_fault(tmp_path: Path) -> None:
    unit = UNIT.replace("--config /etc/dinotable/config.toml", f"--config {tmp_path / 'config.toml'}")
    mine = config(tmp_path)
    found = service_checks.state_dir_check(mine, str(tmp_path / "config.toml"), unit)
    assert found.level == "fail" and "/var/lib/dinotable" in found.fix and "another PIN" in found.detail
    other_config = service_checks.state_dir_check(mine, str(tmp_path / "other.toml"), unit)
    assert other_config.level == "ok"  # not the service's config: its own state is fine
    assert service_checks.service_state_dir(UNIT) == Path("/var/lib/dinotable")
    assert service_checks.service_config(UNIT) == "/etc/dinotable/config.toml"


def test_pin_disk_clock_and_calibration(tmp_path: Path) -> None:
    mine = config(tmp_path)
    assert service_checks.pin_check(mine).level == "warn"  # not made yet
    (tmp_path / "state").mkdir()
    (tmp_path / "state/web-pin").write_text("482913\n")
    pin = service_checks.pin_check(mine)
    assert pin.level == "ok" and "482913" not in pin.detail  # never shown: companion pair prints it
    assert service_checks.disk_check(mine).level in ("ok", "warn")
    assert service_checks.clock_check(now=1e9, code_time=1.7e9).level == "fail"  # 2001 on a Pi without RTC
    unsynced = service_checks.clock_check(now=1.8e9, code_time=1.7e9,
                                          synchronized_path=str(tmp_path / "timesync/synchronized"))
    assert unsynced.level == "ok"  # no timesyncd here: nothing to say
    (tmp_path / "timesync").mkdir()
    assert service_checks.clock_check(now=1.8e9, code_time=1.7e9, synchronized_path=str(
        tmp_path / "timesync/synchronized")).level == "warn"
    assert service_checks.calibration_check(mine).level == "warn"
    broken = config(tmp_path, camera={"calibration": str(tmp_path / "cal.json")})
    (tmp_path / "cal.json").write_text("{not json")
    assert service_checks.calibration_check(broken).level == "fail"


def test_the_broker_is_checked_only_when_configured(tmp_path: Path) -> None:
    assert service_checks.broker_check(config(tmp_path)).level == "skip"
    unreachable = config(tmp_path, mqtt={"url": "mqtt://127.0.0.1:9"})
    found = service_checks.broker_check(unreachable, timeout_s=2)
    assert found.level == "fail" and "127.0.0.1:9" in found.detail


def test_the_report_is_one_screen_with_fixes_and_the_status_follows_the_worst() -> None:
    checks = [Check.ok("Python", "3.11.2"), Check("numpy", "fail", "numpy 2.4.6 shadows 1.24.2", "run it"),
              Check("PIN", "warn", "none yet", "start once")]
    text = report(checks)
    assert text.splitlines()[1].startswith("FAIL  numpy") and "fix: run it" in text
    assert text.endswith("1 problem, 1 warning: the fixes are above")
    assert failed(checks) and not failed(checks[:1])


def test_companion_doctor_exits_1_on_a_problem_and_0_without(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(f'[camera]\nsource = "synthetic"\n[store]\nstate_dir = "{tmp_path / "state"}"\n'
                    '[web]\nlan = false\n')
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[camera]\nsource = "folder:{tmp_path / "none"}"\n[store]\nstate_dir = "{tmp_path}"\n')
    environ = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    ok = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(good)],
                        capture_output=True, text=True, env=environ, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "ok    camera" in ok.stdout
    problem = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(bad), "--json"],
                             capture_output=True, text=True, env=environ, timeout=120)
    assert problem.returncode == 1
    camera = next(c for c in json.loads(problem.stdout)["checks"] if c["name"] == "camera")
    assert camera["level"] == "fail" and "no such folder" in camera["detail"]
    missing = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(tmp_path / "x")],
                             capture_output=True, text=True, env=environ, timeout=120)
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")


def test_the_unit_s_environment_and_drop_ins_are_what_the_service_sees(tmp_path: Path) -> None:
    """LG_WD and the pin factory as the service gets them: the unit's Environment= lines, then its
    drop-ins' in name order (an empty Environment= resets), not doctor's own shell."""
    from companion.doctor.service import unit_environment

    unit = tmp_path / "dinotable.service"
    text = ('[Service]\nEnvironment=PYTHONUNBUFFERED=1\nEnvironment=LG_WD=/run/dinotable "A=two words"\n')
    unit.write_text(text)
    drop_ins = tmp_path / "dinotable.service.d"
    drop_ins.mkdir()
    (drop_ins / "10-pins.conf").write_text("[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n")
    (drop_ins / "20-lgpio.conf").write_text("[Service]\nEnvironment=LG_WD=/srv/read-only\n")
    seen = unit_environment(str(unit), text)
    assert seen == {"PYTHONUNBUFFERED": "1", "LG_WD": "/srv/read-only", "A": "two words",
                    "GPIOZERO_PIN_FACTORY": "mock"}
    (drop_ins / "30-reset.conf").write_text("[Service]\nEnvironment=\nEnvironment=LG_WD=/tmp\n")
    assert unit_environment(str(unit), text) == {"LG_WD": "/tmp"}


def test_a_folder_it_cannot_write_gets_the_fix_for_its_cause(tmp_path: Path) -> None:
    import pwd
    import shutil
    import subprocess

    from companion.doctor.service import write_fix

    me = pwd.getpwuid(os.geteuid()).pw_name
    assert write_fix(tmp_path, "someone-else").startswith("run it as the service user (sudo -u someone-else")
    assert write_fix(tmp_path, me).startswith(f"sudo chown -R {me}:{me} {tmp_path}")
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return
    folder = tmp_path / "card"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", str(folder)]).returncode:
        return
    try:
        assert "read-only file system: mount it read-write" in write_fix(folder, me)
    finally:
        subprocess.run(["umount", "-l", str(folder)])


def test_a_calibration_made_at_another_resolution_is_named_and_an_unknown_one_is_not_called_ok(
        tmp_path: Path) -> None:
    import numpy as np

    from vision.calibration import Calibration

    made = tmp_path / "cal.json"
    Calibration(np.eye(3), {}, {}, image_size=(1152, 648)).save(made)
    camera_default = config(tmp_path, camera={"calibration": str(made)})
    unknown = service_checks.calibration_check(camera_default)
    assert unknown.level == "warn" and "width = 1152" in unknown.fix
    other = service_checks.calibration_check(camera_default, frame_size=(2304, 1296))
    assert other.level == "fail" and "1152 x 648" in other.detail and "2304 x 1296" in other.detail
    assert service_checks.calibration_check(camera_default, frame_size=(1152, 648)).level == "ok"


def test_a_database_file_it_cannot_write_is_a_fault_though_its_folder_is_fine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """companion.db alone read-only (the folder writable): the table would read its games and save no
    move; doctor called it ok."""
    mine = config(tmp_path)
    (tmp_path / "state").mkdir()
    (tmp_path / "state/companion.db").write_bytes(b"")
    assert service_checks.state_dir_check(mine, None, "").level == "ok"
    real = os.access
    monkeypatch.setattr(service_checks.os, "access", lambda path, mode: real(path, mode) and not str(
        path).endswith("companion.db"))
    found = service_checks.state_dir_check(mine, None, "")
    assert found.level == "fail" and "companion.db is not writable" in found.detail and found.fix


def test_the_pi_cameras_buffers_are_weighed_against_the_memory_reserved_for_it(tmp_path: Path) -> None:
    from companion.doctor.machine import camera_memory_check

    meminfo = tmp_path / "meminfo"
    picamera = config(tmp_path, camera={"source": "picamera"})
    meminfo.write_text("MemTotal:        944000 kB\nCmaTotal:         32768 kB\n")  # a 1 GB Pi, 32 MB
    small = camera_memory_check(picamera, meminfo)
    assert small.level == "warn" and "4608 x 2592 YUV420, 2 buffers" in small.detail
    assert "cma-512" in small.fix
    meminfo.write_text("MemTotal:       8000000 kB\nCmaTotal:        524288 kB\n")  # an 8 GB Pi, 512 MB
    large = camera_memory_check(picamera, meminfo)
    assert large.level == "ok" and "BGR888, 3 buffers" in large.detail
    meminfo.write_text("MemTotal:       8000000 kB\n")
    assert camera_memory_check(picamera, meminfo).level == "skip"
    synthetic = config(tmp_path, camera={"source": "synthetic"})
    assert camera_memory_check(synthetic, meminfo).level == "skip"  # not the Pi camera


def test_speech_asked_for_without_espeak_ng_says_what_to_install() -> None:
    missing = machine_checks.speech_check(True, which=lambda _name: None)
    assert missing.level == "fail" and missing.fix == "sudo apt install espeak-ng"
    assert machine_checks.speech_check(True, which=lambda _name: "/usr/bin/espeak-ng").level == "ok"
    assert machine_checks.speech_check(False).level == "skip"
