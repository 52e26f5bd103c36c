"""`companion pair` and the service agree on the PIN: the config the Pi install writes names the service's
state directory, so `sudo -u dinotable companion pair --config ...` (no $STATE_DIRECTORY) and the service
(systemd sets $STATE_DIRECTORY) read the same PIN, whichever starts first."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def companion(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=120, env={**environ, "GPIOZERO_PIN_FACTORY": "mock", **(env or {})})


def printed_pin(output: str) -> str:
    match = re.search(r"enter the PIN (\w+)", output)
    assert match, output
    return match.group(1)


def login(port: int, pin: str) -> int:
    """POST the PIN as the page's form does; the status (302: in, 401: refused)."""
    def request(method: str, body: str | None = None, headers: dict[str, str] | None = None,
                cookie: str = "") -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent = {"Host": f"localhost:{port}", **(headers or {})}
        if cookie:
            sent["Cookie"] = cookie
        connection.request(method, "/login", body=body, headers=sent)
        return connection.getresponse()

    form = request("GET")
    page = form.read().decode()
    cookie = (form.getheader("Set-Cookie") or "").split(";", 1)[0]
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token, page[:300]
    answer = request("POST", urlencode({"pin": pin, "csrf_token": token.group(1)}), {
        "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://localhost:{port}"}, cookie)
    answer.read()
    return answer.status


def serve(config: Path, state_dir: Path, attempts: int = 3) -> tuple[subprocess.Popen[str], int]:
    """The service on a free port (another one when something else took the port meanwhile)."""
    environ = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    for _ in range(attempts):
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--config", str(config), "--port", str(port)],
            env={**environ, "GPIOZERO_PIN_FACTORY": "mock", "STATE_DIRECTORY": str(state_dir)},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return process, port
            except OSError:
                time.sleep(0.3)
        if process.poll() is None:
            process.kill()
            raise AssertionError("serve never listened")
        output = process.communicate()[0]
        assert "Address already in use" in output, output  # any other exit is the failure itself
    raise AssertionError(f"no free port in {attempts} tries")


def stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    return process.communicate(timeout=30)[0]


@pytest.mark.parametrize("first", ["pair", "service"])
def test_pair_and_the_service_use_one_pin_whichever_comes_first(tmp_path: Path, first: str) -> None:
    state_dir = tmp_path / "var-lib-dinotable"
    config = tmp_path / "config.toml"
    written = companion("serve", "--write-config", str(config), "--state-dir", str(state_dir))
    assert written.returncode == 0, written.stderr
    if first == "pair":
        paired = companion("pair", "--config", str(config))
        assert paired.returncode == 0, paired.stderr
        pin = printed_pin(paired.stdout)
    process, port = serve(config, state_dir)
    try:
        if first == "service":
            pin = (state_dir / "web-pin").read_text(encoding="utf-8").strip()
            paired = companion("pair", "--config", str(config))
            assert printed_pin(paired.stdout) == pin
        assert login(port, pin) == 302
        assert login(port, "000000" if pin != "000000" else "111111") == 401
    finally:
        journal = stop(process)
    assert (f"PIN {pin}" in journal) == (first == "service")  # in the journal only when made at this start
    assert "The camera does not open" not in journal  # the fault is on the page, the journal says it plainly
    assert re.search(r"camera: .*Raspberry Pi", journal), journal  # this is no Pi: the picamera default


def test_calibrate_with_the_services_config_writes_into_its_state_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import random

    import cv2

    from companion.cli import main
    from companion.kits.jurassik.table import scene_for
    from engines.jurassik import GAME
    from sim.camera_model import recommended_camera
    from sim.render import render

    state_dir = tmp_path / "var-lib-dinotable"
    state_dir.mkdir()
    config = tmp_path / "config.toml"
    seats = "".join(f'[[seats]]\nname = "{n}"\ncolour = "{c}"\n' for n, c in [("Ana", "red"), ("Bo", "blue"),
                                                                             ("Cy", "green")])
    config.write_text(f'game = "jurassik"\n{seats}[store]\nstate_dir = "{state_dir}"\n', encoding="utf-8")
    table = GAME.new_initial_state(["red", "blue", "green"], random.Random(2))
    frame = render(scene_for(table), recommended_camera(tilt=0.0), rng=1)
    photo = tmp_path / "frame.png"
    cv2.imwrite(str(photo), frame.image)
    main(["calibrate", str(photo), "--config", str(config)])
    report = json.loads(capsys.readouterr().out)
    saved = state_dir / "calibration.json"
    assert report["saved"] == str(saved) and saved.exists()
    assert report["next"] == f'set [camera] calibration = "{saved}" in {config} to use it'
    from vision.calibration import Calibration

    zones = [zone.name for zone in Calibration.load(state_dir / "calibration.json").zones]
    assert [name for name in zones if name.startswith("seat")] == ["seat:red", "seat:blue", "seat:green"]
