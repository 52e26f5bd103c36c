"""How Jurassic Brunch's table is read (see :class:`~companion.kits.reading.TableReading`)."""

from __future__ import annotations

from types import MappingProxyType

from companion.kits.reading import TableReading
from vision.places import IGNORED, POSITIONAL, UNORDERED, Places

# the pasture and the raptor's resting place are read where things stand; an eaten token and the one a
# Flower takes are tapped as they are turned face up
READING = TableReading(
    places=Places(MappingProxyType({"play": POSITIONAL, "raptor-rest": POSITIONAL, "seat:*": UNORDERED,
                                    "box": IGNORED})),
    tag_mm=MappingProxyType({"board": 40.0, "figure": 40.0, "token": 40.0}),
    tapped_chance=frozenset({"reveal", "steal"}))
