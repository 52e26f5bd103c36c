"""Jurassic Parts states: one playthrough.

A state keeps the slab as flat lists over the slots of a shared :class:`~engines.jurassic_parts.board.Layout`
(``on_slab``, ``fossil``; ``owner`` per gap) and each player's holdings as tuples of counts over fossil
kinds, so that ``clone()`` is a handful of list copies. Legal actions are built from the set of open gaps
and per-layout caches of action objects.

The phases and what each action does are :mod:`engines.jurassic_parts.moves`'; the state lists the legal
actions, scores, explains and writes itself as JSON (reading it is :mod:`engines.jurassic_parts.codec`').
"""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, Explanation, Outcome, Rule, State
from engines.jurassic_parts import moves, redeal
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
from engines.jurassic_parts.board import NO_CHISEL, Layout
from engines.jurassic_parts.components import (
    AMBER_SUPPLY,
    BONES,
    BOX_COUNTS,
    CHISELS_PER_PLAYER,
    COMMITTED,
    FRONT_KINDS,
    KIND_NAMES,
    N_KINDS,
    PART_NAMES,
    PLANT,
    PTERO,
    SPECIES,
    purchase_price,
    real_kind,
)
from engines.jurassic_parts.moves import AWARD, KEEP, OVER, PHASE_NAMES, PICKUP, REVEAL, TAKE, Phase, Then
from engines.jurassic_parts.rules import RULEBOOK
from engines.jurassic_parts.scoring import HoldingScore, score_holding, winners

if TYPE_CHECKING:
    from engines.jurassic_parts.game import JurassicPartsGame

EMPTY_HOLDING: tuple[int, ...] = (0,) * N_KINDS
EMPTY_COMPLETE: tuple[int, ...] = (0,) * len(SPECIES)
EMPTY_LEADER: tuple[int, ...] = (0,) * len(FRONT_KINDS)


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
    phase: Phase
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
    after_reveal: Then
    buying: int  # the face-down slab tile being bought, while it is turned up (else -1)
    last_split: dict[str, Any] | None

    def __init__(
        self,
        game: JurassicPartsGame,
        layout: Layout,
        names: tuple[str, ...],
        options: dict[str, Any],
        first: int,
        fossil: list[int],
        tile_id: list[str | None],
        cards: list[tuple[str, ...]],
    ) -> None:
        """A game at its setup: every tile on the slab (``fossil[slot]`` its kind, -1 face down;
        ``tile_id[slot]`` its printed id when known), each player's chisels dull, the amber in the supply,
        nothing held; ``first`` plays first. Start bonuses and the first turn are the game's to give."""
        n = len(names)
        self.game = game
        self.layout = layout
        self.names = names
        self.options = options
        self.first = first
        self.on_slab = [True] * layout.size
        self.slab_count = layout.size
        self.fossil = fossil
        self.tile_id = tile_id
        self.owner = [NO_CHISEL] * len(layout.gaps)
        self.open_gaps = set(range(len(layout.gaps)))
        self.dull = [CHISELS_PER_PLAYER] * n
        self.sharp = [0] * n
        self.on_board = [0] * n
        self.amber = [0] * n
        self.unpaid_ptero = [0] * n
        self.supply = AMBER_SUPPLY
        self.loose = [EMPTY_HOLDING] * n
        self.in_sets = [EMPTY_HOLDING] * n
        self.complete = [EMPTY_COMPLETE] * n
        self.leader = EMPTY_LEADER
        self.cards = list(cards)
        self.revealed_cards = [()] * n
        self.active = first
        self.phase = Phase.MAIN
        self.need = 0
        self.purchases = 0
        self.sold = False
        self.ignore_rocks = 0
        self.final = False
        self.turn_number = 1
        self.award_options = ()
        self.pool = []
        self.ranking = ()
        self.rank_pos = 0
        self.taken = 0
        self.pending = []
        self.after_reveal = Then.TAKE
        self.buying = -1
        self.last_split = None

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
        cache = self.layout.action_cache
        action = cache.get(key)
        if action is None:
            action = cache[key] = make()
        return action

    def _place_actions(self, p: int) -> list[PlaceChisel]:
        key = ("place", self.names[p])
        cached: list[PlaceChisel] | None = self.layout.action_cache.get(key)
        if cached is None:
            name = self.names[p]
            cells = self.layout.cells
            cached = [PlaceChisel(name, cells[a], cells[b]) for a, b in self.layout.gaps]
            self.layout.action_cache[key] = cached
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
                takes.extend(CommitBones(name, PART_NAMES[part]) for part in self.commit_targets(taker))
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
                if loose[kind] and kind != PLANT and (kind != PTERO or self.may_sell_ptero(p)):
                    actions.append(self._cached(("sell", name, kind),
                                                lambda kind=kind: Sell(name, KIND_NAMES[kind])))
        if self.loose[p][BONES]:
            actions.extend(CommitBones(name, PART_NAMES[part]) for part in self.commit_targets(p))
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
        for slot in self.buyable_slab_slots():
            found.append(self._cached(("buy-slab", name, slot),
                                      lambda slot=slot: BuySlabTile(name, cells[slot])))
        for kind, count in enumerate(self.leader):
            if count:
                found.append(self._cached(("buy-leader", name, kind),
                                          lambda kind=kind: BuyLeaderTile(name, KIND_NAMES[kind])))
        return found

    def buyable_slab_slots(self) -> list[int]:
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

    def commit_targets(self, p: int) -> list[int]:
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
    def _apply_in_place(self, action: Action) -> None:
        handler = moves.HANDLERS.get(type(action))
        if handler is None:
            raise self.game.illegal("JP-TURN", "%(kind)s is not a Jurassic Parts action", kind=action.kind)
        handler(self, action)

    def _pickup_actions(self, p: int) -> list[Action]:
        key = ("pick", p)
        cached: list[PickUpChisel] | None = self.layout.action_cache.get(key)
        if cached is None:
            name = self.names[p]
            cells = self.layout.cells
            cached = [PickUpChisel(name, cells[a], cells[b]) for a, b in self.layout.gaps]
            self.layout.action_cache[key] = cached
        return [cached[g] for g, who in enumerate(self.owner) if who == p]

    def may_sell_ptero(self, p: int) -> bool:
        return self.unpaid_ptero[p] > 0 and self.options.get("sell_pterodactyls", "never") == "unpaid"

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

    def fingerprint(self) -> Hashable:
        # every field to_dict reads, as tuples: ~40x cheaper than repr of the dict (inference keys
        # each hypothesis by it)
        return (
            self.game.name, self.layout.fingerprint, self.names, repr(self.options), self.first,
            tuple(self.on_slab), tuple(self.fossil), tuple(self.tile_id), tuple(self.owner),
            tuple(self.dull), tuple(self.sharp), tuple(self.on_board), tuple(self.amber),
            tuple(self.unpaid_ptero), self.supply, tuple(self.loose), tuple(self.in_sets),
            tuple(self.complete), self.leader, tuple(self.cards), tuple(self.revealed_cards), self.active,
            self.phase, self.need, self.purchases, self.sold, self.ignore_rocks, self.final,
            self.turn_number, self.award_options, tuple(self.pool), self.ranking, self.rank_pos,
            self.taken, tuple(self.pending), self.after_reveal, self.buying,
            None if self.last_split is None else repr(self.last_split),
        )

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
                "then": self.after_reveal.value,
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

    def resample_from_view(self, player: str, rng: random.Random) -> JurassicPartsState:
        if player not in self.names:
            raise ValueError(f"{player!r} is not a player of this game")
        return redeal.resample(self, player, rng)


def _counts_dict(counts: Sequence[int]) -> dict[str, int]:
    return {KIND_NAMES[k]: n for k, n in enumerate(counts) if n}


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
