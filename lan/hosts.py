"""The names this machine answers to, for the Host check (a DNS-rebinding page uses a name of its own).

On the LAN the page answers only to: loopback names, the hostname, ``<hostname>.local`` (mDNS, as
Raspberry Pi OS announces it) and the fully qualified name, the addresses of the machine's interfaces,
and the names configured in ``allowed_hosts``. Addresses change (DHCP, a second network), so an unknown
name makes the list be read again, at most every ``refresh_s`` seconds.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def _ipv4_of(name: str) -> str | None:
    try:
        import fcntl
    except ImportError:  # not Linux: the resolver's addresses below still count
        return None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def _ipv6_addresses(path: Path = Path("/proc/net/if_inet6")) -> set[str]:
    found = set()
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            hex_address = line.split()[0] if line.split() else ""
            if len(hex_address) == 32:
                found.add(str(ipaddress.IPv6Address(int(hex_address, 16))))
    return found


def interface_addresses() -> set[str]:
    """Every address of this machine's interfaces (IPv4 and IPv6), as text."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for _, name in socket.if_nameindex():
            address = _ipv4_of(name)
            if address:
                found.add(address)
    found |= _ipv6_addresses()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]).split("%")[0])
    return found


def machine_names() -> set[str]:
    hostname = socket.gethostname().lower()
    names = {hostname, f"{hostname}.local"}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn().lower())
    return {name for name in names if name}


def _normal(host: str) -> str:
    host = host.strip().strip("[]").lower().rstrip(".")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


class OwnHosts:
    """Which Host names to answer; ``discover`` gives this machine's names and addresses."""

    def __init__(self, extra: Iterable[str] = (), refresh_s: float = 10.0,
                 discover: Callable[[], set[str]] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.extra = {_normal(name) for name in extra if name}
        self.refresh_s = refresh_s
        self.discover = discover or (lambda: machine_names() | interface_addresses())
        self.clock = clock
        self._lock = threading.Lock()
        self._known: set[str] = set()
        self._read_at = -float("inf")

    def _read(self) -> None:
        self._known = {_normal(name) for name in self.discover()}
        self._read_at = self.clock()

    def names(self) -> set[str]:
        with self._lock:
            if not self._known:
                self._read()
            return self._known | self.extra

    def allows(self, host: str) -> bool:
        name = _normal(host)
        if not name or "%" in name:
            return False
        if name in self.extra:
            return True
        with self._lock:
            if not self._known or (name not in self._known and self.clock() - self._read_at > self.refresh_s):
                self._read()
            return name in self._known


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_loopback(host: str) -> bool:
    """True for names and addresses that only this machine can reach."""
    host = host.strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
