"""A real Mosquitto on a loopback port for the café tests: started, stopped and started again on the same
port and persistence file, with optional password file and TLS."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Broker:
    def __init__(self, directory: Path, password_file: Path | None = None,
                 tls: tuple[Path, Path] | None = None, acl_file: Path | None = None,
                 settings: tuple[str, ...] = ()) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        lines = [f"listener {self.port} 127.0.0.1", "persistence true",
                 f"persistence_location {directory}/", "autosave_interval 1",
                 "max_queued_messages 100000", f"user {getpass.getuser()}"]
        if password_file is not None:
            lines += ["allow_anonymous false", f"password_file {password_file}"]
        if acl_file is not None:
            lines.append(f"acl_file {acl_file}")
        else:
            lines.append("allow_anonymous true")
        if tls is not None:
            lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        lines += settings
        self.config = directory / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")
        self.log = directory / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto exited: {self.log.read_text()[-2000:]}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None
