"""Fixtures of the Pi install tests: the Raspberry Pi OS-like site (helpers.pi_site), a directory every user
may read, and a fresh copy of the checkout installed by ``scripts/pi-install.sh --venv-only``."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.pi_site import (
    DIST_PACKAGES,
    SYSTEM_PYTHON,
    PiSite,
    copy_checkout,
    place_picamera2,
    place_simplejpeg,
    system_python,
)


@pytest.fixture(scope="session")
def pi_site() -> PiSite:
    if not SYSTEM_PYTHON.exists() or not DIST_PACKAGES.is_dir():
        pytest.skip("no Debian python3 here (the Pi OS-like site is built on Debian's own interpreter)")
    numpy = system_python("import numpy; print(numpy.__version__)")
    if numpy.returncode != 0:
        pytest.skip("Debian's python3-numpy is not installed (bootstrap.sh --dev installs it as root)")
    version = numpy.stdout.strip()
    assert version.startswith("1."), f"the system's numpy should be 1.x as on Raspberry Pi OS, not {version}"
    ready = system_python("import picamera2, simplejpeg").returncode == 0
    if not ready and os.geteuid() != 0:
        pytest.skip("building the Pi OS-like site writes to the system site: run as root")
    if not ready:
        with tempfile.TemporaryDirectory(prefix="dinotable-wheels-") as wheels:
            place_simplejpeg(Path(wheels))
            place_picamera2()
    loaded = system_python("import picamera2; print(picamera2.__file__)")
    assert loaded.returncode == 0, loaded.stderr
    return PiSite(SYSTEM_PYTHON, version)


@pytest.fixture(scope="session")
def open_dir() -> Iterator[Path]:
    """A directory any user may read (another user runs programs from it)."""
    path = Path(tempfile.mkdtemp(prefix="dinotable-pi-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def pi_checkout(pi_site: PiSite, open_dir: Path) -> Path:
    """A fresh copy of the checkout with its venv made by ``scripts/pi-install.sh --venv-only``."""
    checkout = copy_checkout(open_dir / "dinotable")
    environ = {**os.environ, "PYTHON": str(pi_site.python)}
    done = subprocess.run(["bash", "scripts/pi-install.sh", "--venv-only"], cwd=checkout, env=environ,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    return checkout
