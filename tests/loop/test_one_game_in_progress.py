"""One object holds the game in progress: the loop drives ``loop.game``; its referee (the judging part) is
reached by nobody but the game in progress itself, and what is pending is set in the referee alone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWNERS = {ROOT / "companion/table/in_progress.py", ROOT / "companion/table/setting_up.py"}
SOURCES = ("companion", "sim", "benchmarks", "tests", "cafe", "wire", "lan")


def python_files() -> list[Path]:
    return [path for folder in SOURCES for path in sorted((ROOT / folder).rglob("*.py"))]


def test_nothing_but_the_game_in_progress_reaches_its_referee() -> None:
    # an object's referee or keeper (the module's types, such as Pending and Ticket, are anyone's)
    reaching = re.compile(r"\w\._?referee\.\w+(?! import)|\w\._referee\b|\bkeeper\.\w")
    found = [f"{path.relative_to(ROOT)}:{number}" for path in python_files() if path not in OWNERS
             and path != Path(__file__).resolve()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if reaching.search(line) and not line.lstrip().startswith(("from ", "import ", ":mod:"))]
    assert not found, f"reaching into the game in progress: {found}"


def test_what_is_pending_is_set_by_the_referee_alone() -> None:
    setting = re.compile(r"(?:game|referee)\.pending\s*=[^=]")
    found = [f"{path.relative_to(ROOT)}:{number}" for path in python_files()
             if path.name != "referee.py" and path != Path(__file__).resolve()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if setting.search(line)]
    assert not found, f"pending set outside the referee: {found}"
