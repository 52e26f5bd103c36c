"""Seeded random games whose states the table layouts and vision tests draw."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engines.core import Action, Game, State, playout_states, sample_chance


def seeded_states(
    game: Game,
    players: Sequence[str],
    seed: int,
    steps: int,
    options: Mapping[str, Any] | None = None,
    seen: Callable[[State, Action], Action] | None = None,
) -> list[Any]:
    """The initial state of a seeded random game and up to ``steps`` more (fewer when it ends). A chance
    outcome is drawn by its weight; ``seen(state, outcome)`` may replace it with what the table would show
    (e.g. the tile really lying under a back)."""

    def chance(state: State, rng: random.Random) -> Action:
        drawn = sample_chance(state, rng)
        return drawn if seen is None else seen(state, drawn)

    rng = random.Random(seed)
    states = playout_states(game, players, rng, dict(options) if options else None, chance=chance)
    return list(itertools.islice(states, steps + 1))
