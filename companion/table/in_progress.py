"""The game in progress: the one object the loop drives. It keeps the store's record of the game being
played and judges what the camera sees against it (its referee, which nothing else reaches); the loop, the
page, the bots and the companion's seat ask it and tell it, never its parts.

Every change goes through :meth:`GameInProgress.commit`: each action is applied by the engine, written to the
store (committed, ``synchronous=FULL``) and only then taken as the game's state and announced, so whatever
the panel or the page shows is on disk. When the store cannot write (a full disk, an I/O error), the actions
not yet written are kept as :class:`~companion.table.keeping.Unsaved` and written again by
:meth:`GameInProgress.retry_unsaved` until the store takes them: nothing is dropped, nothing is shown before
it is saved, and nothing new is committed before them (so their order is kept). Questions and objections,
Confirm, Next, Undo, a submitted action and an answered question all change the game here; a new game's
set-up is :mod:`.setting_up`'s part of it. Not thread-safe on its own: the loop holds its lock.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from companion.config import Config
from companion.i18n import Said, said
from companion.infer import Accepted, Inference, TableModel, state_key
from companion.kits import find_kit
from companion.records import event_dict
from companion.setup_check import LaidSetup
from companion.store import Store, StoredEvent, StoreError, decode_action
from companion.store_open import folder_cause
from companion.table.frames import photo_jpeg
from companion.table.keeping import STORAGE_ERRORS, Announcer, Answer, Unsaved, storage_text
from companion.table.referee import WHICH_END, Pending, PendingKind, Referee, Ticket
from companion.table.setting_up import SettingUp
from companion.words import event_label
from engines.core import CHANCE, TERMINAL, Action, Correct, EngineError, Game, IllegalAction, State, get_game
from vision.observation import Observation

log = logging.getLogger(__name__)

#: how often a move waiting to be saved is tried again, seconds
RETRY_EVERY_S = 2.0


class StorageWaiting(Exception):
    """A change refused because earlier moves are still waiting to be saved."""

    def __init__(self, unsaved: Unsaved) -> None:
        super().__init__(f"the last move is not saved yet: {unsaved.error}; it is tried again every "
                         f"{RETRY_EVERY_S:.0f} s")
        self.unsaved = unsaved


class GameInProgress(SettingUp):
    def __init__(
        self,
        store: Store,
        model: TableModel,
        config: Config,
        announcer: Announcer,
        now: Callable[[], float],
        keep_photos: bool = True,
        resume: bool = True,
        real_table: bool = False,
    ) -> None:
        """``real_table``: the players shuffle and draw the cards (the kit's real-table options), rather
        than a simulated table the engine deals."""
        self.store = store
        self.real_table = real_table
        self.announcer = announcer
        self.now = now
        self.keep_photos = keep_photos
        #: what went wrong resuming the stored game, said for every reader
        self._resume_problems: list[Said] = []
        self.engine: Game = get_game(config.game)
        self.game_id = 0
        self.last_event: StoredEvent | None = None
        self.unsaved: Unsaved | None = None
        #: what the cards the game deals unseen are shuffled by (the config's seed, else nobody can tell)
        self._deal_salt = config.seed if config.seed is not None else random.SystemRandom().getrandbits(64)
        self.options: dict[str, Any] = {}
        self.placement: dict[str, Any] | None = None
        #: while a group lays its own set-up: the game as the table reads so far (shown, not started)
        self.preview: LaidSetup | None = None
        resumed = self._resume() if resume else None
        state = resumed or self._start(config)
        self._referee = Referee(self._laid_model(model), state)
        self._saved_accepted = self._referee.accepted
        if resumed is not None:
            self._restore_accepted()

    # -- what it holds ----------------------------------------------------------------------------------
    @property
    def problems(self) -> list[Said]:
        """What went wrong opening the store and resuming its game (why it cannot save now is
        :meth:`storage_status`)."""
        return self.store.problems + self._resume_problems

    @property
    def state(self) -> State:
        """The game's state now (as saved)."""
        return self._referee.state

    @property
    def model(self) -> TableModel:
        """How this game's table is read (its kit's model, where the players laid it)."""
        return self._referee.model

    @property
    def pending(self) -> Pending | None:
        """The question, objection or set-up checklist waiting on the table."""
        return self._referee.pending

    @property
    def last_observation(self) -> Observation | None:
        return self._referee.last_observation

    @property
    def accepted(self) -> Accepted:
        """How the table differed from the set-up when the game was started with it as it was."""
        return self._referee.accepted

    def seq(self) -> int:
        return self.last_event.seq if self.last_event is not None else 0

    # -- games ------------------------------------------------------------------------------------------
    def _resume(self) -> State | None:
        """The state of the stored game to carry on with (the latest, if it is of this game), or None."""
        game_id = self.store.latest_game_id()
        if game_id is None:
            return None
        try:
            record = self.store.game(game_id)
            if get_game(record.game).name != self.engine.name:
                return None
            result = self.store.replay(game_id)
        except (StoreError, KeyError) as error:
            log.error("could not resume game %s: %s; starting a new game (the old one stays stored)",
                      game_id, error)
            self._resume_problems.append(said(
                "Game %(game)d could not be resumed: its saved moves are damaged or no longer follow the "
                "rules. A new game starts; the old one stays in the history, where it can be exported.",
                game=game_id))
            return None
        self.game_id = game_id
        self.options = dict(record.options)
        laid = record.settings.get("laid")
        self.placement = dict(laid) if isinstance(laid, dict) else None
        events = self.store.events(game_id)
        self.last_event = events[-1] if events else None
        outcome = result.state.outcome()
        if outcome is not None and record.finished is None:
            with contextlib.suppress(*STORAGE_ERRORS):  # marked finished once the card takes it
                self.store.finish(game_id, outcome.to_dict())
        log.info("resumed game %s after %s events", game_id, len(events))
        return result.state

    def _start(self, config: Config) -> State:
        """A new game stored for ``config``: its initial state."""
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**31)
        # at a real table its options hold whatever the settings say (the engine cannot deal its cards)
        options = self.engine.resolve_options({**config.engine_options, **self._table_options(config)})
        state = self.engine.new_initial_state(config.players, rng=random.Random(seed), options=options)
        settings = {
            "game": config.game, "options": dict(config.options), "house_rules": dict(config.house_rules)
        }
        seats = [seat.to_dict() for seat in config.seats]
        self.game_id = self.store.new_game(self.engine, state, seats, options, seed, settings=settings)
        self.last_event = None
        self.options, self.placement, self.preview = dict(options), None, None
        return state

    def _table_options(self, config: Config) -> dict[str, Any]:
        """The kit's options for a real table; a synthetic one is dealt by the engine (its bots see all)."""
        kit = find_kit(self.engine.name)
        if kit is None or not self.real_table:
            return {}
        return kit.table_options([seat.name for seat in config.seats if seat.companion])

    def option_reaching(self, state: State, options: Sequence[Sequence[Action]], target: str) -> int | None:
        """Which of a question's ``options`` (lines of actions from ``state``) leads to the state whose
        key is ``target``, the game's own outcomes settled (None: none does)."""
        for index, line in enumerate(options):
            reached = state
            try:
                for step in line:
                    reached = reached.apply(step)
            except EngineError:
                continue
            if state_key(self.settled(reached)) == target:
                return index
        return None

    def settled(self, state: State) -> State:
        """``state`` with the outcomes the game makes itself applied: what a move leads to here."""
        while (unseen := self._unseen_outcome(state)) is not None:
            state = state.apply(unseen)
        return state

    def _unseen_outcome(self, state: State) -> Action | None:
        """The outcome the game makes itself, of a kind the table never shows: the only one allowed, or at a
        real table one dealt secretly (a card drawn into a hand of a seat whose cards the engine deals: the
        companion's), the same for the same state within a game, so that a move's consequence shown first
        is the one committed."""
        kit = find_kit(state.game.name)
        if kit is None or not kit.reading.unseen_chance or not state.is_chance_node():
            return None
        outcomes = state.chance_outcomes()
        if not outcomes or any(action.kind not in kit.reading.unseen_chance for action, _ in outcomes):
            return None
        if len(outcomes) == 1:
            return outcomes[0][0]
        if not self.real_table:  # a simulated table deals for itself (its bots see every card)
            return None
        dealer = random.Random(f"{self._deal_salt}:{state.fingerprint()!r}")
        dealt: Action = dealer.choices([action for action, _ in outcomes],
                                       weights=[weight for _, weight in outcomes])[0]
        return dealt

    def new_game(self, config: Config, model: TableModel) -> None:
        self.engine = get_game(config.game)
        self._referee.restart(self._start(config), model)

    # -- committing -------------------------------------------------------------------------------------
    def commit(
        self, actions: list[Action], source: str, observation: Observation | None = None, frame: Any = None
    ) -> list[StoredEvent]:
        """Apply and store each action (durably), then announce; IllegalAction stores nothing. The actions
        the store cannot write are kept (:attr:`unsaved`) and the events written so far returned."""
        if self.unsaved is not None:
            raise StorageWaiting(self.unsaved)
        events = self._write(actions, source, observation, None)
        if self.keep_photos and frame is not None:
            # the evidence photo is encoded after the signal: the table answers first (a few ms on a Pi)
            photo = photo_jpeg(frame)
            if self.unsaved is not None and self.unsaved.photo is None:
                self.unsaved.photo = photo
            if events and photo is not None:
                try:
                    self.store.attach_photo(self.game_id, [e.seq for e in events], photo)
                except STORAGE_ERRORS as error:  # evidence, not the game: the move is saved
                    log.warning("could not store the photo of event %s: %s", events[-1].seq, error)
        return events

    def _write(
        self, actions: list[Action], source: str, observation: Observation | None, photo: bytes | None
    ) -> list[StoredEvent]:
        events: list[StoredEvent] = []
        observation_data = observation.to_dict() if observation is not None else None
        queue = [(action, source) for action in actions]
        index = 0
        while index < len(queue):
            action, by = queue[index]
            before = self._referee.state
            after = before.apply(action)  # may raise IllegalAction: nothing stored, nothing changed
            player = before.current_player()
            correction = isinstance(action, Correct)
            rules = [] if correction else [rule.to_dict() for rule in before.rules_for(action)]
            try:
                event = self.store.append(
                    self.game_id,
                    "correct" if correction else "action",
                    action.to_dict(),
                    player=None if player in (CHANCE, TERMINAL) else player,
                    source=by,
                    observation=observation_data,
                    photo=photo,
                    rule=rules[0] if rules else None,
                    scores=after.shared_scores().to_dict(),  # as the table shows them
                    state_after=after,
                )
            except STORAGE_ERRORS as error:
                self._keep_unsaved([a for a, _ in queue[index:]], source, observation, photo, error)
                break
            # on disk: now the state may move on and be shown
            self._referee.advance(after)
            self.last_event = event
            events.append(event)
            index += 1
            unseen = self._unseen_outcome(after) if index == len(queue) else None
            if unseen is not None:  # a card drawn into a hand: nobody tells, the game notes it
                queue.append((unseen, "table"))
        outcome = self._referee.state.outcome()
        if outcome is not None and events:
            try:
                self.store.finish(self.game_id, outcome.to_dict())
            except STORAGE_ERRORS as error:  # the outcome is the replayed state's: set again on resume
                log.error("could not mark game %s finished: %s", self.game_id, error)
        if events:
            self._save_accepted()  # the pieces accepted off their places may have moved with it
            self.announcer.committed(events, self._referee.state)
        return events

    def storage_status(self) -> dict[str, Any]:
        """Whether every move is saved, and what waits when not (the page's storage card)."""
        unsaved, cause = self.unsaved, self.store.unwritable
        if unsaved is None:  # nothing waits, but the card may still refuse what comes next
            return {"ok": True} if cause is None else {"ok": False, "error": cause, "text": cause,
                                                       "cause": cause, "moves": 0}
        # the cause as the state folder shows it (a full or read-only card), in words the page translates
        cause = cause or folder_cause(self.store.state_dir, unsaved.error)
        return {"ok": False, **unsaved.to_dict(), "cause": cause,
                "text": f"{len(unsaved.actions)} move(s) not saved yet: {unsaved.error}. They are saved as "
                        "soon as the store can write again; nothing new is read meanwhile."}

    def _keep_unsaved(self, actions: list[Action], source: str, observation: Observation | None,
                      photo: bytes | None, error: BaseException) -> None:
        now = self.now()
        if self.unsaved is None:
            self.unsaved = Unsaved(list(actions), source, observation, photo, now, storage_text(error), now)
            log.error("could not save %s move(s): %s; trying again every %.0f s", len(actions),
                      storage_text(error), RETRY_EVERY_S)
        else:
            self.unsaved.actions = list(actions)
            self.unsaved.error = storage_text(error)
            self.unsaved.tried_at = now
            self.unsaved.tries += 1
        self.announcer.storage_changed(self.unsaved)

    def retry_unsaved(self, force: bool = False) -> bool:
        """Write the moves waiting to be saved (at most every few seconds unless ``force``); True once
        nothing is waiting."""
        unsaved = self.unsaved
        if unsaved is None:
            return True
        if not force and self.now() - unsaved.tried_at < RETRY_EVERY_S:
            return False
        self.unsaved = None
        self._write(unsaved.actions, unsaved.source, unsaved.observation, unsaved.photo)
        if self.unsaved is None:
            waited = self.now() - unsaved.since
            log.info("saved the %s move(s) that waited %.0f s", len(unsaved.actions), waited)
            self._referee.look_again()
            self.announcer.storage_changed(None)
            return True
        self.unsaved.since = unsaved.since
        self.unsaved.tries = unsaved.tries + 1
        return False

    # -- judging what the camera sees ------------------------------------------------------------------
    def ticket(self, observation: Observation) -> Ticket | None:
        """What ``observation`` is to be judged against (None: nothing new to judge); see
        :class:`~companion.table.game.Referee`."""
        return self._referee.ticket(observation)

    def still_current(self, ticket: Ticket) -> bool:
        """Whether the judgement of ``ticket`` still stands (the game did not move meanwhile)."""
        return self._referee.still_current(ticket)

    def look_again(self, tapped: bool = False) -> None:
        """Judge the next picture afresh (``tapped``: after a move made on the page)."""
        self._referee.look_again(tapped)

    def apply_seen(self, actions: list[Action], observation: Observation, frame: Any = None) -> bool:
        """The moves the camera saw: whatever was pending is answered by them; True once saved."""
        self._referee.clear()
        return bool(self.commit(actions, source="camera", observation=observation, frame=frame))

    # -- what is pending --------------------------------------------------------------------------------
    def ask(self, kind: PendingKind, inference: Inference, choices: Sequence[str | Said]) -> None:
        """A question whose answers are not moves (which game is on the table after a restart)."""
        self._referee.hold(kind, inference, self.now(), choices)

    def hold(self, kind: PendingKind, result: Inference, observation: Observation | None = None) -> Pending:
        """A question or objection pending on the table, kept in the store as a notice."""
        pending = self._referee.hold(kind, result, self.now())
        details = result.to_dict()
        if observation is not None:
            details["observation"] = observation.to_dict()
        self._notice(kind, result.text, details)
        self.announcer.pending_changed(pending, "")
        return pending

    def clear_pending(self, reason: str) -> None:
        self._referee.clear()
        self.announcer.pending_changed(None, reason)

    def _notice(self, kind: str, text: str, details: dict[str, Any]) -> None:
        with contextlib.suppress(StoreError):  # a notice is a record of a question, not the game
            self.store.add_notice(self.game_id, self.seq(), kind, text, details)

    # -- decisions --------------------------------------------------------------------------------------
    def confirm(self, frame: Any = None) -> Answer:
        """Confirm: a question's first option, or an objection accepted as it is (that table picture is
        ignored; the game stays as it was)."""
        pending = self._referee.pending
        if pending is None:
            return {"ok": False, "error": "nothing to confirm"}
        if pending.kind == "question":
            return self.choose(0, frame)
        if pending.kind == "setup":
            return self._start_as_it_is(pending)
        self._referee.put_aside()
        self._notice("accepted", "objection overridden with Confirm", pending.inference.to_dict())
        self.clear_pending("confirmed as it is")
        return {"ok": True, "accepted": True}

    def next_move(self) -> Answer:
        """End the turn / pass: the one legal action that changes nothing the camera sees (a question when
        several could be meant)."""
        state = self._referee.state
        if state.is_terminal() or state.is_chance_node():
            return {"ok": False, "error": "nothing to end now"}
        ends = self._referee.invisible_endings()
        if len(ends) == 1:
            events = self.commit(ends, source="button")
            if not events:
                return self._not_saved()
            return {"ok": True, "event": event_dict(events[-1], self.engine.name)}
        if not ends:
            return {"ok": False, "error": "no end-turn or pass action is legal now"}
        inference = Inference.asking("question", WHICH_END, options=[[a] for a in ends])
        pending = self._referee.hold("question", inference, self.now())
        self.announcer.pending_changed(pending, "")
        return {"ok": True, "question": pending.to_dict()}

    def _not_saved(self) -> Answer:
        error = self.unsaved.error if self.unsaved is not None else "the store refused it"
        return {"ok": False, "error": f"not saved yet: {error}; it is tried again every "
                                      f"{RETRY_EVERY_S:.0f} s", "rule": None, "storage": True}

    def undo(self) -> Answer:
        if self.unsaved is not None:
            return {"ok": False, "error": str(StorageWaiting(self.unsaved)), "storage": True}
        if self.last_event is None:
            return {"ok": False, "error": "nothing to undo"}
        line = self.store.replay(self.game_id).line
        if not line:
            return {"ok": False, "error": "nothing to undo"}
        try:
            # Undo takes back what a player did: with a move go the cards the game drew unseen after
            # it, and every move the camera read from the same change of the table (a chisel and the
            # split it started)
            for position in range(len(line) - 1, -1, -1):
                taken = line[position]
                # the undo keeps the action it takes back, to say what (replay reads only ``undoes``)
                event = self.store.append(self.game_id, "undo", taken.action, undoes=taken.seq,
                                          source="button")
                if taken.source != "table" and not self._same_reading(taken, line[position - 1] if position
                                                                      else None):
                    break
        except STORAGE_ERRORS as error:
            return {"ok": False, "error": f"could not save the undo: {storage_text(error)}", "storage": True}
        state = self.store.replay(self.game_id).state
        if not state.is_terminal():
            self.store.reopen(self.game_id)
        self.last_event = event
        shared = event_dict(event, self.engine.name)
        # said in the diagram's words (the shared view names cells as the page numbers them)
        words = event_label(shared, {"game": self.engine.name, "view": state.view(None)})
        put_back = self._referee.taken_back(state, words.removeprefix("took back "))
        self.announcer.undone(event)
        if put_back is not None:  # the table still shows the move: say what to put back
            self.hold("objection", put_back, self._referee.last_observation)
        return {"ok": True, "event": shared}

    def _same_reading(self, taken: StoredEvent, earlier: StoredEvent | None) -> bool:
        """Whether two moves were committed from one reading of the table (one change of it)."""
        if earlier is None or earlier.source != taken.source or taken.source != "camera":
            return False
        seen = self.store.observation(self.game_id, taken.seq)
        return seen is not None and seen == self.store.observation(self.game_id, earlier.seq)

    def submit(self, action: dict[str, Any], source: str) -> tuple[Answer, bool]:
        """Apply an action given as a dict; also says whether a pending question or objection was
        dropped (the caller then reads the table again against the new state)."""
        try:
            events = self.commit([decode_action(self.engine, action)], source=source)
        except IllegalAction as refusal:
            return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}, False
        except EngineError as error:
            return {"ok": False, "error": str(error), "rule": None}, False
        except StorageWaiting as waiting:
            return {"ok": False, "error": str(waiting), "rule": None, "storage": True}, False
        if not events:  # kept as unsaved: it is written once the store takes it
            return self._not_saved(), False
        dropped = self._referee.pending is not None
        if dropped:
            self._referee.clear()
            self._referee.look_again()
        return {"ok": True, "event": event_dict(events[-1], self.engine.name)}, dropped

    def choose(self, option_index: int, frame: Any = None) -> Answer:
        pending = self._referee.pending
        if pending is None or pending.kind == "resume" or not pending.options:
            return {"ok": False, "error": "no question or objection with options is pending"}
        options = pending.options
        if not isinstance(option_index, int) or not 0 <= option_index < len(options):
            return {"ok": False, "error": f"option must be 0..{len(options) - 1}"}
        try:
            events = self.commit(
                list(options[option_index]), "choice", self._referee.last_observation, frame
            )
        except IllegalAction as refusal:
            return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}
        except StorageWaiting as waiting:
            return {"ok": False, "error": str(waiting), "rule": None, "storage": True}
        self._referee.clear()
        if not events:
            return self._not_saved()
        return {"ok": True, "event": event_dict(events[-1], self.engine.name)}
