"""Cards drawn at a real table (option ``table_cards``: ``"table"``): nobody tells the engine what a player
draws, so a hand holds cards the engine knows only as "one of the draw pile's" until they are laid face up.

The draw zone keeps the identities of the physical draw pile *and* of the cards drawn from it unseen; its
physical height is that size less the unseen cards. When the pile runs out, every card left in the zone is
one of the unseen cards: they become the player's *pool* (known as a set, not which is in the hand and which
in the hideout) and the discards are the new draw pile. A pool whose cards all lie in one place is resolved
into that place. A card named from the hand is taken from what the engine knows first, then from the pool,
then from the draw zone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.isla_nublar.components import Zone, add, size, take

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState

#: the card of a draw or a hideout pick the engine is not told
UNSEEN = "?"
#: per player: unseen cards drawn from the draw zone (in hand, in the hideout) and those of the pool
COUNTS = ("hand", "hidden", "pool_hand", "pool_hidden")


def fresh_counts() -> dict[str, int]:
    return dict.fromkeys(COUNTS, 0)


def at_table(state: IslaNublarState) -> bool:
    """Whether cards are drawn at the table, unseen by the engine."""
    return state.options.get("table_cards") == "table"


def physical_draw(state: IslaNublarState, p: str) -> int:
    """How many cards the player's draw pile really holds."""
    unseen = state.unseen[p]
    return size(state.zones[p]["draw"]) - unseen["hand"] - unseen["hidden"]


def unseen_in_hand(state: IslaNublarState, p: str) -> int:
    unseen = state.unseen[p]
    return unseen["hand"] + unseen["pool_hand"]


def hand_size(state: IslaNublarState, p: str) -> int:
    return size(state.zones[p]["hand"]) + unseen_in_hand(state, p)


def could_hold(state: IslaNublarState, p: str) -> set[str]:
    """Every card the hand may hold: those the engine knows and those an unseen card may be."""
    held = set(state.zones[p]["hand"])
    unseen = state.unseen[p]
    if unseen["pool_hand"]:
        held |= set(state.pool[p])
    if unseen["hand"]:
        held |= set(state.zones[p]["draw"])
    return held


def unseen_candidates(state: IslaNublarState, p: str) -> Zone:
    """What the hand's unseen cards may be, as many of each as there could be."""
    found: Zone = {}
    unseen = state.unseen[p]
    for count, zone in (("pool_hand", state.pool[p]), ("hand", state.zones[p]["draw"])):
        if unseen[count]:
            for card, n in zone.items():
                add(found, card, n)
    return found


def removable_unseen(state: IslaNublarState, p: str, keep: str) -> int:
    """How many of the hand's unseen cards can be other than ``keep`` (the egg, which never leaves)."""
    unseen = state.unseen[p]
    total = 0
    for count, zone in (("pool_hand", state.pool[p]), ("hand", state.zones[p]["draw"])):
        total += min(unseen[count], size(zone) - zone.get(keep, 0))
    return total


def holds(state: IslaNublarState, p: str, card: str) -> bool:
    return card in could_hold(state, p)


def take_from_hand(state: IslaNublarState, p: str, card: str) -> bool:
    """Take ``card`` out of the hand (False when it cannot be there)."""
    hand, unseen = state.zones[p]["hand"], state.unseen[p]
    if hand.get(card, 0):
        take(hand, card)
    elif unseen["pool_hand"] and state.pool[p].get(card, 0):
        take(state.pool[p], card)
        unseen["pool_hand"] -= 1
    elif unseen["hand"] and state.zones[p]["draw"].get(card, 0):
        take(state.zones[p]["draw"], card)
        unseen["hand"] -= 1
    else:
        return False
    settle(state, p)
    return True


def draw_unseen(state: IslaNublarState, p: str) -> None:
    state.unseen[p]["hand"] += 1


def hide_unseen(state: IslaNublarState, p: str, n: int) -> None:
    """``n`` unseen cards of the hand go face down into the hideout."""
    unseen = state.unseen[p]
    for _ in range(n):
        if unseen["hand"]:
            unseen["hand"] -= 1
            unseen["hidden"] += 1
        else:
            unseen["pool_hand"] -= 1
            unseen["pool_hidden"] += 1
    settle(state, p)


def return_hidden(state: IslaNublarState, p: str) -> None:
    """The hideout's cards back into the hand, the unseen ones with them."""
    unseen = state.unseen[p]
    unseen["hand"] += unseen["hidden"]
    unseen["pool_hand"] += unseen["pool_hidden"]
    unseen["hidden"] = unseen["pool_hidden"] = 0
    settle(state, p)


def reshuffle(state: IslaNublarState, p: str) -> None:
    """The draw pile ran out: what the draw zone still names is the unseen cards; the discards become the
    new draw pile."""
    zones, unseen = state.zones[p], state.unseen[p]
    pool = state.pool[p]
    for card, n in zones["draw"].items():
        add(pool, card, n)
    unseen["pool_hand"] += unseen["hand"]
    unseen["pool_hidden"] += unseen["hidden"]
    unseen["hand"] = unseen["hidden"] = 0
    zones["draw"], zones["discard"] = zones["discard"], {}
    settle(state, p)


def settle(state: IslaNublarState, p: str) -> None:
    """A pool whose cards all lie in one place is known: it joins that place."""
    pool: Zone = state.pool[p]
    unseen = state.unseen[p]
    if not pool:
        return
    for place, count, other in (("hand", "pool_hand", "pool_hidden"), ("hidden", "pool_hidden", "pool_hand")):
        if not unseen[other]:
            for card, n in pool.items():
                add(state.zones[p][place], card, n)
            state.pool[p] = {}
            unseen[count] = 0
            return
