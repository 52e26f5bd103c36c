"""A perfect camera over scenes, for tests, the benchmarks' inference stage and the fault harness.

:class:`SceneSource` is a frame source whose "frames" are :class:`~vision.scene.Scene` objects;
:class:`IdealPipeline` turns each into the observation a perfect camera would make
(:func:`ideal_observation`). The demo and the end-to-end tests read rendered frames through the real vision
pipeline instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from vision.observation import BACK, FRONT, CalibrationStatus, Observation, PegReading, TagReading
from vision.scene import Scene


def ideal_observation(
    scene: Scene,
    game: str,
    is_back: Callable[[str], bool],
    frame_index: int = 0,
    timestamp: float = 0.0,
) -> Observation:
    """What a perfect camera would report for ``scene`` (tests, benchmarks and the fault harness use it;
    the end-to-end tests and the demo read rendered frames through the real vision pipeline instead)."""
    tags: dict[str, TagReading] = {}
    zones: dict[str, list[str]] = {}
    for tag in scene.tags:
        component_id = tag.payload.rsplit(":", 1)[-1]
        zone = scene.zone_at(tag.center)
        x, y = tag.center
        half = tag.size / 2
        corners = ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half))
        tags[component_id] = TagReading(
            payload=tag.payload,
            game=game,
            component_id=component_id,
            face=BACK if is_back(component_id) else FRONT,
            center_px=tag.center,
            corners_px=corners,
            angle=tag.angle,
            module_px=4.0,
            center_mm=tag.center,
            zone=zone,
        )
        if zone is not None:
            zones.setdefault(zone, []).append(component_id)
    pegs = tuple(
        PegReading(
            center_mm=peg.center,
            colour=peg.colour,
            confidence=1.0,
            zone=scene.zone_at(peg.center),
            kind="chisel",
        )
        for peg in scene.pegs
    )
    return Observation(
        frame_index=frame_index,
        timestamp=timestamp,
        game=game,
        tags=tags,
        pegs=pegs,
        zones={k: tuple(v) for k, v in zones.items()},
        calibration=CalibrationStatus(state="ok", markers_seen=(0, 1, 2, 3)),
    )


class IdealPipeline:
    """A perfect camera: the "frame" is a :class:`Scene` and the observation is what the scene holds.

    Used by tests, the benchmark's inference stage and the SIGKILL fault harness; the demo and the
    end-to-end tests use the real vision pipeline on rendered frames instead.
    """

    #: a perfect camera needs no calibration: nothing to refit, nothing to self-test
    calibration = None

    def __init__(self, game: str, is_back: Callable[[str], bool]) -> None:
        self.game = game
        self.is_back = is_back

    def attach(self, area: Any) -> None:
        """Nothing to follow: a scene says which game it is of."""

    def request_recalibration(self) -> bool:
        return False

    def status(self) -> dict[str, Any]:
        return {"bumped": False, "recalibrations": 0}

    def self_test(self, frame: Any) -> dict[str, Any] | None:
        return None

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Observation | None:
        if not isinstance(frame, Scene):
            raise TypeError("the ideal pipeline reads scenes, not images")
        return ideal_observation(frame, self.game, self.is_back, index, timestamp)


class SceneSource:
    """A frame source over scenes (the ideal camera): ``show(scene)``, then ``read()`` returns it."""

    def __init__(self, scene: Scene | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._scene = scene or Scene.with_corner_markers(800, 450)
        self._index = -1
        self._clock = clock
        self._lock = threading.Lock()

    def show(self, scene: Scene) -> None:
        with self._lock:
            self._scene = scene

    @property
    def scene(self) -> Scene:
        return self._scene

    def read(self) -> tuple[Scene, int, float]:
        with self._lock:
            self._index += 1
            return self._scene, self._index, self._clock()
