"""Jurassic Parts actions: typed frozen value objects with a JSON form (cells are [q, r] lists in JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Action, ActionCodec

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PlaceChisel(Action):
    """Play a sharp chisel on the empty gap between the tiles at cells ``a`` and ``b`` (dulling one more per
    rocky side first)."""

    kind: ClassVar[str] = "place-chisel"
    player: str
    a: Cell
    b: Cell


@dataclass(frozen=True, slots=True)
class PickUpChisel(Action):
    """At turn start, when short of dull chisels: take one of your own chisels back from the slab (sharp)."""

    kind: ClassVar[str] = "pick-up-chisel"
    player: str
    a: Cell
    b: Cell


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end-turn"
    player: str


@dataclass(frozen=True, slots=True)
class BuyIgnoreRocks(Action):
    """Purchase: your next 2 chisels this turn ignore rocks."""

    kind: ClassVar[str] = "buy-ignore-rocks"
    player: str


@dataclass(frozen=True, slots=True)
class BuySharpen(Action):
    """Purchase: sharpen 2 more chisels."""

    kind: ClassVar[str] = "buy-sharpen"
    player: str


@dataclass(frozen=True, slots=True)
class BuySlabTile(Action):
    """Purchase: take the (face-up, non-Bones) tile at ``cell`` from the slab, if that does not split it."""

    kind: ClassVar[str] = "buy-slab-tile"
    player: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class BuyLeaderTile(Action):
    """Purchase: take a tile showing ``fossil`` from the Field Leader."""

    kind: ClassVar[str] = "buy-leader-tile"
    player: str
    fossil: str


@dataclass(frozen=True, slots=True)
class Sell(Action):
    """Sell one loose tile showing ``fossil`` to the Field Leader for 1 amber (once per turn)."""

    kind: ClassVar[str] = "sell"
    player: str
    fossil: str


@dataclass(frozen=True, slots=True)
class CommitBones(Action):
    """Commit a Pile of Bones as the missing part ``part`` (e.g. ``TREX-3``)."""

    kind: ClassVar[str] = "commit-bones"
    player: str
    part: str


@dataclass(frozen=True, slots=True)
class AwardPart(Action):
    """Equal halves: the active player awards the part containing ``cell``."""

    kind: ClassVar[str] = "award-part"
    player: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Chance: the face-down tile at ``cell`` shows ``fossil`` (``tile``: its tag id if read)."""

    kind: ClassVar[str] = "reveal"
    cell: Cell
    fossil: str
    tile: str = ""


@dataclass(frozen=True, slots=True)
class TakeTile(Action):
    """A contributor takes the awarded tile at ``cell`` as one of their share."""

    kind: ClassVar[str] = "take-tile"
    player: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class KeepTile(Action):
    """End of the game: of the last tiles, the active player keeps the one at ``cell``."""

    kind: ClassVar[str] = "keep-tile"
    player: str
    cell: Cell


ACTION_TYPES: tuple[type[Action], ...] = (
    PlaceChisel,
    PickUpChisel,
    EndTurn,
    BuyIgnoreRocks,
    BuySharpen,
    BuySlabTile,
    BuyLeaderTile,
    Sell,
    CommitBones,
    AwardPart,
    Reveal,
    TakeTile,
    KeepTile,
)
CODEC = ActionCodec(ACTION_TYPES)
