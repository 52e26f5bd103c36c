"""One playthrough of Jurassic Brunch: positions, legal actions, effects, end and scores."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, Explanation, IllegalAction, Outcome, Rule, State
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
from engines.jurassic_brunch.area import ALL_DIRECTIONS, COLOURS, ORTHOGONAL, Cell, PlayingArea
from engines.jurassic_brunch.tokens import (
    BIRTH,
    FLOWER,
    HIDEOUT,
    HIDEOUT_CAPACITY,
    STODGY,
    SUPER_YUMMY,
    TOKEN_KINDS,
    TRAP,
    points,
)

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

TRICERATOPS_PER_PLAYER = 5
RAPTOR = "raptor"

#: a triceratops on the area: (owner, turn it fell asleep or None while standing)
Triceratops = tuple[str, int | None]
#: what a pending step waits for: ("reveal", cell) | ("steal", victim) | ("birth", None)
#: | ("look", token kind) | ("expel", dinosaur) where dinosaur is ("raptor", None) or a Triceratops
Pending = tuple[str, Any]

CHANCE_STEPS = ("reveal", "steal")
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


def _step(cell: Cell, direction: Cell) -> Cell:
    return cell[0] + direction[0], cell[1] + direction[1]


def _direction(origin: Cell, to: Cell, directions: tuple[Cell, ...]) -> Cell | None:
    """The unit direction from ``origin`` to ``to`` if they are on one line of ``directions``."""
    dx, dy = to[0] - origin[0], to[1] - origin[1]
    if (dx, dy) == (0, 0):
        return None
    if dx != 0 and dy != 0 and abs(dx) != abs(dy):
        return None
    unit = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    return unit if unit in directions else None


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
        if self.pending is not None and self.pending[0] in CHANCE_STEPS:
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
        if after.pending is not None and after.pending[0] == "look":
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
            step = self.pending[0]
            if step in CHANCE_STEPS:
                return [action for action, _ in self.chance_outcomes()]
            if step in ("birth", "expel"):
                make = Birth if step == "birth" else Expel
                return [make(cell) for cell in self.empty_cells()]
            if step == "look":
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
    def _illegal(self, rule_id: str, detail: str) -> IllegalAction:
        return self.game.illegal(rule_id, detail)

    def _apply_in_place(self, action: Action) -> None:
        if self.pending is not None:
            self._resolve_pending(action)
        elif isinstance(action, Move | Charge | RaptorMove | Wake):
            if self.actions_left <= 0:
                raise self._illegal(
                    "JB-TURN", f"{self.current} has no action left (end the turn or use a Super Yummy)"
                )
            if isinstance(action, Move):
                self._move(action)
            elif isinstance(action, Charge):
                self._charge(action)
            elif isinstance(action, RaptorMove):
                self._raptor(action)
            else:
                self._wake(action)
        elif isinstance(action, Hide):
            self._hide(action)
        elif isinstance(action, UseSuperYummy):
            if not self.usable_super_yummies(self.current):
                raise self._illegal(
                    "JB-SUPER-YUMMY", f"{self.current} has no Super Yummy that can be used this turn"
                )
            self.tokens[self.current][SUPER_YUMMY] -= 1
            self.fresh_super_yummy[self.current] = min(
                self.fresh_super_yummy[self.current], self.tokens[self.current][SUPER_YUMMY]
            )
            self.discarded[SUPER_YUMMY] += 1
            self.actions_left += 1
        elif isinstance(action, EndTurn):
            self._end_turn()
        elif isinstance(action, Reveal | Steal | Birth | Look | Expel):
            raise self._illegal("JB-PENDING", f"nothing is waiting for a {action.kind} now")
        else:
            raise self._illegal("JB-TURN", f"{action.kind} is not a Jurassic Brunch action")
        if self.pending is None and self.result is None:
            self._check_end()

    def _own_triceratops(self, cell: Cell, rule_id: str) -> Triceratops:
        found = self.triceratops.get(cell)
        if found is None or found[0] != self.current:
            raise self._illegal(rule_id, f"no {self.current} triceratops stands on {list(cell)}")
        return found

    def _move(self, action: Move) -> None:
        owner, since = self._own_triceratops(action.origin, "JB-MOVE")
        if since is not None:
            raise self._illegal("JB-ASLEEP", f"the triceratops on {list(action.origin)} is asleep")
        direction = _direction(action.origin, action.to, ORTHOGONAL)
        if direction is None:
            raise self._illegal("JB-MOVE", "a triceratops moves in a straight line along a row or column")
        stop = self.slide(action.origin, direction)
        if stop is None:
            raise self._illegal("JB-MOVE", f"the triceratops on {list(action.origin)} is blocked that way")
        if stop[0] != action.to:
            raise self._illegal(
                "JB-MOVE",
                f"the triceratops on {list(action.origin)} slides to {list(stop[0])}, not {list(action.to)}",
            )
        if action.eats is not None and action.eats != stop[1]:
            raise self._illegal(
                "JB-EAT", f"this move {'eats' if stop[1] else 'does not eat'} the grass on {list(action.to)}"
            )
        del self.triceratops[action.origin]
        self.triceratops[action.to] = (owner, None)
        self.actions_left -= 1
        if stop[1]:
            self.grass.discard(action.to)
            self.progress = True
            self.pending = ("reveal", action.to)

    def _charge(self, action: Charge) -> None:
        owner, since = self._own_triceratops(action.origin, "JB-CHARGE")
        if since is not None:
            raise self._illegal("JB-ASLEEP", f"the triceratops on {list(action.origin)} is asleep")
        direction = _direction(action.origin, action.target, ORTHOGONAL)
        if direction is None:
            raise self._illegal("JB-CHARGE", "a charge goes in a straight line along a row or column")
        target = self.charge_target(action.origin, direction)
        if target is None:
            blocked = " (tokens block a charge at this table)" if self.options.get(
                "charge_blocked_by_grass"
            ) else ""
            raise self._illegal("JB-CHARGE", f"no dinosaur to charge in that line{blocked}")
        if target != action.target:
            raise self._illegal(
                "JB-CHARGE", f"that charge hits the dinosaur on {list(target)}, not {list(action.target)}"
            )
        expelled: tuple[str, int | None] = (
            (RAPTOR, None) if target == self.raptor else self.triceratops.pop(target)
        )
        if target == self.raptor:
            self.raptor = None
        del self.triceratops[action.origin]
        self.triceratops[target] = (owner, None)
        self.actions_left -= 1
        self.pending = ("expel", expelled)

    def _raptor(self, action: RaptorMove) -> None:
        if self.raptor is None:
            raise self._illegal("JB-RAPTOR", "the raptor is not on the playing area")
        if self.raptor_moved:
            raise self._illegal("JB-RAPTOR-ONCE", "the raptor has already moved this turn")
        if action.origin != self.raptor:
            raise self._illegal("JB-RAPTOR", f"the raptor stands on {list(self.raptor)}")
        direction = _direction(action.origin, action.to, ALL_DIRECTIONS)
        if direction is None:
            raise self._illegal("JB-RAPTOR", "the raptor moves in a straight line or diagonally")
        stop = self.raptor_slide(direction)
        if stop is None:
            raise self._illegal("JB-RAPTOR", "the raptor is blocked that way")
        if stop[0] != action.to:
            raise self._illegal("JB-RAPTOR", f"the raptor goes to {list(stop[0])}, not {list(action.to)}")
        if action.scares is not None and action.scares != stop[1]:
            raise self._illegal(
                "JB-RAPTOR", f"this move {'scares' if stop[1] else 'does not scare'} a triceratops"
            )
        if stop[1]:
            victim, _ = self.triceratops.pop(action.to)
            self.pool[victim] += 1
            if victim != self.current:
                self.progress = True
        self.raptor = action.to
        self.raptor_moved = True
        self.actions_left -= 1

    def _wake(self, action: Wake) -> None:
        found = self._own_triceratops(action.at, "JB-WAKE")
        if found[1] is None:
            raise self._illegal("JB-WAKE", f"the triceratops on {list(action.at)} is not asleep")
        if not self.can_wake(found):
            raise self._illegal(
                "JB-WAKE", "a triceratops that fell asleep this turn is woken during one of your next turns"
            )
        self.triceratops[action.at] = (found[0], None)
        self.actions_left -= 1

    def _hide(self, action: Hide) -> None:
        player = self.current
        if self.hideout_room(player) <= 0:
            raise self._illegal("JB-HIDEOUT", f"{player} has no Hideout with room left")
        if action.token == HIDEOUT:
            raise self._illegal("JB-HIDEOUT", "a Hideout holds the pile; it does not go into it")
        if action.token not in self.tokens[player] or self.tokens[player][action.token] <= 0:
            raise self._illegal("JB-HIDEOUT", f"{player} has no {action.token} token to hide")
        self.tokens[player][action.token] -= 1
        self.hidden[player][action.token] += 1
        if action.token == SUPER_YUMMY and self.fresh_super_yummy[player]:
            # Super Yummies are alike: the one hidden is a fresh one, so an older one stays usable
            self.fresh_super_yummy[player] -= 1

    def _end_turn(self) -> None:
        if self.actions_left > 0 and self.board_actions():
            raise self._illegal(
                "JB-TURN-END", f"{self.current} still has {self.actions_left} action(s) to play"
            )
        self.quiet_turns = 0 if self.progress else self.quiet_turns + 1
        if self.quiet_turns >= 2:
            self.result = {"reason": "two turns in a row without eating or scaring", "rule": "JB-END-QUIET"}
            return
        self.current = self.opponent(self.current)
        self.turn += 1
        self.actions_left = 2
        self.raptor_moved = False
        self.progress = False
        self.fresh_super_yummy = dict.fromkeys(COLOURS, 0)

    # -- pending steps ----------------------------------------------------------------------------------
    def _resolve_pending(self, action: Action) -> None:
        assert self.pending is not None
        step, detail = self.pending
        expected = {"reveal": Reveal, "steal": Steal, "birth": Birth, "look": Look, "expel": Expel}[step]
        if not isinstance(action, expected):
            raise self._illegal("JB-PENDING", f"first {self.pending_text()}")
        if isinstance(action, Reveal):
            if self.bag.get(action.token, 0) <= 0:
                raise self._illegal("JB-SETUP-GRASS", f"no face-down {action.token} token is left to reveal")
            self.bag[action.token] -= 1
            self.pending = None
            self._apply_effect(action.token, detail)
        elif isinstance(action, Steal):
            if self.stealable(detail, offered_flower=True).get(action.token, 0) <= 0:
                raise self._illegal("JB-FLOWER", f"{detail} has no {action.token} token that can be taken")
            self.tokens[detail][action.token] -= 1
            self.tokens[self.current][action.token] += 1
            if action.token == SUPER_YUMMY:
                self.fresh_super_yummy[self.current] += 1
            self.pending = None
        elif isinstance(action, Birth | Expel):
            if action.to not in self.area.cells or action.to in self.grass or self.occupied(action.to):
                rule_id = "JB-BIRTH" if isinstance(action, Birth) else "JB-CHARGE-EXPEL"
                raise self._illegal(rule_id, f"{list(action.to)} is not an empty space of the playing area")
            if isinstance(action, Birth):
                self.pool[self.current] -= 1
                self.triceratops[action.to] = (self.current, None)
            elif detail[0] == RAPTOR:
                self.raptor = action.to
            else:
                self.triceratops[action.to] = detail
            self.pending = None
        elif isinstance(action, Look):
            wanted = min(2, len(self.grass))
            cells = set(action.cells)
            if len(cells) != len(action.cells) or len(cells) != wanted or not cells <= self.grass:
                raise self._illegal("JB-CANNOT-APPLY", f"look at {wanted} different grass tokens on the area")
            self.looks.append(
                {"player": self.current, "turn": self.turn, "token": detail, "cells": sorted(cells)}
            )
            self.pending = None
        if self.pending is None and self.result is None:
            self._check_end()

    def _apply_effect(self, kind: str, cell: Cell) -> None:
        player = self.current
        if kind == FLOWER:
            victim = self.opponent(player)
            if self.stealable(victim):
                self.tokens[victim][FLOWER] += 1
                self.pending = ("steal", victim)
            else:
                self.tokens[player][FLOWER] += 1
                self._cannot_apply(FLOWER)
            return
        self.tokens[player][kind] += 1
        if kind == SUPER_YUMMY:
            self.fresh_super_yummy[player] += 1
        elif kind == STODGY:
            self.triceratops[cell] = (player, self.turn)
        elif kind == TRAP:
            del self.triceratops[cell]
            self.pool[player] += 1
            self.raptor = cell
        elif kind == BIRTH:
            if self.pool[player] > 0 and self.empty_cells():
                self.pending = ("birth", None)
            else:
                self._cannot_apply(BIRTH)

    def _cannot_apply(self, kind: str) -> None:
        if self.grass:
            self.pending = ("look", kind)

    def _check_end(self) -> None:
        owners = {owner for owner, _ in self.triceratops.values()}
        losers = [player for player in COLOURS if player not in owners]
        if losers:
            self.result = {
                "reason": f"{' and '.join(losers)} has no triceratops left on the playing area",
                "rule": "JB-END-NO-TRICERATOPS",
                "losers": losers,
            }
        elif not self.grass:
            self.result = {"reason": "no grass token is left on the playing area", "rule": "JB-END-NO-GRASS"}

    def pending_text(self) -> str:
        """What the game waits for, in words ("" when nothing is pending)."""
        if self.pending is None:
            return ""
        step, detail = self.pending
        if step == "reveal":
            return f"reveal the grass token eaten on {list(detail)}"
        if step == "steal":
            return f"take a token at random from {detail}"
        if step == "birth":
            return f"{self.current} places a newborn triceratops on an empty space"
        if step == "look":
            return f"{self.current} looks at two grass tokens ({detail} could not be applied)"
        expelled = "raptor" if detail[0] == RAPTOR else "triceratops"
        return f"{self.current} places the expelled {expelled} on an empty space"

    # -- scores -----------------------------------------------------------------------------------------
    def holding(self, player: str) -> dict[str, int]:
        """Every token the player holds: in the pile, face-up Hideouts and hidden ones."""
        return {k: self.tokens[player][k] + self.hidden[player][k] for k in TOKEN_KINDS}

    def scores(self) -> Outcome:
        holdings = {player: self.holding(player) for player in COLOURS}
        losers = list(self.result.get("losers", [])) if self.result else []
        outcome = rank(holdings, losers)
        reason = self.result["reason"] if self.result else "game in progress"
        return Outcome(outcome.scores, outcome.breakdown, outcome.winners, reason, outcome.tiebreak)

    # -- serialization ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        from engines.jurassic_brunch.serialize import state_to_dict

        return state_to_dict(self)

    def view(self, player: str | None = None) -> dict[str, Any]:
        from engines.jurassic_brunch.serialize import state_view

        return state_view(self, player)


def rank(holdings: Mapping[str, Mapping[str, int]], losers: list[str]) -> Outcome:
    """Scores and winners from what each player holds; ``losers`` lost outright (no triceratops left)."""
    breakdown = {player: points(held) for player, held in holdings.items()}
    scores = {player: sum(parts.values()) for player, parts in breakdown.items()}
    counts = {player: sum(held.values()) for player, held in holdings.items()}
    if losers:
        winners = tuple(player for player in holdings if player not in losers)
        tiebreak: dict[str, Any] = {"outright_losers": list(losers)}
    else:
        best = max(scores.values())
        leaders = [player for player in holdings if scores[player] == best]
        tiebreak = {}
        if len(leaders) > 1:
            fewest = min(counts[player] for player in leaders)
            tiebreak = {"tokens": {player: counts[player] for player in leaders}}
            leaders = [player for player in leaders if counts[player] == fewest]
        winners = tuple(leaders)
    return Outcome(scores, breakdown, winners, "", tiebreak)
