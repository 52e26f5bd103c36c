"""Reading and validating the Jurassic Parts state JSON (``JurassicPartsState.to_dict()``, documented in
docs/jurassic-parts.md). Every error names the JSON path of the value that is wrong; a state that reads is
consistent: chisels and amber add up, no more tiles of a fossil than the box holds, the slab in one piece
unless a split is being resolved."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engines.core.schema import Node, distinct, read_document
from engines.jurassic_parts.board import NO_CHISEL, Cell, Layout
from engines.jurassic_parts.components import (
    AMBER_SUPPLY,
    BONES,
    BOX_COUNTS,
    CARD_BY_ID,
    CHISELS_PER_PLAYER,
    COMMITTED,
    COMPONENT_BY_ID,
    FRONT_KINDS,
    KIND_NAMES,
    KIND_OF,
    N_KINDS,
    N_PARTS,
    PTERO,
    SPECIES,
    real_kind,
)
from engines.jurassic_parts.moves import AWARD, KEEP, MAIN, OVER, PHASE_OF, PICKUP, REVEAL, TAKE, Then
from engines.jurassic_parts.state import JurassicPartsState

if TYPE_CHECKING:
    from engines.jurassic_parts.game import JurassicPartsGame

SPECIES_INDEX = {species.name: i for i, species in enumerate(SPECIES)}
WHERE = ("slab", "pool", "gone")


def kind_counts(node: Node, kinds: range) -> list[int]:
    """Counts per fossil kind from ``{"TREX-3": 2, ...}``."""
    counts = [0] * N_KINDS
    for name, count in node.members():
        kind = KIND_OF.get(name)
        if kind is None or kind not in kinds:
            count.fail(f"unknown fossil {name!r}")
        counts[kind] = count.integer(low=0)
    return counts


@dataclass
class _Slab:
    """The tiles as listed, slot by slot."""

    cells: list[Cell] = field(default_factory=list)
    rocks: list[tuple[bool, ...]] = field(default_factory=list)
    rotations: list[int] = field(default_factory=list)
    backs: list[str | None] = field(default_factory=list)
    fossils: list[int] = field(default_factory=list)
    ids: list[str | None] = field(default_factory=list)
    where: list[str] = field(default_factory=list)

    def read(self, tile: Node) -> None:
        self.cells.append(tile["cell"].pair())
        self.rotations.append(tile.get("rotation", 0).integer(0, 5))
        rocks = tile.get("rocks", [False] * 6)
        self.rocks.append(tuple(item.boolean() for item in rocks.items_of(6, 6)))
        self.backs.append(tile.get("back").optional(lambda n: n.text()))
        face_up = tile["face_up"].boolean()
        fossil = tile.get("fossil")
        if face_up != (fossil.value is not None):
            tile.fail("a tile is face up exactly when its fossil is known")
        kind = -1
        if fossil.value is not None:
            kind = KIND_OF.get(fossil.value, -1) if isinstance(fossil.value, str) else -1
            if not 0 <= kind < len(FRONT_KINDS):
                fossil.fail(f"unknown fossil {fossil.value!r}")
        tile_id = tile.get("id").optional(lambda n: n.text())
        if tile_id is not None:
            comp = COMPONENT_BY_ID.get(tile_id)
            if comp is None:
                tile["id"].fail(f"unknown tile id {tile_id!r}")
            if comp.kind != kind:
                tile["id"].fail(f"tile {tile_id} shows {comp.fossil}, not {fossil.value}")
        self.fossils.append(kind)
        self.ids.append(tile_id)
        place = str(tile.get("where", "slab").choice(WHERE))
        if place == "gone" and kind < 0:
            tile.fail("a tile that left the slab is face up")
        self.where.append(place)


def _read_slab(node: Node) -> tuple[_Slab, Layout]:
    slab = _Slab()
    tiles = node.items_of(1)
    for tile in tiles:
        slab.read(tile)
    known = [(tile, tile_id) for tile, tile_id in zip(tiles, slab.ids) if tile_id is not None]
    distinct([tile for tile, _ in known], [tile_id for _, tile_id in known], "tile id")
    try:
        layout = Layout(slab.cells, slab.rocks, slab.rotations, slab.backs)
    except ValueError as error:
        node.fail(str(error))
    return slab, layout


def _read_chisels(state: JurassicPartsState, node: Node) -> None:
    layout = state.layout
    for chisel in node.items_of():
        a = layout.slot_of.get(chisel["a"].pair())
        b = layout.slot_of.get(chisel["b"].pair())
        if a is None or b is None or not state.on_slab[a] or not state.on_slab[b]:
            chisel.fail("is not between two tiles on the slab")
        gap = layout.gap_of.get((a, b))
        if gap is None:
            chisel.fail("lies between tiles that are not neighbours")
        if state.owner[gap] != NO_CHISEL:
            chisel.fail("two chisels on one gap")
        state.owner[gap] = state.names.index(chisel["player"].choice(state.names))
    state.open_gaps = {
        g for g, (a, b) in enumerate(layout.gaps)
        if state.owner[g] == NO_CHISEL and state.on_slab[a] and state.on_slab[b]
    }


def _read_seat(state: JurassicPartsState, p: int, seat: Node) -> None:
    name = state.names[p]
    state.dull[p] = seat["dull"].integer(0, CHISELS_PER_PLAYER)
    state.sharp[p] = seat["sharp"].integer(0, CHISELS_PER_PLAYER)
    state.on_board[p] = sum(1 for who in state.owner if who == p)
    if seat.get("on_slab", state.on_board[p]).integer(low=0) != state.on_board[p]:
        seat["on_slab"].fail(f"{name} has {state.on_board[p]} chisels on the slab")
    if state.dull[p] + state.sharp[p] + state.on_board[p] != CHISELS_PER_PLAYER:
        seat.fail(f"{name} must have {CHISELS_PER_PLAYER} chisels in all")
    state.amber[p] = seat["amber"].integer(0, AMBER_SUPPLY)
    state.loose[p] = tuple(kind_counts(seat.get("loose", {}), range(N_KINDS)))
    in_sets = kind_counts(seat.get("in_complete", {}), range(N_KINDS))
    complete = [0] * len(SPECIES)
    for species_name, count in seat.get("complete", {}).members():
        if species_name not in SPECIES_INDEX:
            count.fail(f"unknown dinosaur {species_name!r}")
        complete[SPECIES_INDEX[species_name]] = count.integer(low=0)
    for i, species in enumerate(SPECIES):
        for part in species.parts:
            if in_sets[part] + in_sets[COMMITTED + part] != complete[i]:
                seat.fail(f"{name}: the tiles in complete dinosaurs do not match the dinosaurs")
    if any(in_sets[k] for k in FRONT_KINDS if k >= N_PARTS):
        seat["in_complete"].fail("only dinosaur parts can be in complete dinosaurs")
    state.in_sets[p] = tuple(in_sets)
    state.complete[p] = tuple(complete)
    state.unpaid_ptero[p] = seat.get("unpaid_pterodactyls", 0).integer(0, state.loose[p][PTERO])
    held = [card.choice(CARD_BY_ID) for card in seat.get("cards", []).items_of()]
    shown = [card.choice(held) for card in seat.get("revealed_cards", []).items_of()]
    state.cards[p] = tuple(held)
    state.revealed_cards[p] = tuple(shown)


def _read_turn(state: JurassicPartsState, turn: Node, where: list[str]) -> None:
    state.active = state.names.index(turn["active"].choice(state.names))
    state.phase = PHASE_OF[turn["phase"].choice(PHASE_OF)]
    state.turn_number = turn.get("number", 1).integer(low=1)
    state.need = turn.get("pickups_needed", 0).integer(0, 3)
    state.purchases = turn.get("purchases", 0).integer(low=0)
    state.ignore_rocks = turn.get("ignore_rocks", 0).integer(low=0)
    state.sold = turn.get("sold", False).boolean()
    state.final = turn.get("final", False).boolean()
    if state.phase == PICKUP and not 0 < state.need <= state.on_board[state.active]:
        turn.fail("pick-up phase needs 1..3 chisels the active player has on the slab")
    if state.phase != PICKUP and state.need:
        turn["pickups_needed"].fail("must be 0 outside the pick-up phase")
    if state.phase == OVER and not state.final:
        turn.fail("a game over needs turn.final (the last tiles kept)")
    if state.final and (state.slab_count or "pool" in where):
        turn.fail("the last tiles have been kept (turn.final), yet tiles are still on the slab")
    if state.final and state.phase not in (MAIN, OVER):
        turn.fail(f"after the last tiles are kept only the main phase follows, not {turn['phase'].value!r}")


def _slots(state: JurassicPartsState, node: Node) -> list[int]:
    slots = []
    for item in node.items_of():
        slot = state.layout.slot_of.get(item.pair())
        if slot is None:
            item.fail("is not a cell of the slab")
        slots.append(slot)
    return slots


def _read_award(state: JurassicPartsState, split: Node, pool_slots: list[int]) -> None:
    halves = []
    for half in split["options"].items_of(2, 2):
        slots = _slots(state, half)
        if any(not state.on_slab[s] for s in slots):
            half.fail("split options must be slab tiles")
        halves.append(tuple(sorted(slots)))
    if len(halves[0]) != len(halves[1]) or set(halves[0]) & set(halves[1]):
        split["options"].fail("split options must be two disjoint equal halves")
    state.award_options = (halves[0], halves[1])
    if pool_slots:
        split.fail("no tile may be in the pool while the halves are chosen")


def _read_purchase(state: JurassicPartsState, split: Node, pool_slots: list[int]) -> None:
    reveal = _slots(state, split.get("reveal", []))
    slot = reveal[0] if len(reveal) == 1 else None
    if (state.phase != REVEAL or slot is None or not state.on_slab[slot] or state.fossil[slot] >= 0
            or pool_slots or split.get("pool").value):
        split.fail("a purchase waiting for its reveal names one face-down slab tile, nothing else")
    state.pending = [slot]
    state.buying = slot
    state.after_reveal = Then.BUY


def _read_shares(state: JurassicPartsState, split: Node, pool_slots: list[int]) -> None:
    phase = state.phase
    state.pool = _slots(state, split["pool"])
    if sorted(state.pool) != pool_slots:
        split["pool"].fail("must list exactly the tiles marked where=pool")
    state.pending = _slots(state, split.get("reveal", []))
    if any(s not in state.pool or state.fossil[s] >= 0 for s in state.pending):
        split["reveal"].fail("must list face-down tiles of the pool")
    if sorted(state.pending) != sorted(s for s in state.pool if state.fossil[s] < 0):
        split.fail("every face-down tile of the pool must be waiting to be revealed")
    if (phase == REVEAL) != bool(state.pending):
        split.fail("the reveal phase is exactly when face-down tiles wait to be revealed")
    then = Then(split.get("then", "keep" if phase == KEEP else "take").choice(("take", "keep")))
    if phase == KEEP and then != Then.KEEP:
        split["then"].fail("keep phase must be followed by keep")
    state.after_reveal = then
    ranking = []
    for entry in split.get("ranking", []).items_of():
        player = state.names.index(entry["player"].choice(state.names))
        ranking.append((player, entry["chisels"].integer(low=0), entry["takes"].integer(low=0)))
    state.ranking = tuple(ranking)
    state.rank_pos = split.get("rank_position", 0).integer(low=0)
    state.taken = split.get("taken", 0).integer(low=0)
    if phase == TAKE and (state.rank_pos >= len(ranking) or state.taken >= ranking[state.rank_pos][2]
                          or not state.pool):
        split.fail("the take phase needs a contributor with tiles still to take")
    if phase == KEEP and not state.pool:
        split.fail("the keep phase needs the last tiles")


def _read_split(state: JurassicPartsState, split: Node, pool_slots: list[int]) -> None:
    if state.phase == AWARD:
        _read_award(state, split, pool_slots)
    elif state.phase not in (REVEAL, TAKE, KEEP):
        if split.value is not None or pool_slots:
            split.fail(f"no split can be pending in phase {state.phase.name.lower()}")
    elif split.get("then").value == "buy":
        _read_purchase(state, split, pool_slots)
    else:
        _read_shares(state, split, pool_slots)


def _check_holdings(state: JurassicPartsState, doc: Node, slab: _Slab) -> None:
    """No more tiles of a fossil than the box holds; face-down tiles no more than the fossils unseen."""
    known = [0] * len(FRONT_KINDS)
    for slot, kind in enumerate(slab.fossils):
        if kind >= 0 and slab.where[slot] != "gone":
            known[kind] += 1
    for holding in (*state.loose, *state.in_sets):
        for kind, count in enumerate(holding):
            known[real_kind(kind)] += count
    for kind, count in enumerate(state.leader):
        known[kind] += count
    for kind in FRONT_KINDS:
        if known[kind] > BOX_COUNTS[kind]:
            doc.fail(f"more {KIND_NAMES[kind]} tiles than the box holds ({BOX_COUNTS[kind]})")
    hidden = sum(1 for slot, kind in enumerate(slab.fossils) if kind < 0 and slab.where[slot] != "gone")
    if hidden > sum(BOX_COUNTS[k] - known[k] for k in FRONT_KINDS):
        doc["slab"].fail("more face-down tiles than fossils not yet seen")
    parts = state.layout.parts(state.on_slab, state.owner)
    if state.phase == AWARD:
        if len(parts) != 2:
            doc["split"].fail("an award of equal halves needs a slab in two parts")
    elif len(parts) > 1:
        doc["slab"].fail("the slab is split but no split is being resolved")


def state_from_dict(game: JurassicPartsGame, data: Mapping[str, Any]) -> JurassicPartsState:
    doc = read_document(data)
    doc.mapping()
    game.check_format(data)
    names = game.check_players([name.text() for name in doc["players"].items_of()])
    first = names.index(doc["first_player"].choice(names))
    options = game.resolve_options(doc.get("options", {}).mapping())
    slab, layout = _read_slab(doc["slab"])
    state = JurassicPartsState(game, layout, names, options, first, slab.fossils, slab.ids, [()] * len(names))
    state.on_slab = [w == "slab" for w in slab.where]
    state.slab_count = sum(state.on_slab)
    _read_chisels(state, doc.get("chisels", []))
    seats = doc["seats"].only(names)
    for p, name in enumerate(names):
        _read_seat(state, p, seats[name])
    leader = doc["field_leader"]
    state.leader = tuple(kind_counts(leader.get("tiles", {}), range(BONES + 1))[: len(FRONT_KINDS)])
    state.supply = leader["amber"].integer(0, AMBER_SUPPLY)
    if state.supply + sum(state.amber) != AMBER_SUPPLY:
        leader["amber"].fail(f"amber must add up to {AMBER_SUPPLY} (players + supply)")
    _read_turn(state, doc["turn"], slab.where)
    _read_split(state, doc.get("split"), [s for s, w in enumerate(slab.where) if w == "pool"])
    last_split = doc.get("last_split")
    state.last_split = None if last_split.value is None else copy.deepcopy(dict(last_split.mapping()))
    _check_holdings(state, doc, slab)
    return state
