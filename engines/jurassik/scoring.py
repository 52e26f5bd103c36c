"""Jurassik's scoring: per dinosaur held, 1 piece 1 point, 2 pieces 3, 3 pieces 6, all 4 pieces 10."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engines.jurassik.components import POINTS, dinosaur_of


def score_hands(hands: Mapping[str, Sequence[str]]) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Totals and per-dinosaur breakdown (``{"D1": 10, "D3": 1}``) of each player's tiles."""
    totals: dict[str, int] = {}
    breakdown: dict[str, dict[str, int]] = {}
    for name, hand in hands.items():
        counts = Counter(dinosaur_of(tile) for tile in hand)
        parts = {f"D{d}": POINTS[counts[d]] for d in sorted(counts)}
        breakdown[name] = parts
        totals[name] = sum(parts.values())
    return totals, breakdown


