"""The dinosaurs' tasks and the end of a turn: a figure moving (1-3 fields straight towards the southern
tip, or as a client tile says), the owners of what it ends on defending, its hit, its way back to a
volcano; then a turn finished and play passed on, and the end of the game decided."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engines.core import Action
from engines.isla_nublar.actions import (
    Decline,
    Defend,
    MoveDinosaur,
    PlaceDinosaurs,
    ReturnDinosaur,
    RevealDinosaur,
)
from engines.isla_nublar.components import add, size, take
from engines.isla_nublar.tasks import (
    ChooseScoringCard,
    Decision,
    DivertDinosaur,
    DrawCards,
    ImproveCard,
    MoveOwnCamp,
    RemoveOneCard,
    RemoveOwnCamp,
    RetrieveCard,
    RevealPileCard,
    RevealScoringCard,
    SelectCards,
    SwapFigures,
    Task,
)
from engines.isla_nublar.unseen import could_hold, return_hidden, take_from_hand

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState


@dataclass(kw_only=True)
class RevealDinosaurCard(Task):
    """A dinosaur egg played: the top card of the dinosaur deck is turned up and its figure moves."""

    kind: ClassVar[str] = "reveal-dino"
    chance: ClassVar[bool] = True

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        total = size(state.dino_deck)
        return [(RevealDinosaur(card=c), k / total) for c, k in sorted(state.dino_deck.items())]

    def apply(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, RevealDinosaur):
            raise state.illegal("IN-PHASE", "a face-down card must be revealed first (%(step)s), not "
                                "%(kind)s", step=self.kind, kind=action.kind)
        if state.dino_deck.get(action.card, 0) < 1:
            raise state.illegal("IN-EGG", "%(card)s is not in the dinosaur deck", card=action.card)
        take(state.dino_deck, action.card)
        add(state.zones[self.player]["played"], action.card)
        state.tasks[0] = DinosaurMove(player=self.player, dino=str(state.card(action.card).figure))

    def run(self, state: IslaNublarState) -> bool:
        if state.dino_deck:
            return False
        self.done(state)
        return True


@dataclass(kw_only=True)
class DinosaurMove(Decision):
    """A figure (``dino``; None: any figure) runs 1 to ``most`` fields straight in one of ``dirs``;
    ``optional``: the player may also let it stay."""

    kind: ClassVar[str] = "dino-move"
    finish_rule: ClassVar[str] = "IN-RED"
    json_names: ClassVar[dict[str, str]] = {"max": "most"}
    dino: str | None = None
    dirs: list[str] = field(default_factory=lambda: ["S"])
    most: int = 3
    optional: bool = False

    def may_finish(self) -> bool:
        return self.optional

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        p = self.player
        for dino in [self.dino] if self.dino else sorted(state.dinos):
            if state.dinos.get(dino) is None:
                continue
            for direction in self.dirs:
                for steps in range(1, self.most + 1):
                    outcome = state.dino_path(dino, steps, direction)
                    if isinstance(outcome, str):
                        break
                    yield MoveDinosaur(player=p, dinosaur=dino, steps=steps, direction=direction)
                    if outcome[0] != "stop":
                        break

    def run(self, state: IslaNublarState) -> bool:
        if any(True for _ in self.options(state)):
            return False
        self.done(state)  # nowhere to go (at the edge of an upper area): no effect
        return True

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, MoveDinosaur):
            return super().answer(state, action)
        if self.dino and action.dinosaur != self.dino:
            raise state.illegal("IN-DINO-MOVE", "this card moves %(dinosaur)s, not %(other)s",
                                dinosaur=self.dino, other=action.dinosaur)
        if action.dinosaur not in state.dinos:
            raise state.illegal("IN-DINO-MOVE", "unknown dinosaur %(dinosaur)s",
                                dinosaur=repr(action.dinosaur))
        if action.direction not in self.dirs:
            ways = "/".join(self.dirs)
            raise state.illegal("IN-DINO-MOVE", "the move goes %(ways)s, not %(direction)s", ways=ways,
                                direction=action.direction)
        if not 1 <= action.steps <= self.most:
            raise state.illegal("IN-DINO-MOVE", "a dinosaur moves 1-%(most)s fields, not %(steps)s",
                                most=self.most, steps=action.steps)
        outcome = state.dino_path(action.dinosaur, action.steps, action.direction)
        if isinstance(outcome, str):
            raise state.illegal("IN-DINO-END", outcome)
        self.done(state)
        end, at = outcome
        state.dinos[action.dinosaur] = at
        if end == "off":
            state.tasks.insert(0, ReturnToVolcano(player=self.player, dino=action.dinosaur))
        elif end == "hit":
            assert at is not None
            players = state.players
            order = [players[(state.active + i) % len(players)] for i in range(len(players))]
            losers = state.losers(at)
            follow: list[Task] = [DefendField(player=q, field=at, dino=action.dinosaur)
                                  for q in order if q in losers]
            follow.append(DinosaurHit(player=self.player, field=at, dino=action.dinosaur))
            state.tasks[0:0] = follow
        return None


@dataclass(kw_only=True)
class DefendField(Decision):
    """The owner of pieces on the field a dinosaur ended on may play a defensive-measures card."""

    kind: ClassVar[str] = "defence"
    field: str = ""
    dino: str = ""

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for card_id in sorted(could_hold(state, self.player)):
            if state.card(card_id).value("defence") is not None:
                yield Defend(player=self.player, card=card_id)
        yield Decline(player=self.player)

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, Defend | Decline):
            return super().answer(state, action)
        self.done(state)
        if isinstance(action, Decline):
            return None
        defends = action.card in state.cards.cards and state.card(action.card).value("defence") is not None
        if not defends or not take_from_hand(state, self.player, action.card):
            state.tasks.insert(0, self)
            raise state.illegal("IN-DEFENCE", "%(card)s is not a defensive-measures card in %(player)s's "
                                "hand",
                                card=action.card, player=self.player)
        add(state.zones[self.player]["discard"], action.card)
        # the dinosaur stays as if it had ended on an empty field: drop the other offers and the hit
        while state.tasks and isinstance(state.tasks[0], DefendField | DinosaurHit) and \
                state.tasks[0].field == self.field:
            state.tasks.pop(0)
        return None


@dataclass(kw_only=True)
class DinosaurHit(Task):
    """Nobody defended: the boxes on the field (or else its top camp) go back to the general supply, and
    the figure returns to a volcano."""

    kind: ClassVar[str] = "hit"
    field: str = ""
    dino: str = ""

    def run(self, state: IslaNublarState) -> bool:
        self.done(state)
        held = state.boxes.pop(self.field, {})
        if held:
            for q, n in held.items():
                state.general[q]["boxes"] += n
        else:
            stack = state.camps.get(self.field)
            if stack:
                q = stack.pop()
                state.general[q]["camps"] += 1
                if not stack:
                    del state.camps[self.field]
        state.tasks.insert(0, ReturnToVolcano(player=self.player, dino=self.dino))
        return True


@dataclass(kw_only=True)
class ReturnToVolcano(Decision):
    """A figure that left the island or hit goes back to an empty volcano of the player's choice (by
    itself when only one is empty)."""

    kind: ClassVar[str] = "return"
    dino: str = ""

    def options(self, state: IslaNublarState) -> Iterator[Action]:
        for volcano in state.empty_volcanoes():
            yield ReturnDinosaur(player=self.player, volcano=volcano)

    def run(self, state: IslaNublarState) -> bool:
        empty = state.empty_volcanoes()
        if len(empty) != 1:
            return False
        state.dinos[self.dino] = empty[0]
        self.done(state)
        return True

    def answer(self, state: IslaNublarState, action: Action) -> None:
        if not isinstance(action, ReturnDinosaur):
            return super().answer(state, action)
        if action.volcano not in state.empty_volcanoes():
            raise state.illegal("IN-DINO-END", "%(volcano)s is not an empty volcano", volcano=action.volcano)
        state.dinos[self.dino] = action.volcano
        self.done(state)
        return None


@dataclass(kw_only=True)
class PlaceDinosaurFigures(Task):
    """A real table being set up: "Place 1 of the 4 dinosaur figures randomly on each of the 4 red
    volcanoes": chance, told by what the table shows (any of the 24 ways, alike)."""

    kind: ClassVar[str] = "place-dinosaurs"
    chance: ClassVar[bool] = True

    def outcomes(self, state: IslaNublarState) -> list[tuple[Action, float]]:
        ways = sorted(itertools.permutations(sorted(state.dinos)))
        return [(PlaceDinosaurs(figures=" ".join(way)), 1.0 / len(ways)) for way in ways]

    def apply(self, state: IslaNublarState, action: Action) -> None:
        figures = action.figures.split() if isinstance(action, PlaceDinosaurs) else []
        if sorted(figures) != sorted(state.dinos):
            raise state.illegal("IN-SETUP", "each of the figures %(figures)s stands on one red volcano",
                                figures=", ".join(sorted(state.dinos)))
        state.dinos = dict(sorted(zip(figures, state.board.volcanoes, strict=True)))
        self.done(state)


@dataclass(kw_only=True)
class BoxScoringCards(Task):
    """A real table set up for the basic game: the scoring cards not laid in the row go back in the box
    (with Individual ratings they stay the face-down scoring pile)."""

    kind: ClassVar[str] = "box-scoring"

    def run(self, state: IslaNublarState) -> bool:
        self.done(state)
        if not state.options["individual_ratings"]:
            for card, n in state.scoring_deck.items():
                add(state.box, card, n)
            state.scoring_deck = {}
        return True


@dataclass(kw_only=True)
class FinishTurn(Task):
    """The hand drawn back up: hidden cards return to the hand, the pools empty, the scoring row refills
    (Individual ratings), and play passes on."""

    kind: ClassVar[str] = "finish-turn"

    def run(self, state: IslaNublarState) -> bool:
        self.done(state)
        zones = state.zones[self.player]
        for card_id, n in zones["hidden"].items():
            add(zones["hand"], card_id, n)
        zones["hidden"] = {}
        return_hidden(state, self.player)
        state.amber = 0
        state.box_points = 0
        state.change_boxes = 0
        state.change = False
        follow: list[Task] = []
        if state.options["individual_ratings"]:
            # the cards move forward (the rulebook's "to the right", towards slot 0 as in the basic game) to
            # fill the gaps; new cards go on the empty spaces at the back ("the empty left space")
            kept = [c for c in state.row if c is not None]
            state.row = kept + [None] * (5 - len(kept))
            follow = [RevealScoringCard(slot=s) for s in range(len(kept), 5)]
        follow.append(PassPlay())
        state.tasks[0:0] = follow
        check_end(state)
        return True


@dataclass(kw_only=True)
class PassPlay(Task):
    """The next player's turn; the game ends once the last round is complete."""

    kind: ClassVar[str] = "pass"

    def run(self, state: IslaNublarState) -> bool:
        self.done(state)
        nxt = (state.active + 1) % len(state.players)
        if state.ending and nxt == 0:
            state.over = True
            return True
        state.active = nxt
        if nxt == 0:
            state.turn += 1
        return True


def check_end(state: IslaNublarState) -> None:
    """Note the end condition that finishes the game with this round (the last camp, the dinosaur deck
    empty, two buy piles empty)."""
    if state.ending:
        return
    if not state.dino_deck:
        state.ending = "the dinosaur deck is empty"
        return
    empty = [price for price, pile in state.piles.items() if pile["top"] is None and not pile["rest"]]
    names = [f"{price}-amber" for price in empty]
    if state.options["individual_ratings"] and not state.scoring_deck:
        names.append("scoring-card")
    if len(names) >= 2:
        state.ending = f"2 buy piles are empty ({', '.join(names)})"


def run_automatic_tasks(state: IslaNublarState) -> None:
    while state.tasks and not state.over and state.tasks[0].run(state):
        pass


#: every task by its JSON ``t``
TASK_TYPES: dict[str, type[Task]] = {
    task.kind: task
    for task in (
        DrawCards, RevealDinosaurCard, RevealPileCard, RevealScoringCard, DinosaurMove, DefendField,
        DinosaurHit, ReturnToVolcano, ChooseScoringCard, SelectCards, RemoveOneCard, DivertDinosaur,
        ImproveCard, MoveOwnCamp, RemoveOwnCamp, RetrieveCard, SwapFigures, FinishTurn, PassPlay,
        BoxScoringCards, PlaceDinosaurFigures,
    )
}
