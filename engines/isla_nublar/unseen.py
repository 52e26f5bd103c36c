"""Cards drawn at a real table (option ``table_cards``: ``"table"``): nobody tells the engine what a player
draws, so a hand holds cards the engine knows only as "one of the draw pile's" until they are laid face up.

A player's draw zone (``zones[p]["draw"]``) names every card whose place the engine does not know: the
physical draw pile, the cards drawn from it unseen into the hand, and those laid face down unnamed into the
hideout. A *world* is one way those cards can lie: how many of each card are in the hand unseen and how
many hidden unseen (the rest is the pile). The reckoning keeps every world consistent with what the table
showed: a draw adds each card the pile may give, a card laid face up from the hand keeps the worlds whose
hand holds it, a card laid face down unnamed moves each card the unseen hand may hold into the hideout, and
an end of turn the red-card rule allows keeps the worlds without a red card in hand. A play is accepted
when some world allows it and refused only when none does; nothing is chosen greedily. Whatever every
world agrees on is known: it joins the named hand or hideout (cards are known by elimination once the pile
is drawn out). Worlds count cards of a kind, not copies.

Past :data:`MAX_WORLDS` worlds (hands kept unseen over several turns under the ``keep`` house rule), the
reckoning keeps :class:`Bounds` instead: the most of each card the unseen hand and hideout may hold, and
the *floor*: the cards of a pile already drawn out, which lie in the hand or the hideout since the pile
reshuffled from the discards cannot hold them. It is wider than the worlds, never narrower: a card a
player may hold is still never refused, and it turns back into worlds once few enough remain. Whether
some hand lies within bounds is decided exactly (:func:`fits`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.core import StateFormatError
from engines.isla_nublar.components import Zone, add, size, take

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState

#: the card of a draw or a hideout pick the engine is not told
UNSEEN = "?"
Counts = tuple[tuple[str, int], ...]
#: (the hand's unseen cards, the hideout's unseen cards), each as sorted (card, count) pairs
World = tuple[Counts, Counts]
NO_WORLD: World = ((), ())
#: worlds kept one by one; past this many, bounds
MAX_WORLDS = 1000


@dataclass(frozen=True)
class Bounds:
    """Every (hand, hideout) of ``in_hand`` and ``in_hideout`` unseen cards with at most ``hand[c]`` and
    ``hidden[c]`` of each card, within the draw zone's cards, holding together at least ``floor[c]``."""

    hand: Counts
    hidden: Counts
    in_hand: int
    in_hideout: int
    floor: Counts = ()

    def but(self, hand: Counts | None = None, hidden: Counts | None = None, in_hand: int | None = None,
            in_hideout: int | None = None, floor: Counts | None = None) -> Bounds:
        """A copy with the named parts replaced."""
        return Bounds(self.hand if hand is None else hand, self.hidden if hidden is None else hidden,
                      self.in_hand if in_hand is None else in_hand,
                      self.in_hideout if in_hideout is None else in_hideout,
                      self.floor if floor is None else floor)


def fits(found: Bounds, pot: Mapping[str, int]) -> bool:
    """Whether some hand and hideout lie within ``found``. Each card's (in hand, in hideout) lies in a
    polygon bounded by its caps, its floor and the pot; their sum is the polygon bounded by the sums of
    the same six sides (two-dimensional sums add up side by side), so six comparisons decide it."""
    caps, hidden_caps, floor = zone_of(found.hand), zone_of(found.hidden), zone_of(found.floor)
    low_hand = high_hand = low_hidden = high_hidden = low_both = high_both = 0
    for card in set(pot) | set(floor):
        there = pot.get(card, 0)
        most, most_hidden = min(caps.get(card, 0), there), min(hidden_caps.get(card, 0), there)
        least = floor.get(card, 0)
        if least > min(there, most + most_hidden):
            return False
        high_hand, high_hidden = high_hand + most, high_hidden + most_hidden
        low_hand, low_hidden = low_hand + max(0, least - most_hidden), low_hidden + max(0, least - most)
        low_both, high_both = low_both + least, high_both + min(there, most + most_hidden)
    return (low_hand <= found.in_hand <= high_hand and low_hidden <= found.in_hideout <= high_hidden
            and low_both <= found.in_hand + found.in_hideout <= high_both)


def _with_one_in_hand(found: Bounds, pot: Mapping[str, int], card: str) -> tuple[Bounds, Zone] | None:
    """The bounds and pot once one ``card`` of the unseen hand is laid face up (None: the hand cannot
    hold one)."""
    caps, left, floor = zone_of(found.hand), dict(pot), zone_of(found.floor)
    if not found.in_hand or not caps.get(card, 0) or not left.get(card, 0):
        return None
    take(caps, card)
    take(left, card)
    if floor.get(card, 0):
        take(floor, card)
    return found.but(hand=counts(caps), in_hand=found.in_hand - 1, floor=counts(floor)), left


Reckoning = frozenset[World] | Bounds


def counts(zone: Mapping[str, int]) -> Counts:
    return tuple(sorted((card, n) for card, n in zone.items() if n > 0))


def zone_of(items: Counts) -> Zone:
    return dict(items)


def at_table(state: IslaNublarState, player: str | None = None) -> bool:
    """Whether cards are drawn at the table, unseen by the engine (``player``'s: not if the engine deals
    that seat's cards itself)."""
    if state.options.get("table_cards") != "table":
        return False
    return player is None or player not in dealt_seats(state.options, state.players)


def dealt_seats(options: Mapping[str, object], players: Sequence[str]) -> frozenset[str]:
    """The seats whose cards the engine deals at a real table (option ``dealt_seats``: some of the players'
    names); StateFormatError naming what is not one."""
    named = options.get("dealt_seats") or ()
    if isinstance(named, str) or not isinstance(named, Sequence) or not all(
            isinstance(name, str) and name in players for name in named):
        raise StateFormatError(f"option 'dealt_seats' must list some of the players {list(players)}, not "
                               f"{named!r:.60}")
    return frozenset(named)


def unseen_in_hand(state: IslaNublarState, p: str) -> int:
    found = state.worlds[p]
    if isinstance(found, Bounds):
        return found.in_hand
    return sum(n for _, n in next(iter(found))[0])


def unseen_hidden(state: IslaNublarState, p: str) -> int:
    found = state.worlds[p]
    if isinstance(found, Bounds):
        return found.in_hideout
    return sum(n for _, n in next(iter(found))[1])


def physical_draw(state: IslaNublarState, p: str) -> int:
    """How many cards the player's draw pile really holds."""
    return size(state.zones[p]["draw"]) - unseen_in_hand(state, p) - unseen_hidden(state, p)


def hand_size(state: IslaNublarState, p: str) -> int:
    return size(state.zones[p]["hand"]) + unseen_in_hand(state, p)


def could_hold(state: IslaNublarState, p: str) -> set[str]:
    """Every card the hand may hold: those the engine knows and those an unseen card may be."""
    held = set(state.zones[p]["hand"])
    found = state.worlds[p]
    if isinstance(found, Bounds):
        pot = state.zones[p]["draw"]
        for card, _ in found.hand:
            lifted = _with_one_in_hand(found, pot, card)
            if lifted is not None and fits(*lifted):
                held.add(card)
        return held
    for hand, _ in found:
        held.update(card for card, _ in hand)
    return held


def holds(state: IslaNublarState, p: str, card: str) -> bool:
    return card in could_hold(state, p)


def may_hold(state: IslaNublarState, p: str, cards: set[str]) -> bool:
    """Whether some hand the table allows holds one of ``cards``."""
    return bool(cards & could_hold(state, p))


def must_hold_one(state: IslaNublarState, p: str, cards: set[str]) -> bool:
    """Whether every hand the table allows holds one of ``cards``."""
    if cards & set(state.zones[p]["hand"]):
        return True
    found = state.worlds[p]
    if isinstance(found, Bounds):
        without = counts({card: 0 if card in cards else n for card, n in found.hand})
        return not fits(found.but(hand=without), state.zones[p]["draw"])
    return unseen_in_hand(state, p) > 0 and all(cards & {c for c, _ in hand} for hand, _ in found)


def _store(state: IslaNublarState, p: str, found: set[World] | Bounds) -> bool:
    """Keep what is left (False, nothing changed, when nothing is), as worlds while few enough."""
    if isinstance(found, Bounds):
        state.worlds[p] = found  # settled below, and turned into worlds when few enough
    elif not found:
        return False
    elif len(found) > MAX_WORLDS:
        state.worlds[p] = _as_bounds(found)
    else:
        state.worlds[p] = frozenset(found)
    settle(state, p)
    return True


def allows(state: IslaNublarState, p: str, world: World) -> bool:
    """Whether the reckoning allows the unseen cards to lie as ``world``."""
    found = state.worlds[p]
    if not isinstance(found, Bounds):
        return world in found
    pot = state.zones[p]["draw"]
    hand, hidden = zone_of(world[0]), zone_of(world[1])
    both = dict(hand)
    for card, n in hidden.items():
        add(both, card, n)
    caps, hidden_caps = zone_of(found.hand), zone_of(found.hidden)
    return (size(hand) == found.in_hand and size(hidden) == found.in_hideout
            and all(n <= pot.get(card, 0) for card, n in both.items())
            and all(both.get(card, 0) >= n for card, n in found.floor)
            and all(n <= caps.get(card, 0) for card, n in hand.items())
            and all(n <= hidden_caps.get(card, 0) for card, n in hidden.items()))


def take_from_hand(state: IslaNublarState, p: str, card: str) -> bool:
    """``card`` laid face up from the hand (False, nothing changed, when no world lets the hand hold it).
    A named copy in the hand is taken first: the worlds whose unseen cards hold another stay possible."""
    hand, pot = state.zones[p]["hand"], state.zones[p]["draw"]
    if hand.get(card, 0):
        take(hand, card)
        return True
    found = state.worlds[p]
    if isinstance(found, Bounds):
        lifted = _with_one_in_hand(found, pot, card)
        if lifted is None or not fits(*lifted):
            return False
        take(pot, card)
        return _store(state, p, lifted[0])
    kept = set()
    for unseen, hidden in found:
        zone = zone_of(unseen)
        if zone.get(card, 0):
            take(zone, card)
            kept.add((counts(zone), hidden))
    if not kept:
        return False
    take(pot, card)  # it is no longer among the cards whose place is unknown
    return _store(state, p, kept)


def draw_unseen(state: IslaNublarState, p: str) -> None:
    """A card drawn unseen: each card the pile may give, in each world."""
    pot = state.zones[p]["draw"]
    found = state.worlds[p]
    if not isinstance(found, Bounds) and len(found) * len(pot) > 2 * MAX_WORLDS:
        found = _as_bounds(set(found))  # would grow past worlds anyway: not worth spelling out
    if isinstance(found, Bounds):
        caps = {card: min(pot[card], zone_of(found.hand).get(card, 0) + 1) for card in pot}
        _store(state, p, found.but(hand=counts(caps), in_hand=found.in_hand + 1))
        return
    drawn = set()
    for unseen, hidden in found:
        pile = dict(pot)
        for card, n in (*unseen, *hidden):
            take(pile, card, n)
        for card in pile:
            hand = zone_of(unseen)
            add(hand, card)
            drawn.add((counts(hand), hidden))
    _store(state, p, drawn)


def hide_unseen(state: IslaNublarState, p: str, n: int) -> None:
    """``n`` of the hand's unseen cards laid face down into the hideout, unnamed."""
    for _ in range(n):
        found = state.worlds[p]
        if not isinstance(found, Bounds) and len(found) * len(state.zones[p]["draw"]) > 2 * MAX_WORLDS:
            found = _as_bounds(set(found))
        if isinstance(found, Bounds):
            pot, held = state.zones[p]["draw"], zone_of(found.hidden)
            for card, cap in found.hand:
                if cap:
                    held[card] = min(pot.get(card, 0), held.get(card, 0) + 1)
            _store(state, p, found.but(hidden=counts(held), in_hand=found.in_hand - 1,
                                       in_hideout=found.in_hideout + 1))
            continue
        moved = set()
        for unseen, hidden in found:
            for card, _ in unseen:
                hand, cave = zone_of(unseen), zone_of(hidden)
                take(hand, card)
                add(cave, card)
                moved.add((counts(hand), counts(cave)))
        _store(state, p, moved)


def return_hidden(state: IslaNublarState, p: str) -> None:
    """The hideout's cards back into the hand, the unseen ones with them."""
    found = state.worlds[p]
    if isinstance(found, Bounds):
        pot, caps = state.zones[p]["draw"], zone_of(found.hand)
        for card, n in found.hidden:
            caps[card] = min(pot.get(card, 0), caps.get(card, 0) + n)
        _store(state, p, found.but(hand=counts(caps), hidden=(), in_hand=found.in_hand + found.in_hideout,
                                   in_hideout=0))
        return
    back: set[World] = set()
    for unseen, hidden in found:
        hand = zone_of(unseen)
        for card, n in hidden:
            add(hand, card, n)
        back.add((counts(hand), ()))
    _store(state, p, back)


def reshuffle(state: IslaNublarState, p: str) -> None:
    """The draw pile ran out: the discards become the new pile, among the cards whose place is unknown.
    The old pile's cards stay in the hand or the hideout: worlds keep them by themselves (each world's
    pile is what its hand and hideout leave), bounds keep them as their floor."""
    zones = state.zones[p]
    found = state.worlds[p]
    if isinstance(found, Bounds):
        state.worlds[p] = found.but(floor=counts(zones["draw"]))  # the pile is empty: all of it is unseen
    for card, n in zones["discard"].items():
        add(zones["draw"], card, n)
    zones["discard"] = {}
    settle(state, p)


def keep_without(state: IslaNublarState, p: str, refused: set[str]) -> bool:
    """Keep the hands that hold none of ``refused`` (False, nothing changed, when none is left)."""
    if refused & set(state.zones[p]["hand"]) or must_hold_one(state, p, refused):
        return False
    found = state.worlds[p]
    if isinstance(found, Bounds):
        caps = {card: 0 if card in refused else n for card, n in found.hand}
        return _store(state, p, found.but(hand=counts(caps)))
    kept = {world for world in found if not refused & {card for card, _ in world[0]}}
    return True if kept == set(found) else _store(state, p, kept)


def picks_possible(state: IslaNublarState, p: str, named: Mapping[str, int], unnamed: int,
                   keep: str | None = None, at_least: int = 0) -> bool:
    """Whether some hand the table allows holds the ``named`` cards and ``unnamed`` more of its unseen
    ones, and (``at_least``) that many cards other than ``keep`` in all."""
    known = state.zones[p]["hand"]
    beyond = {card: n - known.get(card, 0) for card, n in named.items() if n > known.get(card, 0)}
    found = state.worlds[p]
    options: list[Zone]
    if isinstance(found, Bounds):
        caps = zone_of(found.hand)
        if any(caps.get(card, 0) < n for card, n in beyond.items()):
            return False
        if sum(beyond.values()) + unnamed > found.in_hand:
            return False
        others = sum(n for card, n in caps.items() if card != keep)
        forced = max(0, found.in_hand - others) if keep else 0
        return size(known) + found.in_hand - known.get(keep or "", 0) - forced >= at_least
    options = [zone_of(unseen) for unseen, _ in found]
    for hand in options:
        if any(hand.get(card, 0) < n for card, n in beyond.items()):
            continue
        if unnamed > sum(hand.values()) - sum(beyond.values()):
            continue
        kept = known.get(keep, 0) + hand.get(keep, 0) if keep else 0
        if size(known) + sum(hand.values()) - kept >= at_least:
            return True
    return False


def settle(state: IslaNublarState, p: str) -> None:
    """What every hand the table allows holds is known: it joins the named hand or hideout."""
    found = state.worlds[p]
    if isinstance(found, Bounds):
        _settle_bounds(state, p, found)
        return
    for place in (0, 1):
        common: Zone | None = None
        for world in state.worlds[p]:  # type: ignore[union-attr]
            zone = zone_of(world[place])
            common = zone if common is None else {c: min(n, zone.get(c, 0)) for c, n in common.items()}
        common = {card: n for card, n in (common or {}).items() if n > 0}
        if not common:
            continue
        _known(state, p, place, common)
        lifted = set()
        for world in state.worlds[p]:  # type: ignore[union-attr]
            zone = zone_of(world[place])
            for card, n in common.items():
                take(zone, card, n)
            lifted.add((counts(zone), world[1]) if place == 0 else (world[0], counts(zone)))
        state.worlds[p] = frozenset(lifted)


def _known(state: IslaNublarState, p: str, place: int, cards: Mapping[str, int]) -> None:
    target = state.zones[p]["hand" if place == 0 else "hidden"]
    for card, n in cards.items():
        add(target, card, n)
        take(state.zones[p]["draw"], card, n)


def _settle_bounds(state: IslaNublarState, p: str, found: Bounds) -> None:
    """With bounds, a card is known where the others cannot fill the hand (or hideout) without it, or
    where the floor holds more of it than the other place may."""
    pot = state.zones[p]["draw"]
    caps: list[Zone] = [zone_of(found.hand), zone_of(found.hidden)]
    wanted = [found.in_hand, found.in_hideout]
    floor = zone_of(found.floor)
    for place in (0, 1):
        mine = {card: min(n, pot.get(card, 0)) for card, n in caps[place].items()}
        other = {card: min(n, pot.get(card, 0)) for card, n in caps[1 - place].items()}
        room = sum(mine.values())
        forced = {card: min(n, max(wanted[place] - (room - n), floor.get(card, 0) - other.get(card, 0)))
                  for card, n in mine.items()}
        forced = {card: n for card, n in forced.items() if n > 0}
        _known(state, p, place, forced)
        for card, n in forced.items():
            take(mine, card, n)
            floor[card] = max(0, floor.get(card, 0) - n)
        caps[place], wanted[place] = mine, wanted[place] - sum(forced.values())
    bounds = Bounds(counts(caps[0]), counts(caps[1]), wanted[0], wanted[1], counts(floor))
    state.worlds[p] = _as_worlds(bounds, pot) or bounds


def _as_bounds(found: set[World]) -> Bounds:
    hand: Zone = {}
    hidden: Zone = {}
    floor: Zone | None = None
    for unseen, cave in found:
        for card, n in unseen:
            hand[card] = max(hand.get(card, 0), n)
        for card, n in cave:
            hidden[card] = max(hidden.get(card, 0), n)
        both = zone_of(unseen)
        for card, n in cave:
            add(both, card, n)
        floor = both if floor is None else {card: min(n, both.get(card, 0)) for card, n in floor.items()}
    first = next(iter(found))
    return Bounds(counts(hand), counts(hidden), sum(n for _, n in first[0]), sum(n for _, n in first[1]),
                  counts(floor or {}))


def _as_worlds(bounds: Bounds, pot: Mapping[str, int]) -> frozenset[World] | None:
    """The worlds within the bounds, when there are few enough (None past :data:`MAX_WORLDS`): counted
    first, so that a reckoning too wide for worlds costs little."""
    caps = {c: min(n, pot.get(c, 0)) for c, n in bounds.hand}
    if _count_subsets(caps, bounds.in_hand) > MAX_WORLDS:
        return None
    hands, rests, total = [], [], 0
    for hand in _subsets(caps, bounds.in_hand):
        rest = dict(pot)
        for card, n in hand:
            take(rest, card, n)
        room = {c: min(n, rest.get(c, 0)) for c, n in bounds.hidden}
        total += _count_subsets(room, bounds.in_hideout)
        if total > MAX_WORLDS:
            return None
        hands.append(hand)
        rests.append(room)
    found = {(hand, hidden) for hand, room in zip(hands, rests, strict=True)
             for hidden in _subsets(room, bounds.in_hideout) if _holds_floor(hand, hidden, bounds.floor)}
    return frozenset(found) if found else None


def _holds_floor(hand: Counts, hidden: Counts, floor: Counts) -> bool:
    both = zone_of(hand)
    for card, n in hidden:
        add(both, card, n)
    return all(both.get(card, 0) >= n for card, n in floor)


def _count_subsets(zone: Mapping[str, int], n: int) -> int:
    """How many sub-multisets of ``zone`` hold ``n`` cards."""
    ways = [1] + [0] * n
    for k in zone.values():
        ways = [sum(ways[j - i] for i in range(min(k, j) + 1)) for j in range(n + 1)]
    return ways[n]


def _subsets(zone: Mapping[str, int], n: int) -> list[Counts]:
    """Every sub-multiset of ``zone`` with ``n`` cards."""
    kinds = sorted(card for card, k in zone.items() if k > 0)
    found: list[Counts] = []

    def extend(at: int, left: int, chosen: tuple[tuple[str, int], ...]) -> None:
        if left == 0:
            found.append(chosen)
            return
        if at == len(kinds) or sum(zone[card] for card in kinds[at:]) < left:
            return
        card = kinds[at]
        for k in range(min(zone[card], left), -1, -1):
            extend(at + 1, left - k, (*chosen, (card, k)) if k else chosen)

    extend(0, n, ())
    return found


def every_draw(pot: Mapping[str, int], n: int) -> Reckoning:
    """What ``n`` cards drawn unseen from a pile of ``pot`` may be: any ``n`` of its cards."""
    bounds = Bounds(counts(pot), (), n, 0)
    return _as_worlds(bounds, pot) or bounds


def from_counts(pot: Mapping[str, int], pool: Mapping[str, int], counted: Mapping[str, int]) -> Reckoning:
    """An older state's counts (``hand``, ``hidden`` drawn from the draw zone ``pot``; ``pool_hand``,
    ``pool_hidden`` from the ``pool``), read as bounds over both."""
    both = dict(pot)
    for card, n in pool.items():
        add(both, card, n)
    bounds = Bounds(counts(both), counts(both), counted.get("hand", 0) + counted.get("pool_hand", 0),
                    counted.get("hidden", 0) + counted.get("pool_hidden", 0))
    return _as_worlds(bounds, both) or bounds
