"""The tags of Isla Nublar: the island board's four corners, the dinosaur figures named by the engine's
dinosaur cards, and one sticker for every card (each player's starting deck, the action, dinosaur and
scoring cards), read when a card is laid face up in front of a player. Camps and equipment boxes are found
by colour, not tags."""

from __future__ import annotations

from functools import lru_cache

from companion.kits.isla_nublar.reading import READING
from companion.kits.isla_nublar.words import card_words
from companion.kits.kit import printed_set
from engines.isla_nublar.components import default_cards
from engines.isla_nublar.game import IslaNublarGame
from vision.tags import DEFAULT_SEED, ManifestEntry, PrintedSet, TagInventory

#: the game as its engine declares it; its code begins every payload
INFO = IslaNublarGame.info
CODE = INFO.code
CORNERS = ("NW", "NE", "SE", "SW")
#: the corner tags' ids, NW NE SE SW
CORNER_TAGS = tuple(f"BOARD-{corner}" for corner in CORNERS)
#: starting decks printed: one per player the game takes
STARTING_DECKS = 4
#: the groups of cards in the order the sheets print them
CARD_GROUPS = ("starting", "action", "dinosaur", "scoring")


def figures() -> list[str]:
    """The dinosaur figures the engine's dinosaur cards name (``DINO-1`` ...)."""
    return sorted(figure_species())


def figure_species() -> dict[str, str]:
    """Each figure and the species its dinosaur card names (DINO-1: Tyrannosaurus ...)."""
    return {str(card.figure): str(card.name) for card in default_cards().cards.values()
            if card.group == "dinosaur"}


@lru_cache(maxsize=1)
def card_tags() -> dict[str, str]:
    """Every card sticker's id (``CARD-001`` ...) and the card it is on: each copy of each card (a starting
    card once per starting deck), in print order."""
    cards = default_cards().cards.values()
    tags: dict[str, str] = {}
    for group in CARD_GROUPS:
        for card in sorted((c for c in cards if c.group == group), key=lambda c: c.card_id):
            copies = card.count * (STARTING_DECKS if group == "starting" else 1)
            for _ in range(copies):
                tags[f"CARD-{len(tags) + 1:03d}"] = card.card_id
    return tags


@lru_cache(maxsize=1)
def copies_of_cards() -> dict[str, tuple[str, ...]]:
    """Each card's sticker ids, in print order."""
    copies: dict[str, list[str]] = {}
    for tag, card in card_tags().items():
        copies.setdefault(card, []).append(tag)
    return {card: tuple(tags) for card, tags in copies.items()}


def inventory() -> TagInventory:
    faces = [ManifestEntry(tag, "front", "board", f"island board {corner} corner")
             for tag, corner in zip(CORNER_TAGS, CORNERS)]
    faces += [ManifestEntry(figure, "front", "figure", f"{species} figure")
              for figure, species in sorted(figure_species().items())]
    cards = default_cards().cards
    faces += [ManifestEntry(tag, "front", "card", card_words(cards[card]))
              for tag, card in card_tags().items()]
    return TagInventory(code=CODE, name=INFO.name, faces=tuple(faces),
                        notes=("camps and equipment boxes are found by colour, not tags",
                               "a card's sticker goes on its face, in a corner clear of its actions"))


INVENTORY = inventory()


def printed(seed: int = DEFAULT_SEED) -> PrintedSet:
    return printed_set(INVENTORY, READING.tag_mm, seed)
