"""Command-line rulings: ``companion split FILE`` (an observed slab: is it split, who takes how many tiles),
``companion score jurassic-parts FILE`` and ``companion legal jurassic-parts FILE``. Bad input is an
InputError naming the JSON path of the value that is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engines.core import InputError, StateFormatError
from engines.core.schema import Node, read_document
from engines.jurassic_parts.board import DIRECTIONS, rank_contributors, shares
from engines.jurassic_parts.codec import state_from_dict
from engines.jurassic_parts.components import (
    AMBER_SUPPLY,
    BOX_COUNTS,
    CHISELS_PER_PLAYER,
    COMPONENTS,
    FRONT_KINDS,
    KIND_NAMES,
    KIND_OF,
    N_KINDS,
    SHARE_CAP,
    SPECIES,
    real_kind,
)
from engines.jurassic_parts.moves import PHASE_NAMES
from engines.jurassic_parts.scoring import score_holding, winners

if TYPE_CHECKING:
    from engines.jurassic_parts.game import JurassicPartsGame

MIN_PLAYERS, MAX_PLAYERS = 2, 6
SCORE_RULES = ["JP-SCORE", "JP-BONES", "JP-TIES"]
#: observed axial coordinates lie well inside this (58 tiles); anything beyond is a corrupt file
MAX_COORDINATE = 10_000
NEIGHBOUR_STEPS = frozenset(DIRECTIONS)
HALF_STEPS = ((1, 0), (0, 1), (-1, 1))  # E, SE, SW: every neighbour pair once
#: a slab tile is named by the tag the referee can read: its front id (F01..F58) when face up, its back
#: id when face down; both lead to the same physical tile (used only to catch a tile listed twice)
PHYSICAL_TILE = {**{c.tile_id: c.tile_id for c in COMPONENTS}, **{c.back: c.tile_id for c in COMPONENTS}}
SPLIT_RULES = ["JP-SPLIT", "JP-SPLIT-SMALLER", "JP-SPLIT-EQUAL", "JP-SPLIT-INTERIOR", "JP-CONTRIBUTORS",
               "JP-SHARES", "JP-CHISELS-RETURNED"]


def brief(value: Any, limit: int = 40) -> str:
    """A value quoted in an error line, cut short: the line names the problem, it does not echo the file."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class _Slab:
    """An observed slab as the split ruling reads it: tiles by id and cell, chisels by gap."""

    players: list[str]
    ids: list[str] = field(default_factory=list)
    cells: list[tuple[int, int]] = field(default_factory=list)
    slot_of_id: dict[str, int] = field(default_factory=dict)
    cracked: dict[tuple[int, int], int] = field(default_factory=dict)


TILE_KEYS = frozenset({"id", "q", "r"})
CHISEL_KEYS = frozenset({"a", "b", "player"})


def _read_players(doc: Node) -> tuple[list[str], int]:
    node = doc["players"]
    players = [item.text(max_len=60) for item in node.items_of()]
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        node.fail(f"Jurassic Parts takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        node.fail("lists a player twice")
    current = doc["current"]
    if current.value not in players:
        current.fail(f"unknown player {brief(current.value)} (players: {', '.join(players)})")
    return players, players.index(current.value)


def _read_tiles(slab: _Slab, node: Node) -> None:
    # plain values first (a slab is read for every ruling); a node names the path only for an error
    cell_owner: dict[tuple[int, int], str] = {}
    physical: set[str] = set()
    low, high = -MAX_COORDINATE, MAX_COORDINATE
    for index, raw in enumerate(node.values_of(1)):
        if type(raw) is not dict or not raw.keys() <= TILE_KEYS:
            node.item(index).only(TILE_KEYS)
        tile_id = raw.get("id")
        if not isinstance(tile_id, str) or tile_id not in PHYSICAL_TILE:
            node.item(index)["id"].fail(f"unknown tile {brief(tile_id)} (front id F01-F58 or back id)")
        if tile_id in slab.slot_of_id:
            node.item(index)["id"].fail(f"duplicate tile {tile_id}")
        if PHYSICAL_TILE[tile_id] in physical:  # named by neither id: that would tell what is face down
            node.item(index)["id"].fail("a tile is listed twice, by its front and by its back id")
        physical.add(PHYSICAL_TILE[tile_id])
        q, r = raw.get("q"), raw.get("r")
        if not (type(q) is int and type(r) is int and low <= q <= high and low <= r <= high):
            q, r = node.item(index)["q"].integer(low, high), node.item(index)["r"].integer(low, high)
        cell = (q, r)
        if cell in cell_owner:
            node.item(index).fail(f"tiles {cell_owner[cell]} and {tile_id} are both on cell {cell}")
        cell_owner[cell] = tile_id
        slab.slot_of_id[tile_id] = len(slab.ids)
        slab.ids.append(tile_id)
        slab.cells.append(cell)


def _read_chisels(slab: _Slab, node: Node) -> None:
    seat_of = {name: index for index, name in enumerate(slab.players)}
    slot_of_id = slab.slot_of_id
    for index, raw in enumerate(node.values_of()):
        if type(raw) is not dict or not raw.keys() <= CHISEL_KEYS:
            node.item(index).only(CHISEL_KEYS)
        a, b, who = raw.get("a"), raw.get("b"), raw.get("player")
        sa = slot_of_id.get(a) if isinstance(a, str) else None
        sb = slot_of_id.get(b) if isinstance(b, str) else None
        if sa is None or sb is None:
            end = node.item(index)["a" if sa is None else "b"]
            end.fail(f"unknown tile {brief(end.value)} (not on the slab)")
        if not isinstance(who, str) or who not in seat_of:
            known = ", ".join(slab.players)
            node.item(index)["player"].fail(f"unknown player {brief(who)} (players: {known})")
        (qa, ra), (qb, rb) = slab.cells[sa], slab.cells[sb]
        if (qb - qa, rb - ra) not in NEIGHBOUR_STEPS:
            node.item(index).fail(f"chisel between {a} and {b}: the tiles are not adjacent")
        key = (sa, sb) if sa < sb else (sb, sa)
        if key in slab.cracked:
            node.item(index).fail(f"two chisels on the gap between {a} and {b}")
        slab.cracked[key] = seat_of[who]
    for seat, player in enumerate(slab.players):
        count = sum(1 for who in slab.cracked.values() if who == seat)
        if count > CHISELS_PER_PLAYER:
            node.fail(f"{player} has {count} chisels on the slab; a player has {CHISELS_PER_PLAYER}")


def _parts(slab: _Slab) -> list[set[int]]:
    """The slab's parts: tiles joined by uncracked gaps (union-find; each neighbour pair seen once)."""
    parent = list(range(len(slab.cells)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    cell_slot = {cell: slot for slot, cell in enumerate(slab.cells)}
    for i, (q, r) in enumerate(slab.cells):
        for dq, dr in HALF_STEPS:
            j = cell_slot.get((q + dq, r + dr))
            if j is not None and ((i, j) if i < j else (j, i)) not in slab.cracked:
                root_i, root_j = find(i), find(j)
                if root_i != root_j:
                    parent[root_i] = root_j
    parts: dict[int, set[int]] = {}
    for slot in range(len(slab.cells)):
        parts.setdefault(find(slot), set()).add(slot)
    return list(parts.values())


def split_ruling(data: Any) -> dict[str, Any]:
    """The split ruling for an observed slab; :class:`InputError` (one line) when bad.

    Input: ``{"players": [clockwise names], "current": name, "tiles": [{"id", "q", "r"}],
    "chisels": [{"a": id, "b": id, "player": name}]}``.
    """
    doc = read_document(data, InputError).only({"players", "current", "tiles", "chisels"})
    players, active = _read_players(doc)
    slab = _Slab(players)
    _read_tiles(slab, doc["tiles"])
    _read_chisels(slab, doc["chisels"])  # required: a misspelt key must not read as an uncracked slab
    parts = _parts(slab)
    if len(parts) == 1:
        return {"split": False, "rules": ["JP-SPLIT"]}
    if len(parts) > 2:
        doc.fail(f"the slab is in {len(parts)} parts; a split makes exactly 2")
    first, second = sorted(parts, key=min)
    if not any((a in first) != (b in first) for a, b in slab.cracked):
        lonely = min((first, second), key=len)
        names = ", ".join(sorted(slab.ids[s] for s in lonely)[:5])
        doc["tiles"].fail(f"tiles {names} do not touch the rest of the slab (no gap between the parts)")
    if len(first) == len(second):
        # the part holding the smallest tile id first
        ordered = sorted((first, second), key=lambda part: min(slab.ids[s] for s in part))
        options = [_option(slab.ids, players, slab.cracked, active, part, other)
                   for part, other in (ordered, ordered[::-1])]
        return {"split": True, "equal": True, "options": options, "rules": SPLIT_RULES}
    smaller, larger = (first, second) if len(first) < len(second) else (second, first)
    option = _option(slab.ids, players, slab.cracked, active, smaller, larger)
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


def score_report(game: JurassicPartsGame, data: Any) -> dict[str, Any]:
    """``companion score jurassic-parts FILE``: players' tiles and amber -> totals, breakdown, winners,
    the tie-break that decided them. A full engine state (``to_dict()``) is scored as well."""
    if isinstance(data, Mapping) and data.get("game") == game.name:
        try:
            state = state_from_dict(game, data)
        except StateFormatError as error:
            raise InputError(str(error)) from None
        held = state.holding_scores()
        return {"players": {name: score.to_dict() for name, score in held.items()},
                "winners": list(winners(held)), "tiebreak": state.scores().tiebreak, "rules": SCORE_RULES}
    doc = read_document(data, InputError).only({"players"})
    entries = doc["players"].items_of(1, MAX_PLAYERS)
    holdings: dict[str, tuple[list[int], int]] = {}
    box = [0] * len(FRONT_KINDS)
    for entry in entries:
        entry.only({"name", "tiles", "amber"})
        name = entry["name"].text(max_len=60)
        if name in holdings:
            entry["name"].fail(f"duplicate player {brief(name)}")
        counts = [0] * N_KINDS
        for tile in entry["tiles"].items_of():  # required: a misspelt key must not score as no tiles
            kind = KIND_OF.get(tile.value) if isinstance(tile.value, str) else None
            if kind is None:
                tile.fail(f"unknown tile {brief(tile.value)}")
            counts[kind] += 1
            box[real_kind(kind)] += 1
        holdings[name] = (counts, entry["amber"].integer(0, AMBER_SUPPLY))
    for kind in FRONT_KINDS:
        if box[kind] > BOX_COUNTS[kind]:
            doc["players"].fail(f"more {KIND_NAMES[kind]} tiles than the box holds ({BOX_COUNTS[kind]})")
    if sum(amber for _, amber in holdings.values()) > AMBER_SUPPLY:
        doc["players"].fail(f"more amber than the supply of {AMBER_SUPPLY}")
    no_sets = (0,) * len(SPECIES)
    scores = {name: score_holding(counts, no_sets, amber) for name, (counts, amber) in holdings.items()}
    tiebreak = {name: {**score.complete, "PTERO": score.pterodactyls} for name, score in scores.items()}
    return {
        "players": {name: score.to_dict() for name, score in scores.items()},
        "winners": list(winners(scores)),
        "tiebreak": tiebreak,
        "rules": SCORE_RULES,
    }


def legal_report(game: JurassicPartsGame, data: Any) -> dict[str, Any]:
    """``companion legal jurassic-parts FILE``: the legal actions in a full engine state."""
    try:
        state = state_from_dict(game, data)
    except StateFormatError as error:
        raise InputError(str(error)) from None
    player = state.current_player()
    report: dict[str, Any] = {
        "to_play": None if player.startswith("<") else player,
        "player": player,  # the older name of to_play
        "phase": PHASE_NAMES[state.phase],
        "actions": [action.to_dict() for action in state.legal_actions()],
    }
    if state.is_chance_node():
        report["probabilities"] = [weight for _, weight in state.chance_outcomes()]
    return report
