"""Final scoring: field-guide dinosaurs, loose tiles, plants, Pterodactyls, amber, and the tie-break chain.

Holdings are count vectors over the fossil kinds of :mod:`components` (``loose``: tiles not in a completed
dinosaur, including committed Piles of Bones; ``complete``: completed dinosaurs per species). Piles of Bones
not yet committed are placed at the end in the way that scores most (JP-BONES).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from engines.jurassic_parts.components import (
    BONES,
    COMMITTED,
    PART_NAMES,
    PLANT,
    PTERO,
    PTERO_POINTS,
    SPECIES,
    plant_points,
)


def max_sets(real: Sequence[int], total: Sequence[int]) -> int:
    """Complete dinosaurs that part counts make, each needing at least one real (non-Bones) tile.

    ``total[i]`` counts part i including Piles of Bones standing in for it, ``real[i]`` without them.
    With s sets each part gives s units, min(real, s) of them real; the reals can cover s sets iff their
    sum reaches s.
    """
    sets = min(total)
    while sets > 0 and sum(min(r, sets) for r in real) < sets:
        sets -= 1
    return sets


@dataclass(frozen=True)
class HoldingScore:
    total: int
    breakdown: dict[str, int]
    complete: dict[str, int]
    pterodactyls: int
    bones_placed: list[str] = field(default_factory=list)

    def tiebreak_key(self) -> tuple[int, ...]:
        """Higher is better: total, then complete 5-, 4-, 3-, 2-tile dinosaurs, then Pterodactyls."""
        by_size = sorted(SPECIES, key=lambda s: -s.size)
        return (self.total, *(self.complete[s.name] for s in by_size), self.pterodactyls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "complete": dict(self.complete),
            "pterodactyls": self.pterodactyls,
            "bones_placed": list(self.bones_placed),
        }


def _species_outcome(index: int, loose: Sequence[int], extra: Sequence[int]) -> tuple[int, int]:
    """(new complete sets, tiles left loose) for one species with ``extra`` Bones added per part."""
    species = SPECIES[index]
    real = [loose[p] for p in species.parts]
    total = [loose[p] + loose[COMMITTED + p] + extra[p] for p in species.parts]
    sets = max_sets(real, total)
    return sets, sum(total) - sets * species.size


def score_holding(loose: Sequence[int], complete: Sequence[int], amber: int,
                  place_bones: bool = True) -> HoldingScore:
    """Score one player's holdings, placing uncommitted Piles of Bones where they score most, and among
    equal scores where they win the tie-break chain (``place_bones=False``, a house rule: they stay loose)."""
    free_bones = loose[BONES]
    # a Pile of Bones only replaces a missing part of a dinosaur of which the player holds a real tile
    targets: list[int | None] = [None]
    for species in SPECIES:
        if place_bones and any(loose[p] for p in species.parts):
            targets.extend(species.parts)
    by_size = sorted(range(len(SPECIES)), key=lambda i: -SPECIES[i].size)
    best: tuple[tuple[int, ...], list[int], list[tuple[int, int]]] | None = None
    for choice in combinations_with_replacement(targets, free_bones):
        extra = [0] * len(PART_NAMES)
        placed = [p for p in choice if p is not None]
        for p in placed:
            extra[p] += 1
        outcomes = [_species_outcome(i, loose, extra) for i in range(len(SPECIES))]
        points = sum(SPECIES[i].points * sets + left for i, (sets, left) in enumerate(outcomes))
        points += free_bones - len(placed)
        # most points; then the tie-break chain (JP-TIES: complete 5-, 4-, 3-, 2-tile dinosaurs; the
        # Pterodactyls do not depend on the Bones); then fewer Bones used (the same result, fewer commitments)
        key = (points, *(outcomes[i][0] for i in by_size), -len(placed))
        if best is None or key > best[0]:
            best = (key, placed, outcomes)
    assert best is not None
    _key, placed, outcomes = best
    dinosaurs = 0
    left_loose = free_bones - len(placed)
    complete_counts: dict[str, int] = {}
    for i, (sets, left) in enumerate(outcomes):
        species = SPECIES[i]
        count = complete[i] + sets
        complete_counts[species.name] = count
        dinosaurs += count * species.points
        left_loose += left
    pterodactyls = loose[PTERO]
    breakdown = {
        "dinosaurs": dinosaurs,
        "pterodactyls": pterodactyls * PTERO_POINTS,
        "plants": plant_points(loose[PLANT]),
        "loose": left_loose,
        "amber": amber,
    }
    return HoldingScore(
        total=sum(breakdown.values()),
        breakdown=breakdown,
        complete=complete_counts,
        pterodactyls=pterodactyls,
        bones_placed=[f"BONES:{PART_NAMES[p]}" for p in placed],
    )


def winners(scores: Mapping[str, HoldingScore]) -> tuple[str, ...]:
    """Players sharing the best tie-break key (JP-TIES)."""
    if not scores:
        return ()
    best = max(score.tiebreak_key() for score in scores.values())
    return tuple(name for name, score in scores.items() if score.tiebreak_key() == best)
