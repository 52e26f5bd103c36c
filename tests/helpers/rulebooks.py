"""The rulebooks the engines quote, in the shared folder beside the checkout (``../shared/rulebooks``)."""

from __future__ import annotations

from pathlib import Path

import pytest

RULEBOOK_DIR = Path(__file__).resolve().parents[3] / "shared" / "rulebooks"


def rulebook_text(name: str) -> str:
    """The text of ``name`` (``jurassic-brunch.txt``); the test is skipped when the shared folder is not
    beside this checkout."""
    path = RULEBOOK_DIR / name
    if not path.is_file():
        pytest.skip(f"the shared rulebook {name} is not beside this checkout")
    return path.read_text(encoding="utf-8")
