"""A simple seeded bot for playouts (tests, benchmark, demo): plays cards, builds, buys, ends the turn."""

from __future__ import annotations

import random
from typing import cast

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
    # one pass sorts the actions by type (keeping their order); the action types have no subclasses
    by_type: dict[type, list[Action]] = {}
    for action in actions:
        by_type.setdefault(type(action), []).append(action)
    defends = by_type.get(Defend)
    if defends and rng.random() < 0.7:
        return rng.choice(defends)
    declines = by_type.get(Decline)
    if declines:
        return declines[0]
    scoring = cast(list[ChooseScoring], by_type.get(ChooseScoring))
    if scoring and isinstance(state, IslaNublarState):
        return max(scoring, key=lambda a: state.scoring_card_points(str(state.row[a.slot]), a.player))
    for kind in (BuildCamp, BuyScoring, Buy):
        found = by_type.get(kind)
        if found and rng.random() < 0.8:
            return max(found, key=lambda a: getattr(a, "pile", 0)) if kind is Buy else rng.choice(found)
    plays = cast(list[PlayCard], by_type.get(PlayCard, []))
    good = [a for a in plays if a.use in _PREFERRED_USES]
    if good and rng.random() < 0.85:
        return rng.choice(good)
    # the legal-action list puts every box placement before the stock-ups
    boxes = by_type.get(PlaceBox, []) + by_type.get(StockUp, [])
    if boxes and rng.random() < 0.6:
        return rng.choice(boxes)
    if plays and rng.random() < 0.5:
        return rng.choice(plays)
    rest = [a for a in actions if not isinstance(a, EndTurn | MoveBox | MoveCamp | Finish)]
    if rest and rng.random() < 0.3:
        return rng.choice(rest)
    # EndTurn ends the main phase's list, Finish opens a pending choice's: never both
    ends = by_type.get(EndTurn) or by_type.get(Finish)
    return ends[0] if ends else rng.choice(actions)
