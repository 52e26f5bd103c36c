"""Which printed Jurassic Parts tile is which where the engine only knows kinds: ids for the tiles in the
hands (kept stable from frame to frame), the printed back of a face-down tile, and the default set's tile
behind a back (the simulation's ground truth)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.kits.jurassic_parts.tags import printed
from companion.kits.tabletop import StableIds, keep_places
from engines.jurassic_parts import components
from engines.jurassic_parts.actions import Reveal
from vision.scene import Point


@dataclass
class JurassicPartsIds:
    """Which printed tile is which, where the engine only knows kinds: the tiles in each player's and the
    Field Leader's hands (the engine keeps counts per fossil), kept stable from frame to frame. Keep one
    per game and pass it to every :func:`scene_for` call."""

    held: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (holder, fossil) -> tile ids
    revealed: dict[int, str] = field(default_factory=dict)  # slot -> id given to a tile revealed unnamed
    spots: dict[str, tuple[str, int]] = field(default_factory=dict)  # tile id -> (holder, place index)

    def places(self, holder: str, tiles: Sequence[str], spots: Sequence[Point]) -> list[tuple[str, Point]]:
        """Where ``holder``'s tiles lie: a tile keeps the place it had; new ones take the first free
        places. Tiles beyond the area's places are stacked out of sight (not returned)."""
        previous = {tile: index for tile, (owner, index) in self.spots.items() if owner == holder}
        taken = keep_places(tiles, len(spots), previous)
        for tile in set(tiles) - set(taken.values()):
            self.spots.pop(tile, None)
        for index, tile in taken.items():
            self.spots[tile] = (holder, index)
        return [(tile, spots[index]) for index, tile in sorted(taken.items())]

    spare_backs: StableIds = field(default_factory=lambda: StableIds(printed().backs()))

    def __deepcopy__(self, memo: dict[int, Any]) -> JurassicPartsIds:
        # each hypothesis inference draws copies these; ids are strings and places tuples, so one level
        # down is deep enough (copy.deepcopy walked every list: 6 % of a search)
        return JurassicPartsIds(
            {key: list(tiles) for key, tiles in self.held.items()},
            dict(self.revealed),
            dict(self.spots),
            copy.deepcopy(self.spare_backs, memo),
        )


def printed_back(engine_back: str | None, slot: int, ids: JurassicPartsIds) -> str:
    """The back id printed on the set's tags for a face-down tile.

    The engine's default set carries its own back ids (``components.Component.back``); a printed set
    (the kit's ``printed``) may draw its own. When they differ, the printed set's back of the same
    front is drawn (the simulation's ground truth: the pairing is the printed set's, never the loaded
    manifest's); unknown backs get a spare printed id.
    """
    printed_tiles_set = printed()
    if engine_back is not None and printed_tiles_set.front_of(engine_back) is not None:
        return engine_back
    for tile_id in _tiles_behind().get(engine_back, ()):
        if tile_id in printed_tiles_set.back_of:
            return str(printed_tiles_set.back_of[tile_id])
    return ids.spare_backs.get(("slot", slot))


def _tiles_behind() -> dict[str | None, tuple[str, ...]]:
    """The default set's tile ids by back id, in the set's order (built once: drawing asks per tile)."""
    if not _TILES_BEHIND:
        for comp in components.COMPONENTS:
            _TILES_BEHIND[comp.back] = (*_TILES_BEHIND.get(comp.back, ()), str(comp.tile_id))
    return _TILES_BEHIND


_TILES_BEHIND: dict[str | None, tuple[str, ...]] = {}


def hidden_tile(state: Any, slot: int) -> str | None:
    """The default set's tile behind the face-down tile in ``slot`` (bot games deal the default set, whose
    back ids the engine keeps), or None when the back is not one of the default set's."""
    backs = state.layout.backs
    back = backs[slot] if backs is not None else None
    if back is None:
        return None
    behind = _tiles_behind().get(back)
    return behind[0] if behind else None


def true_reveal(state: Any, cell: tuple[int, int]) -> Any:
    """The chance outcome a camera would see when the face-down tile at ``cell`` is turned up: the
    engine's Reveal with the fossil and tag id of the tile really lying there (for demos and tests that
    must agree with the rendered table). None when the tile behind the back is unknown or already seen."""
    where = (int(cell[0]), int(cell[1]))
    slot = state.layout.slot_of.get(where)
    tile = hidden_tile(state, slot) if slot is not None else None
    if tile is None or tile in state.tile_id:
        return None
    comp = components.COMPONENT_BY_ID[tile]
    return Reveal(cell=where, fossil=comp.fossil, tile=tile)


def _fossil_of_slot(state: Any, slot: int) -> str | None:
    kind = state.fossil[slot]
    if kind < 0:
        return None
    comps = components
    return str(comps.KIND_NAMES[comps.real_kind(kind)])


def _holdings(state: Any) -> dict[str, dict[str, int]]:
    """Tiles held by each player and the Field Leader (``"@leader"``), counted per printed fossil."""
    comps = components
    result: dict[str, dict[str, int]] = {}
    for p, name in enumerate(state.players):
        counts: dict[str, int] = {}
        for holding in (state.loose[p], state.in_sets[p]):
            for kind, count in enumerate(holding):
                if count:
                    fossil = comps.KIND_NAMES[comps.real_kind(kind)]
                    counts[fossil] = counts.get(fossil, 0) + count
        result[name] = counts
    leader: dict[str, int] = {}
    for kind, count in enumerate(state.leader):
        if count:
            fossil = comps.KIND_NAMES[kind]
            leader[fossil] = leader.get(fossil, 0) + count
    result["@leader"] = leader
    return result


@dataclass(frozen=True)
class PrintedTiles:
    """Which printed tile lies where: front ids of face-up slab slots, and the tiles in each holder's area
    (players by name, the Field Leader as ``"@leader"``). Every id appears at most once."""

    slab: dict[int, str]
    held: dict[str, list[str]]


def printed_tiles(state: Any, ids: JurassicPartsIds) -> PrintedTiles:
    """Name every face-up tile on the table with a distinct printed id.

    The engine knows a tile's id when it was read (face up at setup, or revealed with its tag); otherwise
    only its fossil. Known ids are used as they are, then the default set's tile behind a revealed back
    (when its fossil agrees), then any unused printed tile of the right fossil. Held tiles keep the ids
    they had in earlier frames (``ids`` remembers them) while the holder's counts allow.
    """
    comps = components
    size = state.layout.size
    pool = set(state.pool)
    used: set[str] = {t for t in state.tile_id if t is not None}
    slab: dict[int, str] = {}
    gone: dict[str, list[str]] = {}
    unnamed: list[tuple[int, str, bool]] = []
    for slot in range(size):
        fossil = _fossil_of_slot(state, slot)
        if fossil is None:
            continue
        on_table = bool(state.on_slab[slot]) or slot in pool
        tile = state.tile_id[slot]
        if tile is None:
            behind = hidden_tile(state, slot)
            if behind is not None and behind not in used and comps.COMPONENT_BY_ID[behind].fossil == fossil:
                tile = behind
                used.add(tile)
        if tile is None:
            unnamed.append((slot, fossil, on_table))
        elif on_table:
            slab[slot] = tile
        else:
            gone.setdefault(fossil, []).append(tile)
    # Ids that may still be handed out: printed tiles not known to lie anywhere.
    hidden = {hidden_tile(state, s) for s in range(size) if state.fossil[s] < 0}
    spare: dict[str, list[str]] = {}
    for comp in comps.COMPONENTS:
        if comp.tile_id not in used and comp.tile_id not in hidden:
            spare.setdefault(comp.fossil, []).append(comp.tile_id)
    # Last resort when chance outcomes disagreed with the tiles behind the backs: borrow the identity of a
    # tile still face down (it shows only its back; it gets a name of its own when it turns up).
    for comp in comps.COMPONENTS:
        if comp.tile_id not in used and comp.tile_id in hidden:
            spare.setdefault(comp.fossil, []).append(comp.tile_id)
    for slot, fossil, on_table in unnamed:
        remembered = ids.revealed.get(slot)
        if remembered is not None and remembered in spare.get(fossil, []):
            tile = remembered
        elif spare.get(fossil):
            tile = spare[fossil][0]
        else:
            continue  # more tiles of a fossil than printed: the state says so, nothing to draw it with
        spare[fossil].remove(tile)
        ids.revealed[slot] = tile
        if on_table:
            slab[slot] = tile
        else:
            gone.setdefault(fossil, []).append(tile)

    holdings = _holdings(state)
    free = {fossil: list(tiles) for fossil, tiles in gone.items()}
    shortfall: list[tuple[str, str, int]] = []
    for holder, counts in holdings.items():
        for fossil, count in counts.items():
            kept = [t for t in ids.held.get((holder, fossil), []) if t in free.get(fossil, [])][:count]
            for tile in kept:
                free[fossil].remove(tile)
            ids.held[(holder, fossil)] = kept
            shortfall.append((holder, fossil, count - len(kept)))
    for holder, fossil, missing in shortfall:
        for _ in range(missing):
            source = free.get(fossil) or spare.get(fossil)
            if not source:
                break
            ids.held[(holder, fossil)].append(source.pop(0))
    for key in [k for k in ids.held if k[1] not in holdings.get(k[0], {})]:
        del ids.held[key]
    held = {
        holder: [t for fossil in counts for t in ids.held[(holder, fossil)]]
        for holder, counts in holdings.items()
    }
    return PrintedTiles(slab, held)
