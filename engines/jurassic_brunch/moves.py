"""Jurassic Brunch moves: what each action does to a fresh clone of the state (the state's ``apply`` picks
the handler; a handler raises IllegalAction naming the rule, and the clone is then thrown away)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from engines.core import Action, refusal
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
from engines.jurassic_brunch.board import ALL_DIRECTIONS, COLOURS, ORTHOGONAL, Cell
from engines.jurassic_brunch.components import BIRTH, FLOWER, HIDEOUT, RAPTOR, STODGY, SUPER_YUMMY, TRAP

if TYPE_CHECKING:
    from engines.jurassic_brunch.state import BrunchState, Triceratops


class Step(StrEnum):
    """What the game waits for before play goes on."""

    REVEAL = "reveal"  # chance: the grass token just eaten is turned up
    STEAL = "steal"  # chance: a token taken at random from the opponent (a Flower)
    BIRTH = "birth"  # the player places a newborn triceratops
    LOOK = "look"  # an effect could not be applied: the player looks at two grass tokens
    EXPEL = "expel"  # the player places the dinosaur a charge expelled


class Pending(NamedTuple):
    """A pending step and its detail: the eater's cell (reveal), the victim (steal), nothing (birth), the
    token that could not be applied (look), the expelled dinosaur (expel: ``("raptor", None)`` or a
    triceratops)."""

    step: Step
    detail: Any


CHANCE_STEPS = (Step.REVEAL, Step.STEAL)
EXPECTED: dict[Step, type[Action]] = {
    Step.REVEAL: Reveal, Step.STEAL: Steal, Step.BIRTH: Birth, Step.LOOK: Look, Step.EXPEL: Expel,
}


def direction_to(origin: Cell, to: Cell, directions: tuple[Cell, ...]) -> Cell | None:
    """The unit direction from ``origin`` to ``to`` if they are on one line of ``directions``."""
    dx, dy = to[0] - origin[0], to[1] - origin[1]
    if (dx, dy) == (0, 0):
        return None
    if dx != 0 and dy != 0 and abs(dx) != abs(dy):
        return None
    unit = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    return unit if unit in directions else None


def spend_action(state: BrunchState) -> None:
    if state.actions_left <= 0:
        raise state.illegal("JB-TURN", "%(player)s has no action left (end the turn or use a Super Yummy)",
                            player=state.current)


def use_super_yummy(state: BrunchState, action: UseSuperYummy) -> None:
    player = state.current
    if not state.usable_super_yummies(player):
        raise state.illegal("JB-SUPER-YUMMY", "%(player)s has no Super Yummy that can be used this turn",
                            player=player)
    state.tokens[player][SUPER_YUMMY] -= 1
    state.fresh_super_yummy[player] = min(state.fresh_super_yummy[player], state.tokens[player][SUPER_YUMMY])
    state.discarded[SUPER_YUMMY] += 1
    state.actions_left += 1


def end_turn_action(state: BrunchState, action: EndTurn) -> None:
    end_turn(state)


def own_triceratops(state: BrunchState, cell: Cell, rule_id: str) -> Triceratops:
    found = state.triceratops.get(cell)
    if found is None or found[0] != state.current:
        raise state.illegal(rule_id, "%(player)s has no triceratops on %(cell)s", player=state.current,
                            cell=list(cell))
    return found

def move(state: BrunchState, action: Move) -> None:
    spend_action(state)
    owner, since = own_triceratops(state, action.origin, "JB-MOVE")
    if since is not None:
        raise state.illegal("JB-ASLEEP", "the triceratops on %(cell)s is asleep", cell=list(action.origin))
    direction = direction_to(action.origin, action.to, ORTHOGONAL)
    if direction is None:
        raise state.illegal("JB-MOVE", "a triceratops moves in a straight line along a row or column")
    stop = state.slide(action.origin, direction)
    if stop is None:
        raise state.illegal("JB-MOVE", "the triceratops on %(cell)s is blocked that way",
                            cell=list(action.origin))
    if stop[0] != action.to:
        raise state.illegal("JB-MOVE", "the triceratops on %(cell)s slides to %(stop)s, not %(to)s",
                            cell=list(action.origin), stop=list(stop[0]), to=list(action.to))
    if action.eats is not None and action.eats != stop[1]:
        raise state.illegal("JB-EAT", refusal("this move eats the grass on %(cell)s") if stop[1] else refusal(
            "this move does not eat the grass on %(cell)s"), cell=list(action.to))
    del state.triceratops[action.origin]
    state.triceratops[action.to] = (owner, None)
    state.actions_left -= 1
    if stop[1]:
        state.grass.discard(action.to)
        state.progress = True
        state.pending = Pending(Step.REVEAL, action.to)

def charge(state: BrunchState, action: Charge) -> None:
    spend_action(state)
    owner, since = own_triceratops(state, action.origin, "JB-CHARGE")
    if since is not None:
        raise state.illegal("JB-ASLEEP", "the triceratops on %(cell)s is asleep", cell=list(action.origin))
    direction = direction_to(action.origin, action.target, ORTHOGONAL)
    if direction is None:
        raise state.illegal("JB-CHARGE", "a charge goes in a straight line along a row or column")
    target = state.charge_target(action.origin, direction)
    if target is None:
        raise state.illegal("JB-CHARGE", refusal(
            "no dinosaur to charge in that line (tokens block a charge at this table)") if state.options.get(
            "charge_blocked_by_grass") else refusal("no dinosaur to charge in that line"))
    if target != action.target:
        raise state.illegal("JB-CHARGE", "that charge hits the dinosaur on %(cell)s, not %(to)s",
                            cell=list(target), to=list(action.target))
    expelled: tuple[str, int | None] = (
        (RAPTOR, None) if target == state.raptor else state.triceratops.pop(target)
    )
    if target == state.raptor:
        state.raptor = None
    del state.triceratops[action.origin]
    state.triceratops[target] = (owner, None)
    state.actions_left -= 1
    state.pending = Pending(Step.EXPEL, expelled)

def raptor(state: BrunchState, action: RaptorMove) -> None:
    spend_action(state)
    if state.raptor is None:
        raise state.illegal("JB-RAPTOR", "the raptor is not on the playing area")
    if state.raptor_moved:
        raise state.illegal("JB-RAPTOR-ONCE", "the raptor has already moved this turn")
    if action.origin != state.raptor:
        raise state.illegal("JB-RAPTOR", "the raptor stands on %(cell)s", cell=list(state.raptor))
    direction = direction_to(action.origin, action.to, ALL_DIRECTIONS)
    if direction is None:
        raise state.illegal("JB-RAPTOR", "the raptor moves in a straight line or diagonally")
    stop = state.raptor_slide(direction)
    if stop is None:
        raise state.illegal("JB-RAPTOR", "the raptor is blocked that way")
    if stop[0] != action.to:
        raise state.illegal("JB-RAPTOR", "the raptor goes to %(stop)s, not %(to)s", stop=list(stop[0]),
                            to=list(action.to))
    if action.scares is not None and action.scares != stop[1]:
        raise state.illegal("JB-RAPTOR", refusal("this move scares a triceratops") if stop[1] else refusal(
            "this move does not scare a triceratops"))
    if stop[1]:
        victim, _ = state.triceratops.pop(action.to)
        state.pool[victim] += 1
        if victim != state.current:
            state.progress = True
    state.raptor = action.to
    state.raptor_moved = True
    state.actions_left -= 1

def wake(state: BrunchState, action: Wake) -> None:
    spend_action(state)
    found = own_triceratops(state, action.at, "JB-WAKE")
    if found[1] is None:
        raise state.illegal("JB-WAKE", "the triceratops on %(cell)s is not asleep", cell=list(action.at))
    if not state.can_wake(found):
        raise state.illegal(
            "JB-WAKE", "a triceratops that fell asleep this turn is woken during one of your next turns"
        )
    state.triceratops[action.at] = (found[0], None)
    state.actions_left -= 1

def hide(state: BrunchState, action: Hide) -> None:
    player = state.current
    if state.hideout_room(player) <= 0:
        raise state.illegal("JB-HIDEOUT", "%(player)s has no Hideout with room left", player=player)
    if action.token == HIDEOUT:
        raise state.illegal("JB-HIDEOUT", "a Hideout holds the pile; it does not go into it")
    if action.token not in state.tokens[player] or state.tokens[player][action.token] <= 0:
        raise state.illegal("JB-HIDEOUT", "%(player)s has no %(token)s token to hide", player=player,
                            token=action.token)
    state.tokens[player][action.token] -= 1
    state.hidden[player][action.token] += 1
    if action.token == SUPER_YUMMY and state.fresh_super_yummy[player]:
        # Super Yummies are alike: the one hidden is a fresh one, so an older one stays usable
        state.fresh_super_yummy[player] -= 1

def end_turn(state: BrunchState) -> None:
    if state.actions_left > 0 and state.board_actions():
        raise state.illegal("JB-TURN-END", "%(player)s still has actions to play (%(num)d)",
                            player=state.current, num=state.actions_left)
    state.quiet_turns = 0 if state.progress else state.quiet_turns + 1
    if state.quiet_turns >= 2:
        state.result = {"reason": "two turns in a row without eating or scaring", "rule": "JB-END-QUIET"}
        return
    state.current = state.opponent(state.current)
    state.turn += 1
    state.actions_left = 2
    state.raptor_moved = False
    state.progress = False
    state.fresh_super_yummy = dict.fromkeys(COLOURS, 0)

# -- pending steps ----------------------------------------------------------------------------------
def resolve_pending(state: BrunchState, action: Action) -> None:
    assert state.pending is not None
    step, detail = state.pending
    expected = EXPECTED[step]
    if not isinstance(action, expected):
        message, values = state.pending_said() or ("", {})
        raise state.illegal("JB-PENDING", message, **values)
    if isinstance(action, Reveal):
        if state.bag.get(action.token, 0) <= 0:
            raise state.illegal("JB-SETUP-GRASS", "no face-down %(token)s token is left to reveal",
                                token=action.token)
        state.bag[action.token] -= 1
        state.pending = None
        apply_effect(state, action.token, detail)
    elif isinstance(action, Steal):
        if state.stealable(detail, offered_flower=True).get(action.token, 0) <= 0:
            raise state.illegal("JB-FLOWER", "%(other)s has no %(token)s token that can be taken",
                                other=detail,
                                token=action.token)
        state.tokens[detail][action.token] -= 1
        state.tokens[state.current][action.token] += 1
        if action.token == SUPER_YUMMY:
            state.fresh_super_yummy[state.current] += 1
        state.pending = None
    elif isinstance(action, Birth | Expel):
        if action.to not in state.area.cells or action.to in state.grass or state.occupied(action.to):
            rule_id = "JB-BIRTH" if isinstance(action, Birth) else "JB-CHARGE-EXPEL"
            raise state.illegal(rule_id, "%(cell)s is not an empty space of the playing area",
                                cell=list(action.to))
        if isinstance(action, Birth):
            state.pool[state.current] -= 1
            state.triceratops[action.to] = (state.current, None)
        elif detail[0] == RAPTOR:
            state.raptor = action.to
        else:
            state.triceratops[action.to] = detail
        state.pending = None
    elif isinstance(action, Look):
        wanted = min(2, len(state.grass))
        cells = set(action.cells)
        if len(cells) != len(action.cells) or len(cells) != wanted or not cells <= state.grass:
            raise state.illegal("JB-CANNOT-APPLY", "look at %(num)d different grass tokens on the area",
                                num=wanted)
        state.looks.append(
            {"player": state.current, "turn": state.turn, "token": detail, "cells": sorted(cells)}
        )
        state.pending = None
    if state.pending is None and state.result is None:
        check_end(state)

def apply_effect(state: BrunchState, kind: str, cell: Cell) -> None:
    player = state.current
    if kind == FLOWER:
        victim = state.opponent(player)
        if state.stealable(victim):
            state.tokens[victim][FLOWER] += 1
            state.pending = Pending(Step.STEAL, victim)
        else:
            state.tokens[player][FLOWER] += 1
            cannot_apply(state, FLOWER)
        return
    state.tokens[player][kind] += 1
    if kind == SUPER_YUMMY:
        state.fresh_super_yummy[player] += 1
    elif kind == STODGY:
        state.triceratops[cell] = (player, state.turn)
    elif kind == TRAP:
        del state.triceratops[cell]
        state.pool[player] += 1
        state.raptor = cell
    elif kind == BIRTH:
        if state.pool[player] > 0 and state.empty_cells():
            state.pending = Pending(Step.BIRTH, None)
        else:
            cannot_apply(state, BIRTH)

def cannot_apply(state: BrunchState, kind: str) -> None:
    if state.grass:
        state.pending = Pending(Step.LOOK, kind)

def check_end(state: BrunchState) -> None:
    owners = {owner for owner, _ in state.triceratops.values()}
    losers = [player for player in COLOURS if player not in owners]
    if losers:
        state.result = {
            "reason": f"{' and '.join(losers)} has no triceratops left on the playing area",
            "rule": "JB-END-NO-TRICERATOPS",
            "losers": losers,
        }
    elif not state.grass:
        state.result = {"reason": "no grass token is left on the playing area", "rule": "JB-END-NO-GRASS"}


HANDLERS: dict[type[Action], Callable[[BrunchState, Any], None]] = {
    Move: move,
    Charge: charge,
    RaptorMove: raptor,
    Wake: wake,
    Hide: hide,
    UseSuperYummy: use_super_yummy,
    EndTurn: end_turn_action,
}
