"""A simple seeded bot for playouts (tests, benchmark, demo): plays cards, builds, buys, ends the turn."""

from __future__ import annotations

import random

from engines.core import Action, State
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    BuyScoring,
    ChooseScoring,
    Decline,
    Defend,
    EndTurn,
    Finish,
    MoveBox,
    MoveCamp,
    PlaceBox,
    PlayCard,
    StockUp,
)
from engines.isla_nublar.state import IslaNublarState

_PREFERRED_USES = ("egg", "dinosaur", "boxes", "amber", "amber-as-boxes", "influence", "scoring", "change")


def bot_policy(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Mostly sensible, still random: every legal action keeps a small chance, so playouts explore rules."""
    if rng.random() < 0.08:
        return rng.choice(actions)
    defends = [a for a in actions if isinstance(a, Defend)]
    if defends and rng.random() < 0.7:
        return rng.choice(defends)
    declines = [a for a in actions if isinstance(a, Decline)]
    if declines:
        return declines[0]
    scoring = [a for a in actions if isinstance(a, ChooseScoring)]
    if scoring and isinstance(state, IslaNublarState):
        return max(scoring, key=lambda a: state.scoring_card_points(str(state.row[a.slot]), a.player))
    for kind in (BuildCamp, BuyScoring, Buy):
        found = [a for a in actions if isinstance(a, kind)]
        if found and rng.random() < 0.8:
            return max(found, key=lambda a: getattr(a, "pile", 0)) if kind is Buy else rng.choice(found)
    plays = [a for a in actions if isinstance(a, PlayCard)]
    good = [a for a in plays if a.use in _PREFERRED_USES]
    if good and rng.random() < 0.85:
        return rng.choice(good)
    boxes = [a for a in actions if isinstance(a, PlaceBox | StockUp)]
    if boxes and rng.random() < 0.6:
        return rng.choice(boxes)
    rest = [a for a in actions if not isinstance(a, EndTurn | MoveBox | MoveCamp | Finish)]
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    if rest and rng.random() < 0.3:
        return rng.choice(rest)
    ends = [a for a in actions if isinstance(a, EndTurn | Finish)]
    return ends[0] if ends else rng.choice(actions)
