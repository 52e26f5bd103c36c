"""Where a piece is, as a game reads its table: the one rule from a piece's zone and position to its place,
which the tracker's change check and inference both use (a game's kit declares it; vision reads it as data).

A zone means one of three things: ``positional`` (where in it a piece lies matters: the play area, a
board), ``unordered`` (only that a piece is in it: a seat's area, a reveal spot) or ``ignored`` (out of
play: the box). A piece outside every zone is positional: a stray piece must be seen where it lies.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Point = tuple[float, float]
Meaning = Literal["positional", "unordered", "ignored"]
POSITIONAL: Meaning = "positional"
UNORDERED: Meaning = "unordered"
IGNORED: Meaning = "ignored"
MEANINGS: frozenset[str] = frozenset({POSITIONAL, UNORDERED, IGNORED})
#: a declared name ending so stands for every zone whose name begins with the rest ("seat:*": each seat)
FAMILY = "*"


@dataclass(frozen=True)
class Place:
    """Where one piece is: its zone; where in it (mm) where that matters; the lattice cell it fills, where
    the table has a lattice (then the cell says where, whatever the millimetres)."""

    zone: str | None
    at: Point | None = None
    cell: Hashable | None = None


@dataclass(frozen=True)
class Places:
    """A table's zones and what each means, and how far (``tolerance_mm``) a piece may lie from a place and
    still be there. ``zones`` maps a zone's name (or a family, ``"seat:*"``) to its meaning; a zone not
    named is positional (a change there is seen rather than missed)."""

    zones: Mapping[str, Meaning] = field(default_factory=lambda: MappingProxyType({}))
    tolerance_mm: float = 12.0

    def __post_init__(self) -> None:
        wrong = sorted(f"{name}={meaning}" for name, meaning in self.zones.items() if meaning not in MEANINGS)
        if wrong:
            meanings = ", ".join(sorted(MEANINGS))
            raise ValueError(f"zone meanings must be one of {meanings}: {', '.join(wrong)}")
        if not self.tolerance_mm > 0:
            raise ValueError(f"a place's tolerance must be more than 0 mm, not {self.tolerance_mm}")

    def meaning(self, zone: str | None) -> Meaning:
        """What ``zone`` means on this table (positional for no zone and for a zone not declared)."""
        if zone is None:
            return POSITIONAL
        exact = self.zones.get(zone)
        if exact is not None:
            return exact
        families = [name for name in self.zones if name.endswith(FAMILY) and zone.startswith(name[:-1])]
        if families:
            return self.zones[max(families, key=len)]
        return POSITIONAL

    def declares(self, zone: str) -> bool:
        """Whether ``zone`` is named, by itself or by its family."""
        return zone in self.zones or any(
            name.endswith(FAMILY) and zone.startswith(name[:-1]) for name in self.zones)

    def positional(self, zone: str | None) -> bool:
        return self.meaning(zone) == POSITIONAL

    def ignored(self, zone: str | None) -> bool:
        return self.meaning(zone) == IGNORED

    def place(self, zone: str | None, at: Point | None, cell: Hashable | None = None) -> Place:
        """A piece's place: its zone alone where position does not matter; else its cell where it fills
        one, else where it lies."""
        if not self.positional(zone):
            return Place(zone)
        if cell is not None:
            return Place(zone, None, cell)
        return Place(zone, None if at is None else (float(at[0]), float(at[1])))

    def same(self, a: Place, b: Place) -> bool:
        """Whether two places are one: the same zone and cell, and within the tolerance of each other."""
        if a.zone != b.zone or a.cell != b.cell:
            return False
        if a.at is None or b.at is None:
            return a.at is None and b.at is None
        return math.dist(a.at, b.at) <= self.tolerance_mm


#: the reading of a table nobody declared: every zone positional
EVERYWHERE = Places()
