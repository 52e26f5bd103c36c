"""The table played by hand without a Pi: ``companion serve`` with the synthetic camera.

At a real table people move the pieces and the camera reads them. A synthetic table has nobody to move
them, so every move tapped on the page would be objected to ("the table does not show the move tapped on
the page") and the companion's moves would never be made. :class:`TableByHand` is the people's hands on the
synthetic table, doing what people at a real table do: a move tapped on the page is made on the table
(:meth:`TableByHand.make`) for the camera to read as it reads a person's; it makes the companion's move
for it once it says it, lays out a new game, puts the table back after an undo and turns up what a
face-down piece shows. It never hands the loop a move the camera can see: the loop reads the table through
the real vision pipeline. A slip the people made (an objection of their own, a question) is left for them
to settle on the page.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.infer import state_key
from companion.table.loop import TableLoop
from companion.table.referee import TAP_RULE, UNDO_RULE
from engines.core import CHANCE, Action, EngineError, State
from vision.scene import Scene

log = logging.getLogger(__name__)

#: how often the hands look at the game, seconds
LOOK_EVERY_S = 0.1
#: how long a move made on the table by hand is left for the camera to read before the hands look again
READ_WITHIN_S = 10.0
#: who made a move the hands make on the table too (a move the camera read is on the table already)
NOT_ON_THE_TABLE = frozenset({"web", "button", "choice", "companion", "bot"})


class TableByHand:
    """The hands at a synthetic table (see the module docstring). ``show`` puts a scene in front of the
    synthetic camera; ``seed`` decides what face-down pieces show when turned up."""

    def __init__(self, loop: TableLoop, show: Callable[[Scene], None], seed: int | None = None) -> None:
        self.loop = loop
        self.show = show
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        #: the state (by key) the table shows
        self._shown: str | None = None
        #: a move made on the table, waiting to be read: the states before and after it, and until when
        self._making: tuple[str, str, float] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: what the hands did, for tests and the log: laid, followed, made, turned up
        self.done: dict[str, int] = {}

    # -- running -----------------------------------------------------------------------------------------
    def start(self) -> TableByHand:
        self._thread = threading.Thread(target=self._run, name="table-by-hand", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.wait(LOOK_EVERY_S):
            try:
                self.step()
            except Exception:  # the hands never stop the table: the next look tries again
                log.exception("the synthetic table could not follow the game")

    # -- one look ----------------------------------------------------------------------------------------
    def step(self) -> str:
        """Look at the game once and do what people would; returns what was done ("" for nothing)."""
        with self._lock:
            state = self.loop.current_state()
            key = state_key(state)
            pending = self.loop.game.pending
            if pending is not None and pending.kind == "question" and self._making is not None:
                return self._answer(state, pending)  # the tap said which way it was meant
            if self._waiting_for_the_camera(key):
                return ""
            if pending is not None and not self._ours_to_mend(pending):
                return ""  # the people's own slip, or a question for them: settled on the page
            if pending is not None or (key != self._shown and self._moved_off_the_table()):
                return self._lay(state, "laid" if pending is not None and pending.kind == "setup" else
                                 "followed")
            if state.is_terminal():
                return ""
            if state.current_player() == CHANCE:
                # what lies behind the back: the physical table decides, as the kit knows it
                return self._make(state, self.loop.game.model.chance_outcome(state, self._rng), "turned up")
            if self.loop.companion.to_move(state) is not None:
                decision = self.loop.companion.wanted_now(state)
                if decision is not None:
                    return self._make(state, decision.action, "made")
            return ""

    def make(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A move tapped on the page, made on the table (the camera reads it; one it cannot see is taken
        as tapped). Anything else tapped (a correction, a move the rules refuse) goes to the loop as a
        tap: it applies it, the table following, or refuses it naming the rule."""
        with self._lock:
            state = self.loop.current_state()
            try:
                action: Action | None = state.game.action_from_dict(dict(data))
            except (EngineError, ValueError, TypeError, KeyError):
                action = None
            if action is None or action not in state.legal_actions():
                return self.loop.submit(dict(data), source="web")
            self._make(state, action, "made")
            return {"ok": True, "on_the_table": True}

    # -- what the hands do -------------------------------------------------------------------------------
    def _waiting_for_the_camera(self, key: str) -> bool:
        """Whether a move made on the table is still to be read (the game has not moved on from it)."""
        if self._making is None:
            return False
        before, _after, until = self._making
        if key == before and time.monotonic() < until:
            return True
        self._making = None
        return False

    @staticmethod
    def _ours_to_mend(pending: Any) -> bool:
        """A set-up to lay, a tapped move to make, an undo to follow: what people do at once."""
        return pending.kind == "setup" or (pending.kind == "objection" and
                                           pending.inference.rule in (TAP_RULE, UNDO_RULE))

    def _moved_off_the_table(self) -> bool:
        event = self.loop.game.last_event
        return self._shown is None or (event is not None and (event.kind == "undo" or
                                                             event.source in NOT_ON_THE_TABLE))

    def _lay(self, state: State, what: str) -> str:
        """The table as ``state`` has it (a set-up laid out, a tapped move made, an undo put back)."""
        key = state_key(state)
        if key == self._shown:  # the table shows it already
            return ""
        self.show(self.loop.game.model.scene(state))
        self._shown = key
        return self._did(what)

    def _make(self, state: State, action: Action, what: str) -> str:
        """``action`` made on the table: moved as a person moves it, or tapped where nothing shows."""
        after = self.loop.game.settled(state.apply(action))
        model = self.loop.game.model
        if model.looks_alike(state, after):  # a pass, a purchase: nothing to move, the page takes it
            self.loop.submit(action.to_dict(), source="web")
            self._shown = state_key(self.loop.current_state())
            return self._did(what)
        self.show(model.display_scene(state, action, after))
        self._shown = state_key(after)
        self._making = (state_key(state), self._shown, time.monotonic() + READ_WITHIN_S)
        return self._did(what)

    def _answer(self, state: State, pending: Any) -> str:
        """The camera asks which move the table shows: the one made is known (a card laid face up may be
        played several ways; the tap named one), so it is answered as the person who tapped would."""
        assert self._making is not None
        index = self.loop.game.option_reaching(state, pending.options, self._making[1])
        if index is None:
            return ""  # none is the move made: the people settle it on the page
        self._making = None
        self.loop.choose(index)
        return self._did("answered")

    def _did(self, what: str) -> str:
        self.done[what] = self.done.get(what, 0) + 1
        return what
