"""Importing a game's kit (its table, model, words and diagram) loads no web framework: the kits draw
with the neutral SVG primitives of ``companion.drawing``, and the page imports the kits, never back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, pkgutil, sys
import companion.kits as kits
for info in pkgutil.walk_packages(kits.__path__, "companion.kits."):
    importlib.import_module(info.name)
import random
from engines.core import get_game
def view(kit):
    return get_game(kit.name).new_initial_state(list(kit.demo_colours), rng=random.Random(1)).view(None)
drawn = [kit.diagram(view(kit), {"players": [], "game": kit.name}) for kit in kits.kits().values()]
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("flask", "werkzeug", "jinja2")
                or m.startswith("companion.web"))
print(len(kits.kits()), len(drawn), loaded)
"""


def test_importing_every_kit_loads_no_flask() -> None:
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    count, drawn, loaded = run.stdout.split(" ", 2)
    assert int(count) >= 4 and int(drawn) == int(count)
    assert loaded.strip() == "[]"
