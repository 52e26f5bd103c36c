"""Frames in, stable observations out: the frame source and pipeline interfaces the loop reads through,
and the real pipeline (vision's detector and tracker) with its calibration and recalibration policy.

The loop gives the pipeline what the engine expects (the game's kit: its manifest, geometry hints and the
zones of the expected scene); nothing else flows back to vision.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from companion.config import Config, ConfigError
from companion.kits import kit_for
from vision import detect
from vision.calibration import Calibration, detect_markers
from vision.observation import Observation
from vision.pegs import ColourModel
from vision.scene import CALIBRATION_MARKER_IDS
from vision.self_test import self_test
from vision.track import Tracker, TrackerConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlayArea:
    """What the pipeline follows of the game the loop plays: its code, the seats' colours, the zones of
    the table as the model lays it out and the kit's geometry hints for that layout and state."""

    game: str
    seat_colours: tuple[str, ...]
    zones: tuple[Any, ...]
    hints: detect.GeometryHints

    @classmethod
    def of(cls, config: Config, model: Any, state: Any) -> PlayArea:
        """``config``'s game as ``model`` lays out ``state`` (one hints record: the kit's)."""
        return cls(config.game, tuple(seat.colour for seat in config.seats), tuple(model.scene(state).zones),
                   kit_for(config.game).hints(model.layout, state))


class Pipeline(Protocol):
    """Frame in, observation out (None: nothing stable yet), and what the loop asks of it besides.
    ``lores``: the camera's own low-resolution grey image of the same instant when the source gives one
    (the Pi camera's lores stream). A pipeline without a calibration (the ideal camera) has
    ``calibration`` None, refuses a recalibration and has no self-test."""

    calibration: Any

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Observation | None: ...

    def attach(self, area: PlayArea) -> None:
        """Follow the loop's game, seats and layout (called again after a new game)."""

    def request_recalibration(self) -> bool:
        """Refit the calibration from the next frame; False when there is none to refit."""

    def status(self) -> dict[str, Any]:
        """``bumped`` (the camera seen moved) and ``recalibrations`` so far."""

    def self_test(self, frame: Any) -> dict[str, Any] | None:
        """The calibration's self-test on ``frame``; None when there is no calibration to test."""


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
        tag_mm: float | None = None,
    ) -> None:
        self.game = game
        #: the printed size of the codes (the config's; else the calibration's; else the game's default)
        self.tag_mm = tag_mm
        self.seat_colours = seat_colours
        self.calibration = calibration
        self.window = window
        self.steady_frames = steady_frames
        self.steady_px = steady_px
        self.use_lores = use_lores
        self.tracker: Any = None
        self.area: PlayArea | None = None
        self.bumped = False
        #: why the calibration is not used (the markers mark another area than the layout's) or not called
        #: ok (tiles may lie a few mm off: the lens)
        self.misfit: str | None = None
        self.imprecise: str | None = None
        #: the misfit's or imprecision's sentence for readers of any language (vision.sentences)
        self.calibration_said: dict[str, Any] | None = None
        self.recalibrations = 0
        self.last_recalibration = ""
        self._recalibrate_requested = False
        self._steady = 0
        self._markers: Any = None

    def attach(self, area: PlayArea) -> None:
        """Follow ``area``: called when the loop starts and on every new game. The detector, tracker,
        layout (zones) and lattice hints are all the game's, so they are built afresh from the next frame,
        for the game and seats the loop now plays (a new game of another game from the setup page)."""
        self.area = area
        self.game = area.game
        self.seat_colours = list(area.seat_colours)
        self.tracker = None

    def _start(self, frame: Any) -> bool:
        kit = kit_for(self.game)
        zones = list(self.area.zones) if self.area else []
        hints = self.area.hints if self.area else kit.hints()
        calibration = self.calibration
        if calibration is None:
            calibration = detect.auto_calibration(frame, kit.table_size())
            if calibration is None:
                return False  # markers not all in view yet
        if zones:
            calibration = calibration.with_zones(zones)
        if calibration.colours:  # learned at calibration: nominal only for seats it did not see
            colours = ColourModel.seats(calibration.colours, self.seat_colours, calibration.shades)
        else:
            colours = ColourModel.nominal(self.seat_colours)
        manifest = kit.manifest()
        printed = self.tag_mm or calibration.tag_mm
        if printed:
            manifest = manifest.resized(printed)
        detector = detect.Detector(manifest, calibration, hints, colours)
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
            self.tracker = Tracker(self.tracker.detector, self.tracker.config)
            raise
        calibration = observation.calibration
        misfit = calibration.message if calibration.state == "misfit" else None
        imprecise = calibration.message if calibration.state == "imprecise" else None
        if (misfit, imprecise) != (self.misfit, self.imprecise):
            self.calibration_said = self._said(calibration.state)
        self.misfit, self.imprecise = misfit, imprecise
        self.bumped = calibration.state == "bumped"
        if self.bumped and self._markers_steady(frame):
            self._recalibrate(frame, "markers steady again")
            observation = self.tracker.update(frame, index, timestamp, lores=lores)
            self.bumped = observation.calibration.state == "bumped"
        elif not self.bumped:
            self._steady, self._markers = 0, None
        return observation

    def request_recalibration(self) -> bool:
        """Refit the calibration from the next frame (the Mode button after a bump); thread-safe."""
        self._recalibrate_requested = True
        return True

    def _markers_steady(self, frame: Any) -> bool:
        """All four markers seen, each corner within ``steady_px`` of where it was in the previous frame, for
        ``steady_frames`` frames in a row (the camera has come to rest in its new place)."""
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

    def _said(self, state: str) -> dict[str, Any] | None:
        """What is wrong with a misfit or imprecise calibration, as a sentence for every reader."""
        calibration = self.tracker.detector.calibration
        area = calibration.area_check() if state == "misfit" else None
        sentence = area.problem_said() if area is not None else None
        if sentence is None and state in ("misfit", "imprecise"):
            sentence = calibration.verdict().problem_said()
        return None if sentence is None else sentence.to_dict()

    def status(self) -> dict[str, Any]:
        """For the snapshot's ``camera``: bumped now?, recalibrations so far and why the last one."""
        return {
            "bumped": self.bumped,
            "misfit": self.misfit,
            "imprecise": self.imprecise,
            "calibration_said": self.calibration_said if self.misfit or self.imprecise else None,
            "recalibrations": self.recalibrations,
            "last_recalibration": self.last_recalibration,
            "recalibration_requested": self._recalibrate_requested,
        }

    def self_test(self, frame: Any) -> dict[str, Any]:
        if self.tracker is None:
            return {"ok": False, "error": "not calibrated yet: all four markers must be in view"}
        report: dict[str, Any] = self_test(frame, self.tracker.detector.calibration)
        return report


def vision_pipeline(config: Config, camera: Any = None) -> VisionPipeline:
    """The real vision pipeline for a configured table (the demo passes its synthetic camera). A
    calibration file in ``[camera] calibration`` fixes the calibration and its learned seat colours."""
    calibration = None
    if config.camera.calibration:
        try:
            calibration = Calibration.load(config.camera.calibration)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ConfigError(
                f"{config.source}: camera.calibration: cannot read {config.camera.calibration}: {error}"
            ) from error
    return VisionPipeline(config.game, [seat.colour for seat in config.seats], calibration,
                          tag_mm=config.camera.tag_size_mm)
