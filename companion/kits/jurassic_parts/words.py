"""Jurassic Parts in the players' words: fossils by the field guide's names, slab tiles by row and place."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.i18n import gettext, lazy_pgettext, pgettext
from engines.jurassic_parts import components
from engines.jurassic_parts.board import DIRECTIONS

if TYPE_CHECKING:
    from companion.kits.jurassic_parts.table import JurassicPartsLayout

#: what a tile's front can show, in the field guide's order
FRONTS = [components.KIND_NAMES[kind] for kind in components.FRONT_KINDS]

_SPECIES = {species.name: species.title for species in components.SPECIES}
_SINGLES = {"PTERO": lazy_pgettext("jurassic-parts", "Pterodactyl"),
            "PLANT": lazy_pgettext("jurassic-parts", "Plant"),
            "BONES": lazy_pgettext("jurassic-parts", "Pile of Bones")}


def fossil_words(name: str) -> str | None:
    """``TREX-2`` -> "T-Rex 2", ``PTERO`` -> "Pterodactyl", ``BONES:TREX-2`` -> "Pile of Bones as T-Rex 2";
    a tile id (``F07``) -> its fossil's words; None for anything else."""
    if name in _SINGLES:
        return str(_SINGLES[name])
    if name.startswith("BONES:"):
        part = fossil_words(name[len("BONES:"):])
        return pgettext("jurassic-parts", "Pile of Bones as %(part)s") % {"part": part} if part else None
    species, _, number = name.partition("-")
    if species in _SPECIES and number.isdigit():
        return f"{_SPECIES[species]} {number}"
    tile = components.COMPONENT_BY_ID.get(name)
    if tile is not None:
        return f"{fossil_words(tile.fossil) or tile.fossil} ({name})"
    return None


def species_words(name: str) -> str | None:
    """``TREX`` -> "T-Rex", ``PTERO`` -> "Pterodactyl": a kind of fossil by the field guide's name."""
    single = _SINGLES.get(name)
    return _SPECIES.get(name) or (str(single) if single is not None else None)


def slab_cell_words(view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
    """A slab tile as players point at it: its row from the top and its place from the left (every tile
    the slab began with counts, so a tile keeps its words all game), and what shows on it."""
    slab = [tile for tile in view.get("slab") or [] if isinstance(tile, Mapping)]
    cells = [tuple(tile.get("cell") or ()) for tile in slab]
    wanted = tuple(cell)
    if wanted not in cells:
        return None
    rows = sorted({c[1] for c in cells if len(c) == 2})
    in_row = sorted(c for c in cells if len(c) == 2 and c[1] == wanted[1])
    words = pgettext("jurassic-parts", "row %(row)d, tile %(tile)d") % {
        "row": rows.index(wanted[1]) + 1, "tile": in_row.index(wanted) + 1}  # type: ignore[arg-type]
    tile = slab[cells.index(wanted)]
    fossil = tile.get("fossil")
    if tile.get("face_up") and isinstance(fossil, str):
        return f"{words} ({fossil_words(fossil) or fossil})"
    down = pgettext("jurassic-parts", "face down")
    return f"{words} ({down})"


def hand_moves(view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """Jurassic Parts purchases and sales that name a fossil: sales of what the player shows (any fossil
    when some is concealed), the Field Leader's tiles to buy, a Pile of Bones to commit as a part."""
    phase = (view.get("turn") or {}).get("phase")
    seat = (view.get("seats") or {}).get(player) or {}
    if phase not in ("main", "take"):  # a Pile of Bones may be committed while receiving tiles too
        return []
    loose = dict(seat.get("loose") or {})
    concealed = int(seat.get("concealed") or 0) > 0
    moves: list[dict[str, Any]] = []
    if phase == "main":
        sell = FRONTS if concealed else [f for f in FRONTS if loose.get(f)]
        leader = [f for f in FRONTS if ((view.get("field_leader") or {}).get("tiles") or {}).get(f)]
        moves += [{"kind": "sell", "player": player, "fossil": f} for f in sell]
        moves += [{"kind": "buy-leader-tile", "player": player, "fossil": f} for f in leader]
    if concealed or loose.get("BONES"):
        moves += [{"kind": "commit-bones", "player": player, "part": p} for p in components.PART_NAMES]
    return moves


Cell = tuple[int, int]


def slab_place(layout: JurassicPartsLayout, at: Sequence[float]) -> tuple[Cell] | tuple[Cell, Cell]:
    """What a table point on the slab is: a tile's cell (near its centre), or the gap between the two
    nearest cells, the nearer first."""
    point = (float(at[0]), float(at[1]))
    cell = layout.mm_to_axial(point)
    if math.dist(point, layout.axial_to_mm(*cell)) < layout.pitch * 0.3:
        return (cell,)
    around = [(cell[0] + dq, cell[1] + dr) for dq, dr in ((0, 0), *DIRECTIONS)]
    first, second = sorted(around, key=lambda c: math.dist(point, layout.axial_to_mm(*c)))[:2]
    return (first, second)


def slab_place_words(view: Mapping[str, Any], layout: JurassicPartsLayout, at: Sequence[float]) -> str | None:
    """A point on the slab: on a tile (its words), or on the crack between the two nearest tiles."""
    place = slab_place(layout, at)
    if len(place) == 1:  # the place itself: what lies there is the step's
        words = slab_cell_words(view, place[0])
        return gettext("on %(place)s") % {"place": words.split(" (")[0]} if words else None
    names = [slab_cell_words(view, c) for c in place]
    if not all(names):
        return None
    return gettext("between %(a)s and %(b)s") % {"a": names[0], "b": names[1]}
