"""How Jurassik's table is read (see :class:`~companion.kits.reading.TableReading`)."""

from __future__ import annotations

from types import MappingProxyType

from companion.kits.reading import TableReading
from vision.places import IGNORED, POSITIONAL, UNORDERED, Places

# the excavation site is read where each tile lies (tiles on a 60 mm grid: 22 mm either way is one
# place); the reveal spot and a player's area only for what is in them; every chance is read
READING = TableReading(
    places=Places(MappingProxyType({"play": POSITIONAL, "reveal": UNORDERED, "seat:*": UNORDERED,
                                    "box": IGNORED}), tolerance_mm=22.0),
    tag_mm=MappingProxyType({"tile": 40.0, "action": 40.0}))
