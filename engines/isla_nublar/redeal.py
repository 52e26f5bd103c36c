"""What one player cannot see, dealt again: each other player's hand, the cards it hid face down and the
order of its draw pile (one pool of its own cards, since every card a player bought or played was seen).
Each zone keeps its size; cards being chosen from a hand are chosen again from the hand dealt.

Cards drawn at a real table (``table_cards``) are not the engine's to deal: it knows of the others' hands
only what the table showed, so nothing is dealt again."""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

from engines.core.dealing import deal, pooled
from engines.isla_nublar.components import size
from engines.isla_nublar.tasks import SelectCards
from engines.isla_nublar.unseen import at_table

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState


def resample(state: IslaNublarState, player: str, rng: random.Random) -> IslaNublarState:
    new = state.clone()
    if at_table(state):
        return new
    for other in state.players:
        if other == player:
            continue
        zones = state.zones[other]
        pool = pooled(zones["hand"], zones["hidden"], zones["draw"])
        new.zones[other]["hand"] = deal(pool, size(zones["hand"]), rng)
        new.zones[other]["hidden"] = deal(pool, size(zones["hidden"]), rng)
        new.zones[other]["draw"] = pool
        new.tasks = [_chosen_again(task, new.zones[other]["hand"], rng) if _choosing(task, other) else task
                     for task in new.tasks]
    return new


def _choosing(task: object, player: str) -> bool:
    return isinstance(task, SelectCards) and task.player == player and bool(task.chosen)


def _chosen_again(task: SelectCards, hand: dict[str, int], rng: random.Random) -> SelectCards:
    return dataclasses.replace(task, chosen=deal(dict(hand), size(task.chosen), rng))
