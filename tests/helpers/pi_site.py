"""A Raspberry Pi OS-like site on this machine: Debian's own python3 (3.11, as bookworm's) with apt's numpy
1.24, PyPI's simplejpeg 1.7.2 (its cp311 wheel is a numpy-1.x build, as Pi OS's python3-simplejpeg is) in
the system site, and a stand-in picamera2 package there that imports numpy and simplejpeg when it loads, as
the real one does. A venv that shadows the system's numpy then fails to import it exactly as on a Pi.

Debian's python3-venv and python3-numpy come from ``scripts/bootstrap.sh --dev``; simplejpeg and the
stand-in are put in place by the tests' fixture (as root; a machine with a real picamera2 keeps its own).
They stay, marked as a stand-in: a second run finds them ready. ``scripts/check-pi-arm64.sh`` builds the same
site in an arm64 root: ``python tests/helpers/pi_site.py place ROOT --arm64`` and ``... copy DIR``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")
DIST_PACKAGES = Path("/usr/lib/python3/dist-packages")
STAND_IN = "dinotable-stand-in"
SIMPLEJPEG = "simplejpeg==1.7.2"
PICAMERA2_STAND_IN = '''"""A stand-in for Raspberry Pi OS's python3-picamera2 (dinotable-stand-in): on import
it loads what the real one loads, numpy and simplejpeg (built against numpy 1.x), and uses them once."""
import numpy
import simplejpeg

_PROBE = simplejpeg.encode_jpeg(numpy.zeros((8, 8, 3), numpy.uint8))


class Picamera2:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("no camera is connected (stand-in picamera2)")
'''


@dataclass(frozen=True)
class PiSite:
    python: Path
    numpy_version: str


def system_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SYSTEM_PYTHON), "-c", code], capture_output=True, text=True, timeout=120)


def place_simplejpeg(wheels: Path, site: Path = DIST_PACKAGES, arm64: bool = False) -> None:
    """PyPI's simplejpeg 1.7.2 wheel (a numpy-1.x build) unpacked into ``site``."""
    if (site / "simplejpeg").exists():
        return
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    platform = ["--platform", "manylinux2014_aarch64"] if arm64 else []
    subprocess.run([*pip, "download", "--no-deps", "--only-binary=:all:", "--python-version", "3.11",
                    *platform, "-d", str(wheels), SIMPLEJPEG], check=True, timeout=300)
    wheel = next(wheels.glob("simplejpeg-*.whl"))
    shutil.unpack_archive(str(wheel), str(site), "zip")


def place_picamera2(site: Path = DIST_PACKAGES) -> None:
    package = site / "picamera2"
    if package.exists() and not (package / STAND_IN).exists():
        return  # a real picamera2: leave it alone
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text(PICAMERA2_STAND_IN, encoding="utf-8")
    (package / STAND_IN).write_text("made by tests/pi/conftest.py\n", encoding="utf-8")
    info = site / "picamera2-0.3.22.dist-info"
    info.mkdir(exist_ok=True)
    metadata = "Metadata-Version: 2.1\nName: picamera2\nVersion: 0.3.22\n"
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    (info / "INSTALLER").write_text(STAND_IN + "\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")


def copy_checkout(target: Path) -> Path:
    """The checkout as a fresh clone would hold it (tracked and new files, nothing ignored)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
                            cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="the Pi OS-like site and a fresh copy of the checkout")
    commands = parser.add_subparsers(dest="command", required=True)
    place = commands.add_parser("place", help="simplejpeg and the stand-in picamera2 into ROOT's system site")
    place.add_argument("root", type=Path)
    place.add_argument("--arm64", action="store_true")
    copy = commands.add_parser("copy", help="the checkout's files into DIR")
    copy.add_argument("target", type=Path)
    args = parser.parse_args(argv)
    if args.command == "copy":
        copy_checkout(args.target)
        return 0
    site = args.root / DIST_PACKAGES.relative_to("/")
    wheels = args.root / "tmp"
    wheels.mkdir(exist_ok=True)
    place_simplejpeg(wheels, site, args.arm64)
    place_picamera2(site)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
