"""The slab as the group laid it: the tiles the camera sees in the play area fitted to a hex lattice of the
tiles' own pitch wherever the slab lies, each read as its cell, its turn (from its code's angle) and its
side (a front names the fossil; a back only what is printed on it), into the engine's set-up document."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from companion.i18n import Said, gettext, pgettext, said, said_everywhere
from companion.kits.jurassic_parts.table import JurassicPartsLayout
from companion.kits.jurassic_parts.words import fossil_words, slab_cell_words
from companion.kits.kit import TableAsLaid
from companion.kits.tabletop import OUT_OF_LINE, SAME_PLACE_MM
from engines.jurassic_parts.components import COMPONENT_BY_ID
from vision.observation import Observation, TagReading


def _offset(points: Sequence[tuple[float, float]], layout: JurassicPartsLayout) -> tuple[float, float]:
    """How far the slab's lattice lies from the layout's (mm): from the tile nearest the middle, then the
    median of every tile's distance from its nearest place."""
    ox, oy = layout.slab_origin
    first = min(points, key=lambda p: math.dist(p, (ox, oy)))
    nearest = layout.axial_to_mm(*layout.mm_to_axial(first))
    shift = (first[0] - nearest[0], first[1] - nearest[1])
    for _ in range(2):
        moved = replace(layout, slab_origin=(ox + shift[0], oy + shift[1]))
        residuals = [(p[0] - c[0], p[1] - c[1]) for p in points
                     for c in [moved.axial_to_mm(*moved.mm_to_axial(p))]]
        shift = (shift[0] + statistics.median(r[0] for r in residuals),
                 shift[1] + statistics.median(r[1] for r in residuals))
    return shift


def _tile(reading: TagReading, cell: tuple[int, int]) -> dict[str, Any]:
    rotation = round((reading.angle % 360.0) / 60.0) % 6
    if reading.face == "front":
        return {"cell": list(cell), "rotation": rotation, "face_up": True, "id": reading.component_id}
    return {"cell": list(cell), "rotation": rotation, "face_up": False, "back": reading.component_id}


def _step_words(view: Mapping[str, Any], cell: tuple[int, int], readings: list[TagReading]) -> dict[str, str]:
    """A set-up step's pieces and place in the language being spoken."""
    names = [fossil_words(r.component_id) or pgettext("jurassic-parts", "a face-down tile") for r in readings]
    return {"pieces": gettext(" and ").join(names),
            "place": (slab_cell_words(view, cell) or "").split(" (")[0]}


def read_slab(observation: Observation, layout: JurassicPartsLayout) -> TableAsLaid:
    """The tiles in the play area as one slab (see the module's note)."""
    readings = [r for r in observation.tags.values() if r.zone == "play" and r.center_mm is not None]
    if not readings:
        first = said("lay the fossil tiles in a slab round a Pile of Bones face up")
        return TableAsLaid(None, {}, (first,), 0)
    points = [r.center_mm for r in readings if r.center_mm is not None]
    shift = _offset(points, layout)
    if math.hypot(*shift) <= SAME_PLACE_MM:
        shift = (0.0, 0.0)  # laid where the companion lays it: its zones and lattice stay
    ox, oy = layout.slab_origin
    laid_out = replace(layout, slab_origin=(ox + shift[0], oy + shift[1]))
    placed: dict[tuple[int, int], list[tuple[TagReading, float]]] = {}
    for reading, point in zip(readings, points):
        cell = laid_out.mm_to_axial(point)
        placed.setdefault(cell, []).append((reading, math.dist(point, laid_out.axial_to_mm(*cell))))
    tiles: list[dict[str, Any]] = []
    steps: list[Said] = []
    view = {"slab": [{"cell": list(cell)} for cell in placed]}
    for cell, found in sorted(placed.items(), key=lambda item: (item[0][1], item[0][0])):
        words = partial(_step_words, view, cell, [r for r, _ in found])
        if len(found) > 1:
            steps.append(said_everywhere("%(pieces)s lie on one place (%(place)s): one tile a place", words))
            continue
        reading, off = found[0]
        if off > OUT_OF_LINE * layout.pitch:
            steps.append(said_everywhere("push %(pieces)s into line with the slab (%(place)s)", words))
        tiles.append(_tile(reading, cell))
    centre = _centre(tiles)
    for tile in tiles:
        tile["cell"] = [tile["cell"][0] - centre[0], tile["cell"][1] - centre[1]]
    tiles.sort(key=lambda tile: (_ring(tile["cell"]), tile["cell"]))
    x, y = laid_out.axial_to_mm(*centre)
    placement = {"slab_origin": [round(x, 1), round(y, 1)]}
    return TableAsLaid(None if steps else {"tiles": tiles}, placement, tuple(steps), len(readings))


def _ring(cell: Sequence[int]) -> int:
    q, r = cell[0], cell[1]
    return max(abs(q), abs(r), abs(q + r))


def _centre(tiles: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """The cell the slab is numbered from: the Pile of Bones laid face up in the centre, as the rulebook
    lays it (the face-up one nearest every tile), else the tile nearest every other."""
    cells = [(int(t["cell"][0]), int(t["cell"][1])) for t in tiles]
    bones = [(int(t["cell"][0]), int(t["cell"][1])) for t in tiles if t.get("face_up")
             and getattr(COMPONENT_BY_ID.get(str(t.get("id"))), "fossil", None) == "BONES"]
    candidates = bones or cells

    def spread(cell: tuple[int, int]) -> tuple[int, int]:
        distances = [_ring((c[0] - cell[0], c[1] - cell[1])) for c in cells]
        return (max(distances), sum(distances))

    return min(candidates, key=lambda cell: (*spread(cell), cell)) if candidates else (0, 0)

