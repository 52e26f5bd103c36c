"""The companion loop: FrameSource -> vision -> inference -> engine -> store -> panel signals + web events.

:class:`TableLoop` implements :class:`companion.session.TableSession`. It owns the engine state of the
current game and changes it only through :meth:`TableLoop._commit`, which writes each action to the store
(committed, ``synchronous=FULL``) *before* the panel shows its signal or the web page hears of it.

Frames come from a frame source (``read() -> (frame, index, timestamp)``) and go through a
:class:`Pipeline` (the real one is vision's detect + track; :class:`IdealPipeline` is a perfect camera over
scenes, for tests and the fault harness). Each *stable* observation whose picture differs from the last
one handled is explained by :func:`companion.infer.infer`:

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

import contextlib
import json
import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.config import Config, ConfigError, config_from_settings
from companion.infer import Inference, TableModel, infer
from companion.infer.common import describe_action
from companion.kits import kit_for
from companion.privacy import shared_legal_actions
from companion.store import Store, StoredEvent, StoreError, decode_action
from engines.core import CHANCE, TERMINAL, Action, Correct, EngineError, IllegalAction, State, get_game
from hw.panel import Panel, open_panel
from hw.signals import PanelSignals, SplitShare
from vision.observation import Observation
from vision.scene import Scene

log = logging.getLogger(__name__)

#: evidence photos are stored at most about this wide (pixels; subsampled by a whole step)
PHOTO_WIDTH = 1280

class FrameSource(Protocol):
    """``read() -> (frame, index, timestamp)``; a :mod:`vision.sources` Frame (or None) is taken too."""

    def read(self) -> Any: ...


class Pipeline(Protocol):
    """Frame in, observation out (None: nothing stable yet). ``lores``: the camera's own low-resolution
    grey image of the same instant when the source gives one (the Pi camera's lores stream)."""

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Observation | None: ...


class VisionPipeline:
    """The real pipeline: vision's detector (QR tags, calibration, lattice, coloured pegs) and tracker
    (settling, hands, focused re-reading). Calibrates from the first frame that shows all four markers,
    unless a calibration (``companion calibrate --out``) is configured: its learned seat colours then make
    the colour model. The table's zones and the lattice prior come from the game's layout through the loop
    (the engine's expectations are the only thing that flows back to vision).

    After the camera was bumped (the tracker holds the last stable table with the ``bumped`` status), the
    calibration is refitted from the frame once the four markers have been seen in the same place for
    ``steady_frames`` frames, or at once on :meth:`request_recalibration` (the Mode button).

    ``use_lores``: give the tracker the camera's lores image for change detection. Off by default: at
    576 x 324 a chisel placed on the far side of a tilted view can change too few lores pixels to be seen,
    and the move is never read (the Jurassic Parts demo, seed 45, 32nd bot action: 240 frames "unchanged"
    with lores, read at once without it)."""

    def __init__(
        self,
        game: str,
        seat_colours: list[str],
        calibration: Any = None,
        window: int = 2,
        steady_frames: int = 3,
        steady_px: float = 2.0,
        use_lores: bool = False,
    ) -> None:
        self.game = game
        self.seat_colours = seat_colours
        self.calibration = calibration
        self.window = window
        self.steady_frames = steady_frames
        self.steady_px = steady_px
        self.use_lores = use_lores
        self.tracker: Any = None
        self.loop: TableLoop | None = None
        self.bumped = False
        self.recalibrations = 0
        self.last_recalibration = ""
        self._recalibrate_requested = False
        self._steady = 0
        self._markers: Any = None

    def attach(self, loop: TableLoop) -> None:
        """Read ``loop``'s game: called when the loop starts and on every new game. The detector, tracker,
        layout (zones) and lattice hints are all the game's, so they are built afresh from the next frame,
        for the game and seats the loop now plays (a new game of another game from the setup page)."""
        self.loop = loop
        self.game = loop.config.game
        self.seat_colours = [seat.colour for seat in loop.config.seats]
        self.tracker = None

    def _start(self, frame: Any) -> bool:
        from vision import detect
        from vision.pegs import ColourModel
        from vision.track import Tracker, TrackerConfig

        zones: list[Any] = []
        hints = None
        if self.loop is not None:
            model = self.loop.model
            zones = list(model.scene(self.loop.current_state()).zones)
            hints = model.vision_hints()
        kit = kit_for(self.game)
        calibration = self.calibration
        if calibration is None:
            calibration = detect.auto_calibration(frame, kit.table_size())
            if calibration is None:
                return False  # markers not all in view yet
        if zones:
            calibration = calibration.with_zones(zones)
        if calibration.colours:  # learned at calibration: nominal only for seats it did not see
            colours = ColourModel.seats(calibration.colours, self.seat_colours)
        else:
            colours = ColourModel.nominal(self.seat_colours)
        detector = detect.Detector(kit.manifest(), calibration, hints or kit.hints(), colours)
        self.tracker = Tracker(detector, TrackerConfig(window=self.window))
        return True

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Observation | None:
        if self.tracker is None and not self._start(frame):
            return None
        if self._recalibrate_requested:
            self._recalibrate_requested = False
            self._recalibrate(frame, "requested")
        if not self.use_lores:
            lores = None
        try:
            observation: Observation = self.tracker.update(frame, index, timestamp, lores=lores)
        except Exception:
            # a decoder that fails mid-frame may leave the tracker believing it has read this frame: start
            # it afresh (same detector and calibration) so that the next frame is read in full
            from vision.track import Tracker

            self.tracker = Tracker(self.tracker.detector, self.tracker.config)
            raise
        self.bumped = observation.calibration.state == "bumped"
        if self.bumped and self._markers_steady(frame):
            self._recalibrate(frame, "markers steady again")
            observation = self.tracker.update(frame, index, timestamp, lores=lores)
            self.bumped = observation.calibration.state == "bumped"
        elif not self.bumped:
            self._steady, self._markers = 0, None
        return observation

    def request_recalibration(self) -> None:
        """Refit the calibration from the next frame (the Mode button after a bump); thread-safe."""
        self._recalibrate_requested = True

    def _markers_steady(self, frame: Any) -> bool:
        """All four markers seen, each corner within ``steady_px`` of where it was in the previous frame, for
        ``steady_frames`` frames in a row (the camera has come to rest in its new place)."""
        import numpy as np

        from vision.calibration import detect_markers
        from vision.scene import CALIBRATION_MARKER_IDS

        found = detect_markers(frame)
        if set(found) != set(CALIBRATION_MARKER_IDS):
            self._steady, self._markers = 0, None
            return False
        previous, self._markers = self._markers, found
        if previous is not None and all(
            float(np.abs(found[i] - previous[i]).max()) <= self.steady_px for i in found
        ):
            self._steady += 1
        else:
            self._steady = 1
        return self._steady >= self.steady_frames

    def _recalibrate(self, frame: Any, why: str) -> None:
        try:
            self.tracker.recalibrate(frame)
        except ValueError as error:  # markers not all in view (CalibrationError), or nothing to refit
            self.last_recalibration = f"failed: {error}"
            log.warning("recalibration failed: %s", error)
            return
        self.recalibrations += 1
        self.last_recalibration = why
        self.bumped = False
        self._steady, self._markers = 0, None
        log.info("camera recalibrated (%s)", why)

    def status(self) -> dict[str, Any]:
        """For the snapshot's ``camera``: bumped now?, recalibrations so far and why the last one."""
        return {
            "bumped": self.bumped,
            "recalibrations": self.recalibrations,
            "last_recalibration": self.last_recalibration,
            "recalibration_requested": self._recalibrate_requested,
        }

    def self_test(self, frame: Any) -> dict[str, Any]:
        from vision.calibration import self_test

        if self.tracker is None:
            return {"ok": False, "error": "not calibrated yet: all four markers must be in view"}
        report: dict[str, Any] = self_test(frame, self.tracker.detector.calibration)
        return report


def vision_pipeline(config: Config, camera: Any = None) -> VisionPipeline:
    """The real vision pipeline for a configured table (the demo passes its synthetic camera). A
    calibration file in ``[camera] calibration`` fixes the calibration and its learned seat colours."""
    calibration = None
    if config.camera.calibration:
        from vision.calibration import Calibration

        try:
            calibration = Calibration.load(config.camera.calibration)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ConfigError(
                f"{config.source}: camera.calibration: cannot read {config.camera.calibration}: {error}"
            ) from error
    return VisionPipeline(config.game, [seat.colour for seat in config.seats], calibration)


@dataclass
class Pending:
    """A question or an objection waiting on the table."""

    kind: str  # "question" | "objection"
    inference: Inference
    since: float
    seen_key: str
    options: list[list[Action]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        inference = self.inference
        return {
            "kind": self.kind,
            "text": inference.text,
            "options": [
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
        }


@dataclass
class CameraHealth:
    frames: int = 0
    last_frame_at: float | None = None
    errors: int = 0
    last_error: str = ""
    lost: bool = False
    lost_since: float = 0.0
    fps: float = 0.0
    _window: list[float] = field(default_factory=list)

    def seen(self, now: float) -> None:
        self.frames += 1
        self.last_frame_at = now
        self._window.append(now)
        if len(self._window) > 30:
            del self._window[:-30]
        if len(self._window) >= 2 and self._window[-1] > self._window[0]:
            self.fps = (len(self._window) - 1) / (self._window[-1] - self._window[0])


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
    ) -> None:
        self._lock = threading.RLock()
        self.config = config
        self.clock = clock
        self.keep_photos = keep_photos
        self.store = store if store is not None else Store(config.state_dir)
        self.problems: list[str] = list(self.store.problems)
        self._model_factory = model_factory or default_model
        self.panel = panel if panel is not None else open_panel(config.pins, [s.colour for s in config.seats])
        self.panel.set_on_button(self._on_button)
        self.source = source
        self.pipeline = pipeline
        self.on_commit = on_commit
        self.camera = CameraHealth()
        self.pending: Pending | None = None
        self._acknowledged: set[str] = set()
        self._last_seen_key: str | None = None
        self._last_observation: Observation | None = None
        self._last_frame: Any = None
        self._last_event: StoredEvent | None = None
        self._legal_flash_at: float | None = None
        self._mode = "turn"
        self._last_button_result: dict[str, Any] = {}
        self._subscribers: list[queue.Queue[dict[str, Any]]] = []
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.latencies: list[float] = []
        #: per committed camera move: vision time of the deciding frame, stable observation -> LED signal
        self.timings: list[dict[str, float]] = []
        self._vision_s = 0.0
        self.game = get_game(config.game)
        self.model = self._model_factory(config)
        self.state: State
        attach = getattr(pipeline, "attach", None)
        self.game_id: int
        if resume and self._resume():
            pass
        else:
            self._start_game(config)
        if attach is not None:
            attach(self)
        self._show()

    # -- games ------------------------------------------------------------------------------------------
    def _resume(self) -> bool:
        game_id = self.store.latest_game_id()
        if game_id is None:
            return False
        record = self.store.game(game_id)
        if get_game(record.game).name != self.game.name:
            return False
        try:
            result = self.store.replay(game_id)
        except StoreError as error:
            message = (
                f"could not resume game {game_id}: {error}; starting a new game (the old one stays stored)"
            )
            log.error(message)
            self.problems.append(message)
            return False
        self.problems += [p for p in self.store.problems if p not in self.problems]
        self.game_id = game_id
        self.state = result.state
        events = self.store.events(game_id)
        self._last_event = events[-1] if events else None
        if self.state.is_terminal() and record.finished is None:
            outcome = self.state.outcome()
            if outcome is not None:
                self.store.finish(game_id, outcome.to_dict())
        log.info("resumed game %s after %s events", game_id, len(events))
        return True

    def _start_game(self, config: Config) -> None:
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**31)
        options = self.game.resolve_options(config.engine_options)
        state = self.game.new_initial_state(config.players, rng=random.Random(seed), options=options)
        self.game_id = self.store.new_game(
            self.game,
            state,
            [seat.to_dict() for seat in config.seats],
            options,
            seed,
            settings={
                "game": config.game,
                "options": dict(config.options),
                "house_rules": dict(config.house_rules),
            },
        )
        self.state = state
        self._last_event = None
        self.pending = None
        self._acknowledged.clear()
        self._last_seen_key = None

    def current_state(self) -> State:
        with self._lock:
            return self.state

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

    def process_frame(
        self, frame: Any, index: int, timestamp: float, lores: Any = None
    ) -> Inference | None:
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
            if lores is None:
                observation = self.pipeline.process(frame, index, timestamp)
            else:
                observation = self.pipeline.process(frame, index, timestamp, lores=lores)
        except Exception as error:  # a crashing decoder costs this frame, never the game
            with self._lock:
                self.camera.errors += 1
                self.camera.last_error = f"{type(error).__name__}: {error}"
            log.warning("frame %s skipped: %s", index, error)
            return None
        if observation is None:
            return None
        self._vision_s = time.perf_counter() - frame_started
        return self.handle_observation(observation, frame, started=now)

    def handle_observation(
        self, observation: Observation, frame: Any = None, started: float | None = None
    ) -> Inference | None:
        """Explain a stable observation and act on it (commit, ask or object)."""
        if not observation.stable or observation.held:
            return None
        started = self.clock() if started is None else started
        ready = time.perf_counter()
        ready_cpu = time.thread_time()
        with self._lock:
            self._last_observation = observation
            seen_key = self.model.seen(observation).key(self.model.tolerance)
            if seen_key == self._last_seen_key:
                return None
            self._last_seen_key = seen_key
            if seen_key in self._acknowledged:
                return None
            result = infer(self.state, observation, self.model)
            if result.kind == "unchanged":
                if self.pending is not None:
                    self._clear_pending("the table matches the game again")
                return result
            if result.kind == "apply":
                self.pending = None
                self._commit(result.actions, source="camera", observation=observation, frame=frame)
                signalled = time.perf_counter()
                self.latencies.append(self.clock() - started)
                self.timings.append(
                    {
                        "vision_s": self._vision_s,
                        "stable_to_signal_s": signalled - ready,
                        "stable_to_signal_cpu_s": time.thread_time() - ready_cpu,
                        "frame_to_signal_s": signalled - ready + self._vision_s,
                        "actions": len(result.actions),
                        "explored": result.explored,
                    }
                )
                self._vision_s = 0.0
                return result
            kind = "question" if result.kind == "question" else "objection"
            self.pending = Pending(kind, result, self.panel.now(), seen_key, options=list(result.options))
            with contextlib.suppress(Exception):
                self.store.add_notice(
                    self.game_id,
                    self._seq(),
                    kind,
                    result.text,
                    {**result.to_dict(), "observation": observation.to_dict()},
                )
            self._show()
            self._publish({"type": "pending", "pending": self.pending.to_dict()})
            return result

    def check_camera(self) -> bool:
        """Camera health by frame age; returns True while frames are fresh."""
        now = self.clock()
        with self._lock:
            last = self.camera.last_frame_at
            stale = last is None or now - last > self.config.camera.max_age_s
            if stale and not self.camera.lost and last is not None:
                self.camera.lost = True
                self.camera.lost_since = self.panel.now()
                log.warning("camera lost: last frame %.2f s ago", now - last)
                self._publish({"type": "camera", "ok": False, "age_s": now - last})
                self._show()
            return not stale

    # -- committing -------------------------------------------------------------------------------------
    def _seq(self) -> int:
        return self._last_event.seq if self._last_event is not None else 0

    def _photo(self, frame: Any) -> bytes | None:
        """The evidence photo of a commit: the frame as JPEG, at most ``PHOTO_WIDTH`` pixels wide (a
        smaller photo encodes in a few milliseconds and keeps the store small)."""
        if frame is None or not self.keep_photos or isinstance(frame, Scene):
            return None
        try:
            import cv2
            import numpy as np

            step = -(-frame.shape[1] // PHOTO_WIDTH)  # every step-th pixel: cheap, and plenty for evidence
            if step > 1:
                frame = np.ascontiguousarray(frame[::step, ::step])
            ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
        except Exception:  # a photo is evidence, not the game: never fail a commit over it
            return None
        return bytes(data) if ok else None

    def _commit(
        self,
        actions: list[Action],
        source: str,
        observation: Observation | None = None,
        frame: Any = None,
    ) -> list[StoredEvent]:
        """Apply and store each action (durably), then signal. Caller holds the lock."""
        events: list[StoredEvent] = []
        photo = self._photo(frame)
        observation_data = observation.to_dict() if observation is not None else None
        for action in actions:
            before = self.state
            after = before.apply(action)  # may raise IllegalAction: nothing stored, nothing changed
            player = before.current_player()
            rules = (
                [rule.to_dict() for rule in before.rules_for(action)]
                if not isinstance(action, Correct)
                else []
            )
            event = self.store.append(
                self.game_id,
                "correct" if isinstance(action, Correct) else "action",
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
            self.state = after
            self._last_event = event
            events.append(event)
        if self.state.is_terminal():
            outcome = self.state.outcome()
            if outcome is not None:
                self.store.finish(self.game_id, outcome.to_dict())
        self._legal_flash_at = self.panel.now()
        self._acknowledged.clear()
        self._show()
        if self.on_commit is not None:  # after the signal: everything signalled is on disk
            for event in events:
                self.on_commit(event)
        for event in events:
            self._publish({"type": "event", "event": self._event_dict(event)})
        if self.state.is_terminal():
            self._publish({"type": "over", "scores": self.state.scores().to_dict()})
        return events

    def _clear_pending(self, reason: str) -> None:
        self.pending = None
        self._show()
        self._publish({"type": "pending", "pending": None, "reason": reason})

    # -- signals ----------------------------------------------------------------------------------------
    def _seat_of(self, player: str) -> int | None:
        for seat in self.config.seats:
            if seat.name == player:
                return seat.seat
        return None

    def signals(self) -> PanelSignals:
        with self._lock:
            now = self.panel.now()
            current = self.state.current_player()
            active = self._seat_of(current)
            winners: tuple[int, ...] = ()
            over = self.state.is_terminal()
            if over:
                outcome = self.state.outcome()
                winners = tuple(
                    s
                    for s in (self._seat_of(w) for w in (outcome.winners if outcome else ()))
                    if s is not None
                )
            elif self._mode == "leader":
                leaders = self.state.scores().winners
                active = next((s for s in (self._seat_of(w) for w in leaders) if s is not None), active)
            split: tuple[SplitShare, ...] = ()
            shares = self.model.split_shares(self.state)
            if shares:
                split = tuple(
                    SplitShare(seat, tiles)
                    for seat, tiles in ((self._seat_of(p), n) for p, n in shares)
                    if seat is not None
                )
            previous = self.panel.signals
            pending = self.pending
            objection = pending is not None and pending.kind == "objection"
            split_since = previous.split_since if previous.split == split and split else now
            return PanelSignals(
                active_seat=active,
                legal_flash_at=self._legal_flash_at,
                objection=objection,
                objection_since=pending.since if objection and pending is not None else 0.0,
                waiting=pending is not None and pending.kind == "question",
                split=split,
                split_since=split_since,
                winners=winners,
                game_over=over,
                camera_lost=self.camera.lost,
                camera_lost_since=self.camera.lost_since,
            )

    def _show(self) -> None:
        signals = self.signals()
        self.panel.show(signals)
        self._publish({"type": "panel", "panel": self.panel.snapshot()})

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
                if self.pending is None:
                    return {"ok": False, "error": "nothing to confirm"}
                if self.pending.kind == "question":
                    return self.choose(0)
                # an objection accepted as it is: ignore this table picture, keep the game as it was
                pending = self.pending
                self._acknowledged.add(pending.seen_key)
                with contextlib.suppress(Exception):
                    self.store.add_notice(
                        self.game_id,
                        self._seq(),
                        "accepted",
                        "objection overridden with Confirm",
                        pending.inference.to_dict(),
                    )
                self._clear_pending("confirmed as it is")
                return {"ok": True, "accepted": True}
            if name == "undo":
                return self.undo()
            if name == "next":
                return self._next()
            if name == "mode":
                if self._pipeline_status().get("bumped"):
                    # the camera was knocked: Mode refits its calibration from the next frame
                    return self.recalibrate()
                self._mode = "leader" if self._mode == "turn" else "turn"
                self._show()
                return {"ok": True, "mode": self._mode}
        return {"ok": False, "error": f"unknown button {name!r}"}

    def press(self, button: str) -> dict[str, Any]:
        """A button pressed on the web page's virtual panel: the same path as the table's buttons."""
        if button not in ("confirm", "undo", "next", "mode"):
            return {"ok": False, "error": f"unknown button {button!r}"}
        with self._lock:
            self._last_button_result = {}
            self.panel.press(button, source="web")
            return self._last_button_result or {"ok": True}

    def _next(self) -> dict[str, Any]:
        """End the turn / pass: the one legal action that changes nothing the camera sees."""
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return {"ok": False, "error": "nothing to end now"}
        here = self.model.expected(state).key(self.model.tolerance)
        invisible = []
        for action in state.legal_actions():
            try:
                after = state.apply(action)
            except IllegalAction:
                continue
            if self.model.expected(after).key(self.model.tolerance) == here:
                invisible.append(action)
        ends = [
            a for a in invisible if any(w in a.kind for w in ("end", "pass", "next", "done"))
        ] or invisible
        if len(ends) == 1:
            events = self._commit(ends, source="button")
            return {"ok": True, "event": self._event_dict(events[-1])}
        if not ends:
            return {"ok": False, "error": "no end-turn or pass action is legal now"}
        inference = Inference("question", options=[[a] for a in ends], text="Which of these did you mean?")
        self.pending = Pending(
            "question", inference, self.panel.now(), self._last_seen_key or "", [[a] for a in ends]
        )
        self._show()
        self._publish({"type": "pending", "pending": self.pending.to_dict()})
        return {"ok": True, "question": self.pending.to_dict()}

    def undo(self) -> dict[str, Any]:
        with self._lock:
            if self._last_event is None:
                return {"ok": False, "error": "nothing to undo"}
            result = self.store.replay(self.game_id)
            if not result.line:
                return {"ok": False, "error": "nothing to undo"}
            undone = result.line[-1]
            event = self.store.append(self.game_id, "undo", None, undoes=undone.seq, source="button")
            self.state = self.store.replay(self.game_id).state
            if not self.state.is_terminal():
                self.store.reopen(self.game_id)
            self._last_event = event
            self.pending = None
            # the table still shows the undone move until the players take it back: do not re-read it
            if self._last_observation is not None:
                key = self.model.seen(self._last_observation).key(self.model.tolerance)
                self._last_seen_key = key
                self._acknowledged.add(key)
            self._show()
            self._publish({"type": "event", "event": self._event_dict(event)})
            return {"ok": True, "event": self._event_dict(event)}

    def submit(self, action: dict[str, Any], source: str = "web") -> dict[str, Any]:
        with self._lock:
            try:
                parsed = decode_action(self.game, action)
            except EngineError as error:
                return {"ok": False, "error": str(error), "rule": None}
            try:
                events = self._commit([parsed], source=source)
            except IllegalAction as refusal:
                return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}
            except EngineError as error:
                return {"ok": False, "error": str(error), "rule": None}
            if self.pending is not None:
                # a correction (or the move the table was waiting for) may settle what is pending: read the
                # table again against the new state
                self.pending = None
                self._last_seen_key = None
                if self._last_observation is not None:
                    self.handle_observation(self._last_observation, self._last_frame)
                if self.pending is None:
                    self._clear_pending("settled by a submitted action")
            return {"ok": True, "event": self._event_dict(events[-1])}

    def choose(self, option_index: int) -> dict[str, Any]:
        with self._lock:
            if self.pending is None or self.pending.kind != "question":
                return {"ok": False, "error": "no question is pending"}
            options = self.pending.options
            if not isinstance(option_index, int) or not 0 <= option_index < len(options):
                return {"ok": False, "error": f"option must be 0..{len(options) - 1}"}
            observation = self._last_observation
            self.pending = None
            try:
                events = self._commit(
                    list(options[option_index]),
                    source="choice",
                    observation=observation,
                    frame=self._last_frame,
                )
            except IllegalAction as refusal:
                return {"ok": False, "error": str(refusal), "rule": refusal.rule.to_dict()}
            return {"ok": True, "event": self._event_dict(events[-1])}

    # -- the shared view --------------------------------------------------------------------------------
    def _event_dict(self, event: StoredEvent) -> dict[str, Any]:
        return {
            "seq": event.seq,
            "kind": event.kind,
            "action": event.action,
            "undoes": event.undoes,
            "player": event.player,
            "source": event.source,
            "at": event.at,
            "scores": event.scores,
            "has_photo": event.has_photo,
            "rule": event.rule,
        }

    def snapshot(self) -> dict[str, Any]:
        self.check_camera()
        with self._lock:
            state = self.state
            now = self.clock()
            age = None if self.camera.last_frame_at is None else now - self.camera.last_frame_at
            shares = self.model.split_shares(state)
            current = state.current_player()
            return {
                "game": self.game.name,
                "title": self.game.title,
                "game_id": self.game_id,
                "players": [seat.to_dict() for seat in self.config.seats],
                "current": None if current in (CHANCE, TERMINAL) else current,
                "chance": current == CHANCE,
                "over": state.is_terminal(),
                "scores": state.scores().to_dict(),
                "view": state.view(None),
                "legal": shared_legal_actions(state),
                "last_event": None if self._last_event is None else self._event_dict(self._last_event),
                "pending": None if self.pending is None else self.pending.to_dict(),
                "split": None if not shares else {"shares": [{"player": p, "tiles": n} for p, n in shares]},
                "panel": self.panel.snapshot(),
                "camera": {
                    "ok": not self.camera.lost and age is not None,
                    "age_s": None if age is None else round(age, 3),
                    "frames": self.camera.frames,
                    "fps": round(self.camera.fps, 1),
                    "errors": self.camera.errors,
                    "last_error": self.camera.last_error,
                    **self._pipeline_status(),
                },
                "detections": None if self._last_observation is None else self._last_observation.to_dict(),
                "event_count": self._seq(),
                "mode": self._mode,
                "problems": list(self.problems),
            }

    def _pipeline_status(self) -> dict[str, Any]:
        status = getattr(self.pipeline, "status", None)
        if status is None:
            return {"bumped": False, "recalibrations": 0}
        try:
            result: dict[str, Any] = status()
        except Exception:
            return {"bumped": False, "recalibrations": 0}
        return result

    def recalibrate(self) -> dict[str, Any]:
        """Refit the camera calibration from the next frame (after the camera was bumped)."""
        request = getattr(self.pipeline, "request_recalibration", None)
        if request is None:
            return {"ok": False, "error": "this camera has no calibration to refit"}
        request()
        self._publish({"type": "camera", "recalibrating": True})
        return {"ok": True, "recalibrating": True}

    def frame_jpeg(self, annotated: bool = True) -> bytes | None:
        with self._lock:
            frame = self._last_frame
            observation = self._last_observation
        if frame is None or isinstance(frame, Scene):
            return None
        try:
            import cv2

            image = frame.copy() if annotated else frame
            if annotated and observation is not None:
                draw_observation(image, observation)
            ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        except Exception:
            return None
        return bytes(data) if ok else None

    def events(self, timeout: float = 15.0) -> Iterator[dict[str, Any]]:
        subscriber: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=1000)
        with self._lock:
            self._subscribers.append(subscriber)
        try:
            yield {"type": "hello", "game_id": self.game_id, "event_count": self._seq()}
            while not self._stop.is_set():
                try:
                    yield subscriber.get(timeout=timeout)
                except queue.Empty:
                    yield {"type": "ping"}
        finally:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

    def _publish(self, message: dict[str, Any]) -> None:
        for subscriber in list(self._subscribers):
            with contextlib.suppress(queue.Full):
                subscriber.put_nowait(message)

    def history(self, game_id: int | None = None) -> list[dict[str, Any]]:
        gid = self.game_id if game_id is None else game_id
        try:
            return [self._event_dict(e) for e in self.store.events(gid)]
        except StoreError:
            return []

    def state_at(self, seq: int, game_id: int | None = None) -> dict[str, Any]:
        gid = self.game_id if game_id is None else game_id
        result = self.store.replay(gid, upto=seq)
        return {
            "game_id": gid,
            "seq": seq,
            "view": result.state.view(None),
            "scores": result.state.scores().to_dict(),
            "over": result.state.is_terminal(),
        }

    def event_photo(self, seq: int, game_id: int | None = None) -> bytes | None:
        return self.store.photo(self.game_id if game_id is None else game_id, seq)

    def games(self) -> list[dict[str, Any]]:
        return [record.summary() for record in self.store.games()]

    def settings(self) -> dict[str, Any]:
        with self._lock:
            return self.config.settings()

    def new_game(self, settings: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            try:
                config = config_from_settings(settings, self.config)
            except ConfigError as error:
                return {"ok": False, "error": str(error)}
            self.config = config
            self.game = get_game(config.game)
            self.model = self._model_factory(config)
            self.panel.set_seat_colours([s.colour for s in config.seats])
            self._start_game(config)
            attach = getattr(self.pipeline, "attach", None)
            if attach is not None:
                attach(self)
            self._show()
            self._publish({"type": "new_game", "game_id": self.game_id})
            return {"ok": True, "game_id": self.game_id}

    def calibration(self) -> dict[str, Any]:
        with self._lock:
            frame = self._last_frame
            observation = self._last_observation
        report: dict[str, Any] = {
            "calibration": None if observation is None else observation.calibration.to_dict(),
            "frames": self.camera.frames,
        }
        calibrator = getattr(self.pipeline, "self_test", None)
        if calibrator is not None and frame is not None and not isinstance(frame, Scene):
            try:
                report["self_test"] = calibrator(frame)
            except Exception as error:
                report["self_test"] = {"ok": False, "error": str(error)}
        return report

    # -- running ----------------------------------------------------------------------------------------
    def start(self) -> None:
        """Run the camera thread and the frame-age watchdog in the background."""
        if self.source is None:
            raise RuntimeError("no frame source")
        self._stop.clear()
        reader = threading.Thread(target=self._read_frames, name="table-loop", daemon=True)
        watchdog = threading.Thread(target=self._watch_camera, name="camera-watchdog", daemon=True)
        self._threads = [reader, watchdog]
        for thread in self._threads:
            thread.start()

    def _read_frames(self) -> None:
        backoff = 0.1
        while not self._stop.is_set():
            assert self.source is not None
            try:
                read: Any = self.source.read()
            except StopIteration:
                return
            except Exception as error:  # the source reconnects itself; we only wait, with backoff
                with self._lock:
                    self.camera.errors += 1
                    self.camera.last_error = f"{type(error).__name__}: {error}"
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.1
            if read is None or (isinstance(read, tuple) and read[0] is None):
                self._stop.wait(0.01)  # no fresh frame: the watchdog sees the frame age grow
                continue
            try:
                self.process_read(read)
            except Exception:
                log.exception("a frame failed")
                with self._lock:
                    self.camera.errors += 1

    def _watch_camera(self) -> None:
        while not self._stop.wait(0.1):
            with contextlib.suppress(Exception):
                self.check_camera()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self._threads = []

    def close(self) -> None:
        self.stop()
        self.panel.close()
        self.store.close()


def default_model(config: Config) -> TableModel:
    return kit_for(config.game).model({seat.colour: seat.name for seat in config.seats})


def draw_observation(image: Any, observation: Observation) -> None:
    """Draw tags (outline and id) and pegs over a camera frame, in place."""
    import cv2
    import numpy as np

    for component_id, tag in observation.tags.items():
        corners = np.array(tag.corners_px, dtype=np.int32).reshape(-1, 1, 2)
        colour = (60, 200, 60) if tag.face == "front" else (200, 160, 60)
        cv2.polylines(image, [corners], True, colour, 2)
        x, y = (int(v) for v in tag.center_px)
        cv2.putText(
            image, component_id, (x + 6, y - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA
        )
    for peg in observation.pegs:
        if peg.center_px is not None:
            x, y = (int(v) for v in peg.center_px)
            cv2.circle(image, (x, y), 8, (255, 255, 255), 2)


def players_by_colour(config: Config) -> Mapping[str, str]:
    return {seat.colour: seat.name for seat in config.seats}


# -- the bot driver (the demo and the end-to-end tests) ---------------------------------------------------


class BotStuck(RuntimeError):
    """The loop did not read the bot's physical move back from the camera."""


Policy = Callable[[State, list[Action], random.Random], Action]


def uniform_policy(state: State, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def bot_action(
    state: State, seed: int, policy: Policy | None = None, model: TableModel | None = None
) -> Action:
    """The bots' move in ``state``: a function of the state and the seed only (so a bot resumed after a
    crash, or the engine played directly for comparison, makes the same move). At a chance node the
    "physical table" decides (the game's model knows which tile lies behind a back)."""
    from companion.infer.common import state_seed

    rng = random.Random(state_seed(state, seed))
    if state.is_chance_node():
        if model is not None:
            return model.chance_outcome(state, rng)
        from engines.core import sample_chance

        return sample_chance(state, rng)
    chosen = policy or (model.bot_policy() if model is not None else None) or uniform_policy
    # in a canonical order: a state rebuilt from the store may list its legal actions in another order
    actions = sorted(state.legal_actions(), key=lambda a: json.dumps(a.to_dict(), sort_keys=True))
    return chosen(state, actions, rng)


def bot_game(
    state: State,
    seed: int,
    policy: Policy | None = None,
    model: TableModel | None = None,
    max_steps: int = 20_000,
) -> list[State]:
    """The same bots playing the engine directly from ``state``: every state of the game."""
    states = [state]
    for _ in range(max_steps):
        if state.is_terminal():
            return states
        state = state.apply(bot_action(state, seed, policy, model))
        states.append(state)
    raise RuntimeError(f"the game did not end within {max_steps} actions")


class BotDriver:
    """Plays a game at a (synthetic) table: bots choose actions, the table shows them, the loop reads them.

    For each action the bot chooses, the table scene of the state after it is put in front of the camera
    (``show``); the loop must read it back through its pipeline: the driver never hands a physical move to
    the loop. Actions that change nothing the camera can see (purchases, a split part chosen, passes) are
    submitted as the web page would. Chance (a face-down tile turned up) is decided by the "physical"
    table: the driver draws it, shows the revealed front, and the loop reads the reveal.

    Choices are seeded from the state itself, so a driver restarted after a crash (the fault harness)
    makes the same moves as an uninterrupted one.

    ``pump()`` delivers one frame to the loop (synchronous mode); without it the loop's own thread reads
    the camera and the driver waits.
    """

    def __init__(
        self,
        loop: TableLoop,
        show: Callable[[Scene], None],
        seed: int = 1,
        policy: Policy | None = None,
        pump: Callable[[], object] | None = None,
        max_frames: int = 120,
        frame_wait: float = 0.02,
    ) -> None:
        self.loop = loop
        self.show = show
        self.seed = seed
        self.policy = policy
        self.pump = pump
        self.max_frames = max_frames
        self.frame_wait = frame_wait
        self.physical = 0
        self.submitted = 0
        self.questions = 0
        self.frames = 0

    def choose(self, state: State) -> Action:
        return bot_action(state, self.seed, self.policy, self.loop.model)

    def show_state(self, state: State) -> None:
        self.show(self.loop.model.scene(state))

    def step(self) -> bool:
        """One bot action; False once the game is over."""
        from companion.infer.common import state_key

        state = self.loop.current_state()
        if state.is_terminal():
            return False
        action = self.choose(state)
        after = state.apply(action)
        model = self.loop.model
        if model.expected(after).key(model.tolerance) == model.expected(state).key(model.tolerance):
            result = self.loop.submit(action.to_dict(), source="bot")
            if not result.get("ok"):
                raise BotStuck(f"the loop refused the bot's {describe_action(action)}: {result.get('error')}")
            self.submitted += 1
            return True
        self.physical += 1
        self.show(model.display_scene(state, action, after))
        target = state_key(after)
        for _ in range(self.max_frames):
            if self.pump is not None:
                self.pump()
            else:
                time.sleep(self.frame_wait)
            self.frames += 1
            current = self.loop.current_state()
            if state_key(current) == target:
                return True
            if state_key(current) != state_key(state):
                raise BotStuck(f"the loop read {self.loop._last_event} instead of {describe_action(action)}")
            pending = self.loop.pending
            if pending is not None and pending.kind == "question":
                self.questions += 1
                for index, option in enumerate(pending.options):
                    result_state = state
                    try:
                        for step_action in option:
                            result_state = result_state.apply(step_action)
                    except IllegalAction:
                        continue
                    if state_key(result_state) == target:
                        self.loop.choose(index)
                        break
        raise BotStuck(
            f"the loop did not read {describe_action(action)} within {self.max_frames} frames "
            f"(pending: {None if self.loop.pending is None else self.loop.pending.inference.text})"
        )

    def run(self, max_steps: int = 20_000) -> State:
        for _ in range(max_steps):
            if not self.step():
                return self.loop.current_state()
        raise BotStuck(f"the game did not end within {max_steps} bot actions")
