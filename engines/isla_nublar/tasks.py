"""Isla Nublar's pending work: the tasks a turn queues, each a typed value that knows its choices, how an
action resolves it and whether it runs by itself.

The state keeps an ordered list (``state.tasks``); the first task decides who acts. *Chance* tasks (a card
drawn from a face-down pile, a dinosaur card or the next card of a buy pile turned up) make the state a
chance node; *decision* tasks (how far a dinosaur runs, who defends, which scoring card to use, which
cards to hide...) let only their choices through; *automatic* tasks (a dinosaur's hit, finishing a turn,
passing play on) run as soon as they come first. Every task writes itself as the state JSON's
``{"t": kind, ...}`` object.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from engines.core import Action, refusal
from engines.isla_nublar import unseen
from engines.isla_nublar.actions import (
    ChooseScoring,
    Divert,
    Draw,
    Finish,
    Improve,
    MoveCamp,
    RemoveCamp,
    Retrieve,
    RevealPile,
    RevealScoring,
    Select,
    SwapDinosaurs,
)
from engines.isla_nublar.components import EGG, STACK_LIMIT, Zone, add, size, take
from engines.isla_nublar.unseen import UNSEEN

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState


def need_player(state: IslaNublarState, action: Action, expected: str) -> None:
    who = getattr(action, "player", None)
    if who != expected:
        raise state.illegal("IN-TURN", "it is %(player)s's move, not %(other)s's",
                            player=expected, other=repr(who))


@dataclass(kw_only=True)
class Task:
    """A pending step. ``player`` is who decides (or for whom a card is drawn)."""

    kind: ClassVar[str]
    chance: ClassVar[bool] = False
    #: JSON key -> attribute, where they differ
    json_names: ClassVar[Mapping[str, str]] = {}
    player: str = ""

    def copy(self) -> Task:
        """An independent copy for a cloned state (shallow: only a mutable field needs its own copy)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.kind}
        renamed = {attribute: key for key, attribute in self.json_names.items()}
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.name == "player" and not value:
                continue
            if isinstance(value, dict):
                value = {key: value[key] for key in sorted(value)}
            elif isinstance(value, tuple):
                value = list(value)
            data[renamed.get(item.name, item.name)] = value
        return data

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        """The possible reveals with their probabilities (chance tasks)."""
        return []

    def choices(self, state: IslaNublarState) -> Iterator[Action]:
        """The legal answers (decision tasks), in a fixed order."""
        return iter(())

    def apply(self, state: IslaNublarState, action: Action) -> None:
        raise state.illegal("IN-PHASE", "%(kind)s does not answer the pending %(step)s step",
                            kind=action.kind, step=self.kind)

    def run(self, state: IslaNublarState) -> bool:
        """Run by itself if it can: True once done (removed from the list), False to wait for an action."""
        return False

    def done(self, state: IslaNublarState) -> None:
        state.tasks.pop(0)


# -- chance ------------------------------------------------------------------------------------------------
@dataclass(kw_only=True)
class DrawCards(Task):
    """Draw ``n`` cards into the hand (the draw pile refilled from the discards when empty)."""

    kind: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True
    n: int = 0

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        if unseen.at_table(state, self.player):  # drawn at the table: the engine is told "a card"
            return [(Draw(player=self.player, card=UNSEEN), 1.0)]
        pool = state.zones[self.player]["draw"]
        total = size(pool)
        return [(Draw(player=self.player, card=c), k / total) for c, k in sorted(pool.items())]

    def apply(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Draw) or action.player != self.player:
            refuse_chance(state, self, action)
        zones = state.zones[self.player]
        if action.card == UNSEEN:
            unseen.draw_unseen(state, self.player)
        elif zones["draw"].get(action.card, 0) < 1:
            raise state.illegal("IN-DRAW", "%(card)s is not in %(player)s's draw pile", card=action.card,
                                player=action.player)
        else:
            take(zones["draw"], action.card)
            add(zones["hand"], action.card)
        self.n -= 1
        if self.n <= 0:
            self.done(state)

    def run(self, state: IslaNublarState) -> bool:
        zones = state.zones[self.player]
        if self.n <= 0:
            self.done(state)
            return True
        if not unseen.physical_draw(state, self.player):
            if not zones["discard"]:
                self.done(state)
                return True
            unseen.reshuffle(state, self.player)
        return False


@dataclass(kw_only=True)
class RevealPileCard(Task):
    """A card bought from a buy pile: the pile's next card is turned up."""

    kind: ClassVar[str] = "reveal-pile"
    chance: ClassVar[bool] = True
    pile: int = 0

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        rest = state.piles[self.pile]["rest"]
        total = size(rest)
        return [(RevealPile(pile=self.pile, card=c), k / total) for c, k in sorted(rest.items())]

    def apply(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, RevealPile) or action.pile != self.pile:
            refuse_chance(state, self, action)
        pile = state.piles[action.pile]
        if pile["rest"].get(action.card, 0) < 1:
            raise state.illegal("IN-BUY", "%(card)s is not in the %(pile)s-amber pile", card=action.card,
                                pile=action.pile)
        take(pile["rest"], action.card)
        pile["top"] = action.card
        self.done(state)

    def run(self, state: IslaNublarState) -> bool:
        if state.piles[self.pile]["rest"]:
            return False
        self.done(state)
        return True


@dataclass(kw_only=True)
class RevealScoringCard(Task):
    """Individual ratings: an empty slot of the scoring row is filled from the face-down scoring pile."""

    kind: ClassVar[str] = "reveal-scoring"
    chance: ClassVar[bool] = True
    slot: int = 0

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        total = size(state.scoring_deck)
        deck = sorted(state.scoring_deck.items())
        return [(RevealScoring(slot=self.slot, card=c), k / total) for c, k in deck]

    def apply(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, RevealScoring) or action.slot != self.slot:
            refuse_chance(state, self, action)
        if state.scoring_deck.get(action.card, 0) < 1:
            raise state.illegal("IN-INDIVIDUAL", "%(card)s is not in the face-down scoring pile",
                                card=action.card)
        take(state.scoring_deck, action.card)
        state.row[action.slot] = action.card
        self.done(state)

    def run(self, state: IslaNublarState) -> bool:
        if state.scoring_deck:
            return False
        self.done(state)
        return True


def refuse_chance(state: IslaNublarState, task: Task, action: Action) -> NoReturn:
    raise state.illegal("IN-PHASE", "a face-down card must be revealed first (%(task)s), not %(kind)s",
                        task=task.kind, kind=action.kind)


# -- decisions ---------------------------------------------------------------------------------------------
@dataclass(kw_only=True)
class Decision(Task):
    """A choice the task's player makes; ``finishable`` ones may also be ended with Finish."""

    finishable: ClassVar[bool] = False
    #: the rule cited when a Finish comes where the choice must be made
    finish_rule: ClassVar[str] = "IN-PHASE"

    def may_finish(self) -> bool:
        return self.finishable

    def choices(self, state: IslaNublarState) -> Iterator[Action]:
        if self.may_finish():
            yield Finish(player=self.player)
        yield from self.options(state)

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        return iter(())

    def apply(self, state: IslaNublarState, action: Action) -> None:
        need_player(state, action, self.player)
        if isinstance(action, Finish):
            self.finish(state)
        else:
            self.answer(state, action)

    def finish(self, state: IslaNublarState) -> None:
        if not self.may_finish():
            raise state.illegal(self.finish_rule, "the pending %(task)s choice must be made", task=self.kind)
        self.done(state)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        raise state.illegal("IN-PHASE", "%(kind)s does not answer the pending %(task)s choice",
                            kind=action.kind, task=self.kind)


@dataclass(kw_only=True)
class ChooseScoringCard(Decision):
    """A camp set up: the player scores one of the three active scoring cards, which goes to the back."""

    kind: ClassVar[str] = "choose-scoring"

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for slot in range(3):
            if state.row[slot] is not None:
                yield ChooseScoring(player=self.player, slot=slot)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, ChooseScoring):
            return super().answer(state, action)
        if action.slot not in (0, 1, 2) or state.row[action.slot] is None:
            raise state.illegal("IN-SCORING", "slot %(slot)s is not an active scoring card", slot=action.slot)
        card_id = str(state.row[action.slot])
        state.gain(self.player, "scoring cards", state.scoring_card_points(card_id, self.player))
        state.row = [*state.row[: action.slot], *state.row[action.slot + 1 :], card_id]
        self.done(state)
        return None


SELECT_PURPOSES = ("hideout", "inventory", "three", "remove-any")


@dataclass(kw_only=True)
class SelectCards(Decision):
    """Cards picked from the hand one by one, then Finish: hidden (hideout), discarded to draw as many
    plus ``extra`` (inventory), or out of the game (``three``: exactly 3 or none; ``remove-any``)."""

    kind: ClassVar[str] = "select"
    finishable: ClassVar[bool] = True
    purpose: str = "hideout"
    chosen: Zone = field(default_factory=dict)
    extra: int = 0

    def copy(self) -> Task:
        new = super().copy()
        assert isinstance(new, SelectCards)
        new.chosen = dict(self.chosen)
        return new

    def may_finish(self) -> bool:
        return self.purpose != "three" or size(self.chosen) in (0, 3)

    def selectable(self, state: IslaNublarState) -> Zone:
        """The cards that may be picked next: each card some hand the table allows still holds beside the
        ones chosen (and, for the hideout, ``UNSEEN``: one of the cards nobody has seen, laid face down
        without naming it). Exactly three removed: only while some hand holds three besides the egg."""
        p = self.player
        named = {card: n for card, n in self.chosen.items() if card != UNSEEN}
        unnamed = self.chosen.get(UNSEEN, 0)
        removing = self.purpose in ("three", "remove-any")
        least = 3 if self.purpose == "three" else 0
        if least and not unseen.picks_possible(state, p, named, unnamed, keep=EGG, at_least=least):
            return {}  # exactly 3 cannot be removed: only declining is left
        found: Zone = {}
        for card_id in sorted(unseen.could_hold(state, p)):
            if removing and card_id == EGG:
                continue
            more = dict(named)
            add(more, card_id)
            if unseen.picks_possible(state, p, more, unnamed, keep=EGG if least else None, at_least=least):
                found[card_id] = 1
        if self.purpose == "hideout" and unseen.picks_possible(state, p, named, unnamed + 1):
            found[UNSEEN] = 1
        return found

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        if self.purpose == "three" and size(self.chosen) >= 3:
            return
        for card_id in sorted(self.selectable(state)):
            yield Select(player=self.player, card=card_id)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Select):
            return super().answer(state, action)
        if self.selectable(state).get(action.card, 0) < 1:
            removing = self.purpose in ("three", "remove-any")
            rule = "IN-EGG" if removing and action.card == EGG else self.rule()
            raise state.illegal(rule, "%(card)s cannot be chosen from the hand", card=action.card)
        if self.purpose == "three" and size(self.chosen) >= 3:
            raise state.illegal("IN-CLIENTS", "exactly 3 cards are removed")
        add(self.chosen, action.card)
        return None

    def rule(self) -> str:
        return {"hideout": "IN-HIDEOUT", "inventory": "IN-INVENTORY"}.get(self.purpose, "IN-CLIENTS")

    def finish(self, state: IslaNublarState) -> None:
        chosen = self.chosen
        if not self.may_finish():
            raise state.illegal("IN-CLIENTS", "exactly 3 cards are removed, %(num)d chosen", num=size(chosen))
        self.done(state)
        zones = state.zones[self.player]
        for card_id, n in sorted(chosen.items(), key=lambda item: item[0] == UNSEEN):  # named ones first
            if card_id == UNSEEN:
                unseen.hide_unseen(state, self.player, n)
                continue
            for _ in range(n):
                if not unseen.take_from_hand(state, self.player, card_id):
                    raise state.illegal(self.rule(), "%(card)s is not in %(player)s's hand", card=card_id,
                                        player=self.player)
            if self.purpose == "hideout":
                add(zones["hidden"], card_id, n)
            elif self.purpose == "inventory":
                add(zones["discard"], card_id, n)
            else:
                add(state.box, card_id, n)
        if self.purpose == "inventory":
            state.tasks.insert(0, DrawCards(player=self.player, n=size(chosen) + self.extra))
        elif self.purpose == "three" and size(chosen) == 3:
            state.gain(self.player, "clients", 6)


@dataclass(kw_only=True)
class RemoveOneCard(Decision):
    """One card of the hand leaves the game (``wear``; ``for-cost``: it scores its price)."""

    kind: ClassVar[str] = "remove-one"
    finishable: ClassVar[bool] = True
    purpose: str = "wear"

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for card_id in sorted(unseen.could_hold(state, self.player)):
            if card_id != EGG:
                yield Select(player=self.player, card=card_id)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Select):
            return super().answer(state, action)
        if action.card == EGG:
            raise state.illegal("IN-EGG", "the dinosaur egg card may never leave the game")
        if not unseen.take_from_hand(state, self.player, action.card):
            rule = "IN-WEAR" if self.purpose == "wear" else "IN-CLIENTS"
            raise state.illegal(rule, "%(card)s is not in %(player)s's hand",
                                card=action.card, player=self.player)
        add(state.box, action.card)
        if self.purpose == "for-cost":
            state.gain(self.player, "clients", state.card(action.card).cost)
        self.done(state)
        return None


@dataclass(kw_only=True)
class DivertDinosaur(Decision):
    """A diversion: a figure goes back to an empty volcano (then ``draw`` cards, from a client tile)."""

    kind: ClassVar[str] = "divert"
    finishable: ClassVar[bool] = True
    draw: int = 0

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for dino in sorted(state.dinos):
            for volcano in state.empty_volcanoes():
                yield Divert(player=self.player, dinosaur=dino, volcano=volcano)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Divert):
            return super().answer(state, action)
        if action.dinosaur not in state.dinos or action.volcano not in state.empty_volcanoes():
            raise state.illegal("IN-DIVERSION", "%(dinosaur)s cannot go to %(field)s",
                                dinosaur=action.dinosaur, field=action.volcano)
        state.dinos[action.dinosaur] = action.volcano
        self.done(state)
        if self.draw:
            state.tasks.insert(0, DrawCards(player=self.player, n=self.draw))
        return None


@dataclass(kw_only=True)
class ImproveCard(Decision):
    """A played card leaves the game and a buy pile's top card costing at most its price plus ``extra``
    comes instead (``exclude``: the card that was played to do this, unless the house rule allows it)."""

    kind: ClassVar[str] = "improve"
    finishable: ClassVar[bool] = True
    extra: int = 2
    exclude: str | None = None

    def improvable(self, state: IslaNublarState) -> list[str]:
        played = dict(state.zones[self.player]["played"])
        if self.exclude:
            take(played, self.exclude)
        played.pop(EGG, None)
        return list(played)

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for card_id in sorted(self.improvable(state)):
            yield Improve(player=self.player, card=card_id, pile=0)
            cost = state.card(card_id).cost
            for price, pile in state.piles.items():
                if pile["top"] is not None and state.card(pile["top"]).cost <= cost + self.extra:
                    yield Improve(player=self.player, card=card_id, pile=price)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Improve):
            return super().answer(state, action)
        if action.card not in self.improvable(state):
            rule = "IN-EGG" if action.card == EGG else "IN-IMPROVE"
            raise state.illegal(rule, "%(card)s is not a played card that may leave the game",
                                card=action.card)
        if action.pile:
            pile = state.piles.get(action.pile)
            if pile is None or pile["top"] is None:
                raise state.illegal("IN-IMPROVE", "no card on a %(pile)s-amber pile", pile=action.pile)
            limit = state.card(action.card).cost + self.extra
            if state.card(pile["top"]).cost > limit:
                raise state.illegal("IN-IMPROVE", "%(card)s costs more than %(num)d amber", card=pile["top"],
                                    num=limit)
        take(state.zones[self.player]["played"], action.card)
        add(state.box, action.card)
        self.done(state)
        if action.pile:
            pile = state.piles[action.pile]
            add(state.zones[self.player]["discard"], pile["top"])
            pile["top"] = None
            if pile["rest"]:
                state.tasks.insert(0, RevealPileCard(pile=action.pile))
        return None


@dataclass(kw_only=True)
class MoveOwnCamp(Decision):
    """One of the player's camps moves to another field (or to the top of its own stack)."""

    kind: ClassVar[str] = "move-camp"
    finishable: ClassVar[bool] = True

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        p = self.player
        targets = [f for f, fl in state.board.fields.items() if not fl.volcano and not state.has_dino(f)]
        for origin in targets:
            stack = state.camps.get(origin, [])
            for level, owner in enumerate(stack):
                if owner != p:
                    continue
                if level < len(stack) - 1:
                    yield MoveCamp(player=p, origin=origin, level=level, target=origin)
                for target in targets:
                    if target != origin and len(state.camps.get(target, ())) < STACK_LIMIT:
                        yield MoveCamp(player=p, origin=origin, level=level, target=target)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, MoveCamp):
            return super().answer(state, action)
        move_camp(state, self.player, action)
        self.done(state)
        return None


def move_camp(state: IslaNublarState, p: str, action: MoveCamp) -> None:
    fields = state.board.fields
    stack = state.camps.get(action.origin, [])
    if not 0 <= action.level < len(stack) or stack[action.level] != p:
        raise state.illegal("IN-MOVE-CAMP", "%(player)s has no camp at level %(level)d of %(field)s",
                            player=p, level=action.level, field=action.origin)
    if state.has_dino(action.origin):
        raise state.illegal("IN-DEFENCE", "a dinosaur stands on %(field)s: nothing may leave it",
                            field=action.origin)
    if action.target == action.origin:
        if action.level == len(stack) - 1:
            raise state.illegal("IN-MOVE-CAMP", "that camp is already on top")
        del stack[action.level]
        stack.append(p)
        return
    if action.target not in fields or fields[action.target].volcano:
        raise state.illegal("IN-CAMP", "%(field)s is not a field for a camp", field=repr(action.target))
    if state.has_dino(action.target):
        raise state.illegal("IN-CAMP", "a dinosaur stands on %(field)s", field=action.target)
    if len(state.camps.get(action.target, ())) >= STACK_LIMIT:
        raise state.illegal("IN-CAMP", "%(field)s already holds %(num)d camps",
                            field=action.target, num=STACK_LIMIT)
    del stack[action.level]
    if not stack:
        del state.camps[action.origin]
    state.camps.setdefault(action.target, []).append(p)


@dataclass(kw_only=True)
class RemoveOwnCamp(Decision):
    """A client tile's "done here": one of the player's camps goes back to the general supply for 6."""

    kind: ClassVar[str] = "remove-camp"
    finishable: ClassVar[bool] = True

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for f, stack in sorted(state.camps.items()):
            for level, owner in enumerate(stack):
                if owner == self.player and not state.has_dino(f):
                    yield RemoveCamp(player=self.player, field=f, level=level)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, RemoveCamp):
            return super().answer(state, action)
        p = self.player
        stack = state.camps.get(action.field, [])
        if not 0 <= action.level < len(stack) or stack[action.level] != p:
            raise state.illegal("IN-CLIENTS", "%(player)s has no camp at level %(level)d of %(field)s",
                                player=p, level=action.level, field=action.field)
        if state.has_dino(action.field):
            raise state.illegal("IN-DEFENCE", "a dinosaur stands on %(field)s: nothing may leave it",
                                field=action.field)
        del stack[action.level]
        if not stack:
            del state.camps[action.field]
        state.general[p]["camps"] += 1
        state.gain(p, "clients", 6)
        self.done(state)
        return None


@dataclass(kw_only=True)
class RetrieveCard(Decision):
    """A client tile's "not rubbish": a played or discarded card comes back to the hand."""

    kind: ClassVar[str] = "retrieve"
    finishable: ClassVar[bool] = True

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for origin in ("played", "discard"):
            for card_id in sorted(state.zones[self.player][origin]):
                yield Retrieve(player=self.player, card=card_id, origin=origin)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Retrieve):
            return super().answer(state, action)
        zones = state.zones[self.player]
        if action.origin not in ("played", "discard") or zones[action.origin].get(action.card, 0) < 1:
            among = refusal("%(card)s is not among %(player)s's played cards") if action.origin == "played" \
                else refusal("%(card)s is not among %(player)s's discarded cards")
            raise state.illegal("IN-CLIENTS", among, card=action.card, player=self.player)
        take(zones[action.origin], action.card)
        add(zones["hand"], action.card)
        self.done(state)
        return None


@dataclass(kw_only=True)
class SwapFigures(Decision):
    """A dinosaur whisperer: two figures swap fields."""

    kind: ClassVar[str] = "swap"
    finishable: ClassVar[bool] = True

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        names = sorted(state.dinos)
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                yield SwapDinosaurs(player=self.player, first=first, second=second)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, SwapDinosaurs):
            return super().answer(state, action)
        if {action.first, action.second} - set(state.dinos) or action.first == action.second:
            raise state.illegal("IN-CLIENTS", "swap two different dinosaur figures")
        dinos = state.dinos
        dinos[action.first], dinos[action.second] = dinos[action.second], dinos[action.first]
        self.done(state)
        return None
