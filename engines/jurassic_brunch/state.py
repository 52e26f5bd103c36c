"""One playthrough of Jurassic Brunch: positions, legal actions, end and scores, and the state as JSON
(what each action does is :mod:`engines.jurassic_brunch.moves`')."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, Explanation, IllegalAction, Outcome, Rule, State, refusal
from engines.jurassic_brunch import moves, redeal
from engines.jurassic_brunch.actions import (
    Birth,
    Charge,
    EndTurn,
    Expel,
    Hide,
    Look,
    Move,
    RaptorMove,
    Reveal,
    Steal,
    UseSuperYummy,
    Wake,
)
from engines.jurassic_brunch.board import ALL_DIRECTIONS, COLOURS, ORTHOGONAL, Cell, PlayingArea
from engines.jurassic_brunch.components import (
    FLOWER,
    HIDEOUT,
    HIDEOUT_CAPACITY,
    RAPTOR,
    SUPER_YUMMY,
    TOKEN_KINDS,
)
from engines.jurassic_brunch.moves import CHANCE_STEPS, Pending, Step
from engines.jurassic_brunch.scoring import rank

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

#: a triceratops on the area: (owner, turn it fell asleep or None while standing)
Triceratops = tuple[str, int | None]
HOUSE_RULES = ("charge_blocked_by_grass", "wake_same_turn", "super_yummy_same_turn")

EFFECT_RULES: Mapping[str, str] = {
    "BIRTH": "JB-BIRTH",
    "HIDEOUT": "JB-HIDEOUT",
    "FLOWER": "JB-FLOWER",
    "STODGY": "JB-STODGY",
    "TRAP": "JB-TRAP",
    "SUPER_YUMMY": "JB-SUPER-YUMMY",
    "YUMMY": "JB-YUMMY",
}
RULES_FOR_KIND: Mapping[str, tuple[str, ...]] = {
    "move": ("JB-MOVE", "JB-EAT"),
    "charge": ("JB-CHARGE", "JB-CHARGE-EXPEL"),
    "expel": ("JB-CHARGE-EXPEL",),
    "raptor": ("JB-RAPTOR", "JB-RAPTOR-ONCE"),
    "wake": ("JB-WAKE",),
    "reveal": ("JB-EAT", "JB-SETUP-GRASS"),
    "steal": ("JB-FLOWER",),
    "birth": ("JB-BIRTH",),
    "look": ("JB-CANNOT-APPLY",),
    "hide": ("JB-HIDEOUT",),
    "super_yummy": ("JB-SUPER-YUMMY",),
    "end_turn": ("JB-TURN-END", "JB-TURN"),
}


class BrunchState(State):
    """The full state. Attributes are public for the rulings and tests; callers never change them."""

    def __init__(self, game: JurassicBrunch, area: PlayingArea, options: Mapping[str, Any]) -> None:
        self.game = game
        self.area = area
        self.options: dict[str, Any] = dict(options)
        self.grass: set[Cell] = set()
        self.bag: dict[str, int] = dict.fromkeys(TOKEN_KINDS, 0)
        self.triceratops: dict[Cell, Triceratops] = {}
        self.pool: dict[str, int] = dict.fromkeys(COLOURS, 0)
        self.raptor: Cell | None = None
        self.tokens: dict[str, dict[str, int]] = {c: dict.fromkeys(TOKEN_KINDS, 0) for c in COLOURS}
        self.hidden: dict[str, dict[str, int]] = {c: dict.fromkeys(TOKEN_KINDS, 0) for c in COLOURS}
        #: Super Yummies gained this turn (not usable before the next turn unless the house rule says so)
        self.fresh_super_yummy: dict[str, int] = dict.fromkeys(COLOURS, 0)
        self.discarded: dict[str, int] = dict.fromkeys(TOKEN_KINDS, 0)
        self.turn = 1
        self.current = COLOURS[0]
        self.actions_left = 1
        self.raptor_moved = False
        self.progress = False
        self.quiet_turns = 0
        self.pending: Pending | None = None
        self.looks: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None

    # -- core API ---------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return COLOURS

    def opponent(self, player: str) -> str:
        return COLOURS[1] if player == COLOURS[0] else COLOURS[0]

    def current_player(self) -> str:
        if self.result is not None:
            return TERMINAL
        if self.pending is not None and self.pending.step in CHANCE_STEPS:
            return CHANCE
        return self.current

    def clone(self) -> BrunchState:
        new = BrunchState.__new__(BrunchState)
        new.game = self.game
        new.area = self.area
        new.options = self.options
        new.grass = set(self.grass)
        new.bag = dict(self.bag)
        new.triceratops = dict(self.triceratops)
        new.pool = dict(self.pool)
        new.raptor = self.raptor
        new.tokens = {c: dict(held) for c, held in self.tokens.items()}
        new.hidden = {c: dict(held) for c, held in self.hidden.items()}
        new.fresh_super_yummy = dict(self.fresh_super_yummy)
        new.discarded = dict(self.discarded)
        new.turn = self.turn
        new.current = self.current
        new.actions_left = self.actions_left
        new.raptor_moved = self.raptor_moved
        new.progress = self.progress
        new.quiet_turns = self.quiet_turns
        new.pending = self.pending
        new.looks = list(self.looks)
        new.result = self.result
        return new

    def apply(self, action: Action) -> BrunchState:
        """The state after ``action`` (typed for this game); raises IllegalAction, ``self`` unchanged."""
        new_state = super().apply(action)
        assert isinstance(new_state, BrunchState)
        return new_state

    def game_over_rule(self) -> Rule:
        return self.game.rule("JB-END")

    def rules_for(self, action: Action) -> list[Rule]:
        rule_ids = list(RULES_FOR_KIND.get(action.kind, ()))
        if isinstance(action, Reveal) and action.token in EFFECT_RULES:
            rule_ids = ["JB-EAT", EFFECT_RULES[action.token]]
        return [self.game.rule(rule_id) for rule_id in rule_ids]

    def explain(self, action: Action) -> Explanation:
        """Whether ``action`` is legal, the rules deciding it, and for a legal one what it does here."""
        base = super().explain(action)
        if not base.legal:
            return base
        summary = base.summary
        if isinstance(action, Move):
            eats = action.to in self.grass
            summary = (
                f"the triceratops on {list(action.origin)} slides to {list(action.to)}"
                + (" and eats the grass token there" if eats else "")
            )
        elif isinstance(action, Charge):
            target = "the raptor" if action.target == self.raptor else "the triceratops"
            summary = f"the triceratops on {list(action.origin)} charges {target} on {list(action.target)}"
        elif isinstance(action, RaptorMove):
            scares = action.to in self.triceratops
            summary = f"the raptor goes to {list(action.to)}" + (
                f" and scares the {self.triceratops[action.to][0]} triceratops there" if scares else ""
            )
        elif isinstance(action, Reveal):
            effect = self.game.rule(EFFECT_RULES[action.token])
            summary = f"the eaten token is {effect.title}: {effect.passage}"
        after = self.apply(action)
        if after.pending is not None and after.pending.step == Step.LOOK:
            summary += " It cannot be applied: the player looks at two grass tokens."
        details = {"actions_left": after.actions_left, "next": after.pending_text() or after.current_player()}
        return Explanation(True, summary, base.rules, details)

    # -- geometry ---------------------------------------------------------------------------------------
    def occupied(self, cell: Cell) -> bool:
        return cell in self.triceratops or cell == self.raptor

    def empty_cells(self) -> list[Cell]:
        """Cells with no dinosaur and no token, in (y, x) reading order."""
        return sorted(
            (c for c in self.area.cells if c not in self.grass and not self.occupied(c)),
            key=lambda c: (c[1], c[0]),
        )

    def slide(self, origin: Cell, direction: Cell) -> tuple[Cell, bool] | None:
        """Peaceful move: (where it stops, whether it eats), or None if it cannot leave ``origin``."""
        cells = self.area.cells
        current = origin
        while True:
            nxt = (current[0] + direction[0], current[1] + direction[1])
            if nxt not in cells or nxt in self.triceratops or nxt == self.raptor:
                return (current, False) if current != origin else None
            if nxt in self.grass:
                return nxt, True
            current = nxt

    def charge_target(self, origin: Cell, direction: Cell) -> Cell | None:
        """The dinosaur a charge from ``origin`` hits; None at the edge (or a token, with the house rule)."""
        cells = self.area.cells
        blocked_by_grass = self.options.get("charge_blocked_by_grass", False)
        current = origin
        while True:
            current = (current[0] + direction[0], current[1] + direction[1])
            if current not in cells:
                return None
            if current in self.triceratops or current == self.raptor:
                return current
            if blocked_by_grass and current in self.grass:
                return None

    def raptor_slide(self, direction: Cell) -> tuple[Cell, bool] | None:
        """Raptor move: (where it stops, whether it scares a triceratops there), or None."""
        assert self.raptor is not None
        cells = self.area.cells
        origin = current = self.raptor
        while True:
            nxt = (current[0] + direction[0], current[1] + direction[1])
            if nxt not in cells or nxt in self.grass:
                return (current, False) if current != origin else None
            if nxt in self.triceratops:
                return nxt, True
            current = nxt

    def can_wake(self, triceratops: Triceratops) -> bool:
        since = triceratops[1]
        if since is None:
            return False
        return bool(self.options.get("wake_same_turn", False)) or since < self.turn

    def usable_super_yummies(self, player: str) -> int:
        fresh = 0 if self.options.get("super_yummy_same_turn", False) else self.fresh_super_yummy[player]
        return max(0, self.tokens[player][SUPER_YUMMY] - fresh)

    def hideout_room(self, player: str) -> int:
        return HIDEOUT_CAPACITY * self.tokens[player][HIDEOUT] - sum(self.hidden[player].values())

    def stealable(self, player: str, offered_flower: bool = False) -> dict[str, int]:
        """Tokens the opponent can take with a Flower: not hidden, not the face-up Hideouts, and not the
        Flower just offered (``offered_flower``) -- otherwise 'no token available' could never happen."""
        counts = {k: n for k, n in self.tokens[player].items() if n and k != HIDEOUT}
        if offered_flower:
            counts[FLOWER] -= 1
            if not counts[FLOWER]:
                del counts[FLOWER]
        return counts

    def on_area(self, player: str) -> int:
        return sum(1 for owner, _ in self.triceratops.values() if owner == player)

    # -- legal actions ----------------------------------------------------------------------------------
    def board_actions(self) -> list[Action]:
        """Moves, charges, wakes and the raptor for the current player (ignoring actions left)."""
        actions: list[Action] = []
        player = self.current
        for cell in sorted(self.triceratops, key=lambda c: (c[1], c[0])):
            owner, since = self.triceratops[cell]
            if owner != player:
                continue
            if since is not None:
                if self.can_wake((owner, since)):
                    actions.append(Wake(cell))
                continue
            for direction in ORTHOGONAL:
                stop = self.slide(cell, direction)
                if stop is not None:
                    actions.append(Move(cell, stop[0], stop[1]))
            for direction in ORTHOGONAL:
                target = self.charge_target(cell, direction)
                if target is not None:
                    actions.append(Charge(cell, target))
        if self.raptor is not None and not self.raptor_moved:
            for direction in ALL_DIRECTIONS:
                stop = self.raptor_slide(direction)
                if stop is not None:
                    actions.append(RaptorMove(self.raptor, stop[0], stop[1]))
        return actions

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.result is not None or self.pending is None:
            return []
        step, detail = self.pending
        if step == "reveal":
            counts = {k: n for k, n in self.bag.items() if n}
            total = sum(counts.values())
            return [(Reveal(kind), n / total) for kind, n in counts.items()]
        if step == "steal":
            counts = self.stealable(detail, offered_flower=True)
            total = sum(counts.values())
            return [(Steal(kind), n / total) for kind, n in counts.items()]
        return []

    def legal_actions(self) -> list[Action]:
        if self.result is not None:
            return []
        if self.pending is not None:
            step = self.pending.step
            if step in CHANCE_STEPS:
                return [action for action, _ in self.chance_outcomes()]
            if step in (Step.BIRTH, Step.EXPEL):
                make = Birth if step == Step.BIRTH else Expel
                return [make(cell) for cell in self.empty_cells()]
            if step == Step.LOOK:
                grass = sorted(self.grass, key=lambda c: (c[1], c[0]))
                return [Look(cells) for cells in combinations(grass, min(2, len(grass)))]
            raise AssertionError(f"unknown pending step {step}")
        board = self.board_actions() if self.actions_left > 0 else []
        actions: list[Action] = list(board)
        player = self.current
        if self.usable_super_yummies(player):
            actions.append(UseSuperYummy())
        if self.hideout_room(player) > 0:
            actions.extend(Hide(kind) for kind, n in self.tokens[player].items() if n and kind != HIDEOUT)
        if not board:  # actions spent, or none possible: the player passes
            actions.append(EndTurn())
        return actions

    # -- applying actions -------------------------------------------------------------------------------
    def illegal(self, rule_id: str, detail: str, **params: object) -> IllegalAction:
        return self.game.illegal(rule_id, detail, **params)

    def _apply_in_place(self, action: Action) -> None:
        if self.pending is not None:
            moves.resolve_pending(self, action)
            return
        handler = moves.HANDLERS.get(type(action))
        if handler is None:
            if isinstance(action, Reveal | Steal | Birth | Look | Expel):
                raise self.illegal("JB-PENDING", "nothing is waiting for a %(kind)s now", kind=action.kind)
            raise self.illegal("JB-TURN", "%(kind)s is not a Jurassic Brunch action", kind=action.kind)
        handler(self, action)
        if self.pending is None and self.result is None:
            moves.check_end(self)

    def pending_text(self) -> str:
        """What the game waits for, in words ("" when nothing is pending)."""
        said = self.pending_said()
        return said[0] % said[1] if said is not None else ""

    def pending_said(self) -> tuple[str, dict[str, object]] | None:
        """What the game waits for as a message and its values (a refusal says it in a reader's language)."""
        if self.pending is None:
            return None
        step, detail = self.pending
        if step == "reveal":
            return refusal("the grass token eaten on %(cell)s must first be revealed"), {"cell": list(detail)}
        if step == "steal":
            return refusal("a token must first be taken at random from %(other)s"), {"other": detail}
        player: dict[str, object] = {"player": self.current}
        if step == "birth":
            return refusal("%(player)s must first place a newborn triceratops on an empty space"), player
        if step == "look":
            looking = refusal("%(player)s must first look at two grass tokens (%(token)s could not be "
                              "applied)")
            return looking, {**player, "token": detail}
        if detail[0] == RAPTOR:
            return refusal("%(player)s must first place the expelled raptor on an empty space"), player
        return refusal("%(player)s must first place the expelled triceratops on an empty space"), player

    # -- scores -----------------------------------------------------------------------------------------
    def holding(self, player: str) -> dict[str, int]:
        """Every token the player holds: in the pile, face-up Hideouts and hidden ones."""
        return {k: self.tokens[player][k] + self.hidden[player][k] for k in TOKEN_KINDS}

    def scores(self) -> Outcome:
        return self._scored({player: self.holding(player) for player in COLOURS})

    def shared_scores(self) -> Outcome:
        """Tokens hidden under a Hideout count for their owner only when the game ends (their kind is the
        owner's secret meanwhile)."""
        return self.scores() if self.is_terminal() else self._scored(dict(self.tokens))

    def _scored(self, holdings: dict[str, dict[str, int]]) -> Outcome:
        losers = list(self.result.get("losers", [])) if self.result else []
        outcome = rank(holdings, losers)
        reason = self.result["reason"] if self.result else "game in progress"
        return Outcome(outcome.scores, outcome.breakdown, outcome.winners, reason, outcome.tiebreak)

    # -- serialization ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def view(self, player: str | None = None) -> dict[str, Any]:
        return state_view(self, player)

    def resample_from_view(self, player: str, rng: random.Random) -> BrunchState:
        if player not in COLOURS:
            raise ValueError(f"{player!r} is not a player of this game")
        return redeal.resample(self, player, rng)


def _cells(cells: Any) -> list[list[int]]:
    return [list(cell) for cell in sorted(cells, key=lambda c: (c[1], c[0]))]


def _counts(counts: Mapping[str, int]) -> dict[str, int]:
    return {kind: counts[kind] for kind in TOKEN_KINDS if counts.get(kind, 0)}


def _triceratops(cell: Cell, tri: Triceratops) -> dict[str, Any]:
    return {"owner": tri[0], "at": list(cell), "asleep": tri[1] is not None, "asleep_since": tri[1]}


def _pending(state: BrunchState) -> dict[str, Any] | None:
    if state.pending is None:
        return None
    step, detail = state.pending
    if step == "reveal":
        return {"kind": "reveal", "at": list(detail)}
    if step == "steal":
        return {"kind": "steal", "from": detail}
    if step == "birth":
        return {"kind": "birth"}
    if step == "look":
        return {"kind": "look", "token": detail}
    if detail[0] == RAPTOR:
        return {"kind": "expel", "dinosaur": "raptor"}
    return {"kind": "expel", "dinosaur": "triceratops", "owner": detail[0], "asleep_since": detail[1]}


def _area_dict(area: PlayingArea) -> dict[str, Any]:
    if area.boards:
        return area.to_dict()
    return {"cells": _cells(area.cells)}


def state_to_dict(state: BrunchState) -> dict[str, Any]:
    return {
        **state.header(),
        "players": list(COLOURS),
        "options": dict(state.options),
        "area": _area_dict(state.area),
        "grass": _cells(state.grass),
        "bag": _counts(state.bag),
        "triceratops": [
            _triceratops(cell, state.triceratops[cell])
            for cell in sorted(state.triceratops, key=lambda c: (c[1], c[0]))
        ],
        "pool": dict(state.pool),
        "raptor": list(state.raptor) if state.raptor is not None else None,
        "holdings": {
            player: {
                "tokens": _counts(state.tokens[player]),
                "hidden": _counts(state.hidden[player]),
                "fresh_super_yummy": state.fresh_super_yummy[player],
            }
            for player in COLOURS
        },
        "discarded": _counts(state.discarded),
        "turn": {
            "number": state.turn,
            "current": state.current,
            "actions_left": state.actions_left,
            "raptor_moved": state.raptor_moved,
            "progress": state.progress,
            "quiet_turns": state.quiet_turns,
        },
        "pending": _pending(state),
        "looks": [
            {**look, "cells": [list(cell) for cell in look["cells"]]} for look in state.looks
        ],
        "result": dict(state.result) if state.result is not None else None,
    }


def state_view(state: BrunchState, player: str | None) -> dict[str, Any]:
    """The table as ``player`` may know it (``None``: the shared view).

    Face-down tokens (on the area, in the players' piles, under Hideouts) show only as counts, except a
    player's own; the face-up Hideouts and discarded Super Yummies are public.
    """
    full = state_to_dict(state)
    holdings: dict[str, Any] = {}
    for seat in COLOURS:
        held = full["holdings"][seat]
        if seat == player:
            holdings[seat] = held
        else:
            holdings[seat] = {
                "tokens": sum(state.tokens[seat].values()) - state.tokens[seat][HIDEOUT],
                "hideouts": state.tokens[seat][HIDEOUT],
                "hidden": sum(state.hidden[seat].values()),
            }
    view = {key: full[key] for key in full if key not in ("bag", "holdings")}
    view["holdings"] = holdings
    view["grass_left"] = len(state.grass)
    view["to_play"] = state.current_player()
    view["viewer"] = player
    if player in COLOURS:
        scores = state.scores()
        view["score"] = {"total": scores.scores[player], "breakdown": dict(scores.breakdown[player])}
    return view
