"""The tags of Isla Nublar: the island board's four corners and the dinosaur figures named by the engine's
dinosaur cards. Camps and equipment boxes are found by colour, not tags."""

from __future__ import annotations

from companion.kits.kit import printed_set
from engines.isla_nublar.components import default_cards
from vision.tags import DEFAULT_SEED, ManifestEntry, PrintedSet, TagInventory

CODE = "IN"
CORNERS = ("NW", "NE", "SE", "SW")
#: the corner tags' ids, NW NE SE SW
CORNER_TAGS = tuple(f"BOARD-{corner}" for corner in CORNERS)


def figures() -> list[str]:
    """The dinosaur figures the engine's dinosaur cards name (``DINO-1`` ...)."""
    return sorted({str(card.figure) for card in default_cards().cards.values() if card.group == "dinosaur"})


def inventory() -> TagInventory:
    faces = [ManifestEntry(tag, "front", "board", f"island board {corner} corner")
             for tag, corner in zip(CORNER_TAGS, CORNERS)]
    faces += [ManifestEntry(figure, "front", "figure", f"dinosaur figure {figure.split('-')[-1]}")
              for figure in figures()]
    return TagInventory(code=CODE, name="isla-nublar", faces=tuple(faces),
                        notes=("camps and equipment boxes are found by colour, not tags",))


INVENTORY = inventory()


def printed(seed: int = DEFAULT_SEED) -> PrintedSet:
    return printed_set(INVENTORY, seed)
