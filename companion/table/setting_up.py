"""A new game's table being set up, as part of the game in progress: the checklist that follows what the
camera sees, a set-up the group laid itself read and started from (kept in the store first), the table
accepted as it is by Confirm, and what was accepted then kept across a restart."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.infer import Accepted, Inference, TableModel
from companion.kits import find_kit
from companion.kits.kit import ReadsSetup
from companion.setup_check import (
    LaidSetup,
    SetupCheck,
    check_setup,
    read_laid_setup,
    reads_setups,
    reveals_seen,
)
from companion.shared_view import privacy_for
from companion.store import Store, StoredEvent, StoreError
from companion.table.keeping import STORAGE_ERRORS, Announcer, Answer, Unsaved
from companion.table.referee import Pending, Referee
from engines.core import Action, Game
from vision.observation import Observation

log = logging.getLogger(__name__)

#: the notice that records what a game started as the table was accepted with (read back on resume)
ACCEPTED_NOTICE = "table-accepted"


class SettingUp:
    """The set-up part of :class:`~companion.table.in_progress.GameInProgress`, whose attributes these
    are."""

    store: Store
    engine: Game
    game_id: int
    announcer: Announcer
    now: Callable[[], float]
    options: dict[str, Any]
    placement: dict[str, Any] | None
    preview: LaidSetup | None
    unsaved: Unsaved | None
    _referee: Referee
    _saved_accepted: Accepted

    def commit(self, actions: list[Action], source: str, observation: Observation | None = None,
               frame: Any = None) -> list[StoredEvent]:
        raise NotImplementedError

    def clear_pending(self, reason: str) -> None:
        raise NotImplementedError

    def _notice(self, kind: str, text: str, details: dict[str, Any]) -> None:
        raise NotImplementedError

    def _laid_model(self, model: TableModel) -> TableModel:
        """``model`` with the play area where the players laid this game's set-up (as it is otherwise)."""
        kit = find_kit(self.engine.name)
        if self.placement is None or not isinstance(kit, ReadsSetup):
            return model
        return kit.model(model.players_by_colour, kit.laid_layout(model.layout, self.placement))

    def start_setup(self) -> Pending:
        """A new game: the table is to be set up first. Until the camera sees the setup (or Confirm
        accepts the table as it is) nothing is judged as a move and nothing is objected to."""
        text = (f"Set up the table for {self.engine.title}: the checklist follows what the camera sees. "
                "Confirm starts the game with the table as it is.")
        pending = self._referee.hold("setup", Inference("question", text=text), self.now())
        self.announcer.pending_changed(pending, "")
        return pending

    def look_at_setup(self, observation: Observation, frame: Any = None) -> None:
        """A picture of a table being set up: a set-up the players laid that the rules allow starts the
        game as laid; else the cards turned face up on it are read, then the checklist follows what is
        left to do."""
        self._referee.last_observation = observation
        if reads_setups(self.engine.name) and self.placement is None:  # what is laid is not read yet
            laid = read_laid_setup(self._referee.state, observation, self._referee.model, self.options,
                                   strictness=(True, False))
            if isinstance(laid, LaidSetup) and laid.strict:
                self.lay_out(laid, observation)
                return
            # a set-up of the group's own so far: the diagram shows it while the checklist says what it lacks
            if isinstance(laid, LaidSetup):
                self.preview = laid
                self.setup_seen(laid.lacking)
                return
            # else the companion's own deal, where the group lays that (what is read first may be covered)
            self.preview, dealt = None, check_setup(self._referee.state, observation, self._referee.model)
            self.setup_seen(dealt if dealt.done or (dealt.in_place and not laid.in_place) else laid)
            return
        open_chance = privacy_for(self.engine.name).open_chance
        reveals = reveals_seen(self._referee.state, observation, self._referee.model, open_chance)
        if reveals and self.unsaved is None:
            self.commit(reveals, "camera", observation, frame)
        self.setup_seen(check_setup(self._referee.state, observation, self._referee.model))

    def setup_seen(self, check: SetupCheck) -> None:
        """What the camera sees of a table being set up: the checklist, or the game starts."""
        pending = self._referee.pending
        if pending is None or pending.kind != "setup":
            return
        if check.done:
            self._notice("setup", check.text(self.engine.title), check.to_dict())
            self.clear_pending("the table is set up")
            return
        checklist = check.to_dict()
        if self.preview is not None:  # the page's picture of the set-up changes with what is laid
            checklist["preview"] = self.preview.digest
        if checklist == pending.checklist:
            return
        pending.inference = Inference("question", text=check.text(self.engine.title),
                                      differences=list(check.differences))
        pending.checklist = checklist
        self.announcer.pending_changed(pending, "")

    def lay_out(self, laid: LaidSetup, observation: Observation | None = None) -> bool:
        """Start the game as the players laid it (kept in the store before it is shown); False when the
        store cannot take it (the checklist stays, and says why). With the ``observation`` it was read
        from: the checklist goes on while the rest of the set-up (what follows from what was laid) is not
        on the table yet."""
        try:
            self.store.lay_out(self.game_id, laid.state, self.options, laid.placement)
        except (StoreError, *STORAGE_ERRORS) as error:
            log.error("game %s: the set-up as laid cannot be kept: %s", self.game_id, error)
            return False
        self.placement, self.preview = dict(laid.placement), None
        model = self._referee.model
        moved = self._laid_model(model)  # a fresh model: none of the printed ids it kept for the deal
        self._referee.restart(laid.state, moved)
        text = ("the game starts as laid on the table" if laid.strict else
                "the game starts as laid on the table, a set-up of the group's own")
        self._notice("setup", text, {"placement": self.placement, "strict": laid.strict})
        if moved.layout != model.layout:
            self.announcer.laid_out(laid.state)
        rest = None if observation is None else check_setup(laid.state, observation, moved)
        if rest is not None and not rest.done:
            self.start_setup()
            self.setup_seen(rest)
            return True
        self.announcer.pending_changed(None, text)
        return True

    def _restore_accepted(self) -> None:
        """A game started as the table was keeps what was accepted then across a restart (the last
        record of it: it shrinks as the pieces concerned move)."""
        records = [n for n in self.store.notices(self.game_id) if n["kind"] == ACCEPTED_NOTICE]
        if not records:
            return
        try:
            self._referee.accepted = Accepted.from_dict(records[-1]["detail"])
        except (ValueError, KeyError, TypeError) as error:
            log.error("game %s: the table accepted as it was cannot be read back: %s", self.game_id, error)
        self._saved_accepted = self._referee.accepted

    def _save_accepted(self) -> None:
        if self._referee.accepted is not self._saved_accepted:  # a new record whenever it changed
            self._saved_accepted = self._referee.accepted
            self._notice(ACCEPTED_NOTICE, "what the table was accepted with at its start",
                         self._referee.accepted.to_dict())

    def _start_as_it_is(self, pending: Pending) -> Answer:
        """Confirm on a table being set up: the game starts with the table as it is (as the players laid
        it, where the game reads a set-up the group lays)."""
        if reads_setups(self.engine.name):
            return self._lay_out_as_it_is()
        self._referee.accept_as_it_is()
        self._notice("setup", "the game starts with the table as it is", pending.checklist or {})
        self._save_accepted()
        self.clear_pending("the game starts with the table as it is")
        return {"ok": True, "accepted": True}

    def _lay_out_as_it_is(self) -> Answer:
        """Confirm on a table the players lay themselves: the game rebuilt from the table, the rulebook's
        set-up or else any the rules can start from (the group's own; a place not laid yet is nobody's
        move until its tile is laid); refused, saying why, where the table is no game yet."""
        observation = self._referee.last_observation
        if observation is None:
            return {"ok": False, "error": "the camera has not seen the table yet"}
        laid = read_laid_setup(self._referee.state, observation, self._referee.model, self.options,
                               strictness=(True, False))
        if isinstance(laid, SetupCheck):
            return {"ok": False, "error": "the table is not a set-up a game can start from yet: "
                                          + "; ".join(map(str, laid.steps or ("nothing is laid out",)))}
        if not self.lay_out(laid):
            return {"ok": False, "error": "the set-up as laid cannot be saved: see the storage card"}
        if not laid.strict:
            self._referee.accept_as_it_is()
            self._save_accepted()
        return {"ok": True, "laid": True}

