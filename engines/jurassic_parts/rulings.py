"""`companion split FILE`: rule on an observed slab (is it split, who takes how many tiles)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import InputError
from engines.jurassic_parts.components import COMPONENTS
from engines.jurassic_parts.slab import DIRECTIONS, rank_contributors, shares

SHARE_CAP = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 6
CHISELS_PER_PLAYER = 12
#: observed axial coordinates lie well inside this (58 tiles); anything beyond is a corrupt file
MAX_COORDINATE = 10_000
NEIGHBOUR_STEPS = frozenset(DIRECTIONS)
HALF_STEPS = ((1, 0), (0, 1), (-1, 1))  # E, SE, SW: every neighbour pair once
#: a slab tile is named by the tag the referee can read: its front id (F01..F58) when face up, its back
#: id when face down; both lead to the same physical tile (used only to catch a tile listed twice)
PHYSICAL_TILE = {**{c.tile_id: c.tile_id for c in COMPONENTS}, **{c.back: c.tile_id for c in COMPONENTS}}
SPLIT_RULES = ["JP-SPLIT", "JP-SPLIT-SMALLER", "JP-SPLIT-EQUAL", "JP-SPLIT-INTERIOR", "JP-CONTRIBUTORS",
               "JP-SHARES", "JP-CHISELS-RETURNED"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def brief(value: Any, limit: int = 40) -> str:
    """A value quoted in an error line, cut short: the line names the problem, it does not echo the file."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_name(value: Any) -> bool:
    if not isinstance(value, str) or not value:
        return False
    try:
        value.encode("utf-8")  # a lone surrogate (from a JSON escape) cannot be printed back as JSON text
    except UnicodeEncodeError:
        return False
    return True


def split_ruling(data: Any) -> dict[str, Any]:
    """The split ruling for a slab described as in issue 2; :class:`InputError` (one line) when bad.

    Input: ``{"players": [clockwise names], "current": name, "tiles": [{"id", "q", "r"}],
    "chisels": [{"a": id, "b": id, "player": name}]}``.
    """
    if not isinstance(data, Mapping):
        raise InputError("expected a JSON object with players, current, tiles and chisels")
    players = data.get("players")
    if not isinstance(players, list) or not all(_is_name(p) for p in players):
        raise InputError("\"players\" must be a list of player names (text) in clockwise seat order")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InputError(f"Jurassic Parts takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise InputError("\"players\" lists a player twice")
    current = data.get("current")
    if not isinstance(current, str) or current not in players:
        raise InputError(f"unknown player {brief(current)} as \"current\"")
    tiles = data.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        raise InputError("\"tiles\" must be a non-empty list of {id, q, r}")
    ids: list[str] = []
    cells: list[tuple[int, int]] = []
    slot_of_id: dict[str, int] = {}
    cell_owner: dict[tuple[int, int], str] = {}
    physical: set[str] = set()
    for index, tile in enumerate(tiles):
        if not isinstance(tile, Mapping):
            raise InputError(f"tiles[{index}] must be an object with id, q and r")
        tile_id = tile.get("id")
        if not isinstance(tile_id, str) or tile_id not in PHYSICAL_TILE:
            raise InputError(f"unknown tile {brief(tile_id)} in tiles[{index}] (front id F01-F58 or back id)")
        if tile_id in slot_of_id:
            raise InputError(f"duplicate tile {tile_id}")
        if PHYSICAL_TILE[tile_id] in physical:  # named by neither id: that would tell what is face down
            raise InputError(f"tiles[{index}]: a tile is listed twice, by its front and by its back id")
        physical.add(PHYSICAL_TILE[tile_id])
        q, r = tile.get("q"), tile.get("r")
        if not isinstance(q, int) or not isinstance(r, int) or not _is_int(q) or not _is_int(r):
            raise InputError(f"tile {tile_id} needs integer q and r")
        if abs(q) > MAX_COORDINATE or abs(r) > MAX_COORDINATE:
            raise InputError(f"tile {tile_id} is at ({q}, {r}): coordinates beyond +-{MAX_COORDINATE}")
        cell = (q, r)
        if cell in cell_owner:
            raise InputError(f"tiles {cell_owner[cell]} and {tile_id} are both on cell ({q}, {r})")
        cell_owner[cell] = tile_id
        slot_of_id[tile_id] = len(ids)
        ids.append(tile_id)
        cells.append(cell)
    n = len(cells)
    # union-find over the uncracked gaps; each neighbour pair is seen once (E, SE, SW of every tile)
    cracked: dict[tuple[int, int], int] = {}
    chisels = data.get("chisels")
    if not isinstance(chisels, list):  # required: a misspelt key must not read as an uncracked slab
        raise InputError("\"chisels\" must be a list of {a, b, player} ([] for none)")
    player_index = {name: i for i, name in enumerate(players)}
    for index, chisel in enumerate(chisels):
        if not isinstance(chisel, Mapping):
            raise InputError(f"chisels[{index}] must be an object with a, b and player")
        a, b, who = chisel.get("a"), chisel.get("b"), chisel.get("player")
        sa = slot_of_id.get(a) if isinstance(a, str) else None
        sb = slot_of_id.get(b) if isinstance(b, str) else None
        if sa is None or sb is None:
            unknown = a if sa is None else b
            raise InputError(f"chisels[{index}] names unknown tile {brief(unknown)} (not on the slab)")
        if not isinstance(who, str) or who not in player_index:
            raise InputError(f"chisels[{index}] belongs to unknown player {brief(who)}")
        (qa, ra), (qb, rb) = cells[sa], cells[sb]
        if (qb - qa, rb - ra) not in NEIGHBOUR_STEPS:
            raise InputError(f"chisel between {a} and {b}: the tiles are not adjacent")
        key = (sa, sb) if sa < sb else (sb, sa)
        if key in cracked:
            raise InputError(f"two chisels on the gap between {a} and {b}")
        cracked[key] = player_index[who]
    placed = [0] * len(players)
    for who_index in cracked.values():
        placed[who_index] += 1
    for who_index, count in enumerate(placed):
        if count > CHISELS_PER_PLAYER:
            raise InputError(f"{players[who_index]} has {count} chisels on the slab; a player has "
                             f"{CHISELS_PER_PLAYER}")
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    parts = n
    cell_slot = {cell: slot for slot, cell in enumerate(cells)}
    for i, (q, r) in enumerate(cells):
        for dq, dr in HALF_STEPS:
            j = cell_slot.get((q + dq, r + dr))
            if j is None or ((i, j) if i < j else (j, i)) in cracked:
                continue
            ri, rj = find(i), find(j)
            if ri != rj:
                parent[ri] = rj
                parts -= 1
    if parts == 1:
        return {"split": False, "rules": ["JP-SPLIT"]}
    if parts > 2:
        raise InputError(f"the slab is in {parts} parts; a split makes exactly 2")
    root = find(0)
    first = {s for s in range(n) if find(s) == root}
    second = set(range(n)) - first
    if not any((a in first) != (b in first) for a, b in cracked):
        lonely = min((first, second), key=len)
        names = ", ".join(sorted(ids[s] for s in lonely)[:5])
        raise InputError(f"tiles {names} do not touch the rest of the slab (no gap between the parts)")
    active = player_index[current]
    if len(first) == len(second):
        # the part holding the smallest tile id first
        ordered = sorted((first, second), key=lambda part: min(ids[s] for s in part))
        options = [_option(ids, players, cracked, active, part, other)
                   for part, other in (ordered, ordered[::-1])]
        return {"split": True, "equal": True, "options": options, "rules": SPLIT_RULES}
    smaller, larger = (first, second) if len(first) < len(second) else (second, first)
    option = _option(ids, players, cracked, active, smaller, larger)
    return {"split": True, "equal": False, "options": [option], "rules": SPLIT_RULES}


def _option(ids: list[str], players: list[str], cracked: dict[tuple[int, int], int], active: int,
            awarded: set[int], rest: set[int]) -> dict[str, Any]:
    n = len(players)
    border_counts = [0] * n
    inside_counts = [0] * n
    border_gaps: list[dict[str, str]] = []
    for (a, b), who in cracked.items():
        if (a in awarded) != (b in awarded):
            border_counts[who] += 1
            border_gaps.append({"a": ids[a], "b": ids[b], "player": players[who]})
        elif a in awarded:
            inside_counts[who] += 1
    ranked = rank_contributors(border_counts, active)
    takes, leftover = shares(len(awarded), len(ranked), SHARE_CAP)
    return {
        "smaller": sorted(ids[s] for s in awarded),
        "larger": sorted(ids[s] for s in rest),
        "ranking": [
            {"player": players[p], "chisels": border_counts[p], "takes": t} for p, t in zip(ranked, takes)
        ],
        "field_leader": leftover,
        "returned_dull": {players[p]: c for p, c in enumerate(border_counts) if c},
        "returned_sharp": {players[p]: c for p, c in enumerate(inside_counts) if c},
        "border": border_gaps,
    }
