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
from engines.isla_nublar.tasks import SelectCards, Task
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
        new.tasks = [_chosen_again(task, other, new.zones[other]["hand"], rng) for task in new.tasks]
    return new


def _chosen_again(task: Task, player: str, hand: dict[str, int], rng: random.Random) -> Task:
    """A choice of cards from ``player``'s hand, made again from the hand dealt."""
    if not isinstance(task, SelectCards) or task.player != player or not task.chosen:
        return task
    return dataclasses.replace(task, chosen=deal(dict(hand), size(task.chosen), rng))
