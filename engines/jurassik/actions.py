"""Jurassik actions: typed, frozen, JSON round-trippable (see engines.core.actions)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.core import Action, ActionCodec, Correct, StateFormatError


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

#: fields holding a grid coordinate; every other field holds a name (player, tile id or face)
_INT_FIELDS = {"row", "col"}


class JurassikCodec(ActionCodec):
    """The core codec plus type checks: names are strings and row/col integers, so that a hand-made or
    web-submitted action (``{"victim": {}}``) is refused as a format error, never a crash in ``apply``."""

    def from_dict(self, data: Any) -> Action:
        action = super().from_dict(data)
        if isinstance(action, Correct):  # the core validates a correction's state itself
            return action
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if field.name in _INT_FIELDS:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise StateFormatError(f"{action.kind}: {field.name!r} must be an integer, not {value!r}")
            elif not isinstance(value, str):
                raise StateFormatError(f"{action.kind}: {field.name!r} must be text, not {value!r}")
        return action


CODEC = JurassikCodec([RemoveStart, Take, Reveal, Discard, Steal, Exchange, ReturnTile, Decline])
