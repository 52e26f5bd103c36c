"""The command-line checks every LAN command shares: bad input is one ``error:`` line on stderr and exit 2.

:class:`OneLineParser` makes argparse's own refusals one line too; :func:`port_number` and
:func:`bind_address` are ``type=`` checkers for where a page listens; :func:`state_directory` is where a
service keeps its files by default.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

EXIT_BAD_INPUT = 2
LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST_NAME = re.compile(rf"^(?=.{{1,253}}$){LABEL}(\.{LABEL})*$")


def one_line(message: object) -> str:
    return " ".join(str(message).split())


def refuse(message: object, where: str) -> int:
    """Say what is wrong in one line, naming the command, and give the exit status for bad input."""
    print(f"error: {one_line(message)} ({where})", file=sys.stderr)
    return EXIT_BAD_INPUT


class OneLineParser(argparse.ArgumentParser):
    """argparse with its refusals on one ``error:`` line (the usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {one_line(message)} (see {self.prog} --help)\n")


def port_number(text: str) -> int:
    """A TCP port, 0 meaning any free one."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is not 0..65535 (0: any free port)")
    return port


def bind_address(text: str) -> str:
    """An IP address or a host name to listen on."""
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    if re.fullmatch(r"[0-9.]+", text) or not HOST_NAME.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is neither an IP address nor a host name")
    return text


def state_directory(part: str = "") -> Path:
    """systemd's StateDirectory when run as the service, else ``dinotable/<part>`` in the XDG state
    directory."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base, "dinotable", part)  # an empty part adds nothing
