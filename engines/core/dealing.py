"""Dealing hidden things again: the pieces an engine's ``resample_from_view`` is made of.

A redeal must depend on what the viewer may know and the random generator only, never on how the hidden
things really lie: so the pool is always put in one canonical order (sorted) before it is shuffled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

Kind = TypeVar("Kind", bound=Hashable)


def pooled(*holdings: Mapping[Kind, int]) -> dict[Kind, int]:
    """The holdings' pieces together, as counts per kind."""
    pool: dict[Kind, int] = {}
    for holding in holdings:
        for kind, count in holding.items():
            if count > 0:
                pool[kind] = pool.get(kind, 0) + count
    return pool


def deal(pool: dict[Kind, int], count: int, rng: random.Random,
         allowed: Callable[[Kind], bool] = lambda _kind: True) -> dict[Kind, int]:
    """``count`` pieces drawn at random from ``pool`` (taken out of it), only of the kinds ``allowed``.

    Raises ValueError when the pool holds fewer allowed pieces than asked for: the state it came from
    was not one the game can reach."""
    pieces = [kind for kind in sorted(pool, key=_order) if allowed(kind) for _ in range(pool[kind])]
    if count > len(pieces):
        raise ValueError(f"{count} hidden pieces to deal but only {len(pieces)} could be them")
    drawn: dict[Kind, int] = {}
    for kind in rng.sample(pieces, count):
        drawn[kind] = drawn.get(kind, 0) + 1
        pool[kind] -= 1
        if not pool[kind]:
            del pool[kind]
    return drawn


def deal_list(pool: dict[Kind, int], count: int, rng: random.Random) -> list[Kind]:
    """``count`` pieces drawn from ``pool`` as a list in a canonical order."""
    drawn = deal(pool, count, rng)
    return [kind for kind in sorted(drawn, key=_order) for _ in range(drawn[kind])]


def counted(items: Iterable[Kind]) -> dict[Kind, int]:
    """Counts per kind of a list of pieces."""
    counts: dict[Kind, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _order(kind: Hashable) -> tuple[str, str]:
    """Kinds of any type in one order (a pool mixes no types, but keep the sort total anyway)."""
    return (type(kind).__name__, repr(kind) if not isinstance(kind, str) else kind)
