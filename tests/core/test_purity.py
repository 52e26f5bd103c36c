"""Engines are pure: nothing under engines/ may import I/O layers."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[2] / "engines"
FORBIDDEN = {
    "cv2", "gpiozero", "flask", "picamera2", "pyzbar", "zxingcpp", "sqlite3", "numpy",
    "companion", "vision", "hw", "socket", "subprocess", "threading", "requests", "urllib",
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


def test_engines_import_no_io_layers() -> None:
    offenders = {}
    files = sorted(ENGINES.rglob("*.py"))
    assert files, "no engine sources found"
    for path in files:
        bad = imported_roots(path) & FORBIDDEN
        if bad:
            offenders[str(path.relative_to(ENGINES.parent))] = sorted(bad)
    assert offenders == {}


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("import os\nfrom cv2 import imread\nimport gpiozero.pins\n")
    assert imported_roots(sample) & FORBIDDEN == {"cv2", "gpiozero"}
