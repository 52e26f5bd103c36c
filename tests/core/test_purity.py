"""The layers import one way: engines are pure, vision reads frames, hw drives pins, the simulator draws
tables, the companion sits on top.

- engines/ imports only engines/ (and no I/O library);
- vision/ imports neither engines/ nor the simulator (nor the companion or hw); its seat palette is wire's;
- hw/ imports nothing of ours;
- sim/ may use engines/ and vision's data types, never the companion or hw;
- wire/ (the format between tables and café board) and lan/ (serving a page on the LAN) import nothing of
  ours;
- cafe/ (the café board, its own deployable) uses only wire/ and lan/;
- companion/ may use everything but the café.

Every import counts, also those inside functions and ``importlib.import_module("...")`` calls.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = {"engines", "vision", "hw", "sim", "companion", "wire", "lan", "cafe"}
IO_LIBRARIES = {
    "cv2", "gpiozero", "flask", "picamera2", "pyzbar", "zxingcpp", "sqlite3", "numpy", "socket",
    "subprocess", "threading", "requests", "urllib", "segno", "fpdf", "waitress", "paho",
}
#: package -> the roots it must not import
FORBIDDEN: dict[str, set[str]] = {
    "engines": (OURS - {"engines"}) | IO_LIBRARIES,
    "vision": {"engines", "sim", "companion", "hw"},
    "hw": OURS - {"hw"},
    "sim": {"companion", "hw", "cafe"},
    "wire": OURS - {"wire"},
    "lan": OURS - {"lan"},
    "cafe": OURS - {"cafe", "wire", "lan"},
    "companion": {"cafe"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    roots.add(arg.value.split(".")[0])
    return roots


def offenders(package: str) -> dict[str, list[str]]:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no sources under {package}/"
    found = {}
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[package]
        if bad:
            found[str(path.relative_to(ROOT))] = sorted(bad)
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_each_layer_imports_only_what_lies_below_it(package: str) -> None:
    assert offenders(package) == {}


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text(
        "import os\nfrom cv2 import imread\nimport gpiozero.pins\n"
        "def late():\n    from engines.core import State\n    import importlib\n"
        "    importlib.import_module('sim.render')\n"
    )
    assert imported_roots(sample) & FORBIDDEN["vision"] == {"engines", "sim"}
    assert imported_roots(sample) & FORBIDDEN["engines"] == {"cv2", "gpiozero", "sim"}


def test_every_package_is_under_a_rule() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert packages == set(FORBIDDEN)


#: parts of the companion -> the modules they must not import (by prefix): a game's kit draws with the
#: neutral ``companion.drawing`` and never reaches the web page or the running table; the running table
#: knows neither its page, its commands nor its broker link (they are handed to it)
PART_FORBIDDEN: dict[str, tuple[str, ...]] = {
    "companion/kits": ("flask", "werkzeug", "jinja2", "companion.web", "companion.table", "companion.store"),
    "companion/table": ("flask", "werkzeug", "jinja2", "companion.web", "companion.commands",
                        "companion.mqtt", "companion.cli"),
    "companion/drawing.py": ("flask", "companion.web", "companion.kits"),
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


@pytest.mark.parametrize("part", sorted(PART_FORBIDDEN))
def test_the_companion_s_parts_import_one_way(part: str) -> None:
    where = ROOT / part
    files = sorted(where.rglob("*.py")) if where.is_dir() else [where]
    assert files, f"no sources under {part}"
    found = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path)
                                            if m.startswith(PART_FORBIDDEN[part]))
        for path in files
    }
    assert {path: bad for path, bad in found.items() if bad} == {}
