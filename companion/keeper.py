"""The game as it is kept: the store's record of the game being played and the referee holding its state.

Every change goes through :meth:`GameKeeper.commit`: each action is applied by the engine, written to the
store (committed, ``synchronous=FULL``) and only then given to the referee and announced, so whatever the
panel or the page shows is on disk. Questions and objections, Confirm, Next, Undo, a submitted action and
an answered question all change the game here. Not thread-safe on its own: the loop holds its lock.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable
from typing import Any, Protocol

from companion.config import Config
from companion.frames import photo_jpeg
from companion.infer import Inference, TableModel
from companion.records import event_dict
from companion.referee import Pending, PendingKind, Referee
from companion.store import Store, StoredEvent, StoreError, decode_action
from engines.core import CHANCE, TERMINAL, Action, Correct, EngineError, Game, IllegalAction, State, get_game
from vision.observation import Observation

log = logging.getLogger(__name__)
Answer = dict[str, Any]


class Announcer(Protocol):
    """Who hears of what the keeper did (the loop: it signals on the panel and tells the page)."""

    def committed(self, events: list[StoredEvent], state: State) -> None: ...

    def pending_changed(self, pending: Pending | None, reason: str) -> None: ...

    def undone(self, event: StoredEvent) -> None: ...


class GameKeeper:
    def __init__(
        self,
        store: Store,
        model: TableModel,
        config: Config,
        announcer: Announcer,
        now: Callable[[], float],
        keep_photos: bool = True,
        resume: bool = True,
    ) -> None:
        self.store = store
        self.announcer = announcer
        self.now = now
        self.keep_photos = keep_photos
        self.problems: list[str] = list(store.problems)
        self.game: Game = get_game(config.game)
        self.game_id = 0
        self.last_event: StoredEvent | None = None
        state = (self._resume() if resume else None) or self._start(config)
        self.referee = Referee(model, state)

    @property
    def state(self) -> State:
        return self.referee.state

    def seq(self) -> int:
        return self.last_event.seq if self.last_event is not None else 0

    # -- games ------------------------------------------------------------------------------------------
    def _resume(self) -> State | None:
        """The state of the stored game to carry on with (the latest, if it is of this game), or None."""
        game_id = self.store.latest_game_id()
        if game_id is None:
            return None
        record = self.store.game(game_id)
        if get_game(record.game).name != self.game.name:
            return None
        try:
            result = self.store.replay(game_id)
        except StoreError as error:
            message = (
                f"could not resume game {game_id}: {error}; starting a new game (the old one stays stored)"
            )
            log.error(message)
            self.problems.append(message)
            return None
        self.problems += [p for p in self.store.problems if p not in self.problems]
        self.game_id = game_id
        events = self.store.events(game_id)
        self.last_event = events[-1] if events else None
        outcome = result.state.outcome()
        if outcome is not None and record.finished is None:
            self.store.finish(game_id, outcome.to_dict())
        log.info("resumed game %s after %s events", game_id, len(events))
        return result.state

    def _start(self, config: Config) -> State:
        """A new game stored for ``config``: its initial state."""
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**31)
        options = self.game.resolve_options(config.engine_options)
        state = self.game.new_initial_state(config.players, rng=random.Random(seed), options=options)
        settings = {
            "game": config.game, "options": dict(config.options), "house_rules": dict(config.house_rules)
        }
        seats = [seat.to_dict() for seat in config.seats]
        self.game_id = self.store.new_game(self.game, state, seats, options, seed, settings=settings)
        self.last_event = None
        return state

    def new_game(self, config: Config, model: TableModel) -> None:
        self.game = get_game(config.game)
        self.referee.restart(self._start(config), model)

    # -- committing -------------------------------------------------------------------------------------
    def commit(
        self, actions: list[Action], source: str, observation: Observation | None = None, frame: Any = None
    ) -> list[StoredEvent]:
        """Apply and store each action (durably), then announce; IllegalAction stores nothing."""
        events: list[StoredEvent] = []
        photo = photo_jpeg(frame) if self.keep_photos else None
        observation_data = observation.to_dict() if observation is not None else None
        for action in actions:
            before = self.referee.state
            after = before.apply(action)  # may raise IllegalAction: nothing stored, nothing changed
            player = before.current_player()
            correction = isinstance(action, Correct)
            rules = [] if correction else [rule.to_dict() for rule in before.rules_for(action)]
            event = self.store.append(
                self.game_id,
                "correct" if correction else "action",
                action.to_dict(),
                player=None if player in (CHANCE, TERMINAL) else player,
                source=source,
                observation=observation_data,
                photo=photo,
                rule=rules[0] if rules else None,
                scores=after.scores().to_dict(),
                state_after=after,
            )
            # on disk: now the state may move on and be shown
            self.referee.advance(after)
            self.last_event = event
            events.append(event)
        outcome = self.referee.state.outcome()
        if outcome is not None:
            self.store.finish(self.game_id, outcome.to_dict())
        self.announcer.committed(events, self.referee.state)
        return events

    # -- what is pending --------------------------------------------------------------------------------
    def hold(self, kind: PendingKind, result: Inference, observation: Observation | None = None) -> Pending:
        """A question or objection pending on the table, kept in the store as a notice."""
        pending = self.referee.hold(kind, result, self.now())
        details = result.to_dict()
        if observation is not None:
            details["observation"] = observation.to_dict()
        self._notice(kind, result.text, details)
        self.announcer.pending_changed(pending, "")
        return pending

    def clear_pending(self, reason: str) -> None:
        self.referee.pending = None
        self.announcer.pending_changed(None, reason)

    def _notice(self, kind: str, text: str, details: dict[str, Any]) -> None:
        with contextlib.suppress(StoreError):  # a notice is a record of a question, not the game
            self.store.add_notice(self.game_id, self.seq(), kind, text, details)

    # -- decisions --------------------------------------------------------------------------------------
    def confirm(self, frame: Any = None) -> Answer:
        """Confirm: a question's first option, or an objection accepted as it is (that table picture is
        ignored; the game stays as it was)."""
        pending = self.referee.pending
        if pending is None:
            return {"ok": False, "error": "nothing to confirm"}
        if pending.kind == "question":
            return self.choose(0, frame)
        self.referee.put_aside()
        self._notice("accepted", "objection overridden with Confirm", pending.inference.to_dict())
        self.clear_pending("confirmed as it is")
        return {"ok": True, "accepted": True}

    def next_move(self) -> Answer:
        """End the turn / pass: the one legal action that changes nothing the camera sees (a question when
        several could be meant)."""
        state = self.referee.state
        if state.is_terminal() or state.is_chance_node():
            return {"ok": False, "error": "nothing to end now"}
        ends = self.referee.invisible_endings()
        if len(ends) == 1:
            events = self.commit(ends, source="button")
            return {"ok": True, "event": event_dict(events[-1])}
        if not ends:
            return {"ok": False, "error": "no end-turn or pass action is legal now"}
        inference = Inference("question", options=[[a] for a in ends], text="Which of these did you mean?")
        pending = self.referee.hold("question", inference, self.now())
        self.announcer.pending_changed(pending, "")
        return {"ok": True, "question": pending.to_dict()}

    def undo(self) -> Answer:
        if self.last_event is None:
            return {"ok": False, "error": "nothing to undo"}
        line = self.store.replay(self.game_id).line
        if not line:
            return {"ok": False, "error": "nothing to undo"}
        event = self.store.append(self.game_id, "undo", None, undoes=line[-1].seq, source="button")
        state = self.store.replay(self.game_id).state
        if not state.is_terminal():
            self.store.reopen(self.game_id)
        self.last_event = event
        self.referee.taken_back(state)
        self.announcer.undone(event)
        return {"ok": True, "event": event_dict(event)}

    def submit(self, action: dict[str, Any], source: str) -> tuple[Answer, bool]:
        """Apply an action given as a dict; also says whether a pending question or objection was
        dropped (the caller then reads the table again against the new state)."""
        try:
            events = self.commit([decode_action(self.game, action)], source=source)
        except IllegalAction as refusal:
            return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}, False
        except EngineError as error:
            return {"ok": False, "error": str(error), "rule": None}, False
        dropped = self.referee.pending is not None
        if dropped:
            self.referee.pending = None
            self.referee.look_again()
        return {"ok": True, "event": event_dict(events[-1])}, dropped

    def choose(self, option_index: int, frame: Any = None) -> Answer:
        pending = self.referee.pending
        if pending is None or pending.kind != "question":
            return {"ok": False, "error": "no question is pending"}
        options = pending.options
        if not isinstance(option_index, int) or not 0 <= option_index < len(options):
            return {"ok": False, "error": f"option must be 0..{len(options) - 1}"}
        self.referee.pending = None
        try:
            events = self.commit(
                list(options[option_index]), "choice", self.referee.last_observation, frame
            )
        except IllegalAction as refusal:
            return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}
        return {"ok": True, "event": event_dict(events[-1])}
