"""A simple Jurassic Parts bot: plays like a cautious beginner, for demos and benchmarks.

``bot_policy`` has the signature of ``engines.core.playout.Policy``. It chisels along existing cracks (so
splits come sooner and look like a real table's), takes the tiles that raise its score most, buys a tile
from the Field Leader when that completes a dinosaur, and ends its turn when it has nothing better to do.
It is seeded through the ``rng`` it is given, like every bot.
"""

from __future__ import annotations

import random

from engines.core import Action
from engines.jurassic_parts.actions import (
    AwardPart,
    BuyLeaderTile,
    CommitBones,
    EndTurn,
    KeepTile,
    PickUpChisel,
    PlaceChisel,
    TakeTile,
)
from engines.jurassic_parts.board import NO_CHISEL
from engines.jurassic_parts.components import KIND_OF, PTERO
from engines.jurassic_parts.scoring import score_holding
from engines.jurassic_parts.state import JurassicPartsState


def _gain(state: JurassicPartsState, player: int, kind: int, amber: int = 0) -> int:
    """Points the player gains by adding one tile of ``kind`` (with any amber it brings)."""
    loose = state.loose[player]
    before = score_holding(loose, state.complete[player], state.amber[player]).total
    added = list(loose)
    added[kind] += 1
    return score_holding(added, state.complete[player], state.amber[player] + amber).total - before


def _crack_weight(state: JurassicPartsState, action: PlaceChisel) -> float:
    layout = state.layout
    gap = layout.gap_between(action.a, action.b)
    if gap is None:
        return 0.0
    owner = state.owner
    # cracked gaps meeting this one at either end make lines of chisels
    touching = sum(1 for _c, g1, g2 in layout.wings[gap] for g in (g1, g2) if owner[g] != NO_CHISEL)
    edge = 6 - min(len(layout.adjacency[s]) for s in layout.gaps[gap])  # rim tiles break off sooner
    return (1.0 + 3.0 * touching + edge) / layout.cost[gap]


def bot_policy(state_: object, actions: list[Action], rng: random.Random) -> Action:
    """Choose one of ``actions`` (the legal actions of ``state_``, which is not a chance node)."""
    state = state_ if isinstance(state_, JurassicPartsState) else None
    if state is None or len(actions) == 1:
        return rng.choice(actions)
    for action in actions:
        if isinstance(action, CommitBones):
            return action  # only listed when it fills a missing part
    first = actions[0]
    player = state.players.index(state.current_player())
    if isinstance(first, (TakeTile, KeepTile)):
        def value(action: Action) -> float:
            if not isinstance(action, (TakeTile, KeepTile)):
                return -1.0
            kind = state.fossil[state.layout.slot_of[action.cell]]
            return _gain(state, player, kind, amber=1 if kind == PTERO else 0) + rng.random() * 0.1
        return max(actions, key=value)
    if isinstance(first, (AwardPart, PickUpChisel)):
        return rng.choice(actions)
    places = [a for a in actions if isinstance(a, PlaceChisel)]
    for action in actions:
        if isinstance(action, BuyLeaderTile):
            kind = KIND_OF[action.fossil]
            if kind != PTERO and _gain(state, player, kind) >= 4:
                return action
    if places:
        # look at a few candidates only: cheap, and still mostly extends existing cracks
        candidates = rng.sample(places, min(6, len(places)))
        return max(candidates, key=lambda a: _crack_weight(state, a) + rng.random())
    return next(a for a in actions if isinstance(a, EndTurn))
