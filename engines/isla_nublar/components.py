"""Card lists as data: action cards, starting cards, dinosaur cards, scoring cards, development tiles.

The rulebook prints the totals and every kind of action but not each card, so the lists live in
``data/cards.json``, marked as the data file's own. Cards are tracked by *type* (``"A3-HIDEOUT"``): copies of
one type are interchangeable, which is also all a camera can tell apart.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from engines.core import StateFormatError
from engines.isla_nublar.board import LANDSCAPES

#: every card action in the rulebook ("do" in the data file) and whether it carries a number
CARD_ACTIONS = {
    "amber": True,
    "boxes": True,
    "defence": False,
    "hideout": False,
    "diversion": False,
    "inventory": False,
    "wear": False,
    "replenish": True,
    "change": False,
    "improve": False,
    "move_camp": False,
    "egg": False,
}
CLIENTS = ("lab", "ingen", "dpg")
SCORING_KINDS = (
    "landscape",
    "adjacent",
    "variety",
    "stacks",
    "connections",
    "columns",
    "groups",
    "river",
    "forefront",
)
TILE_EFFECTS = (
    "done_here",
    "not_rubbish",
    "remove_for_cost",
    "remove_three",
    "draw2_remove",
    "amber",
    "inventory",
    "improve",
    "boxes",
    "whisper",
    "finish",
)
WHISPER_MODES = ("move", "south", "any", "north", "swap", "return")
EGG = "EGG"
#: the numbers a development tile's reward needs, by (effect, whisperer mode): key and smallest value
_TILE_NUMBERS: dict[tuple[str, str], tuple[tuple[str, int], ...]] = {
    ("amber", "None"): (("n", 1),),
    ("boxes", "None"): (("n", 1),),
    ("inventory", "None"): (("extra", 0),),
    ("improve", "None"): (("extra", 0),),
    ("finish", "None"): (("points", 0),),
    ("whisper", "south"): (("max", 1),),
    ("whisper", "any"): (("max", 1),),
    ("whisper", "north"): (("max", 1),),
}


@dataclass(frozen=True, slots=True)
class CardType:
    """One kind of card. ``group`` is action/starting/dinosaur/scoring."""

    card_id: str
    group: str
    cost: int
    count: int
    client: str | None = None
    actions: tuple[tuple[str, int], ...] = ()
    red: bool = False
    figure: str | None = None
    name: str = ""
    scoring: Mapping[str, Any] = field(default_factory=dict)

    def value(self, do: str) -> int | None:
        for name, number in self.actions:
            if name == do:
                return number
        return None


@dataclass(frozen=True, slots=True)
class DevelopmentTile:
    tile_id: str
    tile_set: str
    effect: str
    params: Mapping[str, Any]
    client: str | None = None


@dataclass(frozen=True)
class CardSet:
    cards: Mapping[str, CardType]
    piles: Mapping[int, tuple[str, ...]]
    tiles: Mapping[str, DevelopmentTile]
    clients: Mapping[str, str]
    default: bool

    def of_group(self, group: str) -> list[CardType]:
        return [card for card in self.cards.values() if card.group == group]


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise StateFormatError(f"cards: {message}")


def _card(raw: Any, group: str) -> CardType:
    _need(isinstance(raw, Mapping), f"{group} card entries are objects")
    cid = raw.get("id")
    _need(isinstance(cid, str) and bool(cid), f"a {group} card has no id")
    cost, count = raw.get("cost", 0), raw.get("count")
    _need(isinstance(cost, int) and cost >= 0, f"{cid}: cost must be a whole number")
    _need(isinstance(count, int) and count > 0, f"{cid}: count must be positive")
    client = raw.get("client")
    _need(client is None or client in CLIENTS, f"{cid}: unknown client {client!r}")
    actions: list[tuple[str, int]] = []
    raw_actions = raw.get("actions", [])
    _need(isinstance(raw_actions, list), f"{cid}: actions must be a list")
    for entry in raw_actions:
        do = entry.get("do") if isinstance(entry, Mapping) else None
        _need(isinstance(do, str) and do in CARD_ACTIONS, f"{cid}: unknown action {do!r}")
        number = entry.get("n", 0)
        _need(
            isinstance(number, int) and (number > 0) == CARD_ACTIONS[str(do)],
            f"{cid}: action {do} number {number}",
        )
        actions.append((str(do), int(number)))
    if group in ("action", "starting"):
        _need(1 <= len(actions) <= 2, f"{cid}: an action card shows 1 or 2 actions")
        _need(len({a for a, _ in actions}) == len(actions), f"{cid}: the same action twice")
    scoring: dict[str, Any] = {}
    if group == "scoring":
        kind = raw.get("kind")
        _need(kind in SCORING_KINDS, f"{cid}: unknown scoring kind {kind!r}")
        # bought in Individual ratings: a listed purchase needs amber played, so the price is at least 1
        _need(int(cost) > 0, f"{cid}: a scoring card has an amber cost (bottom right), at least 1")
        scoring = {k: v for k, v in raw.items() if k not in ("id", "cost", "count")}
        if kind in ("landscape", "adjacent"):
            _need(raw.get("landscape") in LANDSCAPES, f"{cid}: needs a landscape")
        for key in ("camp", "boxes") if kind in ("landscape", "adjacent", "forefront") else ("points",):
            value = raw.get(key)
            _need(
                isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                f"{cid}: needs whole-number {key!r}",
            )
    if group == "dinosaur":
        _need(isinstance(raw.get("figure"), str), f"{cid}: figure must be a figure id such as DINO-1")
    return CardType(
        card_id=str(cid),
        group=group,
        cost=int(cost),
        count=int(count),
        client=client,
        actions=tuple(actions),
        red=bool(raw.get("red", False)) or group == "dinosaur",
        figure=raw.get("figure"),
        name=str(raw.get("name", "")),
        scoring=scoring,
    )


def cards_from_dict(data: Any) -> CardSet:
    _need(isinstance(data, Mapping), "must be a JSON object")
    cards: dict[str, CardType] = {}
    for key, group in (
        ("action_cards", "action"),
        ("starting_cards", "starting"),
        ("dinosaur_cards", "dinosaur"),
        ("scoring_cards", "scoring"),
    ):
        entries = data.get(key)
        _need(isinstance(entries, list), f"needs a list {key!r}")
        for raw in entries:
            card = _card(raw, group)
            _need(card.card_id not in cards, f"duplicate card id {card.card_id}")
            cards[card.card_id] = card
    groups: dict[str, int] = {}
    for card in cards.values():
        groups[card.group] = groups.get(card.group, 0) + card.count
    _need(groups.get("action") == 42, f"42 action cards, not {groups.get('action')}")
    _need(groups.get("dinosaur") == 20, f"20 dinosaur cards, not {groups.get('dinosaur')}")
    _need(groups.get("scoring") == 18, f"18 scoring cards, not {groups.get('scoring')}")
    _need(groups.get("starting") == 10, f"10 starting cards per player, not {groups.get('starting')}")
    _need(EGG in cards and cards[EGG].count == 1 and cards[EGG].red, "exactly 1 red dinosaur egg per player")
    figures = sorted({c.figure for c in cards.values() if c.group == "dinosaur"}, key=str)
    _need(
        figures == ["DINO-1", "DINO-2", "DINO-3", "DINO-4"], "dinosaur cards name the figures DINO-1..DINO-4"
    )
    piles: dict[int, list[str]] = {}
    for card in cards.values():
        if card.group == "action":
            _need(card.cost > 0, f"{card.card_id}: an action card has a purchase price")
            piles.setdefault(card.cost, []).append(card.card_id)
    _need(len(piles) == 5, f"action cards sort into 5 piles by price, not {len(piles)}")
    tiles: dict[str, DevelopmentTile] = {}
    raw_tiles = data.get("development_tiles", [])
    _need(isinstance(raw_tiles, list), "development_tiles must be a list")
    for raw in raw_tiles:
        _need(isinstance(raw, Mapping), "development tiles are objects")
        tid, tset, effect = raw.get("id"), raw.get("set"), raw.get("effect")
        _need(isinstance(tid, str) and tid not in tiles, f"bad or duplicate tile id {tid!r}")
        _need(tset in ("A", "B", "finish"), f"{tid}: set must be A, B or finish")
        _need(effect in TILE_EFFECTS, f"{tid}: unknown effect {effect!r}")
        if effect == "whisper":
            _need(raw.get("mode") in WHISPER_MODES, f"{tid}: unknown whisperer mode")
        for key, low in _TILE_NUMBERS.get((str(effect), str(raw.get("mode"))), ()):
            value = raw.get(key)
            _need(
                isinstance(value, int) and not isinstance(value, bool) and value >= low,
                f"{tid}: {key!r} must be a whole number >= {low}",
            )
        params = {k: v for k, v in raw.items() if k not in ("id", "set", "effect", "client")}
        tiles[str(tid)] = DevelopmentTile(str(tid), str(tset), str(effect), params, raw.get("client"))
    sets = [t.tile_set for t in tiles.values()]
    _need(
        (sets.count("A"), sets.count("B"), sets.count("finish")) == (10, 7, 3),
        "20 tiles: 10 A, 7 B, 3 finish",
    )
    _need(
        sorted(str(t.client) for t in tiles.values() if t.tile_set == "finish") == sorted(CLIENTS),
        "one finishing tile per client",
    )
    clients = data.get("clients", {})
    _need(isinstance(clients, Mapping) and sorted(clients) == sorted(CLIENTS), "clients lab, ingen, dpg")
    return CardSet(
        cards=cards,
        piles={price: tuple(ids) for price, ids in sorted(piles.items())},
        tiles=tiles,
        clients=dict(clients),
        default=bool(data.get("default", False)),
    )


@cache
def default_cards() -> CardSet:
    text = resources.files("engines.isla_nublar").joinpath("data/cards.json").read_text("utf-8")
    return cards_from_dict(json.loads(text))


# -- pieces and card zones -------------------------------------------------------------------------------
#: each player's equipment boxes and camps (one camp marks the score), the hand, a camp's price in box
#: points, the most camps one field holds
BOXES_PER_PLAYER = 6
CAMPS_PER_PLAYER = 9
SCORE_MARKERS = 1
HAND_SIZE = 5
CAMP_COST = 4
STACK_LIMIT = 3
#: a player's card zones
ZONES = ("hand", "draw", "discard", "played", "hidden")

#: cards by id -> how many (a pile, a hand, a deck)
Zone = dict[str, int]


def add(zone: Zone, card: str, count: int = 1) -> None:
    zone[card] = zone.get(card, 0) + count


def take(zone: Zone, card: str, count: int = 1) -> None:
    left = zone.get(card, 0) - count
    if left < 0:
        raise KeyError(card)
    if left:
        zone[card] = left
    else:
        del zone[card]


def size(zone: Mapping[str, int]) -> int:
    return sum(zone.values())
