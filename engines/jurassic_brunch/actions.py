"""Jurassic Brunch actions: frozen value objects with their JSON forms.

Board actions use ``"from"`` in JSON, a Python keyword, so the field is called ``origin`` and the codec
renames it both ways.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engines.core import Action, ActionCodec, StateFormatError

Cell = tuple[int, int]


class _FromField(Action):
    """Serializes the ``origin`` field as ``"from"``; drops an unset ``eats``/``scares``."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None and field.name in ("eats", "scares"):
                continue
            key = "from" if field.name == "origin" else field.name
            data[key] = list(value) if isinstance(value, tuple) else value
        return data


@dataclasses.dataclass(frozen=True)
class Move(_FromField):
    """Peaceful move of a standing triceratops; ``eats`` None means 'whatever the rules say'."""

    kind: ClassVar[str] = "move"
    origin: Cell
    to: Cell
    eats: bool | None = None


@dataclasses.dataclass(frozen=True)
class Charge(_FromField):
    """Charge from ``origin`` at the dinosaur on ``target``; the expelled one is placed next (Expel)."""

    kind: ClassVar[str] = "charge"
    origin: Cell
    target: Cell


@dataclasses.dataclass(frozen=True)
class RaptorMove(_FromField):
    kind: ClassVar[str] = "raptor"
    origin: Cell
    to: Cell
    scares: bool | None = None


@dataclasses.dataclass(frozen=True)
class Wake(Action):
    kind: ClassVar[str] = "wake"
    at: Cell


@dataclasses.dataclass(frozen=True)
class Expel(Action):
    """The charging player puts the expelled dinosaur on an empty cell."""

    kind: ClassVar[str] = "expel"
    to: Cell


@dataclasses.dataclass(frozen=True)
class Reveal(Action):
    """Chance: the eaten token turns out to be ``token`` (seen by the camera or entered by hand)."""

    kind: ClassVar[str] = "reveal"
    token: str


@dataclasses.dataclass(frozen=True)
class Steal(Action):
    """Chance: the token taken at random from the opponent with a Flower."""

    kind: ClassVar[str] = "steal"
    token: str


@dataclasses.dataclass(frozen=True)
class Birth(Action):
    """Birth: a triceratops from the pool goes to the empty cell ``to``."""

    kind: ClassVar[str] = "birth"
    to: Cell


@dataclasses.dataclass(frozen=True)
class Look(Action):
    """An effect could not be applied: the player secretly looks at these grass tokens."""

    kind: ClassVar[str] = "look"
    cells: tuple[Cell, ...]


@dataclasses.dataclass(frozen=True)
class Hide(Action):
    """Put one of your tokens under your Hideout (a free step of your turn)."""

    kind: ClassVar[str] = "hide"
    token: str


@dataclasses.dataclass(frozen=True)
class UseSuperYummy(Action):
    """Discard a Super Yummy for one more action this turn."""

    kind: ClassVar[str] = "super_yummy"


@dataclasses.dataclass(frozen=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end_turn"


ACTION_TYPES: tuple[type[Action], ...] = (
    Move, Charge, RaptorMove, Wake, Expel, Reveal, Steal, Birth, Look, Hide, UseSuperYummy, EndTurn,
)
_CELL_FIELDS = {"origin", "to", "target", "at"}


class BrunchCodec(ActionCodec):
    """The core codec plus the ``from`` key and a check that cells are integer pairs."""

    def from_dict(self, data: Any) -> Action:
        if isinstance(data, Mapping) and "from" in data:
            if "origin" in data:
                data = dict(data)
                data.pop("origin")
            data = {("origin" if key == "from" else key): value for key, value in data.items()}
        action = super().from_dict(data)
        for field in dataclasses.fields(action):
            value = getattr(action, field.name)
            if field.name in _CELL_FIELDS and not _is_cell(value):
                shown = "from" if field.name == "origin" else field.name
                raise StateFormatError(f"{action.kind}: '{shown}' must be [x, y] integers, not {value!r}")
            if field.name == "cells" and not (
                isinstance(value, tuple) and all(_is_cell(cell) for cell in value)
            ):
                raise StateFormatError(f"{action.kind}: 'cells' must be a list of [x, y] integer pairs")
            if field.name in ("eats", "scares") and value is not None and not isinstance(value, bool):
                raise StateFormatError(f"{action.kind}: '{field.name}' must be true or false")
            if field.name == "token" and not isinstance(value, str):
                raise StateFormatError(f"{action.kind}: 'token' must be a token name")
        return action


def _is_cell(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


CODEC = BrunchCodec(ACTION_TYPES)
