"""Attacks on `companion serve` in LAN mode, run inside a network namespace of its own (`unshare -n`).

The namespace gets a LAN interface (one end of a veth pair) with the table's address and twenty more for
attackers, so the server sees requests from real, distinct source addresses. Prints one JSON object of
what each attack got; ``tests/web/test_lan_attacks.py`` runs this and judges the answers.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TABLE = "192.168.77.10"
ATTACKERS = [f"192.168.77.{100 + i}" for i in range(20)]


def sh(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True)


def make_lan() -> None:
    sh("ip", "link", "set", "lo", "up")
    sh("ip", "link", "add", "lan0", "type", "veth", "peer", "name", "lan1")  # a cable to nowhere
    sh("ip", "link", "set", "lan1", "up")
    sh("ip", "link", "set", "lan0", "up")
    for address in [TABLE, *ATTACKERS]:
        sh("ip", "addr", "add", f"{address}/24", "dev", "lan0")


class Browser:
    """One client with a cookie jar, talking from ``source``."""

    def __init__(self, port: int, source: str = ATTACKERS[0], host: str | None = None) -> None:
        self.port = port
        self.source = source
        self.host = host or f"{TABLE}:{port}"
        self.cookie = ""

    def request(self, method: str, path: str, body: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(TABLE, self.port, timeout=30, source_address=(self.source, 0))
        sent = {"Host": self.host, **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        data = answer.read(200_000) if method != "GET" or "events" not in path else answer.read(100)
        found = {k.lower(): v for k, v in answer.getheaders()}
        cookie = found.get("set-cookie", "")
        if cookie.startswith("dinotable="):
            self.cookie = cookie.split(";", 1)[0]
        connection.close()
        return answer.status, found, data

    def token(self) -> str:
        _, _, page = self.request("GET", "/login")
        match = re.search(rb'name="csrf-token" content="([^"]+)"', page)
        return match.group(1).decode() if match else ""

    def login(self, pin: str, query: str = "") -> tuple[int, dict[str, str]]:
        from urllib.parse import urlencode

        body = urlencode({"pin": pin, "csrf_token": self.token()})
        status, headers, _ = self.request("POST", f"/login{query}", body, {
            "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://{TABLE}:{self.port}"})
        return status, headers


def start_serve(folder: Path, port: int, pin_line: str) -> subprocess.Popen[str]:
    config = folder / "config.toml"
    config.write_text(
        'game = "jurassik"\nseed = 3\n[[seats]]\nname = "Ana"\ncolour = "red"\n[[seats]]\nname = "Bo"\n'
        'colour = "blue"\n[camera]\nsource = "synthetic"\nfps = 4\n'
        f'[store]\nstate_dir = "{folder / "state"}"\n[web]\nlan = true\nport = {port}\n{pin_line}\n')
    return subprocess.Popen([sys.executable, "-m", "companion", "serve", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"})


def wait_for_port(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve ended: {process.stdout.read() if process.stdout else ''}")
        try:
            socket.create_connection((TABLE, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("serve never listened")


def attacks(port: int, pin: str, pid: int) -> dict[str, Any]:
    import psutil

    results: dict[str, Any] = {}
    evil = Browser(port, host="evil.example")
    results["foreign_host"] = {p: evil.request("GET", p)[0] for p in
                               ("/api/snapshot", "/api/frame.jpg", "/api/photo/1.jpg", "/api/events", "/")}
    stranger = Browser(port)
    results["no_session"] = {p: stranger.request("GET", p)[0] for p in
                             ("/api/snapshot", "/api/frame.jpg", "/api/photo/1.jpg", "/api/events", "/")}
    player = Browser(port, ATTACKERS[1])
    results["login"] = player.login(pin)[0]
    results["with_session"] = player.request("GET", "/api/snapshot")[0]
    bad_ids = ("/api/state/1?game=999999", "/api/board.svg?seq=1&game=99999", "/api/history?game=7")
    results["bad_ids"] = {p: player.request("GET", p)[0] for p in bad_ids}
    captured = player.cookie
    token = player.token()
    results["logout"] = player.request("POST", "/logout", f"csrf_token={token}", {
        "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://{TABLE}:{port}"})[0]
    replay = Browser(port, ATTACKERS[2])
    replay.cookie = captured
    results["captured_cookie_after_logout"] = replay.request("GET", "/api/snapshot")[0]
    redirects = {}
    for query in ("?next=/%09/evil.example", "?next=%0d%0aLocation:%20http://evil", "?next=//evil.example"):
        status, headers = Browser(port, ATTACKERS[3]).login(pin, query)
        redirects[query] = [status, headers.get("location", "")]
    results["next"] = redirects
    watcher = Browser(port, ATTACKERS[19])
    watcher.login(pin)
    threads_before = psutil.Process(pid).num_threads()
    for spread, label in ((1, "one_address"), (10, "ten_addresses")):
        slow = []
        for n in range(200):
            source = ATTACKERS[4 + n % spread]
            sock = socket.create_connection((TABLE, port), timeout=30, source_address=(source, 0))
            with contextlib.suppress(OSError):
                sock.sendall(f"GET / HTTP/1.1\r\nHost: {TABLE}:{port}\r\nX-Slow: ".encode())
            slow.append(sock)
        results[f"served_beside_200_slow_requests_from_{label}"] = watcher.request("GET", "/api/snapshot")[0]
        results[f"threads_with_200_slow_requests_from_{label}"] = [threads_before,
                                                                   psutil.Process(pid).num_threads()]
        for sock in slow:
            sock.close()
        time.sleep(0.5)
    guesses = []
    for n in range(100):
        guesser = Browser(port, ATTACKERS[n % 20])
        guesses.append(guesser.login(f"{(n * 7919) % 1_000_000:06d}" if f"{n:06d}" != pin else "000001")[0])
    results["guesses"] = guesses
    results["right_pin_while_blocked"] = Browser(port, ATTACKERS[6]).login(pin)[0]
    return results


def main() -> int:
    make_lan()
    folder = Path(tempfile.mkdtemp(prefix="lan-attack-"))
    with socket.socket() as probe:
        probe.bind((TABLE, 0))
        port = probe.getsockname()[1]
    (folder / "weak").mkdir()
    weak = start_serve(folder / "weak", port, 'pin = "4321"')
    weak_out = weak.communicate(timeout=120)[0]
    results: dict[str, Any] = {"weak_pin": [weak.returncode, weak_out.strip().splitlines()[-1:]]}
    process = start_serve(folder, port, "")
    try:
        wait_for_port(port, process)
        pin = (folder / "state" / "web-pin").read_text().strip()
        results["generated_pin_digits"] = len(pin) if pin.isdigit() else 0
        results.update(attacks(port, pin, process.pid))
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0]
    results["journal_shows_pin"] = f"PIN {pin}" in output
    results["exit"] = process.returncode
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
