"""How a game's table is read, as its kit declares it: :class:`TableReading`, the contract the shared code
reads (the tracker, inference, the printed sheets, the keeper's chance, the page's taps) instead of knowing
any game. A kit that leaves part of it out is refused when it is registered, in one line saying what."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from vision.places import Places

if TYPE_CHECKING:
    from companion.kits.kit import Kit

#: the printed side (mm) a code may have: below this no camera reads it at a table's distance
SMALLEST_TAG_MM = 8.0
LARGEST_TAG_MM = 100.0


class KitContractError(ValueError):
    """A kit does not declare what the shared code needs to read its table."""


@dataclass(frozen=True)
class TableReading:
    """What a game's table is, for reading it.

    ``places``: its zones, what each means (positional, unordered, ignored) and how far a piece may lie from
    its place: the one rule from a piece to its place, for the tracker and inference alike. ``tag_mm``: the
    printed side (mm, a version-1 code) of the codes on each kind of component. Each chance outcome the
    engine turns up is met in one of three ways: the camera reads it from the table (any kind not named
    here), a person taps it on the page (``tapped_chance``: turned face up for everyone, such as a buy
    pile's next card) or the table never shows it (``unseen_chance``: a card drawn into a hand; the
    companion makes it itself where it is the only one the engine allows)."""

    places: Places
    tag_mm: Mapping[str, float]
    tapped_chance: frozenset[str] = frozenset()
    unseen_chance: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tag_mm", MappingProxyType(dict(self.tag_mm)))


def contract_error(kit: Kit) -> str | None:
    """What ``kit`` leaves out of its reading contract, in one line; None when nothing."""
    name = getattr(kit, "name", type(kit).__name__)
    reading = getattr(type(kit), "reading", None)
    if not isinstance(reading, TableReading):
        return f"kit {name}: declares no reading (a TableReading: zones, tag sizes, chance)"
    sizes = reading.tag_mm
    wrong = sorted(f"{kind}={mm}" for kind, mm in sizes.items()
                   if not SMALLEST_TAG_MM <= mm <= LARGEST_TAG_MM)
    if wrong:
        return (f"kit {name}: tag sizes must be {SMALLEST_TAG_MM:g} to {LARGEST_TAG_MM:g} mm: "
                f"{', '.join(wrong)}")
    kinds = {entry.kind for entry in kit.inventory().faces}
    unsized = sorted(kinds - set(sizes))
    if unsized:
        return f"kit {name}: no printed size for the tags of kind {', '.join(unsized)} (reading.tag_mm)"
    both = sorted(reading.tapped_chance & reading.unseen_chance)
    if both:
        return f"kit {name}: chance {', '.join(both)} is both tapped and unseen: it can be only one"
    return None


def check_contract(kit: Kit) -> None:
    """Refuse a kit whose reading contract is incomplete (:class:`KitContractError`, one line)."""
    error = contract_error(kit)
    if error is not None:
        raise KitContractError(error)
