"""Jurassik actions: typed, frozen, JSON round-trippable (see engines.core.actions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Action, ActionCodec


@dataclass(frozen=True)
class RemoveStart(Action):
    """The first player lifts the beginning-of-excavation tile (into the box); the same player then plays."""

    kind: ClassVar[str] = "remove_start"
    player: str


@dataclass(frozen=True)
class Take(Action):
    """Take the accessible tile at (row, col) of the excavation zone (0-based, row 0 at the top)."""

    kind: ClassVar[str] = "take"
    player: str
    row: int
    col: int


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the action tile just taken shows ``face`` (rock, discard, exchange, steal, twice, return)."""

    kind: ClassVar[str] = "reveal"
    face: str


@dataclass(frozen=True)
class Discard(Action):
    """Discarding: put one of your loose tiles into the box."""

    kind: ClassVar[str] = "discard"
    player: str
    tile: str


@dataclass(frozen=True)
class Steal(Action):
    """Stealing: take the loose ``tile`` from ``victim``."""

    kind: ClassVar[str] = "steal"
    player: str
    victim: str
    tile: str


@dataclass(frozen=True)
class Exchange(Action):
    """Exchanging: give your loose tile ``give`` to ``other`` and take their loose tile ``take``."""

    kind: ClassVar[str] = "exchange"
    player: str
    give: str
    other: str
    take: str


@dataclass(frozen=True)
class ReturnTile(Action):
    """Returning (English edition): take the dinosaur tile ``tile`` from the box."""

    kind: ClassVar[str] = "return"
    player: str
    tile: str


@dataclass(frozen=True)
class Decline(Action):
    """Use no more of an optional action (Stealing, Exchanging, Returning, the rest of Playing twice)."""

    kind: ClassVar[str] = "decline"
    player: str


PLAYER_ACTIONS = (RemoveStart, Take, Discard, Steal, Exchange, ReturnTile, Decline)

CODEC = ActionCodec([RemoveStart, Take, Reveal, Discard, Steal, Exchange, ReturnTile, Decline])
