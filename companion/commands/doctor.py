"""`companion doctor`: is this machine ready to run the table? One screen, exit status 0 or 1.

Without ``--config`` it checks the config the installed service runs with (``/etc/dinotable/config.toml``
on a Pi set up by ``scripts/pi-install.sh``), else the built-in defaults. Run it as the service user to see
what the service sees: ``sudo -u dinotable /opt/dinotable/.venv/bin/companion doctor``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from companion.commands.arguments import fail


def default_config_path(unit_text: str) -> str | None:
    from companion.doctor.service import service_config

    path = service_config(unit_text)
    return path if path and Path(path).is_file() else None


def _doctor(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, load_config
    from companion.doctor import Check, failed, report
    from companion.doctor.machine import machine_checks
    from companion.doctor.service import installed_unit, service_checks, unit_environment

    unit_path, unit_text = installed_unit()
    config_path = args.config or default_config_path(unit_text)
    checks: list[Check] = []
    try:
        config = load_config(config_path)
        checks.append(Check.ok("config", config_path or "the built-in defaults (no --config)"))
    except (ConfigError, ValueError) as error:
        return fail("doctor", error)
    if unit_path:
        checks.append(Check.ok("service unit", unit_path))
    # what the service will see: the unit's environment (and its drop-ins') over this shell's
    environ = {**os.environ, **unit_environment(unit_path, unit_text)}
    machine, frame_size = machine_checks(config, environ, open_camera=not args.no_camera, unit_text=unit_text)
    checks += machine
    checks += service_checks(config, config_path, unit_text, frame_size)
    if args.json:
        json.dump({"ok": not failed(checks), "checks": [check.to_dict() for check in checks]}, sys.stdout,
                  indent=1)
        print()
    else:
        print(report(checks))
    return 1 if failed(checks) else 0


def register(subparsers: Any) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check this machine for the table: Python, numpy, camera, pins, service, PIN, disk",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    doctor.add_argument("--config", default=None, help="the TOML config file (default: the service's)")
    doctor.add_argument("--no-camera", action="store_true", help="do not open the camera")
    doctor.add_argument("--json", action="store_true", help="the checks as JSON")
    doctor.set_defaults(handler=_doctor)
