"""The Pi install on a Raspberry Pi OS-like site (see conftest): the project's own install keeps the system's
numpy, picamera2 imports and the demo runs as on x86; a venv that shadows numpy is named by doctor and by
the page; lgpio works from a read-only working directory."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.pi_site import ROOT, PiSite

pytestmark = pytest.mark.slow
MAIN_COMPANION = Path(sys.executable).parent / "companion"


def run(command: list[str], cwd: Path, timeout: float = 600,
        **options: Any) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", **options.pop("env", {})}
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=timeout,
                          **options)


def doctor(venv: Path, cwd: Path, config: Path, **options: Any) -> dict[str, dict[str, str]]:
    done = run([str(venv / "bin/companion"), "doctor", "--config", str(config), "--no-camera", "--json"], cwd,
               **options)
    assert done.returncode in (0, 1), done.stderr
    return {check["name"]: check for check in json.loads(done.stdout)["checks"]}


@pytest.fixture(scope="module")
def picamera_config(open_dir: Path) -> Path:
    path = open_dir / "picamera.toml"
    path.write_text(f'[camera]\nsource = "picamera"\n[store]\nstate_dir = "{open_dir / "state"}"\n',
                    encoding="utf-8")
    return path


def test_the_pi_install_keeps_the_system_numpy_and_picamera2_imports(
    pi_site: PiSite, pi_checkout: Path, picamera_config: Path
) -> None:
    python = pi_checkout / ".venv/bin/python"
    numpy = run([str(python), "-c", "import numpy; print(numpy.__version__, numpy.__file__)"], pi_checkout)
    version, path = numpy.stdout.split()
    assert version == pi_site.numpy_version and path.startswith("/usr/lib/python3/dist-packages/")
    cv2 = run([str(python), "-c", "import cv2; print(cv2.__version__)"], pi_checkout)
    assert cv2.stdout.strip() == "4.11.0"  # the newest OpenCV a numpy-1.x system allows
    assert run([str(python), "-c", "from picamera2 import Picamera2"], pi_checkout).returncode == 0
    checks = doctor(pi_checkout / ".venv", pi_checkout, picamera_config)
    assert checks["numpy"]["level"] == "ok" and "the system's" in checks["numpy"]["detail"]
    assert checks["camera library"]["level"] == "ok"
    again = run(["bash", "scripts/pi-install.sh", "--venv-only"], pi_checkout,
                env={"PYTHON": str(pi_site.python)})
    assert again.returncode == 0 and "already installed" in again.stderr  # idempotent


def _moves(output: str) -> list[str]:
    """The demo's lines with its timing taken out (the rest is the game)."""
    return [re.sub(r" in [0-9.]+ s", "", line) for line in output.splitlines()]


def test_the_demo_and_decode_on_the_pi_os_site_match_this_machine(pi_checkout: Path) -> None:
    demo = ["demo", "--headless", "--until-end", "--game", "jurassik", "--seed", "3", "--verbose"]
    pi = run([str(pi_checkout / ".venv/bin/companion"), *demo], pi_checkout)
    here = run([str(MAIN_COMPANION), *demo], ROOT)
    assert pi.returncode == 0, pi.stderr
    assert "winner(s):" in pi.stdout and _moves(pi.stdout) == _moves(here.stdout)
    image = str(ROOT / "docs/images/jp-midgame-tilt15-hand.png")
    decoded_pi = run([str(pi_checkout / ".venv/bin/companion"), "decode", image], pi_checkout)
    decoded_here = run([str(MAIN_COMPANION), "decode", image], ROOT)
    assert decoded_pi.returncode == 0 and decoded_pi.stdout == decoded_here.stdout
    assert len(json.loads(decoded_pi.stdout)) > 10


@pytest.fixture(scope="module")
def shadowing_venv(pi_site: PiSite, pi_checkout: Path) -> Path:
    """What the old instructions made: a --system-site-packages venv with pip's own numpy 2 in it."""
    venv = pi_checkout.parent / "shadowing-venv"
    subprocess.run([str(pi_site.python), "-m", "venv", "--system-site-packages", str(venv)], check=True,
                   timeout=300)
    done = run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                "-c", "constraints/tested.txt", "-e", "."], pi_checkout, timeout=1200)
    assert done.returncode == 0, done.stderr
    return venv


def test_a_numpy_that_shadows_the_systems_is_named_with_its_fix(
    pi_site: PiSite, pi_checkout: Path, shadowing_venv: Path, picamera_config: Path
) -> None:
    python = shadowing_venv / "bin/python"
    bare = run([str(python), "-c", "from picamera2 import Picamera2"], pi_checkout)
    assert "numpy.dtype size changed" in bare.stderr  # the failure a Pi shows
    loaded = run([str(python), "-c", "from vision.camera_library import load_picamera2; load_picamera2()"],
                 pi_checkout)
    assert "CameraLibraryError" in loaded.stderr
    assert f"shadows the system's numpy {pi_site.numpy_version}" in loaded.stderr
    assert "scripts/pi-install.sh" in loaded.stderr
    checks = doctor(shadowing_venv, pi_checkout, picamera_config)
    assert checks["numpy"]["level"] == "fail" and "scripts/pi-install.sh" in checks["numpy"]["fix"]
    assert checks["camera library"]["level"] == "fail"
    assert f"numpy {pi_site.numpy_version}" in checks["camera library"]["detail"]


def test_lgpio_works_from_a_read_only_working_directory(pi_checkout: Path, open_dir: Path) -> None:
    """The service's working directory is read-only: lgpio's pipe must go elsewhere, and the process
    keeps its working directory."""
    if os.geteuid() != 0:
        pytest.skip("running as another user needs root")
    python = str(pi_checkout / ".venv/bin/python")
    read_only = open_dir / "read-only"
    read_only.mkdir(exist_ok=True)
    read_only.chmod(0o555)
    as_nobody = ["runuser", "-u", "nobody", "--"]
    plain = run([*as_nobody, python, "-c", "import lgpio"], read_only)
    assert plain.returncode != 0 and ".lgd-nfy" in plain.stderr  # what the unit had done to the panel
    mended = run([*as_nobody, python, "-c",
                  "import os; from hw.pins import import_lgpio; import_lgpio(); print(os.getcwd())"],
                 read_only)
    assert mended.returncode == 0, mended.stderr
    assert mended.stdout.strip() == str(read_only)
    runtime = open_dir / "runtime"
    runtime.mkdir(exist_ok=True)
    runtime.chmod(0o777)
    unit_like = run([*as_nobody, python, "-c", "import lgpio"], read_only, env={"LG_WD": str(runtime)})
    assert unit_like.returncode == 0, unit_like.stderr  # the unit's LG_WD=/run/dinotable
