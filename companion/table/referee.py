"""The table's referee, the judging part of the game in progress (:mod:`.in_progress`, which alone holds
one): the engine state of the game being played, the question or objection pending on the table, and what
a stable observation means for the game. No threads, no store, no panel.

- judging a stable observation: None (the same table picture as the last one judged, or one that was
  put aside) or an :class:`~companion.infer.Inference`: unchanged, a move to apply, a question or an
  objection. It takes three steps so that the thinking holds no lock: :meth:`Referee.ticket` (under the
  loop's lock: what to judge against), :meth:`Ticket.think` (no lock; bounded by the model's search
  budget), :meth:`Referee.still_current` (under the lock again: the game did not move meanwhile, else the
  picture is judged again on the next frame, and no later picture was taken up meanwhile, whose judgement
  then stands);
- :meth:`Referee.hold` keeps a question or objection pending until the table is put right, it is answered,
  or it is accepted as it is (:meth:`Referee.put_aside`: that table picture is then ignored);
- :meth:`Referee.invisible_endings`: the moves the Next button can mean (a legal move that changes nothing
  the camera sees: end the turn, pass).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.i18n import N_, Said, said
from companion.infer import (
    Accepted,
    Inference,
    Picture,
    TableModel,
    as_accepted,
    compare,
    describe_action,
    infer,
)
from engines.core import Action, IllegalAction, Rule, State
from vision.observation import Observation

#: a question (which move?), an objection (no legal move explains the table), the question asked after
#: a restart whose stored game is not the config's (carry on or start anew), or a new game's table being
#: set up (a checklist; nothing is objected to until it is done or confirmed)
PendingKind = Literal["question", "objection", "resume", "setup"]
#: words in an action kind that mark the end of a turn or a pass
ENDING_WORDS = ("end", "pass", "next", "done")
#: why the table is asked to follow an undo
UNDO_RULE = Rule(
    "TABLE-UNDO",
    N_("Undo on the table too"),
    "companion",
    N_("A move taken back on the page is taken back on the table: its pieces go back where they were."),
)
#: the question when Next could mean more than one way to end the turn
WHICH_END = said("Which of these did you mean?")
#: why a move tapped on the page is to be made on the table too
TAP_RULE = Rule(
    "TABLE-TAP",
    N_("A tapped move is made on the table too"),
    "companion",
    N_("A move entered on the page that the camera can see is made with the pieces as well."),
)


@dataclass(frozen=True)
class Ticket:
    """What one observation is judged against: the state and model of the moment, and the referee's
    version then (states are immutable, so thinking needs no lock)."""

    state: State
    model: TableModel
    observation: Observation
    version: int
    seen: Picture | None = None  # the observation's picture, when the referee drew it already
    #: which ticket this is: one issued later is of a later picture, whose judgement supersedes this one
    number: int = 0
    #: False when the picture is judged again after a move tapped on the page: nothing was moved since it
    #: was last read, so no further move is read into it (the table not showing the tap is objected to)
    moves: bool = True

    def think(self) -> Inference:
        result = infer(self.state, self.observation, self.model, seen=self.seen)
        if self.moves or result.kind == "unchanged":
            return result
        text = said("The table does not show the move tapped on the page: make it on the table, or take it "
                    "back with Undo")
        return Inference.asking(
            "objection",
            text,
            differences=result.differences,
            rule=TAP_RULE,
            expected="the move tapped on the page",
            seen="; ".join(d.describe() for d in result.differences[:6]),
        )


@dataclass
class Pending:
    """A question or an objection waiting on the table."""

    kind: PendingKind
    inference: Inference
    since: float
    seen_key: str
    options: list[list[Action]] = field(default_factory=list)
    #: the labels of a choice that is not a move (the resume question)
    choices: list[str | Said] = field(default_factory=list)
    #: a new game's setup: what is left to do to the table, in the players' words
    checklist: dict[str, Any] | None = None
    #: the table picture it is pending on (a reading of the same table that only jitters is not new)
    picture: Picture | None = None

    def to_dict(self) -> dict[str, Any]:
        inference = self.inference
        return {
            "kind": self.kind,
            "text": inference.text,
            "said": None if inference.said is None else inference.said.to_dict(),
            "options": [{"index": index, "label": str(label), "action": None,
                         "said": label.to_dict() if isinstance(label, Said) else None}
                        for index, label in enumerate(self.choices)] + [
                {
                    "index": index,
                    "label": " then ".join(describe_action(a) for a in option),
                    "action": [a.to_dict() for a in option] if len(option) != 1 else option[0].to_dict(),
                }
                for index, option in enumerate(self.options)
            ],
            "rule": None if inference.rule is None else inference.rule.to_dict(),
            "expected": inference.expected,
            "seen": inference.seen,
            "actor": inference.actor,
            "differences": [d.to_dict() for d in inference.differences],
            "since": self.since,
            "checklist": self.checklist,
        }


class Referee:
    """Judges what the camera sees against the game (see the module docstring)."""

    def __init__(self, model: TableModel, state: State) -> None:
        self.model = model
        self.state = state
        self.pending: Pending | None = None
        self.last_observation: Observation | None = None
        self._last_seen_key: str | None = None
        self._last_picture: Picture | None = None
        self._put_aside: set[str] = set()
        self._tapped = False
        #: how the table differed from the set-up when it was started as it is (taken out of every reading)
        self.accepted = Accepted()
        #: grows whenever the game or what is put aside changes: a ticket of an older version is stale
        self.version = 0
        #: tickets issued so far (the page's thread and the frame thread both judge pictures)
        self._issued = 0

    def restart(self, state: State, model: TableModel | None = None) -> None:
        """A new game (or another game's model): nothing pending, nothing seen yet."""
        if model is not None:
            self.model = model
        self.state = state
        self.pending = None
        self._put_aside.clear()
        self._last_seen_key = None
        self._last_picture = None
        self.accepted = Accepted()
        self.version += 1

    # -- observations ---------------------------------------------------------------------------------
    def seen(self, observation: Observation) -> Picture:
        """What the camera saw, less what was accepted as it is when the game started."""
        raw = self.model.seen(observation)
        self.accepted = self.accepted.live(raw, self.model.tolerance)
        return as_accepted(raw, self.accepted, self.model.tolerance)

    def seen_key(self, observation: Observation) -> str:
        return self.seen(observation).key(self.model.tolerance)

    def accept_as_it_is(self) -> None:
        """The game starts with the table as it lies: how it differs from the set-up is no one's move."""
        self.pending = None
        observation = self.last_observation
        if observation is not None:
            self.accepted = Accepted.of(self.model.expected(self.state), self.model.seen(observation),
                                        self.model.tolerance)
        self._last_seen_key = None
        self.version += 1

    def ticket(self, observation: Observation) -> Ticket | None:
        """What to judge a stable observation against, or None when this table picture was judged (or put
        aside) already."""
        self.last_observation = observation
        tapped, self._tapped = self._tapped, False
        seen = self.seen(observation)
        key = seen.key(self.model.tolerance)
        if key == self._last_seen_key:
            return None
        self._last_seen_key = key
        self._last_picture = seen
        if key in self._put_aside:
            return None
        pending = self.pending
        if (pending is not None and pending.picture is not None and pending.kind in ("question", "objection")
                and not compare(pending.picture, seen, self.model.tolerance)):
            return None  # the table it is pending on, read again with other jitter: nothing new
        self._issued += 1
        return Ticket(self.state, self.model, observation, self.version, seen, moves=not tapped,
                      number=self._issued)

    def still_current(self, ticket: Ticket) -> bool:
        """Whether a judgement made on ``ticket`` may be acted on. When the game moved meanwhile, the
        picture will be judged again (against the new state) on the next stable frame; when a later
        picture was taken to be judged meanwhile (the page re-reads the last one as the camera reads a new
        one), that later judgement stands, never this older one."""
        if ticket.version != self.version:
            self._last_seen_key = None
            return False
        return ticket.number == self._issued

    def look_again(self, tapped: bool = False) -> None:
        """Judge the next observation even when the table picture has not changed (the state has).
        ``tapped``: a move was entered on the page, so the same picture holds no further move."""
        self._last_seen_key = None
        self._tapped = tapped

    # -- moves ----------------------------------------------------------------------------------------
    def advance(self, state: State) -> None:
        """The game moved on (a committed move): pictures put aside may mean something now."""
        self.state = state
        self._put_aside.clear()
        self.version += 1

    def taken_back(self, state: State, undone: str) -> Inference | None:
        """A move was undone. The table still shows it until the players take it back: an objection
        saying what to put back (None when the table already agrees). While it is pending, that picture is
        not read as the move made again; a different one is judged against the state taken back to."""
        self.state = state
        self.pending = None
        self.version += 1
        observation = self.last_observation
        if observation is None:
            return None
        seen = self.seen(observation)
        differences = compare(self.model.expected(state), seen, self.model.tolerance)
        key = seen.key(self.model.tolerance)
        self._last_seen_key = key
        self._last_picture = seen
        if not differences:
            return None
        text = said("Taken back on the page, not yet on the table (%(move)s): put its pieces back where they "
                    "were", move=undone)
        return Inference.asking(
            "objection",
            text,
            differences=differences,
            rule=UNDO_RULE,
            expected="the table as it was before that move",
            seen="; ".join(d.describe() for d in differences[:6]),
        )

    # -- what is pending ------------------------------------------------------------------------------
    def hold(self, kind: PendingKind, inference: Inference, since: float,
             choices: Sequence[str | Said] | None = None) -> Pending:
        """Keep a question or objection pending on the current table picture."""
        self.pending = Pending(kind, inference, since, self._last_seen_key or "", list(inference.options),
                               list(choices or []), picture=self._last_picture)
        return self.pending

    def clear(self) -> None:
        """Nothing waits on the table any more (answered, put right, or made moot by a move)."""
        self.pending = None

    def put_aside(self) -> Pending | None:
        """Accept the pending table picture as it is: it is ignored from now on; the game stays as it was."""
        pending = self.pending
        if pending is not None:
            self._put_aside.add(pending.seen_key)
            self.version += 1
        self.pending = None
        return pending

    def invisible_endings(self) -> list[Action]:
        """The legal moves that change nothing the camera sees, those that end a turn or pass first (all of
        them when none does)."""
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return []
        here = self.model.expected(state).key(self.model.tolerance)
        invisible = []
        for action in state.legal_actions():
            try:
                after = state.apply(action)
            except IllegalAction:
                continue
            if self.model.expected(after).key(self.model.tolerance) == here:
                invisible.append(action)
        return [a for a in invisible if any(word in a.kind for word in ENDING_WORDS)] or invisible
