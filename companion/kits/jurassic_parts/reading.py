"""How Jurassic Parts's table is read (see :class:`~companion.kits.reading.TableReading`)."""

from __future__ import annotations

from types import MappingProxyType

from companion.kits.reading import TableReading
from vision.places import IGNORED, POSITIONAL, UNORDERED, Places

# the slab is read where each tile lies; the field leader's area, the supply and a player's area only
# for what is in them; every chance (a tile turned up) is read from the table
READING = TableReading(
    places=Places(MappingProxyType({"play": POSITIONAL, "field-leader": UNORDERED, "supply": UNORDERED,
                                    "seat:*": UNORDERED, "box": IGNORED})),
    tag_mm=MappingProxyType({"tile": 40.0}))
