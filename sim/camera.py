"""A synthetic camera: delivers rendered frames of a changing scene the way a real frame source would.

The demo and the tests drive a bot-played game: each time the engine state changes, the game's table
layout turns it into a :class:`~vision.scene.Scene` and :meth:`SyntheticCamera.show` puts it on the table.
:meth:`SyntheticCamera.read` then returns a :class:`vision.sources.Frame` like every frame source (it also
unpacks as ``frame, index, timestamp`` for callers that want the tuple): the
scene's geometry (and any hands reaching in) is drawn once per change, and every frame gets fresh sensor
noise, blur, light and JPEG compression on top, so consecutive frames of an unchanged table differ only as
a real camera's do. :attr:`SyntheticCamera.truth` is the ground truth of the last frame delivered.

Hands: :meth:`reach_in` schedules a hand that enters from an edge, hovers over a point for some frames and
leaves again, so occlusion sequences (which must never commit a removal) can be scripted.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from sim.camera_model import CameraModel
from sim.effects import Effects, apply_effects
from sim.hands import make_hand
from sim.render import RenderedFrame, render
from vision.scene import Occluder, Point, Scene
from vision.sources import Frame, SourceError

#: Size of the grey low-resolution image delivered beside each frame (like the Pi camera's lores stream).
LORES_SIZE = (576, 324)


@dataclass(frozen=True)
class SyntheticFrame(Frame):
    """A :class:`~vision.sources.Frame` with the renderer's ground truth; unpacks as
    ``(image, index, timestamp)``."""

    truth: RenderedFrame | None = None

    def __iter__(self) -> Iterator[Any]:
        return iter((self.image, self.index, self.timestamp))


@dataclass(frozen=True)
class _HandVisit:
    """A scripted hand: enters on ``start``, stays ``frames`` frames (it slides in over the first third)."""

    start: int
    frames: int
    reach: Point | None
    edge: str | None
    seed: int


class SyntheticCamera:
    """A frame source backed by the synthetic renderer.

    ``clock`` gives the timestamps (``time.monotonic`` by default; tests pass a fake). ``fps`` > 0 makes
    :meth:`read` pace itself like a real camera (sleeping until the next frame is due); 0 delivers frames as
    fast as they are asked for. ``seed`` makes the whole frame sequence reproducible. ``flicker`` (0..1)
    makes each frame's overall brightness wander by up to that fraction (lamp flicker, auto-exposure);
    ``jitter`` (pixels) shakes each frame by a random sub-pixel-to-pixel shift (a camera on a flimsy arm),
    the truth shifted with it.
    """

    def __init__(
        self,
        scene: Scene | None = None,
        camera: CameraModel | None = None,
        effects: Effects | None = None,
        seed: int = 0,
        fps: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        name: str = "synthetic",
        flicker: float = 0.0,
        jitter: float = 0.0,
    ) -> None:
        # Default: the tables' recommended framing (the markers' margin only), 2304 x 1296, straight above.
        self.camera = camera or CameraModel(margin=28.0, border=0.015)
        self.effects = effects or Effects()
        self.fps = fps
        self.name = name
        self.flicker = flicker
        self.jitter = jitter
        self._clock = clock
        self._seed = seed
        self._lock = threading.Lock()
        self._scene = scene or Scene.with_corner_markers(800.0, 450.0)
        self._version = 0
        self._index = -1
        self._visits: list[_HandVisit] = []
        self._cache_key: tuple[object, ...] | None = None
        self._cache: RenderedFrame | None = None
        self._last_time: float | None = None
        self._closed = False
        self._stalls = 0
        self._failures = 0
        self.truth: RenderedFrame | None = None

    # -- driving the table ------------------------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        return self._scene

    def show(self, scene: Scene) -> None:
        """Put ``scene`` on the table: frames read from now on show it."""
        with self._lock:
            self._scene = scene
            self._version += 1

    def reach_in(
        self, frames: int, reach: Point | None = None, edge: str | None = None, delay: int = 0
    ) -> None:
        """Schedule a hand over the table for ``frames`` frames starting ``delay`` frames from now,
        fingertips ending at ``reach`` (table mm; random when None), entering from ``edge`` (N/E/S/W)."""
        if edge is not None and edge not in ("N", "E", "S", "W"):
            raise ValueError(f"a hand enters from edge N, E, S or W, not {edge!r}")
        with self._lock:
            start = self._index + 1 + delay
            seed = random.Random(f"{self._seed}/{start}/{frames}/{reach}/{edge}").randrange(1 << 31)
            self._visits.append(_HandVisit(start, max(1, frames), reach, edge, seed))

    def hands_at(self, index: int) -> list[Occluder]:
        """The scripted hands over the table in frame ``index`` (table mm)."""
        hands = []
        scene = self._scene
        for visit in self._visits:
            offset = index - visit.start
            if not 0 <= offset < visit.frames:
                continue
            rng = random.Random(visit.seed)
            full = make_hand(scene.width, scene.height, rng, reach=visit.reach, edge=visit.edge)
            # Slide in over the first third of the visit and out over the last third.
            third = max(1, visit.frames // 3)
            progress = min(1.0, (offset + 1) / third, (visit.frames - offset) / third)
            hands.append(_slide(full, progress))
        return hands

    # -- the frame-source side --------------------------------------------------------------------------
    def open(self) -> None:
        """Frame sources are opened before reading; a synthetic camera is always ready (reopens if closed)."""
        self._closed = False

    def bump(self, tilt: float = 0.0, yaw: float = 0.0, roll: float = 0.0) -> None:
        """Knock the camera: its pose changes by these angles (degrees) from the next frame on, so the
        calibration no longer fits (the pipeline must notice)."""
        with self._lock:
            self.camera = replace(
                self.camera,
                tilt=self.camera.tilt + tilt,
                yaw=self.camera.yaw + yaw,
                roll=self.camera.roll + roll,
            )
            self._version += 1

    def stall(self, reads: int) -> None:
        """The next ``reads`` calls to :meth:`read` deliver no frame (None), like a camera that has
        stopped sending while its connection stays up: frame age grows."""
        with self._lock:
            self._stalls += max(0, reads)

    def fail(self, reads: int) -> None:
        """The next ``reads`` calls to :meth:`read` raise :class:`vision.sources.SourceError`, like an
        unplugged camera; reading works again afterwards (a reconnect)."""
        with self._lock:
            self._failures += max(0, reads)

    def read(self) -> SyntheticFrame | None:
        """The next frame (BGR image, running index, timestamp in seconds, grey lores image, ground truth),
        or None while stalled (see :meth:`stall`)."""
        if self._closed:
            raise SourceError(f"{self.name}: camera closed")
        with self._lock:
            if self._failures > 0:
                self._failures -= 1
                raise SourceError(f"{self.name}: camera disconnected")
            if self._stalls > 0:
                self._stalls -= 1
                return None
        self._pace()
        with self._lock:
            self._index += 1
            index = self._index
            self._visits = [v for v in self._visits if v.start + v.frames > index]
            hands = self.hands_at(index)
            scene = self._scene
            key = (self._version, tuple(hand.polygon for hand in hands))
            if key != self._cache_key or self._cache is None:
                staged = Scene(
                    scene.width,
                    scene.height,
                    scene.markers,
                    scene.shapes,
                    scene.tags,
                    scene.pegs,
                    [*scene.occluders, *hands],
                    scene.zones,
                    scene.background,
                )
                geometry_only = Effects(hands=self.effects.hands)
                self._cache = render(
                    staged, self.camera, geometry_only, random.Random(self._seed + self._version)
                )
                self._cache_key = key
            clean = self._cache
        photometric = replace(self.effects, hands=0)
        chance = random.Random(self._seed * 1_000_003 + index)
        if self.jitter > 0:
            clean = clean.shifted(chance.gauss(0.0, self.jitter), chance.gauss(0.0, self.jitter))
        image = apply_effects(clean.image, photometric, chance)
        if self.flicker > 0:
            # Mains-lamp flicker / auto-exposure hunting: the whole frame a little brighter or darker.
            gain = 1.0 + chance.uniform(-self.flicker, self.flicker)
            image = cv2.convertScaleAbs(image, alpha=gain)
        if image is clean.image:
            image = image.copy()
        self.truth = replace(clean, image=image)
        timestamp = self._clock()
        self._last_time = timestamp
        lores = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), LORES_SIZE, interpolation=cv2.INTER_AREA)
        return SyntheticFrame(image, index, timestamp, self.name, lores, self.truth)

    def _pace(self) -> None:
        if self.fps <= 0 or self._last_time is None:
            return
        wait = self._last_time + 1.0 / self.fps - self._clock()
        if wait > 0:
            time.sleep(wait)

    def frames(self, count: int) -> Iterator[SyntheticFrame]:
        """``count`` frames in a row (reads that deliver nothing are skipped)."""
        delivered = 0
        while delivered < count:
            frame = self.read()
            if frame is not None:
                delivered += 1
                yield frame

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> SyntheticCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _slide(hand: Occluder, progress: float) -> Occluder:
    """The hand moved back along its arm towards the table edge it came from: ``progress`` 1 is fully in."""
    points = np.asarray(hand.polygon, dtype=float)
    # The arm's far end is the polygon's first and last point; the fingertips are farthest from it.
    root = (points[0] + points[-1]) / 2.0
    tip = points[np.argmax(np.linalg.norm(points - root, axis=1))]
    travel = (root - tip) * (1.0 - progress) * 0.8
    moved = points + travel
    return Occluder(tuple((float(x), float(y)) for x, y in moved), hand.rgb)
