"""How the board shows a player's seat colour: the colour names come over the wire, the shades are the
house stylesheet's (its ``.c-<colour>`` classes), so a swatch on the board matches the table's page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SHADES: Mapping[str, tuple[int, int, int]] = {
    "red": (200, 40, 40),
    "blue": (40, 80, 200),
    "green": (40, 160, 60),
    "yellow": (230, 200, 40),
    "purple": (130, 60, 170),
    "orange": (240, 130, 30),
}
#: a colour the board does not know (a table newer than the board) is shown grey
UNKNOWN = (120, 120, 120)


def rgb(colour: str | None) -> str:
    r, g, b = SHADES.get(colour or "", UNKNOWN)
    return f"rgb({r},{g},{b})"


def colour_class(colour: Any) -> str:
    """The house stylesheet's class of a seat colour (the board's policy forbids inline styles)."""
    return f"c-{colour}" if colour in SHADES else "c-none"
