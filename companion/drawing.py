"""SVG primitives the pictures share: seat colours, attribute escaping, hexagons, cells. Neutral ground:
the kits' diagrams and the web and café pages draw with them, and importing it loads no web framework."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from wire.seats import SEAT_SHADES, colour_class, rgb

__all__ = ["SEAT_COLOURS", "DiagramSpots", "Spot", "attr", "cell_of_value", "colour_class", "colour_of",
           "hex_corner", "hex_points", "marked", "rgb"]

#: seat colour name -> RGB: the house palette
SEAT_COLOURS: Mapping[str, tuple[int, int, int]] = SEAT_SHADES


def marked(width: float = 3.5, dashes: str = "6 3") -> str:
    """The attributes of the orange dashed outline a diagram rings a place with (one the page's set-up
    list or an objection names)."""
    return (f'fill="none" stroke="#e65100" stroke-width="{width}" stroke-dasharray="{dashes}" '
            'class="marked"')


def attr(value: Any) -> str:
    return escape(str(value), {'"': "&quot;"})


def colour_of(players: Sequence[Mapping[str, Any]], name: str) -> str:
    for player in players:
        if player.get("name") == name:
            return str(player.get("colour", ""))
    return name if name in SEAT_COLOURS else ""


def hex_corner(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + radius * math.cos(angle), cy - radius * math.sin(angle)


def hex_points(cx: float, cy: float, radius: float) -> str:
    corners = (hex_corner(cx, cy, radius, 30 + 60 * i) for i in range(6))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def cell_of_value(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return int(value[0]), int(value[1])
    return None


@dataclass(frozen=True)
class Spot:
    """A place on a diagram a tap makes a legal move at: its centre and reach in the picture's units."""

    x: float
    y: float
    radius: float
    action: Mapping[str, Any]


@dataclass(frozen=True)
class DiagramSpots:
    """The tappable places of a diagram ``width`` x ``height`` (its viewBox) wide."""

    width: float
    height: float
    spots: tuple[Spot, ...]
