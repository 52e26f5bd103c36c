"""The companion loop: FrameSource -> vision -> inference -> engine -> store -> panel signals + web events.

:class:`TableLoop` implements :class:`.session.TableSession`: it runs the camera thread and the frame-age
watchdog, keeps the camera's health, commits moves to the store and publishes what happened. The parts it
wires together live beside it in :mod:`companion.table`: the pipeline (:mod:`.pipeline`), the game in
progress that keeps the game and judges what the camera sees (:mod:`.in_progress`), the panel's signals
(:mod:`.panel_view`), the pictures (:mod:`.frames`); the stored games as the page asks for them are
:mod:`companion.records`.

The engine state changes only through the game in progress (:attr:`TableLoop.game`), which writes each action
to the store (committed, ``synchronous=FULL``) *before* the panel shows its signal or the web page hears of
it. Each *stable* observation whose picture differs from the last one judged is explained by inference:

- one explanation: the actions are committed, the status LED flashes green;
- several, or a low-confidence reading: a question (amber) answered by Confirm (first option) or the web;
- none: an objection (red blink + beep) until the table is put right (the camera sees the state's table
  again), a legal move explains it, or Confirm accepts the table as it is (the change is then ignored and
  logged as a notice; a real correction goes through :meth:`submit` as a ``correct`` action).

What the camera cannot see (purchases, a split part chosen, cards) comes in through :meth:`submit`,
:meth:`press` and :meth:`choose`. The camera is lost when the newest frame is older than
``camera.max_age_s`` (frame age, not return codes); the panel then shows its own pattern until frames
return. A frame the pipeline cannot process (a decoder that raises) is counted and skipped. A camera that
was bumped is shown in ``snapshot()["camera"]`` and recalibrated once its markers are still again (or
when Mode is pressed while it is reported moved).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from companion.config import Config, ConfigError, config_from_settings
from companion.i18n import Said
from companion.infer import Inference, SharesSplits, TableModel, split_shares
from companion.records import GameRecords, event_dict
from companion.shared_view import shared_action, shared_legal_actions
from companion.store import Store, StoredEvent
from companion.table import companion_seat, frames
from companion.table.in_progress import GameInProgress
from companion.table.keeping import Unsaved
from companion.table.models import model_for_table
from companion.table.panel_view import CameraSignal, panel_signals
from companion.table.pipeline import Pipeline, PlayArea
from companion.table.publish import Link, Publisher
from companion.table.referee import Pending, PendingKind
from companion.table.resume import plan as resume_plan
from companion.table.runner import (
    CameraHealth,
    FrameRunner,
    FrameSource,
    collect_if_due,
    pipeline_status,
    source_fault,
    table_faults,
)
from engines.core import CHANCE, TERMINAL, State
from engines.core.search import Decision
from hw.panel import Panel, open_panel
from hw.signals import BUTTONS, PanelSignals
from hw.speech import Speaker, open_speaker
from vision.observation import Observation

log = logging.getLogger(__name__)

#: the frame thread must go round its loop at least this often (s) for the watchdog to be fed
LIVENESS_S = 5.0


class TableLoop:
    """A live game at the table (see the module docstring). Thread-safe."""

    def __init__(
        self,
        config: Config,
        *,
        store: Store | None = None,
        panel: Panel | None = None,
        source: FrameSource | None = None,
        pipeline: Pipeline | None = None,
        model_factory: Callable[[Config], TableModel] | None = None,
        clock: Callable[[], float] = time.monotonic,
        keep_photos: bool = True,
        resume: bool = True,
        on_commit: Callable[[StoredEvent], None] | None = None,
        real_table: bool = False,
        speaker: Speaker | None = None,
    ) -> None:
        self._lock = threading.RLock()
        store = store if store is not None else Store(config.state_dir)
        # a stored game that is not the config's carries on with its own game and seats, and is asked about
        config, self._mismatch = resume_plan(store, config) if resume else (config, None)
        self.config = config
        self.clock = clock
        self._started_at = clock()
        self._model_factory = model_factory or self._model_for_the_table
        self.panel = panel if panel is not None else open_panel(config.pins, [s.colour for s in config.seats])
        self.panel.set_on_button(self._on_button)
        self.source = source
        self.pipeline = pipeline
        self.on_commit = on_commit
        self._area_problem: str | None = None
        #: what reports the table elsewhere (a café broker): told of every change, asked for its status
        self.links: list[Link] = []
        self.camera = CameraHealth()
        self._last_frame: Any = None
        self._jpeg = frames.SharedJpeg()
        self._legal_flash_at: float | None = None
        self._mode = "turn"
        self._last_button_result: dict[str, Any] = {}
        self._stopped = threading.Event()
        self._publisher = Publisher(self._stopped)
        self._runner: FrameRunner | None = None
        self.latencies: list[float] = []
        #: per committed camera move: vision time of the deciding frame, stable observation -> LED signal
        self.timings: list[dict[str, float]] = []
        self._vision_s = 0.0
        self._signalled = (0.0, 0.0)
        self.speaker = speaker if speaker is not None else open_speaker(config.speak)
        self.companion = companion_seat.for_table(config, real_table, self._companion_decided, self.speaker)
        self.game = GameInProgress(
            store, self._model_factory(config), config, self, self.panel.now, keep_photos, resume, real_table
        )
        if self._mismatch is not None:
            mismatch = self._mismatch
            log.warning("%s", mismatch.text)
            self.game.ask("resume", Inference.asking("question", mismatch.question), mismatch.choices())
        elif self.game.last_event is None:  # a game not begun: whatever lies there, a checklist first
            self.game.start_setup()
        self.records = GameRecords(store, self.game.game_id, config.mqtt.table_name)
        self._attach_pipeline()
        self._show()

    def _model_for_the_table(self, config: Config) -> TableModel:
        calibration = self.pipeline.calibration if self.pipeline is not None else None
        model, self._area_problem = model_for_table(config, calibration)
        return model

    # -- the game in progress ---------------------------------------------------------------------------
    @property
    def problems(self) -> list[Said]:
        """What the table should be told is wrong beyond this move (the store, the table's area)."""
        return self.game.problems + ([Said(self._area_problem)] if self._area_problem else [])

    def current_state(self) -> State:
        with self._lock:
            return self.game.state

    def _attach_pipeline(self) -> None:
        if self.pipeline is not None:
            self.pipeline.attach(PlayArea.of(self.config, self.game.model, self.current_state()))

    def new_game(self, settings: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            try:
                config = config_from_settings(settings, self.config)
            except ConfigError as error:
                return {"ok": False, "error": str(error)}
            self.config = config
            self.companion = companion_seat.for_table(config, self.game.real_table, self._companion_decided,
                                                      self.speaker)
            self.panel.set_seat_colours([s.colour for s in config.seats])
            self.game.new_game(config, self._model_factory(config))
            self.game.start_setup()  # the last game's pieces may still lie there: a checklist, no blame
            self.records.current = self.game.game_id
            self._attach_pipeline()
            self._show()
            self._publish({"type": "new_game", "game_id": self.game.game_id})
            return {"ok": True, "game_id": self.game.game_id}

    # -- frames -----------------------------------------------------------------------------------------
    def process_read(self, read: Any) -> Inference | None:
        """Whatever a frame source's ``read()`` returned: ``(frame, index, timestamp)``, a
        :class:`vision.sources.Frame`, or None (no fresh frame: nothing to do, frame age grows)."""
        if read is None:
            return None
        if hasattr(read, "image"):
            if read.image is None:
                return None
            return self.process_frame(read.image, read.index, read.timestamp, getattr(read, "lores", None))
        frame, index, timestamp = read
        if frame is None:
            return None
        return self.process_frame(frame, index, timestamp)

    def process_frame(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Inference | None:
        """One frame through the pipeline and, when it gives a stable changed observation, inference.
        ``lores``: the camera's low-resolution grey image of the same instant, for change detection."""
        now = self.clock()
        with self._lock:
            was_lost = self.camera.lost
            self.camera.seen(now)
            self._last_frame = frame
            if was_lost:
                self.camera.lost = False
                self._publish({"type": "camera", "ok": True})
                self._show()
        if self.pipeline is None:
            return None
        frame_started = time.perf_counter()
        try:
            observation = self.pipeline.process(frame, index, timestamp, lores=lores)
        except Exception as error:  # a crashing decoder costs this frame, never the game
            with self._lock:
                self.camera.failed(error)
            log.warning("frame %s skipped: %s", index, error)
            return None
        if observation is None:
            return None
        self.camera.covered(observation.held, now)  # the tracker holds the table: something is over it
        self._vision_s = time.perf_counter() - frame_started
        return self.handle_observation(observation, frame, started=now)

    def handle_observation(
        self, observation: Observation, frame: Any = None, started: float | None = None
    ) -> Inference | None:
        """Explain a stable observation and act on it (commit, ask or object)."""
        if not observation.stable or observation.held:
            return None
        started = self.clock() if started is None else started
        ready, ready_cpu = time.perf_counter(), time.thread_time()
        with self._lock:
            if not self.game.retry_unsaved():
                return None  # a move waits to be saved: nothing new is judged before it
            pending = self.game.pending
            if pending is not None and pending.kind == "resume":
                return None  # which game is on the table is asked first
            if pending is not None and pending.kind == "setup":  # no search: the checklist, cards turned up
                self.game.look_at_setup(observation, frame)
                return None
            ticket = self.game.ticket(observation)
        if ticket is None:
            return None
        result = ticket.think()  # no lock held: the page, the panel and the watchdog never wait for it
        with self._lock:
            if not self.game.still_current(ticket):
                return None
            if result.kind == "unchanged":
                if self.game.pending is not None:
                    self.game.clear_pending("the table matches the game again")
                return result
            objected = companion_seat.objection(self, result.actions) if result.kind == "apply" else None
            if result.kind != "apply" or objected is not None:  # another move than the companion's is one
                result = objected or result
                kind: PendingKind = "question" if result.kind == "question" else "objection"
                self.game.hold(kind, result, observation)
                return result
            if self.game.apply_seen(result.actions, observation, frame):
                self._timed(result, started, ready, ready_cpu)
        collect_if_due()  # the move is signalled and the lock is free: the table waits for nothing now
        return result

    def _timed(self, result: Inference, started: float, ready: float, ready_cpu: float) -> None:
        signalled, signalled_cpu = self._signalled  # when the panel showed it (the photo comes after)
        self.latencies.append(self.clock() - started)
        self.timings.append(
            {
                "vision_s": self._vision_s,
                "stable_to_signal_s": signalled - ready,
                "stable_to_signal_cpu_s": signalled_cpu - ready_cpu,
                "frame_to_signal_s": signalled - ready + self._vision_s,
                "actions": len(result.actions),
                "explored": result.explored,
            }
        )
        self._vision_s = 0.0

    def check_camera(self) -> bool:
        """Camera health by frame age; returns True while frames are fresh."""
        now = self.clock()
        with self._lock:
            self.game.retry_unsaved()  # every few seconds while a move waits to be saved
            last = self.camera.last_frame_at
            stale = last is None or now - last > self.config.camera.max_age_s
            # a camera that never opened is lost too once it says why (its fault is on the page)
            never = last is None and source_fault(self.source) is not None
            if stale and not self.camera.lost and (last is not None or never):
                self.camera.lost = True
                self.camera.lost_since = self.panel.now()
                if last is not None:
                    log.warning("camera lost: last frame %.2f s ago", now - last)
                self._publish({"type": "camera", "ok": False, "age_s": None if last is None else now - last})
                self._show()
            if self.camera.covered_changed(now):  # the page says so once it lasts, and again when it is gone
                self._publish({"type": "camera", "covered": self.camera.covered_shown})
            return not stale

    def healthy(self, within_s: float = LIVENESS_S) -> bool:
        """What the systemd watchdog follows: the frame thread goes round (a loop stuck in a decoder, a
        search or a lock stops the pings, and systemd restarts it) and frames are fresh, or the camera
        says why it gives none. A camera that does not open (unplugged, its library missing) is retried
        in place while the page goes on showing why: a restart would only take the page away."""
        fresh = self.check_camera()
        runner = self._runner
        said_why = source_fault(self.source) is not None
        return (fresh or said_why) and (runner is None or runner.alive(within_s))

    # -- what the game announces --------------------------------------------------------------------------
    def committed(self, events: list[StoredEvent], state: State) -> None:
        self._legal_flash_at = self.panel.now()
        self._show()
        self._signalled = (time.perf_counter(), time.thread_time())
        if self.on_commit is not None:  # after the signal: everything signalled is on disk
            for event in events:
                self.on_commit(event)
        for event in events:
            self._publish({"type": "event", "event": event_dict(event, self.game.engine.name)})
        if state.is_terminal():
            self._publish({"type": "over", "scores": state.shared_scores().to_dict()})

    def pending_changed(self, pending: Pending | None, reason: str) -> None:
        self._show()
        shown = None if pending is None else pending.to_dict()
        message: dict[str, Any] = {"type": "pending", "pending": shown}
        if reason:
            message["reason"] = reason
        self._publish(message)

    def undone(self, event: StoredEvent) -> None:
        self._show()
        self._publish({"type": "event", "event": event_dict(event, self.game.engine.name)})

    def storage_changed(self, unsaved: Unsaved | None) -> None:
        self._show()
        self._publish({"type": "storage", "storage": self.game.storage_status()})

    def laid_out(self, state: State) -> None:
        self._attach_pipeline()  # the play area's zones and lattice are where the players laid them
        self._publish({"type": "laid_out", "game_id": self.game.game_id})

    def _seq(self) -> int:
        return self.game.seq()

    # -- signals ----------------------------------------------------------------------------------------
    def signals(self) -> PanelSignals:
        with self._lock:
            return panel_signals(
                self.game.state,
                self.config.seats,
                self.game.model,
                self.game.pending,
                mode=self._mode,
                legal_flash_at=self._legal_flash_at,
                camera=CameraSignal(self.camera.lost, self.camera.lost_since),
                previous=self.panel.signals,
                now=self.panel.now(),
                storage_fault_since=self._storage_fault_since(),
                companion_to_move=self.companion.to_move(self.game.state) is not None,
            )

    def _storage_fault_since(self) -> float | None:
        """Since when a move waits to be saved, or the card refuses to be written (None: neither)."""
        if self.game.unsaved is not None:
            return self.game.unsaved.since
        return self._started_at if self.game.store.unwritable else None

    def _show(self) -> None:
        self.panel.show(self.signals())
        self._publish({"type": "panel", "panel": self.panel.snapshot()})
        companion_seat.consider(self)

    def _companion_decided(self, key: Hashable, decision: Decision) -> None:
        companion_seat.decided(self, key, decision)

    def hint(self, player: str) -> dict[str, Any]:
        return companion_seat.hint(self, player)

    def show_companion(self) -> None:
        """The companion's move is known: the page and the panel show it."""
        self._show()
        self._publish({"type": "companion", "companion": companion_seat.shown(self, self.game.state)})

    # -- buttons and the web page -----------------------------------------------------------------------
    def _on_button(self, name: str) -> None:
        try:
            result = self._button(name)
        except Exception as error:  # a button must never take the loop down
            log.exception("button %s failed", name)
            result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        self._last_button_result = result

    def _button(self, name: str) -> dict[str, Any]:
        with self._lock:
            if name == "confirm":
                pending = self.game.pending
                if pending is not None and pending.kind == "resume":
                    return self._answer_resume(0)  # Confirm carries on the game on the table
                return self.game.confirm(self._last_frame)
            if name == "undo":
                return self.undo()
            if name == "next":
                return self.game.next_move()
            if name == "mode":
                if pipeline_status(self.pipeline).get("bumped"):
                    # the camera was knocked: Mode refits its calibration from the next frame
                    return self.recalibrate()
                self._mode = "leader" if self._mode == "turn" else "turn"
                self._show()
                return {"ok": True, "mode": self._mode}
        return {"ok": False, "error": f"unknown button {name!r}"}

    def press(self, button: str) -> dict[str, Any]:
        """A button pressed on the web page's virtual panel: the same path as the table's buttons."""
        if button not in BUTTONS:
            return {"ok": False, "error": f"unknown button {button!r}"}
        with self._lock:
            self._last_button_result = {}
            self.panel.press(button, source="web")
            return self._last_button_result or {"ok": True}

    def undo(self) -> dict[str, Any]:
        with self._lock:
            return self.game.undo()

    def submit(self, action: dict[str, Any], source: str = "web") -> dict[str, Any]:
        """A move entered on the page or by a button. The table is read again against the new state (a
        tapped move the table does not show is objected to until it does), with no lock held."""
        with self._lock:
            answer, dropped = self.game.submit(action, source)
            observation = self.game.last_observation if answer.get("ok") else None
            if observation is not None:
                self.game.look_again(tapped=True)
        if observation is not None:
            self.handle_observation(observation, self._last_frame)
        with self._lock:
            if dropped and self.game.pending is None:
                self.game.clear_pending("settled by a submitted action")
        return answer

    def choose(self, option_index: int) -> dict[str, Any]:
        with self._lock:
            pending = self.game.pending
            if pending is not None and pending.kind == "resume":
                return self._answer_resume(option_index)
            answer = self.game.choose(option_index, self._last_frame)
            observation = self.game.last_observation
            if answer.get("ok") and pending is not None and pending.kind == "objection":
                # the nearest move was tapped: what it does not explain is judged again at once
                self.game.look_again()
                if observation is not None:
                    self.handle_observation(observation, self._last_frame)
            return answer

    def option_view(self, option_index: int) -> dict[str, Any]:
        with self._lock:
            pending = self.game.pending
            state = self.game.state
            options = [] if pending is None else pending.options
            if not 0 <= option_index < len(options):
                raise LookupError(f"no option {option_index} is pending")
            line = options[option_index]
        for action in line:  # states are immutable: no lock needed to look ahead
            state = state.apply(action)
        shown = shared_action(line[-1].to_dict(), state.game.name) if line else None
        return {"view": state.view(None), "action": shown}

    def _answer_resume(self, option_index: int) -> dict[str, Any]:
        """The resume question: 0 carries on the stored game, 1 starts the config's game."""
        mismatch = self._mismatch
        if mismatch is None or option_index not in (0, 1):
            return {"ok": False, "error": "option must be 0 (carry on) or 1 (a new game)"}
        self._mismatch = None
        if option_index == 0:
            self.game.clear_pending(f"carrying on game {mismatch.game_id}")
            return {"ok": True, "game_id": self.game.game_id}
        return self.new_game(mismatch.configured.settings())

    # -- the shared view --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        self.check_camera()
        with self._lock:
            state = self.game.state
            pending = self.game.pending
            observation = self.game.last_observation
            # while a group lays its own set-up, the picture is of the table as read so far
            preview = self.game.preview if pending is not None and pending.kind == "setup" else None
            shares = split_shares(self.game.model, state)
            current = state.current_player()
            return {
                "game": self.game.engine.name,
                "title": self.game.engine.title,
                "game_id": self.game.game_id,
                "players": [seat.to_dict() for seat in self.config.seats],
                "current": None if current in (CHANCE, TERMINAL) else current,
                "chance": current == CHANCE,
                "over": state.is_terminal(),
                "scores": state.shared_scores().to_dict(),
                "view": (state if preview is None else preview.state).view(None),
                "legal": shared_legal_actions(state),
                "last_event": (None if self.game.last_event is None
                               else event_dict(self.game.last_event, state.game.name)),
                "pending": None if pending is None else pending.to_dict(),
                "split": None if not shares else {"shares": [{"player": p, "tiles": n} for p, n in shares]},
                "splits": isinstance(self.game.model, SharesSplits),
                "panel": self.panel.snapshot(),
                "camera": self.camera.status(self.clock(), self.pipeline, source_fault(self.source)),
                "detections": None if observation is None else observation.to_dict(),
                "event_count": self._seq(),
                "mode": self._mode,
                "storage": self.game.storage_status(),
                "problems": [{"text": str(problem), "said": problem.to_dict()} for problem in self.problems],
                "laid": self.game.placement if preview is None else dict(preview.placement),
                "faults": table_faults(self.source, self.panel.report) + self.companion.faults(),
                "links": [link.status() for link in self.links],
                "companion": companion_seat.shown(self, state),
            }

    def button_pressed_within(self, button: str, seconds: float) -> bool:
        return self.panel.pressed_within(button, seconds)

    def recalibrate(self) -> dict[str, Any]:
        """Refit the camera calibration from the next frame (after the camera was bumped)."""
        if self.pipeline is None or not self.pipeline.request_recalibration():
            return {"ok": False, "error": "this camera has no calibration to refit"}
        self._publish({"type": "camera", "recalibrating": True})
        return {"ok": True, "recalibrating": True}

    def frame_jpeg(self, annotated: bool = True) -> bytes | None:
        with self._lock:
            frame, observation = self._last_frame, self.game.last_observation
        return self._jpeg.get(frame, observation, annotated)

    def events(self, timeout: float = 15.0) -> Iterator[dict[str, Any]]:
        return self._publisher.stream(
            lambda: {"type": "hello", "game_id": self.game.game_id, "event_count": self._seq()}, timeout
        )

    def _publish(self, message: dict[str, Any]) -> None:
        self._publisher.publish(message)
        if message["type"] != "panel":
            for link in self.links:
                link.notify()

    def summary(self) -> dict[str, Any]:
        """What a café board shows of this table (cheap: no board view, no legal moves)."""
        with self._lock:
            state = self.game.state
            pending = self.game.pending
            current = state.current_player()
            game = self.game.engine
            return {"game": game.name, "title": game.title, "game_id": self.game.game_id,
                    "players": [seat.to_dict() for seat in self.config.seats],
                    "current": None if current in (CHANCE, TERMINAL) else current,
                    "over": state.is_terminal(), "scores": state.shared_scores().to_dict(),
                    "event_count": self._seq(), "pending": None if pending is None else pending.to_dict(),
                    "camera": {"ok": not self.camera.lost and self.camera.age(self.clock()) is not None}}

    def settings(self) -> dict[str, Any]:
        with self._lock:
            return self.config.settings()

    def calibration(self) -> dict[str, Any]:
        with self._lock:
            frame, observation = self._last_frame, self.game.last_observation
        report: dict[str, Any] = {
            "calibration": None if observation is None else observation.calibration.to_dict(),
            "frames": self.camera.frames,
        }
        if self.pipeline is not None and frames.is_picture(frame):
            try:
                tested = self.pipeline.self_test(frame)
                if tested is not None:
                    report["self_test"] = tested
            except (ValueError, *frames.NOT_A_PICTURE) as error:
                report["self_test"] = {"ok": False, "error": str(error)}
        return report

    # -- running ----------------------------------------------------------------------------------------
    def start(self) -> None:
        """Run the camera thread and the frame-age watchdog in the background."""
        if self.source is None:
            raise RuntimeError("no frame source")
        self._stopped.clear()
        self._runner = FrameRunner(self.source, self.process_read, self.check_camera, self._camera_failed)
        self._runner.start()

    def _camera_failed(self, error: BaseException) -> None:
        with self._lock:
            self.camera.failed(error)

    def stop(self) -> None:
        self._stopped.set()
        if self._runner is not None:
            self._runner.stop()

    def close(self) -> None:
        self.stop()
        self.panel.close()
        self.speaker.close()
        self.game.store.close()
