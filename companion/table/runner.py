"""The table's background threads: one reads the camera and hands each frame to the loop, one watches the
frame age (a camera is lost by frame age, not by return codes). A source that fails is waited for with
backoff: sources reconnect themselves."""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from hw.pins import PinReport
from vision.sources import SourceFault

log = logging.getLogger(__name__)

#: seconds something stays over the table before the page says so (a hand making a move is quicker)
COVERED_NOTICE_S = 5.0


class FrameSource(Protocol):
    """``read() -> (frame, index, timestamp)``; a :mod:`vision.sources` Frame (or None) is taken too."""

    def read(self) -> Any: ...


def collect_if_due() -> None:
    """Collect the oldest generation now when CPython would soon do it by itself: a full collection (about
    30 ms here, 140 on a Pi) then lands between moves instead of inside the next move's latency."""
    threshold, count = gc.get_threshold()[2], gc.get_count()[2]
    if threshold and count >= threshold - 2:
        gc.collect()


@runtime_checkable
class ReportsFault(Protocol):
    """A source that can say why it does not deliver (the watched camera)."""

    def current_fault(self) -> SourceFault | None: ...


def source_fault(source: object) -> SourceFault | None:
    return source.current_fault() if isinstance(source, ReportsFault) else None


def table_faults(source: object, pins: PinReport) -> list[dict[str, Any]]:
    """What stops the table working that people must fix, in words: a camera that does not open, a panel
    on pins that are not real on a Pi. ``permanent``: a restart does not mend it."""
    found: list[dict[str, Any]] = []
    fault = source_fault(source)
    if fault is not None:
        found.append({"part": "camera", "text": fault.text, "permanent": fault.permanent})
    if pins.fault:
        found.append({"part": "panel", "text": pins.fault, "permanent": True})
    return found


@dataclass
class CameraHealth:
    """Frames seen, their rate and age, errors, and whether the camera counts as lost."""

    frames: int = 0
    last_frame_at: float | None = None
    errors: int = 0
    last_error: str = ""
    lost: bool = False
    lost_since: float = 0.0
    fps: float = 0.0
    #: since when the tracker has held the table because something is over it (a hand, an arm), and
    #: whether the page says so (only once it lasts :data:`COVERED_NOTICE_S`: a move covers the table too)
    covered_since: float | None = None
    covered_shown: bool = False
    _window: list[float] = field(default_factory=list)

    def seen(self, now: float) -> None:
        self.frames += 1
        self.last_frame_at = now
        self._window.append(now)
        if len(self._window) > 30:
            del self._window[:-30]
        if len(self._window) >= 2 and self._window[-1] > self._window[0]:
            self.fps = (len(self._window) - 1) / (self._window[-1] - self._window[0])

    def covered(self, held: bool, now: float) -> None:
        if not held:
            self.covered_since = None
        elif self.covered_since is None:
            self.covered_since = now

    def is_covered(self, now: float) -> bool:
        return self.covered_since is not None and now - self.covered_since >= COVERED_NOTICE_S

    def covered_changed(self, now: float) -> bool:
        """Whether the page's word on something over the table must change (it is then changed)."""
        covered = self.is_covered(now)
        changed, self.covered_shown = covered != self.covered_shown, covered
        return changed

    def failed(self, error: BaseException) -> None:
        self.errors += 1
        self.last_error = f"{type(error).__name__}: {error}"

    def age(self, now: float) -> float | None:
        return None if self.last_frame_at is None else now - self.last_frame_at

    def status(self, now: float, pipeline: Any, fault: SourceFault | None = None) -> dict[str, Any]:
        """The camera as the page shows it, with the pipeline's calibration status (when it has one) and
        why the camera does not open (``fault``; ``fault_permanent`` when a restart cannot mend it)."""
        age = self.age(now)
        return {"ok": not self.lost and age is not None, "age_s": None if age is None else round(age, 3),
                "frames": self.frames, "fps": round(self.fps, 1), "errors": self.errors,
                "last_error": self.last_error, "fault": fault.text if fault else "",
                "fault_permanent": bool(fault and fault.permanent), "covered": self.is_covered(now),
                **pipeline_status(pipeline)}


def pipeline_status(pipeline: Any) -> dict[str, Any]:
    if pipeline is None:
        return {"bumped": False, "recalibrations": 0}
    result: dict[str, Any] = pipeline.status()
    return result


class FrameRunner:
    """Runs ``handle(read)`` for every fresh frame of ``source`` and ``watch()`` ten times a second, each on
    its own daemon thread, until :meth:`stop`. ``failed(error)`` hears of every source or frame error."""

    def __init__(
        self,
        source: FrameSource,
        handle: Callable[[Any], object],
        watch: Callable[[], object],
        failed: Callable[[BaseException], None],
    ) -> None:
        self.source = source
        self.handle = handle
        self.watch = watch
        self.failed = failed
        self.stopped = threading.Event()
        self._threads: list[threading.Thread] = []
        #: when the frame thread last went round its loop (monotonic): a thread stuck anywhere stops it
        self.beat_at = time.monotonic()

    def alive(self, within_s: float) -> bool:
        """Whether the frame thread runs and went round its loop in the last ``within_s`` seconds."""
        running = bool(self._threads) and self._threads[0].is_alive()
        return running and time.monotonic() - self.beat_at <= within_s

    def start(self) -> None:
        self.stopped.clear()
        self._threads = [
            threading.Thread(target=self._read_frames, name="table-loop", daemon=True),
            threading.Thread(target=self._watch, name="camera-watchdog", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_frames(self) -> None:
        backoff = 0.1
        while not self.stopped.is_set():
            self.beat_at = time.monotonic()
            try:
                read: Any = self.source.read()
            except StopIteration:
                return
            except Exception as error:  # the source reconnects itself; we only wait, with backoff
                self.failed(error)
                self.stopped.wait(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.1
            if read is None or (isinstance(read, tuple) and read[0] is None):
                self.stopped.wait(0.01)  # no fresh frame: the watchdog sees the frame age grow
                continue
            try:
                self.handle(read)
            except Exception as error:
                log.exception("a frame failed")
                self.failed(error)

    def _watch(self) -> None:
        while not self.stopped.wait(0.1):
            self.watch()

    def stop(self) -> None:
        self.stopped.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self._threads = []
