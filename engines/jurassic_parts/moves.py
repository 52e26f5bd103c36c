"""Jurassic Parts moves: what each action does to a fresh clone of the state, and the mechanics they share
(a split resolved, face-down tiles turned up, shares taken, purchases paid, a turn begun). The state's
``apply`` picks the handler from :data:`HANDLERS`; a handler raises IllegalAction naming the rule, and the
clone is then thrown away.

Phases (:class:`Phase`): ``main`` (the active player chisels and trades), ``pick-up`` (turn start, short of
dull chisels), ``award`` (equal halves: the active player picks the part), ``reveal`` (chance: a face-down
tile of the awarded part, of the last two, or of a purchase is turned up), ``take`` (contributors choose
their tiles in rank order), ``keep`` (the last tiles: the active player keeps one), ``over``. What follows
the reveals is :class:`Then`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any

from engines.core import Action, refusal
from engines.jurassic_parts.actions import (
    AwardPart,
    BuyIgnoreRocks,
    BuyLeaderTile,
    BuySharpen,
    BuySlabTile,
    CommitBones,
    EndTurn,
    KeepTile,
    PickUpChisel,
    PlaceChisel,
    Reveal,
    Sell,
    TakeTile,
)
from engines.jurassic_parts.board import NO_CHISEL, rank_contributors, shares
from engines.jurassic_parts.components import (
    BONES,
    CARD_BY_ID,
    COMMITTED,
    COMPONENT_BY_ID,
    FRONT_KINDS,
    KIND_OF,
    N_PARTS,
    PLANT,
    PTERO,
    SAVED_SHARP,
    SHARE_CAP,
    SHARPEN_PER_TURN,
    SPECIES,
    SPECIES_OF_PART,
    purchase_price,
)

if TYPE_CHECKING:
    from engines.jurassic_parts.state import JurassicPartsState


class Phase(IntEnum):
    MAIN = 0
    PICKUP = 1
    AWARD = 2
    REVEAL = 3
    TAKE = 4
    KEEP = 5
    OVER = 6


class Then(StrEnum):
    """What follows once every pending face-down tile is turned up."""

    TAKE = "take"  # the contributors take their shares of a split
    KEEP = "keep"  # the active player keeps one of the last tiles
    BUY = "buy"  # the purchase of that slab tile goes through (a Pile of Bones is not bought)


#: the phases as the state JSON names them
PHASE_NAMES = ("main", "pick-up", "award", "reveal", "take", "keep", "over")
PHASE_OF = {name: Phase(index) for index, name in enumerate(PHASE_NAMES)}
#: what the game waits for in each phase: why another move is refused then
PHASE_WAIT = (
    refusal("%(player)s is in the main part of a turn: crack, buy, sell or end the turn"),
    refusal("%(player)s must first take chisels back from the slab"),
    refusal("%(player)s must first choose which half of the split slab is broken up"),
    refusal("the face-down tiles broken off must first be turned face up"),
    refusal("the tiles broken off must first be taken, one by one in rank order"),
    refusal("%(player)s must first choose which of the last 2 tiles to keep"),
    refusal("the game is over"),
)
MAIN, PICKUP, AWARD, REVEAL, TAKE, KEEP, OVER = Phase  # module names: read on every legal-move listing


def slot_at(state: JurassicPartsState, cell: Any) -> int | None:
    try:
        slot: int | None = state.layout.slot_of.get(cell)
        return slot
    except TypeError:
        return None

def check_turn(state: JurassicPartsState, action: Action, player: str, *phases: int) -> int:
    if player not in state.names:
        raise state.game.illegal("JP-TURN", "%(player)s is not playing", player=repr(player))
    expected = state.current_player()
    if player != expected:
        raise state.game.illegal("JP-TURN", "it is %(player)s's move, not %(other)s's",
                                 player=expected, other=player)
    if state.phase not in phases:
        raise state.game.illegal(phase_rule(state), PHASE_WAIT[state.phase], player=expected)
    return state.names.index(player)

def phase_rule(state: JurassicPartsState) -> str:
    return {
        MAIN: "JP-TURN",
        PICKUP: "JP-SHARPEN",
        AWARD: "JP-SPLIT-EQUAL",
        REVEAL: "JP-FLIP",
        TAKE: "JP-SHARES",
        KEEP: "JP-END",
        OVER: "JP-END",
    }[state.phase]

def place_chisel(state: JurassicPartsState, action: PlaceChisel) -> None:
    p = check_turn(state, action, action.player, MAIN)
    layout = state.layout
    sa, sb = slot_at(state, action.a), slot_at(state, action.b)
    if sa is None or sb is None or not state.on_slab[sa] or not state.on_slab[sb]:
        raise state.game.illegal("JP-CRACK", "no slab tiles at %(a)s and %(b)s", a=action.a, b=action.b)
    gap = layout.gap_of.get((sa, sb))
    if gap is None:
        raise state.game.illegal("JP-CRACK", "the tiles at %(a)s and %(b)s are not neighbours", a=action.a,
                                 b=action.b)
    if state.owner[gap] != NO_CHISEL:
        raise state.game.illegal("JP-CRACK", "the gap between %(a)s and %(b)s already holds a chisel",
                                 a=action.a,
                                 b=action.b)
    cost = 1 if state.ignore_rocks > 0 else layout.cost[gap]
    if state.sharp[p] < cost:
        raise state.game.illegal(
            "JP-ROCKS",
            "this crack costs %(cost)d sharp chisels (rocky sides: %(rocky)d); %(player)s has %(have)d",
            cost=cost, rocky=layout.rocky_sides[gap], player=action.player, have=state.sharp[p],
        )
    if state.ignore_rocks > 0:
        state.ignore_rocks -= 1
    state.sharp[p] -= cost
    state.dull[p] += cost - 1
    state.on_board[p] += 1
    state.owner[gap] = p
    state.open_gaps.discard(gap)
    part_a = layout.cut_off(gap, state.on_slab, state.owner)
    if part_a is not None:
        on_slab = state.on_slab
        part_b = {s for s in range(len(on_slab)) if on_slab[s] and s not in part_a}
        if len(part_a) == len(part_b):
            state.award_options = (tuple(sorted(part_a)), tuple(sorted(part_b)))
            state.phase = AWARD
        else:
            resolve_split(state, part_a if len(part_a) < len(part_b) else part_b, part_a | part_b)

def award_part(state: JurassicPartsState, action: AwardPart) -> None:
    check_turn(state, action, action.player, AWARD)
    slot = slot_at(state, action.cell)
    for part in state.award_options:
        if slot in part:
            whole = set(state.award_options[0]) | set(state.award_options[1])
            state.award_options = ()
            resolve_split(state, set(part), whole)
            return
    raise state.game.illegal("JP-SPLIT-EQUAL", "no tile of either half at %(cell)s", cell=action.cell)

def resolve_split(state: JurassicPartsState, awarded: set[int], whole: set[int]) -> None:
    layout = state.layout
    owner = state.owner
    n = len(state.names)
    border_counts = [0] * n
    inside_counts = [0] * n
    on_slab = state.on_slab
    open_gaps = state.open_gaps
    for slot in awarded:
        for other, gap in layout.adjacency[slot]:
            if not on_slab[other]:
                continue
            who = owner[gap]
            if who != NO_CHISEL:
                if other not in awarded:
                    border_counts[who] += 1
                elif slot < other:
                    inside_counts[who] += 1
                else:
                    continue  # an inside gap: cleared when seen from its lower slot
                owner[gap] = NO_CHISEL
            open_gaps.discard(gap)
    ranked = rank_contributors(border_counts, state.active)
    takes, leftover = shares(len(awarded), len(ranked), SHARE_CAP)
    for p in range(n):
        state.dull[p] += border_counts[p]
        state.sharp[p] += inside_counts[p]
        state.on_board[p] -= border_counts[p] + inside_counts[p]
    for slot in awarded:
        state.on_slab[slot] = False
    state.slab_count -= len(awarded)
    pool = sorted(awarded)
    state.pool = pool
    state.ranking = tuple((p, border_counts[p], take) for p, take in zip(ranked, takes))
    cells = layout.cells
    state.last_split = {
        "awarded": [list(cells[s]) for s in pool],
        "larger": sorted([list(cells[s]) for s in whole - awarded]),
        "ranking": [
            {"player": state.names[p], "chisels": border_counts[p], "takes": take}
            for p, take in zip(ranked, takes)
        ],
        "field_leader": leftover,
        "returned_dull": {state.names[p]: c for p, c in enumerate(border_counts) if c},
        "returned_sharp": {state.names[p]: c for p, c in enumerate(inside_counts) if c},
    }
    reveal_then(state, pool, Then.TAKE)

def reveal_then(state: JurassicPartsState, slots: list[int], after: Then) -> None:
    state.pending = [s for s in slots if state.fossil[s] < 0]
    state.after_reveal = after
    if state.pending:
        state.phase = REVEAL
    else:
        after_reveals(state)

def after_reveals(state: JurassicPartsState) -> None:
    if state.after_reveal == Then.TAKE:
        state.rank_pos = 0
        state.taken = 0
        advance_taker(state)
    elif state.after_reveal == Then.BUY:
        state.after_reveal = Then.TAKE
        state.phase = MAIN
        slot = state.buying
        state.buying = -1
        if state.fossil[slot] != BONES:  # a Pile of Bones stays on the slab, face up, unbought
            take_from_slab(state, state.active, slot)
    else:
        state.phase = KEEP

def advance_taker(state: JurassicPartsState) -> None:
    while state.rank_pos < len(state.ranking) and (
        state.taken >= state.ranking[state.rank_pos][2] or not state.pool
    ):
        state.rank_pos += 1
        state.taken = 0
    if state.rank_pos < len(state.ranking):
        state.phase = TAKE
        return
    # what no contributor claims belongs to the Field Leader
    leader = list(state.leader)
    for slot in state.pool:
        leader[state.fossil[slot]] += 1
    state.leader = tuple(leader)
    state.pool = []
    state.ranking = ()
    state.rank_pos = 0
    state.taken = 0
    after_slab_change(state)

def after_slab_change(state: JurassicPartsState) -> None:
    if state.slab_count <= 2 and not state.final:
        last = [slot for slot, there in enumerate(state.on_slab) if there]
        # the last tiles leave the slab; chisels on their gaps go back dull
        for slot in last:
            for _other, gap in state.layout.adjacency[slot]:
                return_chisel(state, gap, sharp=False)
            state.on_slab[slot] = False
        state.slab_count = 0
        state.pool = last
        if not last:
            state.final = True
            state.phase = MAIN
            return
        reveal_then(state, last, Then.KEEP)
    else:
        state.phase = MAIN

def return_chisel(state: JurassicPartsState, gap: int, sharp: bool) -> None:
    who = state.owner[gap]
    state.open_gaps.discard(gap)
    if who == NO_CHISEL:
        return
    state.owner[gap] = NO_CHISEL
    state.on_board[who] -= 1
    if sharp:
        state.sharp[who] += 1
    else:
        state.dull[who] += 1

def reveal_tile(state: JurassicPartsState, action: Reveal) -> None:
    if state.phase != REVEAL:
        raise state.game.illegal("JP-REVEAL", "no face-down tile is waiting to be turned up")
    slot = slot_at(state, action.cell)
    if slot is None or slot not in state.pending:
        raise state.game.illegal("JP-FLIP", "the tile at %(cell)s is not waiting to be turned up",
                                 cell=action.cell)
    kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
    if not 0 <= kind < len(FRONT_KINDS):
        raise state.game.illegal("JP-REVEAL", "%(fossil)s is not a fossil", fossil=repr(action.fossil))
    if state.unseen()[kind] <= 0:
        raise state.game.illegal("JP-REVEAL", "every %(fossil)s tile is already accounted for",
                                 fossil=action.fossil)
    if not isinstance(action.tile, str):
        raise state.game.illegal("JP-REVEAL", "tile %(tile)s is not a tag id", tile=repr(action.tile))
    if action.tile:
        comp = COMPONENT_BY_ID.get(action.tile)
        if comp is None or comp.kind != kind:
            raise state.game.illegal("JP-REVEAL", "tile %(tile)s does not show %(fossil)s", tile=action.tile,
                                         fossil=action.fossil)
        if action.tile in state.tile_id:
            raise state.game.illegal("JP-REVEAL", "tile %(tile)s is already elsewhere on the table",
                                     tile=action.tile)
        state.tile_id[slot] = action.tile
    state.fossil[slot] = kind
    state.pending.remove(slot)
    if not state.pending:
        after_reveals(state)

def take_tile(state: JurassicPartsState, action: TakeTile) -> None:
    p = check_turn(state, action, action.player, TAKE)
    slot = slot_at(state, action.cell)
    if slot is None or slot not in state.pool:
        raise state.game.illegal("JP-SHARES", "no awarded tile at %(cell)s", cell=action.cell)
    state.pool.remove(slot)
    give(state, p, state.fossil[slot], from_split=True)
    state.taken += 1
    advance_taker(state)

def keep_tile(state: JurassicPartsState, action: KeepTile) -> None:
    p = check_turn(state, action, action.player, KEEP)
    slot = slot_at(state, action.cell)
    if slot is None or slot not in state.pool:
        raise state.game.illegal("JP-END", "no last tile at %(cell)s", cell=action.cell)
    state.pool.remove(slot)
    give(state, p, state.fossil[slot], from_split=True)
    leader = list(state.leader)
    for other in state.pool:
        leader[state.fossil[other]] += 1
    state.leader = tuple(leader)
    state.pool = []
    state.final = True
    state.phase = MAIN

def pick_up_chisel(state: JurassicPartsState, action: PickUpChisel) -> None:
    p = check_turn(state, action, action.player, PICKUP)
    gap = state.layout.gap_between(action.a, action.b) if slot_at(state, action.a) is not None and \
        slot_at(state, action.b) is not None else None
    if gap is None or state.owner[gap] != p:
        raise state.game.illegal("JP-SHARPEN", "%(player)s has no chisel on the gap between %(a)s and %(b)s",
                                 player=action.player, a=action.a, b=action.b)
    state.owner[gap] = NO_CHISEL
    state.open_gaps.add(gap)
    state.on_board[p] -= 1
    state.sharp[p] += 1
    state.need -= 1
    if state.need <= 0:
        state.need = 0
        state.phase = MAIN

def end_turn(state: JurassicPartsState, action: EndTurn) -> None:
    p = check_turn(state, action, action.player, MAIN)
    keep = SAVED_SHARP + extra_kept(state, p)
    if state.sharp[p] > SAVED_SHARP and keep > SAVED_SHARP:
        reveal_cards(state, p, "extra_kept_chisels")
    if state.sharp[p] > keep:
        state.dull[p] += state.sharp[p] - keep
        state.sharp[p] = keep
    if state.final:
        state.phase = OVER
        return
    start_turn(state, (p + 1) % len(state.names))

def extra_kept(state: JurassicPartsState, p: int) -> int:
    return sum(CARD_BY_ID[c].extra_kept_chisels for c in state.cards[p] if c in CARD_BY_ID)

def reveal_cards(state: JurassicPartsState, p: int, effect: str) -> None:
    shown = list(state.revealed_cards[p])
    for card in state.cards[p]:
        if card in CARD_BY_ID and getattr(CARD_BY_ID[card], effect) and card not in shown:
            shown.append(card)
    state.revealed_cards[p] = tuple(shown)

def start_turn(state: JurassicPartsState, p: int) -> None:
    state.active = p
    state.turn_number += 1
    state.purchases = 0
    state.sold = False
    state.ignore_rocks = 0
    moved = min(SHARPEN_PER_TURN, state.dull[p])
    state.dull[p] -= moved
    state.sharp[p] += moved
    state.need = min(SHARPEN_PER_TURN - moved, state.on_board[p])
    state.phase = PICKUP if state.need > 0 else MAIN

def pay(state: JurassicPartsState, p: int, rule_id: str) -> None:
    price = purchase_price(state.purchases)
    if state.amber[p] < price:
        raise state.game.illegal("JP-PURCHASE-COST", "purchase %(num)d this turn costs %(price)d amber; "
                                 "%(player)s has %(have)d", num=state.purchases + 1, price=price,
                                 player=state.names[p], have=state.amber[p])
    state.amber[p] -= price
    state.supply += price
    state.purchases += 1

def buy_ignore_rocks(state: JurassicPartsState, action: BuyIgnoreRocks) -> None:
    p = check_turn(state, action, action.player, MAIN)
    pay(state, p, "JP-BUY-IGNORE-ROCKS")
    state.ignore_rocks += 2  # bought twice: the next 4 chisels

def buy_sharpen(state: JurassicPartsState, action: BuySharpen) -> None:
    p = check_turn(state, action, action.player, MAIN)
    if state.dull[p] == 0:
        raise state.game.illegal("JP-BUY-SHARPEN", "%(player)s has no dull chisel to sharpen",
                                 player=action.player)
    pay(state, p, "JP-BUY-SHARPEN")
    moved = min(2, state.dull[p])
    state.dull[p] -= moved
    state.sharp[p] += moved

def buy_slab_tile(state: JurassicPartsState, action: BuySlabTile) -> None:
    p = check_turn(state, action, action.player, MAIN)
    slot = slot_at(state, action.cell)
    if slot is None or not state.on_slab[slot]:
        raise state.game.illegal("JP-BUY-SLAB-TILE", "no slab tile at %(cell)s", cell=action.cell)
    kind = state.fossil[slot]
    if kind < 0 and state.options.get("slab_purchase", "any") != "any":
        raise state.game.illegal("JP-BUY-SLAB-TILE", "only face-up tiles may be bought (house rule)")
    if kind == BONES:
        raise state.game.illegal("JP-BUY-SLAB-TILE", "a Pile of Bones cannot be bought from the slab")
    if state.layout.removal_splits(slot, state.on_slab, state.owner):
        raise state.game.illegal("JP-BUY-SLAB-TILE", "taking the tile at %(cell)s would split the slab",
                                 cell=action.cell)
    if kind < 0:
        # turned up first: a Pile of Bones cannot be bought, so the purchase waits for the reveal
        price = purchase_price(state.purchases)
        if state.amber[p] < price:
            pay(state, p, "JP-BUY-SLAB-TILE")  # raises, naming the price
        state.buying = slot
        state.pending = [slot]
        state.after_reveal = Then.BUY
        state.phase = REVEAL
        return
    take_from_slab(state, p, slot)

def take_from_slab(state: JurassicPartsState, p: int, slot: int) -> None:
    """The purchase of a (face-up, non-Bones, non-splitting) slab tile: pay, lift it, give it."""
    pay(state, p, "JP-BUY-SLAB-TILE")
    for _other, gap in state.layout.adjacency[slot]:
        return_chisel(state, gap, sharp=False)
    state.on_slab[slot] = False
    state.slab_count -= 1
    give(state, p, state.fossil[slot], from_split=False)
    after_slab_change(state)

def buy_leader_tile(state: JurassicPartsState, action: BuyLeaderTile) -> None:
    p = check_turn(state, action, action.player, MAIN)
    kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
    if not 0 <= kind < len(state.leader) or state.leader[kind] == 0:
        raise state.game.illegal("JP-BUY-LEADER-TILE", "the Field Leader holds no %(fossil)s",
                                 fossil=action.fossil)
    pay(state, p, "JP-BUY-LEADER-TILE")
    leader = list(state.leader)
    leader[kind] -= 1
    state.leader = tuple(leader)
    give(state, p, kind, from_split=False)

def sell_tile(state: JurassicPartsState, action: Sell) -> None:
    p = check_turn(state, action, action.player, MAIN)
    kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
    if state.sold:
        raise state.game.illegal("JP-SELL", "only 1 tile may be sold per turn")
    if kind == PLANT:
        raise state.game.illegal("JP-SELL", "Plant tiles may not be sold")
    if kind == PTERO and not state.may_sell_ptero(p):
        if state.options.get("sell_pterodactyls", "never") == "never":
            raise state.game.illegal("JP-SELL", "a Pterodactyl is a complete dinosaur and may not be sold")
        raise state.game.illegal("JP-SELL", "%(player)s holds no Pterodactyl that earned no amber (amber was "
                                 "collected)", player=action.player)
    if kind >= COMMITTED:
        raise state.game.illegal("JP-SELL", "a committed Pile of Bones cannot be moved")
    if kind < 0 or state.loose[p][kind] == 0:
        raise state.game.illegal("JP-SELL", "%(player)s holds no loose %(fossil)s", player=action.player,
                                 fossil=action.fossil)
    if state.supply == 0:
        raise state.game.illegal("JP-AMBER", "the amber supply is empty")
    holding = list(state.loose[p])
    holding[kind] -= 1
    state.loose[p] = tuple(holding)
    leader = list(state.leader)
    leader[kind] += 1
    state.leader = tuple(leader)
    if kind == PTERO:
        state.unpaid_ptero[p] -= 1
    state.amber[p] += 1
    state.supply -= 1
    state.sold = True

def commit_bones(state: JurassicPartsState, action: CommitBones) -> None:
    p = check_turn(state, action, action.player, MAIN, TAKE)
    part = KIND_OF.get(action.part, -1) if isinstance(action.part, str) else -1
    if state.loose[p][BONES] == 0:
        raise state.game.illegal("JP-BONES", "%(player)s holds no uncommitted Pile of Bones",
                                 player=action.player)
    if not 0 <= part < N_PARTS or part not in state.commit_targets(p):
        raise state.game.illegal("JP-BONES", "%(part)s is not a missing part of a dinosaur %(player)s holds "
                                 "a real tile of", part=str(action.part), player=action.player)
    holding = list(state.loose[p])
    holding[BONES] -= 1
    holding[COMMITTED + part] += 1
    state.loose[p] = tuple(holding)
    complete(state, p, SPECIES_OF_PART[part])

def give(state: JurassicPartsState, p: int, kind: int, from_split: bool) -> None:
    holding = list(state.loose[p])
    holding[kind] += 1
    state.loose[p] = tuple(holding)
    if kind == PTERO:
        if from_split and state.supply > 0:
            earn(state, p)
        else:  # bought, or the supply is empty: no amber was collected for this one
            state.unpaid_ptero[p] += 1
    elif kind < N_PARTS:
        complete(state, p, SPECIES_OF_PART[kind])

def earn(state: JurassicPartsState, p: int) -> None:
    if state.supply > 0:
        state.supply -= 1
        state.amber[p] += 1

def complete(state: JurassicPartsState, p: int, species_index: int) -> None:
    """Assemble every complete dinosaur of this species the loose tiles allow (+1 amber each)."""
    species = SPECIES[species_index]
    while True:
        holding = list(state.loose[p])
        use: list[int] = []
        for part in species.parts:
            if holding[part]:
                use.append(part)
            elif holding[COMMITTED + part]:
                use.append(COMMITTED + part)
            else:
                return
        if all(kind >= COMMITTED for kind in use):
            return
        sets = list(state.in_sets[p])
        for kind in use:
            holding[kind] -= 1
            sets[kind] += 1
        state.loose[p] = tuple(holding)
        state.in_sets[p] = tuple(sets)
        complete = list(state.complete[p])
        complete[species_index] += 1
        state.complete[p] = tuple(complete)
        earn(state, p)


HANDLERS: dict[type[Action], Callable[[JurassicPartsState, Any], None]] = {
    PlaceChisel: place_chisel,
    PickUpChisel: pick_up_chisel,
    EndTurn: end_turn,
    BuyIgnoreRocks: buy_ignore_rocks,
    BuySharpen: buy_sharpen,
    BuySlabTile: buy_slab_tile,
    BuyLeaderTile: buy_leader_tile,
    Sell: sell_tile,
    CommitBones: commit_bones,
    AwardPart: award_part,
    Reveal: reveal_tile,
    TakeTile: take_tile,
    KeepTile: keep_tile,
}
