"""The seat colours of the house, the one palette every part reads: the names a table reports on the wire,
in seat order, and the shade each is drawn in (the pegs' and pieces' printed colour the camera starts
from, the pages' and the board's swatches, the house stylesheet's ``.c-<colour>`` classes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RGB = tuple[int, int, int]

SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange")
SEAT_SHADES: Mapping[str, RGB] = {
    "red": (200, 40, 40),
    "blue": (40, 80, 200),
    "green": (40, 160, 60),
    "yellow": (230, 200, 40),
    "purple": (130, 60, 170),
    "orange": (240, 130, 30),
}
#: a colour this side does not know (say, a table newer than the board) is drawn grey
UNKNOWN_SHADE: RGB = (120, 120, 120)


def rgb(colour: str | None) -> str:
    """The CSS ``rgb()`` of a seat colour, grey for one the house does not know."""
    r, g, b = SEAT_SHADES.get(colour or "", UNKNOWN_SHADE)
    return f"rgb({r},{g},{b})"


def colour_class(colour: Any) -> str:
    """The house stylesheet's class of a seat colour (the pages' policy forbids inline styles)."""
    return f"c-{colour}" if colour in SEAT_SHADES else "c-none"
