"""Reading a Jurassic Parts slab drawn without a game layout (:func:`sim.fixtures.jp_slab_scene`): the JP
kit's printed set and its slab geometry with the lattice's placement left to the fit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.kits import kit_for
from vision.boards import TileLattice
from vision.detect import GeometryHints
from vision.tags import Manifest

#: a hex slab of tiles, chisels on its gaps; placement, pitch and angle fitted from the tags
JP_TILES = TileLattice("hex", tile_kinds=("tile",), pegs_on_gaps=True)
JP_SLAB = GeometryHints(board=JP_TILES, tile_turn=60.0)


def jp_hints(**fields: Any) -> GeometryHints:
    """The slab's hints with some of its tile lattice's fields changed (its prior, its pegs' radius)."""
    return replace(JP_SLAB, board=replace(JP_TILES, **fields))


def jp_manifest() -> Manifest:
    return kit_for("JP").manifest()


def jp_back_of() -> dict[str, str]:
    """The default printed set's pairing (front id -> back id): the simulation's ground truth."""
    return dict(kit_for("JP").printed_set().back_of)
