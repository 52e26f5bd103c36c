"""Isla Nublar in the players' words: cards by what they show (from the card data), dinosaurs by name,
fields by column (numbered from 1 on the diagram) and place down it, with their landscape."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from companion.i18n import lazy_pgettext, named, ngettext, npgettext, pgettext
from engines.isla_nublar.board import Board, default_board
from engines.isla_nublar.components import EGG, CardSet, CardType, default_cards
from engines.isla_nublar.unseen import UNSEEN

_FIELD = re.compile(r"^C(\d+)R(\d+)$")
#: how the card faces read (the rulebook's names for the actions)
_ACTION_WORDS = {
    "amber": lazy_pgettext("isla-nublar", "{n} amber"),
    "replenish": lazy_pgettext("isla-nublar", "replenish {n}"),
    "defence": lazy_pgettext("isla-nublar", "defence"), "hideout": lazy_pgettext("isla-nublar", "hideout"),
    "diversion": lazy_pgettext("isla-nublar", "diversion"),
    "inventory": lazy_pgettext("isla-nublar", "inventory"),
    "wear": lazy_pgettext("isla-nublar", "wear"), "change": lazy_pgettext("isla-nublar", "change"),
    "improve": lazy_pgettext("isla-nublar", "improve"),
    "move_camp": lazy_pgettext("isla-nublar", "move a camp"),
    "egg": lazy_pgettext("isla-nublar", "dinosaur egg"),
}
#: the scoring cards in detail, in a few words each
_SCORING_WORDS = {
    "landscape": lazy_pgettext("isla-nublar", "camps on {landscape}"),
    "adjacent": lazy_pgettext("isla-nublar", "camps next to {landscape}"),
    "variety": lazy_pgettext("isla-nublar", "variety"), "stacks": lazy_pgettext("isla-nublar", "stacks"),
    "connections": lazy_pgettext("isla-nublar", "connections"),
    "columns": lazy_pgettext("isla-nublar", "columns"), "groups": lazy_pgettext("isla-nublar", "groups"),
    "river": lazy_pgettext("isla-nublar", "river"), "forefront": lazy_pgettext("isla-nublar", "forefront"),
}


@lru_cache(maxsize=1)
def _cards() -> CardSet:
    return default_cards()


@lru_cache(maxsize=1)
def _board() -> Board:
    return default_board()


def card_words(card: CardType) -> str:
    if card.card_id == EGG:
        return pgettext("isla-nublar", "dinosaur egg")
    if card.group == "dinosaur":
        return card.name or card.card_id
    if card.group == "scoring":
        return pgettext("isla-nublar", "scoring card: %(what)s") % {"what": scoring_words(card)}
    shows = " + ".join(ngettext("%(num)d box", "%(num)d boxes", n) % {"num": n} if do == "boxes"
                       else str(_ACTION_WORDS.get(do, do)).format(n=n)
                       for do, n in card.actions)
    if card.group == "starting":
        return pgettext("isla-nublar", "starting card: %(shows)s") % {"shows": shows}
    return pgettext("isla-nublar", "action card (%(cost)s): %(shows)s") % {"cost": card.cost, "shows": shows}


def scoring_words(card: CardType) -> str:
    """What a scoring card scores, in a few words ("camps on forest")."""
    kind = str(card.scoring.get("kind", ""))
    landscape = landscape_words(str(card.scoring.get("landscape", "")))
    return str(_SCORING_WORDS.get(kind, kind)).format(landscape=landscape)


def field_words(field_id: str) -> str | None:
    match = _FIELD.match(field_id)
    field = _board().fields.get(field_id)
    if match is None or field is None:
        return None
    column = sorted(f.row for f in _board().fields.values() if f.column == field.column)
    # counted down the column from its northern end (the volcanoes), as the diagram numbers the columns
    words = pgettext("isla-nublar", "column %(column)d, field %(field)d") % {
        "column": field.column + 1, "field": column.index(field.row) + 1}
    kind = pgettext("isla-nublar", "volcano") if field.volcano else landscape_words(field.landscape)
    return f"{words} ({kind})" if kind else words


#: the board's landscapes as the rulebook names them
LANDSCAPES = {"forest": lazy_pgettext("isla-nublar", "forest"), "lake": lazy_pgettext("isla-nublar", "lake"),
              "mountain": lazy_pgettext("isla-nublar", "mountain"),
              "park": lazy_pgettext("isla-nublar", "park"),
              "plain": lazy_pgettext("isla-nublar", "plain")}


def scoring_kind_words(kind: str) -> str:
    """A scoring card's kind in a word or two ("stacks"; a landscape card's kind is "landscape")."""
    named = {"landscape": pgettext("isla-nublar", "landscape"),
             "adjacent": pgettext("isla-nublar", "next to")}
    return named.get(kind) or str(_SCORING_WORDS.get(kind, kind))


def landscape_words(landscape: str | None) -> str:
    return named(LANDSCAPES, landscape, str(landscape or ""))


#: the board's corner stickers (they tell the camera where the board lies), by the corner each marks
CORNERS = {"NW": lazy_pgettext("isla-nublar", "north-west"), "NE": lazy_pgettext("isla-nublar", "north-east"),
           "SE": lazy_pgettext("isla-nublar", "south-east"), "SW": lazy_pgettext("isla-nublar", "south-west")}
CORNER_STICKERS = {"BOARD-NW": lazy_pgettext("isla-nublar", "the north-west corner sticker"),
                   "BOARD-NE": lazy_pgettext("isla-nublar", "the north-east corner sticker"),
                   "BOARD-SE": lazy_pgettext("isla-nublar", "the south-east corner sticker"),
                   "BOARD-SW": lazy_pgettext("isla-nublar", "the south-west corner sticker")}

#: the hideout's pick of a card nobody has seen, in the words the page uses for it
UNSEEN_WORDS = lazy_pgettext("isla-nublar", "a card face down (one nobody has seen)")


def market_words(zone: str) -> str | None:
    """A place of the market along the board's south edge: a buy pile's top or a scoring row's place."""
    kind, _, number = zone.partition(":")
    if not number.isdigit():
        return None
    if kind == "pile":
        return pgettext("isla-nublar", "on the %(pile)s-amber pile's place") % {"pile": number}
    if kind == "row":
        return pgettext("isla-nublar", "in place %(slot)d of the scoring row") % {"slot": int(number) + 1}
    return None


def isla_nublar_words(name: str) -> str | None:
    """A card, a dinosaur figure, a development tile or a field as players call it; None otherwise."""
    if name == UNSEEN:
        return str(UNSEEN_WORDS)
    cards = _cards()
    card = cards.cards.get(name)
    if card is not None:
        return card_words(card)
    figures = {c.figure: c.name for c in cards.cards.values() if c.group == "dinosaur" and c.figure}
    if name in figures:
        return figures[name] or name
    standing = name.split()
    if len(standing) > 1 and all(figure in figures for figure in standing):  # the figures, west to east
        return ", ".join(figures[figure] or figure for figure in standing)
    if name in CORNER_STICKERS:
        return str(CORNER_STICKERS[name])
    tile = cards.tiles.get(name)
    if tile is not None:
        number = int(re.sub(r"\D", "", name) or 0)
        return pgettext("isla-nublar", "development tile %(tile)s") % {"tile": f"{tile.tile_set}{number}"}
    return field_words(name)


def conceivable_uses(card: CardType) -> list[str]:
    """How a card of this kind could be played, by its face alone (the engine decides what is legal)."""
    if card.group == "dinosaur":
        return ["dinosaur"]
    if card.card_id == EGG:
        return ["egg"]
    if card.group == "scoring":
        return ["none", "scoring"]
    uses = ["none", *(do for do, _ in card.actions if do != "defence")]
    if card.value("amber"):
        uses.append("amber-as-boxes")
    return uses + (["influence"] if card.client else [])


def hand_moves(view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """Every card of the game the player could take from the hand for what is asked of them now: laid face
    up (each way it could be played) in their turn, picked for a hideout (or laid face down unnamed), an
    inventory or a removal, or played in defence; built from the catalogue, never from the hand. At a real
    table the hand picker (:func:`hand_cards`) offers what the table allows instead."""
    if view.get("over") or "table_hand" in view:
        return []
    tasks = view.get("tasks") or []
    if not tasks:
        if view.get("active") != player:
            return []
        return [{"kind": "play", "player": player, "card": card.card_id, "use": use}
                for card in _cards().cards.values() for use in conceivable_uses(card)]
    task = tasks[0]
    if task.get("player") != player:
        return []
    cards = list(_cards().cards.values())
    kind, purpose = task.get("t"), task.get("purpose")
    if kind == "defence":
        return [{"kind": "defend", "player": player, "card": c.card_id} for c in cards
                if c.value("defence") is not None]
    if kind == "select" or kind == "remove-one":
        removing = kind == "remove-one" or purpose in ("three", "remove-any")
        picks = [{"kind": "select", "player": player, "card": c.card_id} for c in cards
                 if not (removing and c.card_id == EGG)]
        if purpose == "hideout":  # laid face down: the card need not be named
            picks.insert(0, {"kind": "select", "player": player, "card": UNSEEN})
        return picks
    return []


#: what a use of a card does, said on its button (``{n}``: the number on the card)
_USE_WORDS = {
    "none": lazy_pgettext("isla-nublar", "play it without its action"),
    "amber": lazy_pgettext("isla-nublar", "play it for {n} amber"),
    "boxes": lazy_pgettext("isla-nublar", "play it for {boxes}"),
    "egg": lazy_pgettext("isla-nublar", "play it: turn up a dinosaur card"),
    "replenish": lazy_pgettext("isla-nublar", "play it to draw {n}"),
    "hideout": lazy_pgettext("isla-nublar", "play it for the hideout"),
    "diversion": lazy_pgettext("isla-nublar", "play it for a diversion"),
    "inventory": lazy_pgettext("isla-nublar", "play it for an inventory"),
    "wear": lazy_pgettext("isla-nublar", "play it for wear and tear (a card leaves the game)"),
    "change": lazy_pgettext("isla-nublar", "play it for the necessary change"),
    "improve": lazy_pgettext("isla-nublar", "play it for an improvement"),
    "move_camp": lazy_pgettext("isla-nublar", "play it to move a camp"),
    "amber-as-boxes": lazy_pgettext("isla-nublar", "play its amber as boxes"),
    "influence": lazy_pgettext("isla-nublar", "play it for its client"),
    "dinosaur": lazy_pgettext("isla-nublar", "play it: the dinosaur moves"),
    "scoring": lazy_pgettext("isla-nublar", "play it as your own scoring card"),
}
#: what answering a pending step with a card does
_PICK_WORDS = {"defend": lazy_pgettext("isla-nublar", "play it in defence"),
               "select": lazy_pgettext("isla-nublar", "pick it")}


def move_words(move: Mapping[str, Any]) -> str:
    """A hand move's button: what laying the card this way does."""
    if move.get("kind") != "play":
        return str(_PICK_WORDS.get(str(move.get("kind")), str(move.get("kind"))))
    card = _cards().cards.get(str(move.get("card")))
    use = str(move.get("use"))
    n = (card.value(use) if card is not None else None) or 0
    boxes = ngettext("%(num)d box", "%(num)d boxes", n) % {"num": n}
    return str(_USE_WORDS.get(use, use)).format(n=n, boxes=boxes)


def hand_cards(view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """At a real table, the cards ``player``'s hand may hold for what is asked now, those the table showed
    first, each with its name, face and the moves the engine accepts (buttons): nothing else is offered."""
    hand = view.get("table_hand")
    if not isinstance(hand, Mapping) or hand.get("player") != player:
        return []
    known = hand.get("known") or {}
    found: dict[str, dict[str, Any]] = {}
    for move in hand.get("moves") or []:
        card = str(move.get("card"))
        entry = found.setdefault(card, {
            "card": card, "name": isla_nublar_words(card) or card, "known": card in known,
            "unseen": card == UNSEEN, "moves": []})
        entry["moves"].append({"action": move, "words": move_words(move)})
    return list(found.values())


def chance_words(view: Mapping[str, Any], setting_up: bool = False) -> str | None:
    """What is being turned face up for everyone, and who does it (whoever sets the table up, before the
    game starts)."""
    tasks = view.get("tasks") or []
    if not tasks or not isinstance(tasks[0], Mapping):
        return None
    task = tasks[0]
    who = pgettext("isla-nublar", "Set-up") if setting_up else str(view.get("active") or "")
    kind = task.get("t")
    if kind == "place-dinosaurs":  # always the set-up: the figures stand before the first turn
        return pgettext("isla-nublar", "Set-up: stand the four dinosaur figures on the red volcanoes, one on "
                        "each, at random (below: the figures from west to east, left to right on "
                            "the diagram)")
    if kind == "reveal-pile":
        return pgettext("isla-nublar", "%(player)s: turn up the next card of the %(pile)s-amber pile on its "
                        "place") % {"player": who, "pile": task.get("pile")}
    if kind == "reveal-scoring":
        return pgettext("isla-nublar", "%(player)s: turn up a scoring card into place %(slot)d of "
            "the scoring "
                        "row") % {"player": who, "slot": int(task.get("slot", 0)) + 1}
    if kind == "reveal-dinosaur":
        return pgettext("isla-nublar", "%(player)s: turn up the top dinosaur card") % {"player": who}
    if kind == "draw":
        n = int(task.get("n", 1) or 1)
        return npgettext("isla-nublar", "%(player)s: draw %(num)d card from your draw pile",
                         "%(player)s: draw %(num)d cards from your draw pile", n) % {
            "player": task.get("player") or who, "num": n}
    return None
