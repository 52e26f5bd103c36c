"""The tags of Jurassic Parts: one per side of each of the 58 fossil tiles, from the engine's component list
(the front names the tile and its fossil and carries its rocky edges; the back is opaque and carries the
rocks seen from below)."""

from __future__ import annotations

from companion.kits.jurassic_parts.reading import READING
from companion.kits.kit import printed_set
from engines.jurassic_parts.components import COMPONENTS, IS_DEFAULT_ROCKS
from engines.jurassic_parts.game import JurassicPartsGame
from vision.tags import DEFAULT_SEED, ManifestEntry, PrintedSet, TagInventory

#: the game as its engine declares it; its code begins every payload
INFO = JurassicPartsGame.info
CODE = INFO.code


def inventory() -> TagInventory:
    note = "rocky edges from engines.jurassic_parts"
    if IS_DEFAULT_ROCKS:
        note += " (a generated default: check against the printed set)"
    return TagInventory(
        code=CODE,
        name=INFO.name,
        faces=tuple(ManifestEntry(c.tile_id, "front", "tile", c.fossil, tuple(c.rocks)) for c in COMPONENTS),
        opaque=tuple((c.tile_id, tuple(c.back_rocks)) for c in COMPONENTS),
        fixed_backs=tuple(c.back for c in COMPONENTS),
        notes=(note,),
    )


INVENTORY = inventory()


def printed(seed: int = DEFAULT_SEED) -> PrintedSet:
    return printed_set(INVENTORY, READING.tag_mm, seed)
