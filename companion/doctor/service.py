"""The service's checks: its state directory, the PIN, free disk, the clock, the broker, the calibration."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import time
from pathlib import Path
from typing import Any

from companion.doctor import Check, guarded

UNIT_PATHS = ("/etc/systemd/system/dinotable.service", "/lib/systemd/system/dinotable.service")
SYNCHRONIZED = "/run/systemd/timesync/synchronized"
LOW_DISK_MB = 1024
FULL_DISK_MB = 200


def installed_unit(paths: tuple[str, ...] = UNIT_PATHS) -> tuple[str, str]:
    """(path, text) of the installed companion unit, or ("", "")."""
    for path in paths:
        try:
            return path, Path(path).read_text(encoding="utf-8")
        except OSError:
            continue
    return "", ""


def unit_environment(unit_path: str, unit_text: str) -> dict[str, str]:
    """What the installed unit sets in the service's environment: its ``Environment=`` lines, then its
    drop-ins' (``<unit>.d/*.conf`` beside it and under /etc, in name order; an empty one resets)."""
    texts = [unit_text]
    folders = {Path(unit_path + ".d"), Path("/etc/systemd/system") / (Path(unit_path).name + ".d")}
    for folder in sorted(folders) if unit_path else []:
        with contextlib.suppress(OSError):
            texts += [path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.conf"))]
    environment: dict[str, str] = {}
    for text in texts:
        for line in re.findall(r"^\s*Environment=(.*)$", text, re.MULTILINE):
            if not line.strip():
                environment.clear()
                continue
            with contextlib.suppress(ValueError):
                for item in shlex.split(line):
                    name, sep, value = item.partition("=")
                    if sep and name:
                        environment[name] = value
    return environment


def unit_setting(text: str, key: str) -> str:
    match = re.search(rf"^\s*{re.escape(key)}=(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def service_state_dir(unit_text: str) -> Path | None:
    """Where the installed unit keeps its state (``StateDirectory=`` under /var/lib)."""
    name = unit_setting(unit_text, "StateDirectory").split()
    return Path("/var/lib") / name[0] if name else None


def service_config(unit_text: str) -> str:
    match = re.search(r"--config\s+(\S+)", unit_setting(unit_text, "ExecStart"))
    return match.group(1) if match else ""


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def write_fix(folder: Path, user: str) -> str:
    """What to do about a folder this user cannot write, for the cause found: a read-only mount, a folder
    of another owner (run as the service user already), or another user running doctor."""
    with contextlib.suppress(OSError):
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return (f"{folder} lies on a read-only file system: mount it read-write (a card that turned "
                    "read-only by itself is failing: copy the folder off it and replace the card)")
    import pwd

    me = pwd.getpwuid(os.geteuid()).pw_name
    if me != user:
        return f"run it as the service user (sudo -u {user} ...)"
    try:
        owner = pwd.getpwuid(folder.stat().st_uid).pw_name
    except (OSError, KeyError):
        owner = "another user"
    return f"sudo chown -R {user}:{user} {folder} (it belongs to {owner})"


def state_dir_check(config: Any, config_path: str | None, unit_text: str) -> Check:
    state_dir = Path(config.state_dir)
    if state_dir.exists():
        if not os.access(state_dir, os.R_OK | os.W_OK | os.X_OK):
            return Check("state directory", "fail", f"{state_dir} is not writable by this user",
                         write_fix(state_dir, unit_setting(unit_text, "User") or "dinotable"))
    elif not os.access(_existing(state_dir), os.W_OK):
        return Check("state directory", "fail", f"{state_dir} does not exist and cannot be made by this user",
                     "sudo install -d -o dinotable -g dinotable -m 750 " + str(state_dir))
    unwritable = [path for path in sorted(state_dir.glob("companion.db*"))
                  if path.is_file() and not os.access(path, os.R_OK | os.W_OK)]
    user = unit_setting(unit_text, "User") or "dinotable"
    if unwritable:  # the table would read its games but save no move
        return Check("state directory", "fail", f"{unwritable[0]} is not writable by this user: the table "
                     "would save no move", write_fix(unwritable[0], user))
    service = service_state_dir(unit_text)
    same_config = bool(config_path) and service_config(unit_text) == str(config_path)
    if service is not None and same_config and service.resolve() != state_dir.resolve():
        return Check("state directory", "fail", f"this config's state directory is {state_dir}, the "
                     f"service's is {service}: companion pair, history and calibrate would use another PIN "
                     "and store than the service", f"set [store] state_dir = \"{service}\" in {config_path}")
    where = " (the service's)" if service is not None and service.resolve() == state_dir.resolve() else ""
    return Check.ok("state directory", f"{state_dir}{where}")


def pin_check(config: Any) -> Check:
    from companion.pairing import PIN_FILE

    if not config.web.lan:
        return Check.skip("PIN", "LAN access is off ([web] lan = false): the page serves this machine only")
    if config.web.pin:
        return Check.ok("PIN", "set in the config (companion pair prints it)")
    path = Path(config.state_dir) / PIN_FILE
    if not path.exists():
        return Check("PIN", "warn", f"none yet: it is made at the service's first start, in {path}",
                     "start the service once (or run companion pair as the service user)")
    if not os.access(path, os.R_OK):
        return Check("PIN", "fail", f"{path} is not readable by this user",
                     "run companion pair as the service user: sudo -u dinotable ...")
    return Check.ok("PIN", f"kept in {path} (companion pair prints it)")


def disk_check(config: Any) -> Check:
    where = _existing(Path(config.state_dir))
    free_mb = shutil.disk_usage(where).free / 1e6
    text = f"{free_mb:,.0f} MB free at {where}"
    if free_mb < FULL_DISK_MB:
        return Check("disk", "fail", text, "free some space: each move is kept with a photo of the table")
    if free_mb < LOW_DISK_MB:
        return Check("disk", "warn", text, "free some space soon (photos of moves take about 100 kB each)")
    return Check.ok("disk", text)


def clock_check(now: float | None = None, code_time: float | None = None,
                synchronized_path: str = SYNCHRONIZED) -> Check:
    """The clock is after this code was written and, with systemd-timesyncd, synchronised."""
    now = time.time() if now is None else now
    code_time = Path(__file__).stat().st_mtime if code_time is None else code_time
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    if now + 86400 < code_time:
        return Check("clock", "fail", f"the clock says {stamp}, before this software was installed",
                     "connect the Pi to a network (it sets its clock by NTP) or set it: sudo date -s ...")
    if os.path.isdir(os.path.dirname(synchronized_path)) and not os.path.exists(synchronized_path):
        return Check("clock", "warn", f"{stamp}, not yet synchronised by NTP",
                     "check the network: sessions and TLS certificates need the right time")
    return Check.ok("clock", stamp)


def broker_check(config: Any, timeout_s: float = 5.0) -> Check:
    import threading

    mqtt = config.mqtt
    if not mqtt.enabled:
        return Check.skip("café broker", "none configured ([mqtt] url)")
    from wire.broker import make_client

    result: dict[str, Any] = {}
    done = threading.Event()

    def connected(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        result["reason"] = reason
        done.set()

    try:
        client = make_client(mqtt, f"doctor-{os.getpid()}")
        client.on_connect = connected
        address = mqtt.address()
        client.connect_async(address.host, address.port, keepalive=30)
        client.loop_start()
    except Exception as error:
        return Check("café broker", "fail", f"{mqtt.broker}: {error}", "check [mqtt] in the config")
    try:
        if not done.wait(timeout_s):
            from wire.broker import connection_problem

            return Check("café broker", "fail", connection_problem(mqtt, timeout_s),
                         "check the address, that Mosquitto runs, and ca_file for TLS")
        reason = result["reason"]
        if getattr(reason, "is_failure", False):
            return Check("café broker", "fail", f"{mqtt.broker} refused the login: {reason}",
                         "check username and password_file against the broker's password file")
        return Check.ok("café broker", f"connected to {mqtt.broker} as table {mqtt.table_name}")
    finally:
        client.loop_stop()
        client.disconnect()


def calibration_check(config: Any, frame_size: tuple[int, int] | None = None) -> Check:
    path = config.camera.calibration
    if not path:
        return Check("calibration", "warn", "no calibration file: the companion calibrates from the first "
                     "frame that shows the four markers, with nominal seat colours",
                     "companion calibrate FRAME --game GAME --out FILE, then [camera] calibration = FILE")
    from vision.calibration import Calibration

    try:
        calibration = Calibration.load(path)
    except ValueError as error:
        return Check("calibration", "fail", f"{path} cannot be used: {' '.join(str(error).split())[:200]}",
                     "companion calibrate FRAME --game GAME --out FILE")
    size = frame_size or config.camera.size
    width, height = calibration.image_size
    if size and (width, height) != tuple(size) and width:
        return Check("calibration", "fail", f"{path} was made from {width} x {height} frames, the camera "
                     f"gives {size[0]} x {size[1]}", "calibrate again from a frame of this camera")
    if not size:  # the camera's own resolution, and no frame read to tell it
        return Check("calibration", "warn", f"{path} was made from {width} x {height} frames; the camera's "
                     "resolution is not known here (it was not opened, and the config leaves it to the "
                     "camera)", f"run companion doctor without --no-camera, or set [camera] width = {width} "
                     f"and height = {height}")
    return Check.ok("calibration", f"{path} ({width} x {height})")


def port_check(config: Any) -> Check:
    """The page's port: free for the service, or held by the service itself; another program that holds
    it is named (the service would restart every few seconds and phones would reach that program)."""
    from companion.doctor.ports import port_holders, taken_words

    port = int(config.web.port)
    taken, found = port_holders(port)
    if not taken:
        return Check.ok("page port", f"port {port} is free for the page")
    if found and all(holder.is_companion for holder in found):
        return Check.ok("page port", f"port {port}: the companion serves the page (pid "
                        f"{', '.join(str(holder.pid) for holder in found)})")
    return Check("page port", "fail", f"{taken_words(port, found)}: the companion could not serve its page",
                 f"stop that program, or give the page another port ([web] port = {port + 1} in the config)")


def service_checks(config: Any, config_path: str | None, unit_text: str,
                   frame_size: tuple[int, int] | None = None) -> list[Check]:
    return [
        guarded("state directory", lambda: state_dir_check(config, config_path, unit_text)),
        guarded("PIN", lambda: pin_check(config)),
        guarded("disk", lambda: disk_check(config)),
        guarded("page port", lambda: port_check(config)),
        guarded("clock", clock_check),
        guarded("broker", lambda: broker_check(config)),
        guarded("calibration", lambda: calibration_check(config, frame_size)),
    ]
