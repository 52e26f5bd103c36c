"""The Jurassic Parts game and its states.

A state keeps the slab as flat lists over the slots of a shared :class:`~engines.jurassic_parts.slab.Layout`
(``on_slab``, ``fossil``; ``owner`` per gap) and each player's holdings as tuples of counts over fossil
kinds, so that ``clone()`` is a handful of list copies. Legal actions are built from the set of open gaps
and per-layout caches of action objects.

Phases: ``main`` (the active player chisels and trades), ``pick-up`` (turn start, short of dull chisels),
``award`` (equal halves: the active player picks the part), ``reveal`` (chance: a face-down tile of the
awarded part, or of the last two, is turned up), ``take`` (contributors choose their tiles in rank order),
``keep`` (the last tiles: the active player keeps one), ``over``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, Explanation, Outcome, Rule, State
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
from engines.jurassic_parts.components import (
    BONES,
    BOX_COUNTS,
    CARD_BY_ID,
    COMMITTED,
    COMPONENT_BY_ID,
    FRONT_KINDS,
    KIND_NAMES,
    KIND_OF,
    N_KINDS,
    N_PARTS,
    PART_NAMES,
    PLANT,
    PTERO,
    SPECIES,
    SPECIES_OF_PART,
    real_kind,
)
from engines.jurassic_parts.rules import RULEBOOK
from engines.jurassic_parts.scoring import HoldingScore, score_holding, winners
from engines.jurassic_parts.slab import NO_CHISEL, Layout, rank_contributors, shares

if TYPE_CHECKING:
    from engines.jurassic_parts.game import JurassicPartsGame

CHISELS_PER_PLAYER = 12
AMBER_SUPPLY = 20
SHARPEN_PER_TURN = 3
SAVED_SHARP = 1
SHARE_CAP = 6
PURCHASE_PRICES = (1, 2, 3)

MAIN, PICKUP, AWARD, REVEAL, TAKE, KEEP, OVER = range(7)
BUY = 7  # not a phase: what follows the reveal of a face-down tile chosen for purchase
PHASE_NAMES = ("main", "pick-up", "award", "reveal", "take", "keep", "over")
PHASE_OF = {name: index for index, name in enumerate(PHASE_NAMES)}

EMPTY_HOLDING: tuple[int, ...] = (0,) * N_KINDS
EMPTY_COMPLETE: tuple[int, ...] = (0,) * len(SPECIES)
EMPTY_LEADER: tuple[int, ...] = (0,) * len(FRONT_KINDS)


def purchase_price(purchases_made: int) -> int:
    return PURCHASE_PRICES[min(purchases_made, len(PURCHASE_PRICES) - 1)]


class JurassicPartsState(State):
    game: JurassicPartsGame
    layout: Layout
    names: tuple[str, ...]
    options: dict[str, Any]
    first: int
    on_slab: list[bool]
    slab_count: int
    fossil: list[int]
    tile_id: list[str | None]
    owner: list[int]
    open_gaps: set[int]
    dull: list[int]
    sharp: list[int]
    on_board: list[int]
    amber: list[int]
    unpaid_ptero: list[int]  # loose Pterodactyls no amber was collected for (option sell_pterodactyls)
    supply: int
    loose: list[tuple[int, ...]]
    in_sets: list[tuple[int, ...]]
    complete: list[tuple[int, ...]]
    leader: tuple[int, ...]
    cards: list[tuple[str, ...]]
    revealed_cards: list[tuple[str, ...]]
    active: int
    phase: int
    need: int
    purchases: int
    sold: bool
    ignore_rocks: int
    final: bool
    turn_number: int
    award_options: tuple[tuple[int, ...], ...]
    pool: list[int]
    ranking: tuple[tuple[int, int, int], ...]
    rank_pos: int
    taken: int
    pending: list[int]
    after_reveal: int
    _buying: int  # the face-down slab tile being bought, while it is turned up (else -1)
    last_split: dict[str, Any] | None

    # the constructor is private: use the game's factories or state_from_dict
    def __init__(self) -> None:  # pragma: no cover - states are made by the factories
        raise TypeError("use JurassicPartsGame.new_initial_state / state_from_layout / state_from_dict")

    # -- whose move ---------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    def current_player(self) -> str:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == REVEAL:
            return CHANCE
        if phase == TAKE:
            return self.names[self.ranking[self.rank_pos][0]]
        return self.names[self.active]

    def game_over_rule(self) -> Rule:
        return RULEBOOK["JP-END"]

    # -- clone --------------------------------------------------------------------------------------------
    def clone(self) -> JurassicPartsState:
        new = object.__new__(JurassicPartsState)
        new.__dict__.update(self.__dict__)  # scalars and immutable tuples are shared; lists copied below
        new.on_slab = self.on_slab[:]
        new.fossil = self.fossil[:]
        new.tile_id = self.tile_id[:]
        new.owner = self.owner[:]
        new.open_gaps = set(self.open_gaps)
        new.dull = self.dull[:]
        new.sharp = self.sharp[:]
        new.on_board = self.on_board[:]
        new.amber = self.amber[:]
        new.unpaid_ptero = self.unpaid_ptero[:]
        new.loose = self.loose[:]
        new.in_sets = self.in_sets[:]
        new.complete = self.complete[:]
        new.cards = self.cards[:]
        new.revealed_cards = self.revealed_cards[:]
        new.pool = self.pool[:]
        new.pending = self.pending[:]
        return new

    # -- legal actions ------------------------------------------------------------------------------------
    def _cached(self, key: Any, make: Any) -> Any:
        cache = self.layout._actions
        action = cache.get(key)
        if action is None:
            action = cache[key] = make()
        return action

    def _place_actions(self, p: int) -> list[PlaceChisel]:
        key = ("place", self.names[p])
        cached: list[PlaceChisel] | None = self.layout._actions.get(key)
        if cached is None:
            name = self.names[p]
            cells = self.layout.cells
            cached = [PlaceChisel(name, cells[a], cells[b]) for a, b in self.layout.gaps]
            self.layout._actions[key] = cached
        return cached

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase == REVEAL:
            return [action for action, _ in self.chance_outcomes()]
        cells = self.layout.cells
        if phase == TAKE:
            taker = self.ranking[self.rank_pos][0]
            name = self.names[taker]
            takes: list[Action] = [
                self._cached(("take", name, s), lambda s=s: TakeTile(name, cells[s])) for s in self.pool
            ]
            if self.loose[taker][BONES]:  # "at any time": also while receiving tiles in a split
                takes.extend(CommitBones(name, PART_NAMES[part]) for part in self._commit_targets(taker))
            return takes
        p = self.active
        name = self.names[p]
        if phase == KEEP:
            return [self._cached(("keep", name, s), lambda s=s: KeepTile(name, cells[s])) for s in self.pool]
        if phase == AWARD:
            return [AwardPart(name, cells[min(part)]) for part in self.award_options]
        if phase == PICKUP:
            return self._pickup_actions(p)
        # main phase
        budget = self.sharp[p]
        actions: list[Action] = []
        if budget > 0 and self.open_gaps:
            place = self._place_actions(p)
            gaps = sorted(self.open_gaps)  # a fixed order: replays and restored games choose alike
            if self.ignore_rocks > 0 or budget >= 3:
                actions = [place[g] for g in gaps]
            else:
                cost = self.layout.cost
                actions = [place[g] for g in gaps if cost[g] <= budget]
        if self.amber[p] >= purchase_price(self.purchases):
            actions.extend(self._purchase_actions(p))
        if not self.sold and self.supply > 0:
            loose = self.loose[p]
            for kind in range(BONES + 1):
                if loose[kind] and kind != PLANT and (kind != PTERO or self._may_sell_ptero(p)):
                    actions.append(self._cached(("sell", name, kind),
                                                lambda kind=kind: Sell(name, KIND_NAMES[kind])))
        if self.loose[p][BONES]:
            actions.extend(CommitBones(name, PART_NAMES[part]) for part in self._commit_targets(p))
        actions.append(self._cached(("end", name), lambda: EndTurn(name)))
        return actions

    def _purchase_actions(self, p: int) -> list[Action]:
        name = self.names[p]
        cells = self.layout.cells
        found: list[Action] = []
        if self.open_gaps:
            found.append(self._cached(("ignore", name), lambda: BuyIgnoreRocks(name)))
        if self.dull[p] > 0:
            found.append(self._cached(("sharpen", name), lambda: BuySharpen(name)))
        for slot in self._buyable_slab_slots():
            found.append(self._cached(("buy-slab", name, slot),
                                      lambda slot=slot: BuySlabTile(name, cells[slot])))
        for kind, count in enumerate(self.leader):
            if count:
                found.append(self._cached(("buy-leader", name, kind),
                                          lambda kind=kind: BuyLeaderTile(name, KIND_NAMES[kind])))
        return found

    def _buyable_slab_slots(self) -> list[int]:
        if self.slab_count < 2:
            return []
        on_slab = self.on_slab
        fossil = self.fossil
        cut = self.layout.articulation_points(on_slab, self.owner)
        any_face = self.options.get("slab_purchase", "any") == "any"
        return [
            slot
            for slot in range(len(on_slab))
            if on_slab[slot] and fossil[slot] != BONES and slot not in cut
            and (fossil[slot] >= 0 or any_face)
        ]

    def _commit_targets(self, p: int) -> list[int]:
        """Parts a Pile of Bones may stand in for: missing parts of a dinosaur with a real tile held."""
        loose = self.loose[p]
        targets: list[int] = []
        for species in SPECIES:
            if not any(loose[part] for part in species.parts):
                continue
            counts = [loose[part] + loose[COMMITTED + part] for part in species.parts]
            most = max(counts)
            targets.extend(part for part, count in zip(species.parts, counts) if count < most)
        return targets

    # -- chance ---------------------------------------------------------------------------------------
    def unseen(self) -> list[int]:
        """Fossils not seen anywhere yet (the box minus every known tile), per front kind."""
        known = [0] * len(FRONT_KINDS)
        fossil = self.fossil
        on_slab = self.on_slab
        pool = set(self.pool)
        for slot, kind in enumerate(fossil):
            if kind >= 0 and (on_slab[slot] or slot in pool):
                known[kind] += 1
        for holding in (*self.loose, *self.in_sets):
            for kind, count in enumerate(holding):
                if count:
                    known[real_kind(kind)] += count
        for kind, count in enumerate(self.leader):
            known[kind] += count
        return [max(0, BOX_COUNTS[kind] - known[kind]) for kind in FRONT_KINDS]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != REVEAL or not self.pending:
            return []
        cell = self.layout.cells[self.pending[0]]
        unseen = self.unseen()
        total = sum(unseen)
        return [(Reveal(cell, KIND_NAMES[kind]), count / total) for kind, count in enumerate(unseen) if count]

    # -- applying -------------------------------------------------------------------------------------
    def _slot(self, cell: Any) -> int | None:
        try:
            slot: int | None = self.layout.slot_of.get(cell)
            return slot
        except TypeError:
            return None

    def _check_turn(self, action: Action, player: str, *phases: int) -> int:
        if player not in self.names:
            raise self.game.illegal("JP-TURN", f"{player!r} is not playing")
        expected = self.current_player()
        if player != expected:
            raise self.game.illegal("JP-TURN", f"it is {expected}'s move, not {player}'s")
        if self.phase not in phases:
            raise self.game.illegal(
                self._phase_rule(), f"{action.kind} is not possible now (phase: {PHASE_NAMES[self.phase]})"
            )
        return self.names.index(player)

    def _phase_rule(self) -> str:
        return {
            MAIN: "JP-TURN",
            PICKUP: "JP-SHARPEN",
            AWARD: "JP-SPLIT-EQUAL",
            REVEAL: "JP-FLIP",
            TAKE: "JP-SHARES",
            KEEP: "JP-END",
            OVER: "JP-END",
        }[self.phase]

    def _apply_in_place(self, action: Action) -> None:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise self.game.illegal("JP-TURN", f"{action.kind} is not a Jurassic Parts action")
        handler(self, action)

    def _do_place(self, action: PlaceChisel) -> None:
        p = self._check_turn(action, action.player, MAIN)
        layout = self.layout
        sa, sb = self._slot(action.a), self._slot(action.b)
        if sa is None or sb is None or not self.on_slab[sa] or not self.on_slab[sb]:
            raise self.game.illegal("JP-CRACK", f"no slab tiles at {action.a} and {action.b}")
        gap = layout.gap_of.get((sa, sb))
        if gap is None:
            raise self.game.illegal("JP-CRACK", f"tiles at {action.a} and {action.b} are not neighbours")
        if self.owner[gap] != NO_CHISEL:
            raise self.game.illegal("JP-CRACK", f"the gap {action.a}-{action.b} already holds a chisel")
        cost = 1 if self.ignore_rocks > 0 else layout.cost[gap]
        if self.sharp[p] < cost:
            raise self.game.illegal(
                "JP-ROCKS",
                f"this crack costs {cost} sharp chisels (rocky sides: {layout.rocky_sides[gap]}); "
                f"{action.player} has {self.sharp[p]}",
            )
        if self.ignore_rocks > 0:
            self.ignore_rocks -= 1
        self.sharp[p] -= cost
        self.dull[p] += cost - 1
        self.on_board[p] += 1
        self.owner[gap] = p
        self.open_gaps.discard(gap)
        part_a = layout.cut_off(gap, self.on_slab, self.owner)
        if part_a is not None:
            on_slab = self.on_slab
            part_b = {s for s in range(len(on_slab)) if on_slab[s] and s not in part_a}
            if len(part_a) == len(part_b):
                self.award_options = (tuple(sorted(part_a)), tuple(sorted(part_b)))
                self.phase = AWARD
            else:
                self._resolve_split(part_a if len(part_a) < len(part_b) else part_b, part_a | part_b)

    def _do_award(self, action: AwardPart) -> None:
        self._check_turn(action, action.player, AWARD)
        slot = self._slot(action.cell)
        for part in self.award_options:
            if slot in part:
                whole = set(self.award_options[0]) | set(self.award_options[1])
                self.award_options = ()
                self._resolve_split(set(part), whole)
                return
        raise self.game.illegal("JP-SPLIT-EQUAL", f"no tile of either half at {action.cell}")

    def _resolve_split(self, awarded: set[int], whole: set[int]) -> None:
        layout = self.layout
        owner = self.owner
        n = len(self.names)
        border_counts = [0] * n
        inside_counts = [0] * n
        on_slab = self.on_slab
        open_gaps = self.open_gaps
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
        ranked = rank_contributors(border_counts, self.active)
        takes, leftover = shares(len(awarded), len(ranked), SHARE_CAP)
        for p in range(n):
            self.dull[p] += border_counts[p]
            self.sharp[p] += inside_counts[p]
            self.on_board[p] -= border_counts[p] + inside_counts[p]
        for slot in awarded:
            self.on_slab[slot] = False
        self.slab_count -= len(awarded)
        pool = sorted(awarded)
        self.pool = pool
        self.ranking = tuple((p, border_counts[p], take) for p, take in zip(ranked, takes))
        cells = layout.cells
        self.last_split = {
            "awarded": [list(cells[s]) for s in pool],
            "larger": sorted([list(cells[s]) for s in whole - awarded]),
            "ranking": [
                {"player": self.names[p], "chisels": border_counts[p], "takes": take}
                for p, take in zip(ranked, takes)
            ],
            "field_leader": leftover,
            "returned_dull": {self.names[p]: c for p, c in enumerate(border_counts) if c},
            "returned_sharp": {self.names[p]: c for p, c in enumerate(inside_counts) if c},
        }
        self._reveal_then(pool, TAKE)

    def _reveal_then(self, slots: list[int], after: int) -> None:
        self.pending = [s for s in slots if self.fossil[s] < 0]
        self.after_reveal = after
        if self.pending:
            self.phase = REVEAL
        else:
            self._after_reveals()

    def _after_reveals(self) -> None:
        if self.after_reveal == TAKE:
            self.rank_pos = 0
            self.taken = 0
            self._advance_taker()
        elif self.after_reveal == BUY:
            self.after_reveal = TAKE
            self.phase = MAIN
            slot = self._buying
            self._buying = -1
            if self.fossil[slot] != BONES:  # a Pile of Bones stays on the slab, face up, unbought
                self._take_from_slab(self.active, slot)
        else:
            self.phase = KEEP

    def _advance_taker(self) -> None:
        while self.rank_pos < len(self.ranking) and (
            self.taken >= self.ranking[self.rank_pos][2] or not self.pool
        ):
            self.rank_pos += 1
            self.taken = 0
        if self.rank_pos < len(self.ranking):
            self.phase = TAKE
            return
        # what no contributor claims belongs to the Field Leader
        leader = list(self.leader)
        for slot in self.pool:
            leader[self.fossil[slot]] += 1
        self.leader = tuple(leader)
        self.pool = []
        self.ranking = ()
        self.rank_pos = 0
        self.taken = 0
        self._after_slab_change()

    def _after_slab_change(self) -> None:
        if self.slab_count <= 2 and not self.final:
            last = [slot for slot, there in enumerate(self.on_slab) if there]
            # the last tiles leave the slab; chisels on their gaps go back dull
            for slot in last:
                for _other, gap in self.layout.adjacency[slot]:
                    self._return_chisel(gap, sharp=False)
                self.on_slab[slot] = False
            self.slab_count = 0
            self.pool = last
            if not last:
                self.final = True
                self.phase = MAIN
                return
            self._reveal_then(last, KEEP)
        else:
            self.phase = MAIN

    def _return_chisel(self, gap: int, sharp: bool) -> None:
        who = self.owner[gap]
        self.open_gaps.discard(gap)
        if who == NO_CHISEL:
            return
        self.owner[gap] = NO_CHISEL
        self.on_board[who] -= 1
        if sharp:
            self.sharp[who] += 1
        else:
            self.dull[who] += 1

    def _do_reveal(self, action: Reveal) -> None:
        if self.phase != REVEAL:
            raise self.game.illegal("JP-REVEAL", "no face-down tile is waiting to be turned up")
        slot = self._slot(action.cell)
        if slot is None or slot not in self.pending:
            raise self.game.illegal("JP-FLIP", f"the tile at {action.cell} is not waiting to be turned up")
        kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
        if not 0 <= kind < len(FRONT_KINDS):
            raise self.game.illegal("JP-REVEAL", f"{action.fossil!r} is not a fossil")
        if self.unseen()[kind] <= 0:
            raise self.game.illegal("JP-REVEAL", f"every {action.fossil} tile is already accounted for")
        if not isinstance(action.tile, str):
            raise self.game.illegal("JP-REVEAL", f"tile {action.tile!r} is not a tag id")
        if action.tile:
            comp = COMPONENT_BY_ID.get(action.tile)
            if comp is None or comp.kind != kind:
                raise self.game.illegal("JP-REVEAL", f"tile {action.tile!r} does not show {action.fossil}")
            if action.tile in self.tile_id:
                raise self.game.illegal("JP-REVEAL", f"tile {action.tile} is already elsewhere on the table")
            self.tile_id[slot] = action.tile
        self.fossil[slot] = kind
        self.pending.remove(slot)
        if not self.pending:
            self._after_reveals()

    def _do_take(self, action: TakeTile) -> None:
        p = self._check_turn(action, action.player, TAKE)
        slot = self._slot(action.cell)
        if slot is None or slot not in self.pool:
            raise self.game.illegal("JP-SHARES", f"no awarded tile at {action.cell}")
        self.pool.remove(slot)
        self._give(p, self.fossil[slot], from_split=True)
        self.taken += 1
        self._advance_taker()

    def _do_keep(self, action: KeepTile) -> None:
        p = self._check_turn(action, action.player, KEEP)
        slot = self._slot(action.cell)
        if slot is None or slot not in self.pool:
            raise self.game.illegal("JP-END", f"no last tile at {action.cell}")
        self.pool.remove(slot)
        self._give(p, self.fossil[slot], from_split=True)
        leader = list(self.leader)
        for other in self.pool:
            leader[self.fossil[other]] += 1
        self.leader = tuple(leader)
        self.pool = []
        self.final = True
        self.phase = MAIN

    def _pickup_actions(self, p: int) -> list[Action]:
        key = ("pick", p)
        cached: list[PickUpChisel] | None = self.layout._actions.get(key)
        if cached is None:
            name = self.names[p]
            cells = self.layout.cells
            cached = [PickUpChisel(name, cells[a], cells[b]) for a, b in self.layout.gaps]
            self.layout._actions[key] = cached
        return [cached[g] for g, who in enumerate(self.owner) if who == p]

    def _do_pickup(self, action: PickUpChisel) -> None:
        p = self._check_turn(action, action.player, PICKUP)
        gap = self.layout.gap_between(action.a, action.b) if self._slot(action.a) is not None and \
            self._slot(action.b) is not None else None
        if gap is None or self.owner[gap] != p:
            raise self.game.illegal(
                "JP-SHARPEN", f"{action.player} has no chisel on the gap {action.a}-{action.b}")
        self.owner[gap] = NO_CHISEL
        self.open_gaps.add(gap)
        self.on_board[p] -= 1
        self.sharp[p] += 1
        self.need -= 1
        if self.need <= 0:
            self.need = 0
            self.phase = MAIN

    def _do_end_turn(self, action: EndTurn) -> None:
        p = self._check_turn(action, action.player, MAIN)
        keep = SAVED_SHARP + self._extra_kept(p)
        if self.sharp[p] > SAVED_SHARP and keep > SAVED_SHARP:
            self._reveal_cards(p, "extra_kept_chisels")
        if self.sharp[p] > keep:
            self.dull[p] += self.sharp[p] - keep
            self.sharp[p] = keep
        if self.final:
            self.phase = OVER
            return
        self._start_turn((p + 1) % len(self.names))

    def _extra_kept(self, p: int) -> int:
        return sum(CARD_BY_ID[c].extra_kept_chisels for c in self.cards[p] if c in CARD_BY_ID)

    def _reveal_cards(self, p: int, effect: str) -> None:
        shown = list(self.revealed_cards[p])
        for card in self.cards[p]:
            if card in CARD_BY_ID and getattr(CARD_BY_ID[card], effect) and card not in shown:
                shown.append(card)
        self.revealed_cards[p] = tuple(shown)

    def _start_turn(self, p: int) -> None:
        self.active = p
        self.turn_number += 1
        self.purchases = 0
        self.sold = False
        self.ignore_rocks = 0
        moved = min(SHARPEN_PER_TURN, self.dull[p])
        self.dull[p] -= moved
        self.sharp[p] += moved
        self.need = min(SHARPEN_PER_TURN - moved, self.on_board[p])
        self.phase = PICKUP if self.need > 0 else MAIN

    def _pay(self, p: int, rule_id: str) -> None:
        price = purchase_price(self.purchases)
        if self.amber[p] < price:
            raise self.game.illegal(
                "JP-PURCHASE-COST", f"purchase {self.purchases + 1} this turn costs {price} amber; "
                f"{self.names[p]} has {self.amber[p]}"
            )
        self.amber[p] -= price
        self.supply += price
        self.purchases += 1

    def _do_buy_ignore(self, action: BuyIgnoreRocks) -> None:
        p = self._check_turn(action, action.player, MAIN)
        self._pay(p, "JP-BUY-IGNORE-ROCKS")
        self.ignore_rocks += 2  # bought twice: the next 4 chisels

    def _do_buy_sharpen(self, action: BuySharpen) -> None:
        p = self._check_turn(action, action.player, MAIN)
        if self.dull[p] == 0:
            raise self.game.illegal("JP-BUY-SHARPEN", f"{action.player} has no dull chisel to sharpen")
        self._pay(p, "JP-BUY-SHARPEN")
        moved = min(2, self.dull[p])
        self.dull[p] -= moved
        self.sharp[p] += moved

    def _do_buy_slab(self, action: BuySlabTile) -> None:
        p = self._check_turn(action, action.player, MAIN)
        slot = self._slot(action.cell)
        if slot is None or not self.on_slab[slot]:
            raise self.game.illegal("JP-BUY-SLAB-TILE", f"no slab tile at {action.cell}")
        kind = self.fossil[slot]
        if kind < 0 and self.options.get("slab_purchase", "any") != "any":
            raise self.game.illegal("JP-BUY-SLAB-TILE", "only face-up tiles may be bought (house rule)")
        if kind == BONES:
            raise self.game.illegal("JP-BUY-SLAB-TILE", "a Pile of Bones cannot be bought from the slab")
        if self.layout.removal_splits(slot, self.on_slab, self.owner):
            raise self.game.illegal(
                "JP-BUY-SLAB-TILE", f"taking the tile at {action.cell} would split the slab")
        if kind < 0:
            # turned up first: a Pile of Bones cannot be bought, so the purchase waits for the reveal
            price = purchase_price(self.purchases)
            if self.amber[p] < price:
                self._pay(p, "JP-BUY-SLAB-TILE")  # raises, naming the price
            self._buying = slot
            self.pending = [slot]
            self.after_reveal = BUY
            self.phase = REVEAL
            return
        self._take_from_slab(p, slot)

    def _take_from_slab(self, p: int, slot: int) -> None:
        """The purchase of a (face-up, non-Bones, non-splitting) slab tile: pay, lift it, give it."""
        self._pay(p, "JP-BUY-SLAB-TILE")
        for _other, gap in self.layout.adjacency[slot]:
            self._return_chisel(gap, sharp=False)
        self.on_slab[slot] = False
        self.slab_count -= 1
        self._give(p, self.fossil[slot], from_split=False)
        self._after_slab_change()

    def _do_buy_leader(self, action: BuyLeaderTile) -> None:
        p = self._check_turn(action, action.player, MAIN)
        kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
        if not 0 <= kind < len(self.leader) or self.leader[kind] == 0:
            raise self.game.illegal("JP-BUY-LEADER-TILE", f"the Field Leader holds no {action.fossil}")
        self._pay(p, "JP-BUY-LEADER-TILE")
        leader = list(self.leader)
        leader[kind] -= 1
        self.leader = tuple(leader)
        self._give(p, kind, from_split=False)

    def _do_sell(self, action: Sell) -> None:
        p = self._check_turn(action, action.player, MAIN)
        kind = KIND_OF.get(action.fossil, -1) if isinstance(action.fossil, str) else -1
        if self.sold:
            raise self.game.illegal("JP-SELL", "only 1 tile may be sold per turn")
        if kind == PLANT:
            raise self.game.illegal("JP-SELL", "Plant tiles may not be sold")
        if kind == PTERO and not self._may_sell_ptero(p):
            if self.options.get("sell_pterodactyls", "never") == "never":
                raise self.game.illegal("JP-SELL", "a Pterodactyl is a complete dinosaur and may not be sold")
            raise self.game.illegal(
                "JP-SELL", f"{action.player} holds no Pterodactyl that earned no amber (amber was collected)")
        if kind >= COMMITTED:
            raise self.game.illegal("JP-SELL", "a committed Pile of Bones cannot be moved")
        if kind < 0 or self.loose[p][kind] == 0:
            raise self.game.illegal("JP-SELL", f"{action.player} holds no loose {action.fossil}")
        if self.supply == 0:
            raise self.game.illegal("JP-AMBER", "the amber supply is empty")
        holding = list(self.loose[p])
        holding[kind] -= 1
        self.loose[p] = tuple(holding)
        leader = list(self.leader)
        leader[kind] += 1
        self.leader = tuple(leader)
        if kind == PTERO:
            self.unpaid_ptero[p] -= 1
        self.amber[p] += 1
        self.supply -= 1
        self.sold = True

    def _may_sell_ptero(self, p: int) -> bool:
        return self.unpaid_ptero[p] > 0 and self.options.get("sell_pterodactyls", "never") == "unpaid"

    def _do_commit(self, action: CommitBones) -> None:
        p = self._check_turn(action, action.player, MAIN, TAKE)
        part = KIND_OF.get(action.part, -1) if isinstance(action.part, str) else -1
        if self.loose[p][BONES] == 0:
            raise self.game.illegal("JP-BONES", f"{action.player} holds no uncommitted Pile of Bones")
        if not 0 <= part < N_PARTS or part not in self._commit_targets(p):
            raise self.game.illegal(
                "JP-BONES", f"{action.part} is not a missing part of a dinosaur {action.player} holds a real "
                "tile of"
            )
        holding = list(self.loose[p])
        holding[BONES] -= 1
        holding[COMMITTED + part] += 1
        self.loose[p] = tuple(holding)
        self._complete(p, SPECIES_OF_PART[part])

    def _give(self, p: int, kind: int, from_split: bool) -> None:
        holding = list(self.loose[p])
        holding[kind] += 1
        self.loose[p] = tuple(holding)
        if kind == PTERO:
            if from_split and self.supply > 0:
                self._earn(p)
            else:  # bought, or the supply is empty: no amber was collected for this one
                self.unpaid_ptero[p] += 1
        elif kind < N_PARTS:
            self._complete(p, SPECIES_OF_PART[kind])

    def _earn(self, p: int) -> None:
        if self.supply > 0:
            self.supply -= 1
            self.amber[p] += 1

    def _complete(self, p: int, species_index: int) -> None:
        """Assemble every complete dinosaur of this species the loose tiles allow (+1 amber each)."""
        species = SPECIES[species_index]
        while True:
            holding = list(self.loose[p])
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
            sets = list(self.in_sets[p])
            for kind in use:
                holding[kind] -= 1
                sets[kind] += 1
            self.loose[p] = tuple(holding)
            self.in_sets[p] = tuple(sets)
            complete = list(self.complete[p])
            complete[species_index] += 1
            self.complete[p] = tuple(complete)
            self._earn(p)

    # -- explanations ---------------------------------------------------------------------------------
    def rules_for(self, action: Action) -> list[Rule]:
        ids = _ACTION_RULES.get(type(action), ("JP-TURN",))
        return [RULEBOOK[i] for i in ids]

    def explain(self, action: Action) -> Explanation:
        explanation = super().explain(action)
        if not explanation.legal:
            return explanation
        details: dict[str, Any] = {}
        if isinstance(action, PlaceChisel):
            gap = self.layout.gap_between(action.a, action.b)
            if gap is not None:
                details = {
                    "rocky_sides": self.layout.rocky_sides[gap],
                    "cost": 1 if self.ignore_rocks else self.layout.cost[gap],
                }
                after = self.apply(action)
                assert isinstance(after, JurassicPartsState)
                if after.last_split is not self.last_split or after.phase == AWARD:
                    details["split"] = after.last_split if after.phase != AWARD else "equal halves"
        elif isinstance(action, (BuyIgnoreRocks, BuySharpen, BuySlabTile, BuyLeaderTile)):
            details = {"price": purchase_price(self.purchases)}
        summary = f"{action.kind} is legal: " + "; ".join(rule.title for rule in explanation.rules)
        return Explanation(True, summary, explanation.rules, details)

    # -- scores ---------------------------------------------------------------------------------------
    def holding_scores(self) -> dict[str, HoldingScore]:
        return {
            name: score_holding(self.loose[p], self.complete[p], self.amber[p],
                                place_bones=self.options.get("end_bones", "optimal") == "optimal")
            for p, name in enumerate(self.names)
        }

    def scores(self) -> Outcome:
        held = self.holding_scores()
        return Outcome(
            scores={name: s.total for name, s in held.items()},
            breakdown={name: s.breakdown for name, s in held.items()},
            winners=winners(held),
            reason="all tiles have been claimed from the slab" if self.phase == OVER else "game in progress",
            tiebreak={name: {**s.complete, "PTERO": s.pterodactyls} for name, s in held.items()},
        )

    # -- serialization --------------------------------------------------------------------------------
    def _slab_dict(self, slot: int) -> dict[str, Any]:
        layout = self.layout
        kind = self.fossil[slot]
        data: dict[str, Any] = {
            "cell": list(layout.cells[slot]),
            "id": self.tile_id[slot],
            "rotation": layout.rotations[slot],
            "rocks": list(layout.base_rocks[slot]),
            "face_up": kind >= 0,
            "fossil": KIND_NAMES[kind] if kind >= 0 else None,
        }
        if layout.backs[slot] is not None:
            data["back"] = layout.backs[slot]
        return data

    def _slot_state(self, slot: int) -> str:
        if self.on_slab[slot]:
            return "slab"
        if slot in self.pool:
            return "pool"
        return "gone"

    def to_dict(self) -> dict[str, Any]:
        names = self.names
        layout = self.layout
        return {
            **self.header(),
            "players": list(names),
            "first_player": names[self.first],
            "options": dict(self.options),
            "slab": [
                {**self._slab_dict(slot), "where": self._slot_state(slot)} for slot in range(layout.size)
            ],
            "chisels": [
                {"a": list(layout.cells[a]), "b": list(layout.cells[b]), "player": names[who]}
                for (a, b), who in zip(layout.gaps, self.owner)
                if who != NO_CHISEL
            ],
            "seats": {name: self._seat_dict(p, private=True) for p, name in enumerate(names)},
            "field_leader": {"tiles": _counts_dict(self.leader), "amber": self.supply},
            "turn": {
                "active": names[self.active],
                "phase": PHASE_NAMES[self.phase],
                "number": self.turn_number,
                "pickups_needed": self.need,
                "purchases": self.purchases,
                "sold": self.sold,
                "ignore_rocks": self.ignore_rocks,
                "final": self.final,
            },
            "split": self._split_dict(),
            "last_split": copy.deepcopy(self.last_split),  # callers may edit what they get
        }

    def _split_dict(self) -> dict[str, Any] | None:
        cells = self.layout.cells
        if self.phase == AWARD:
            return {"options": [[list(cells[s]) for s in part] for part in self.award_options]}
        if self.phase in (REVEAL, TAKE, KEEP):
            return {
                "pool": [list(cells[s]) for s in self.pool],
                "reveal": [list(cells[s]) for s in self.pending],
                "then": {KEEP: "keep", BUY: "buy"}.get(self.after_reveal, "take"),
                "ranking": [
                    {"player": self.names[p], "chisels": c, "takes": t} for p, c, t in self.ranking
                ],
                "rank_position": self.rank_pos,
                "taken": self.taken,
            }
        return None

    def _seat_dict(self, p: int, private: bool) -> dict[str, Any]:
        loose = self.loose[p]
        shown_loose = {
            KIND_NAMES[k]: n for k, n in enumerate(loose) if n and (private or k in (PLANT, PTERO))
        }
        data: dict[str, Any] = {
            "dull": self.dull[p],
            "sharp": self.sharp[p],
            "on_slab": self.on_board[p],
            "amber": self.amber[p],
            "unpaid_pterodactyls": self.unpaid_ptero[p],
            "complete": {s.name: self.complete[p][i] for i, s in enumerate(SPECIES) if self.complete[p][i]},
            "in_complete": _counts_dict(self.in_sets[p]),
            "loose": shown_loose,
            "cards": list(self.cards[p]) if private else list(self.revealed_cards[p]),
            "revealed_cards": list(self.revealed_cards[p]),
        }
        if not private:
            data["concealed"] = sum(n for k, n in enumerate(loose) if k not in (PLANT, PTERO))
            data["hidden_cards"] = len(self.cards[p]) - len(self.revealed_cards[p])
        return data

    def view(self, player: str | None = None) -> dict[str, Any]:
        """The table as ``player`` sees it: other players' concealed tiles and unrevealed cards are hidden
        (``None``: the shared view hides everyone's); face-down fossils are unknown to everybody; tiles
        gone from the slab keep their cell but not their fossil or id (those would give concealed tiles
        away)."""
        data = self.to_dict()
        # a tile taken off the slab is with a player, the Field Leader or in a completed dinosaur; naming it
        # here would let the others work out the concealed holdings (exactly, with 2 players)
        for tile in data["slab"]:
            if tile["where"] == "gone":
                tile["fossil"] = None
                tile["id"] = None
        data["seats"] = {
            name: self._seat_dict(p, private=(name == player)) for p, name in enumerate(self.names)
        }
        data["viewer"] = player
        return data


def _counts_dict(counts: Sequence[int]) -> dict[str, int]:
    return {KIND_NAMES[k]: n for k, n in enumerate(counts) if n}


_HANDLERS: dict[type, Any] = {
    PlaceChisel: JurassicPartsState._do_place,
    PickUpChisel: JurassicPartsState._do_pickup,
    EndTurn: JurassicPartsState._do_end_turn,
    BuyIgnoreRocks: JurassicPartsState._do_buy_ignore,
    BuySharpen: JurassicPartsState._do_buy_sharpen,
    BuySlabTile: JurassicPartsState._do_buy_slab,
    BuyLeaderTile: JurassicPartsState._do_buy_leader,
    Sell: JurassicPartsState._do_sell,
    CommitBones: JurassicPartsState._do_commit,
    AwardPart: JurassicPartsState._do_award,
    Reveal: JurassicPartsState._do_reveal,
    TakeTile: JurassicPartsState._do_take,
    KeepTile: JurassicPartsState._do_keep,
}

_ACTION_RULES: dict[type, tuple[str, ...]] = {
    PlaceChisel: ("JP-CRACK", "JP-ROCKS", "JP-ONE-AT-A-TIME", "JP-SPLIT"),
    PickUpChisel: ("JP-SHARPEN", "JP-ROCKS-RESTORED"),
    EndTurn: ("JP-SAVE", "JP-BACKPACK", "JP-TURN"),
    BuyIgnoreRocks: ("JP-PURCHASE-COST", "JP-BUY-IGNORE-ROCKS"),
    BuySharpen: ("JP-PURCHASE-COST", "JP-BUY-SHARPEN"),
    BuySlabTile: ("JP-PURCHASE-COST", "JP-BUY-SLAB-TILE", "JP-COMPLETE", "JP-PTERO"),
    BuyLeaderTile: ("JP-PURCHASE-COST", "JP-BUY-LEADER-TILE", "JP-COMPLETE", "JP-PTERO"),
    Sell: ("JP-SELL", "JP-AMBER"),
    CommitBones: ("JP-BONES", "JP-COMPLETE"),
    AwardPart: ("JP-SPLIT-EQUAL",),
    Reveal: ("JP-FLIP", "JP-REVEAL"),
    TakeTile: ("JP-SHARES", "JP-COMPLETE", "JP-PTERO", "JP-CONCEAL"),
    KeepTile: ("JP-END", "JP-PTERO"),
}
