"""Jurassic Brunch's scoring: points per token held, the outright loss of a team with no triceratops left
on the area, and the fewer-tokens tie-break."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import Outcome
from engines.jurassic_brunch.components import points


def rank(holdings: Mapping[str, Mapping[str, int]], losers: list[str]) -> Outcome:
    """Scores and winners from what each player holds; ``losers`` lost outright (no triceratops left)."""
    breakdown = {player: points(held) for player, held in holdings.items()}
    scores = {player: sum(parts.values()) for player, parts in breakdown.items()}
    counts = {player: sum(held.values()) for player, held in holdings.items()}
    if losers:
        winners = tuple(player for player in holdings if player not in losers)
        tiebreak: dict[str, Any] = {"outright_losers": list(losers)}
    else:
        best = max(scores.values())
        leaders = [player for player in holdings if scores[player] == best]
        tiebreak = {}
        if len(leaders) > 1:
            fewest = min(counts[player] for player in leaders)
            tiebreak = {"tokens": {player: counts[player] for player in leaders}}
            leaders = [player for player in leaders if counts[player] == fewest]
        winners = tuple(leaders)
    return Outcome(scores, breakdown, winners, "", tiebreak)
