"""How Isla Nublar's table is read (see :class:`~companion.kits.reading.TableReading`)."""

from __future__ import annotations

from types import MappingProxyType

from companion.kits.reading import TableReading
from vision.places import IGNORED, POSITIONAL, UNORDERED, Places

# the island's board, the general supply and the buy piles and scoring row are read where things lie; a
# player's own area only for what is in it; a buy pile's next card, the scoring row and a dinosaur
# card are tapped as they are turned face up; a card drawn into a hand is never shown
READING = TableReading(
    places=Places(MappingProxyType({"play": POSITIONAL, "general": POSITIONAL, "pile:*": POSITIONAL,
                                    "row:*": POSITIONAL, "seat:*": UNORDERED, "box": IGNORED}),
                  tolerance_mm=14.0),
    tag_mm=MappingProxyType({"board": 40.0, "figure": 40.0, "card": 36.0}),
    tapped_chance=frozenset({"reveal-pile", "reveal-scoring", "reveal-dinosaur", "place-dinosaurs"}),
    unseen_chance=frozenset({"draw"}))
