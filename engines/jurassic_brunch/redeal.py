"""What one team cannot see, dealt again: the grass tokens still face down on the area and the other
team's tokens (its pile's and those under its Hideouts). Its face-up Hideouts, the discarded tokens and
every count stay as the table shows them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engines.core.dealing import deal, pooled
from engines.jurassic_brunch.components import FLOWER, HIDEOUT, SUPER_YUMMY, TOKEN_KINDS
from engines.jurassic_brunch.moves import Step

if TYPE_CHECKING:
    from engines.jurassic_brunch.state import BrunchState


def resample(state: BrunchState, player: str, rng: random.Random) -> BrunchState:
    new = state.clone()
    other = state.opponent(player)
    pile = {kind: n for kind, n in state.tokens[other].items() if kind != HIDEOUT}
    pool = pooled(state.bag, pile, state.hidden[other])
    in_pile, under = sum(pile.values()), sum(state.hidden[other].values())
    # seen by all: a Super Yummy eaten this turn, a Flower just offered to be stolen from; the rest of
    # the pile is face down
    seen = pooled(deal(pool, state.fresh_super_yummy[other], rng, lambda kind: kind == SUPER_YUMMY))
    if state.pending is not None and state.pending.step == Step.STEAL and state.pending.detail == other:
        seen = pooled(seen, deal(pool, 1, rng, lambda kind: kind == FLOWER))
    dealt = pooled(seen, deal(pool, in_pile - sum(seen.values()), rng, lambda kind: kind != HIDEOUT))
    hidden = deal(pool, under, rng, lambda kind: kind != HIDEOUT)
    new.tokens[other] = {kind: dealt.get(kind, 0) for kind in TOKEN_KINDS}
    new.tokens[other][HIDEOUT] = state.tokens[other][HIDEOUT]
    new.hidden[other] = {kind: hidden.get(kind, 0) for kind in TOKEN_KINDS}
    new.bag = {kind: pool.get(kind, 0) for kind in TOKEN_KINDS}
    return new
