"""Who holds a TCP port: read from Linux's socket tables (``/proc/net/tcp``, ``tcp6``) and each process's
open files, so that "the port is taken" names the program and what to do about it."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

#: the state a listening socket has in /proc/net/tcp
LISTEN = "0A"


@dataclass(frozen=True)
class Holder:
    """A process that listens on the port: its id, its name and its command line."""

    pid: int
    name: str
    command: str

    @property
    def is_companion(self) -> bool:
        return "companion" in self.command and " serve" in f" {self.command}"


def listening_inodes(port: int, proc: Path = Path("/proc")) -> set[str]:
    """The socket inodes listening on ``port`` (any address, IPv4 or IPv6)."""
    found: set[str] = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != LISTEN:
                continue
            with contextlib.suppress(ValueError):
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    found.add(fields[9])
    return found


def holders(inodes: set[str], proc: Path = Path("/proc")) -> list[Holder]:
    """The processes this user may look into that hold one of ``inodes`` open."""
    wanted = {f"socket:[{inode}]" for inode in inodes}
    found: list[Holder] = []
    for entry in proc.iterdir() if wanted else ():
        if not entry.name.isdigit():
            continue
        if _links(entry / "fd") & wanted:
            found.append(_holder(entry))
    return found


def _links(folder: Path) -> set[str]:
    """What a process's open files are (nothing for another user's process or one that ended; a file
    closed while it is read is passed over)."""
    try:
        descriptors = list(folder.iterdir())
    except OSError:
        return set()
    links = set()
    for descriptor in descriptors:
        with contextlib.suppress(OSError):
            links.add(os.readlink(descriptor))
    return links


def _holder(entry: Path) -> Holder:
    name = command = ""
    with contextlib.suppress(OSError):
        name = (entry / "comm").read_text().strip()
    with contextlib.suppress(OSError):
        command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    return Holder(int(entry.name), name or "?", command or name)


def port_holders(port: int, proc: Path = Path("/proc")) -> tuple[bool, list[Holder]]:
    """(whether anything listens on ``port``, the processes seen holding it)."""
    inodes = listening_inodes(port, proc)
    return bool(inodes), holders(inodes, proc)


def taken_words(port: int, found: list[Holder]) -> str:
    """Who holds the port, in words."""
    if not found:
        return f"port {port} is taken by a program this user cannot see (sudo companion doctor names it)"
    named = ", ".join(f"{holder.name} (pid {holder.pid})" for holder in found)
    return f"port {port} is taken by {named}"
