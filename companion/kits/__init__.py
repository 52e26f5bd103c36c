"""Each game's place at the table: its kit, everything about the game that is not its rules.

A game is its engine package (``engines/<game>/``: the rules) plus one kit here (``companion/kits/<game>/``):
the table layout and the scene the table shows in any state, the geometry hints vision reads it with, the
tags its components carry (derived from the engine's own component data), the inference model that turns
what the camera sees into moves, the diagram the page draws and the names people use. Kits are found by
the game's one name (:func:`kit_for` takes every spelling the engine registry knows), so adding a game
touches its engine package and its kit, nothing else.

Every kit package has the same files: ``__init__.py`` (the kit, registered), ``reading.py`` (how its table
is read: a :class:`~companion.kits.reading.TableReading`; a kit that leaves part of it out is refused),
``tags.py`` (what its components carry), ``table.py`` (layout and scene), ``model.py`` (inference),
``diagram.py`` (the page's picture of the table).
"""

from __future__ import annotations

import importlib
import pkgutil

from companion.kits.kit import Kit
from companion.kits.reading import KitContractError, TableReading, check_contract

__all__ = ["Kit", "KitContractError", "TableReading", "find_kit", "kit_for", "kits", "register_kit"]

_KITS: dict[str, Kit] = {}
_discovered = False


def register_kit(kit: Kit) -> Kit:
    """Seat ``kit``'s game at the table; :class:`KitContractError` (one line) for a kit whose reading
    contract leaves something out."""
    check_contract(kit)
    _KITS[kit.name] = kit
    return kit


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")


def find_kit(game: str) -> Kit | None:
    """The kit of the game spelt ``game``, or None for a game without one (a test's toy game)."""
    from engines.core import canonical_name

    _discover()
    return _KITS.get(canonical_name(game))


def kit_for(game: str) -> Kit:
    """The kit of the game spelt ``game``; KeyError when the game or its kit is unknown."""
    kit = find_kit(game)
    if kit is None:
        raise KeyError(f"{game!r} has no table kit; kits: {', '.join(sorted(kits()))}")
    return kit


def kits() -> dict[str, Kit]:
    """Every kit by game name."""
    _discover()
    return dict(_KITS)
