"""Where frames come from, behind one interface.

A :class:`FrameSource` has ``open()``, ``read() -> Frame | None`` (None: no new frame right now) and
``close()``. Implementations: :class:`PiCameraSource` (picamera2, imported lazily and only on a Pi; a
low-resolution stream for change detection beside the full-resolution one for reading),
:class:`VideoCaptureSource` (OpenCV, a USB webcam or a video file), :class:`FolderSource` (replay of
recorded images). The synthetic camera (``sim.camera``) follows the same interface.

Loss of frames is detected by *frame age*, not by return codes: :class:`WatchedSource` wraps any source,
reports when no frame arrived for ``max_age`` seconds, and reopens it with exponential backoff, telling
what it does through :class:`SourceEvent` records and its ``status``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from vision.camera_library import load_picamera2
from vision.camera_plan import StreamPlan, machine_memory, plan_streams
from vision.images import ImageError, read_image_file

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".h264", ".mjpeg")


class SourceError(RuntimeError):
    """A source cannot be opened or has failed; the message says which and why."""


@dataclass(frozen=True)
class Frame:
    """One camera frame: BGR ``image`` (full resolution), running ``index``, capture ``timestamp``
    (seconds, monotonic clock), optional ``lores`` grey image for cheap change detection."""

    image: np.ndarray
    index: int
    timestamp: float
    source: str = ""
    lores: np.ndarray | None = None


class FrameSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def on_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(encoding="utf-8", errors="ignore")
    except OSError:
        return False
    return "Raspberry Pi" in model


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (apt: python3-picamera2), imported when opened.

    Two streams: ``main`` (for reading tags) and ``lores`` at ``lores_size`` (YUV420, its luma plane is the
    cheap change-detection image). ``main`` is the sensor's full resolution unless ``size`` is given (4608 x
    2592 on Camera Module 3: twice the pixels per QR module of 2304 x 1296, which the layouts' 40 mm tags
    need once the camera is tilted; docs/vision.md). The streams follow :func:`~vision.camera_plan.
    plan_streams`: BGR888, or YUV420 converted here on a Pi with little memory; the frame rate of the
    sensor mode that gives the size; few buffers (frames are copied out and released at once: a
    full-resolution BGR buffer is 36 MB). One configuration for the session: no mode switch per frame.
    ``buffer_count`` overrides the plan's.
    """

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        lores_size: tuple[int, int] = (576, 324),
        clock: Callable[[], float] = time.monotonic,
        buffer_count: int | None = None,
        memory_bytes: int | None = None,
    ) -> None:
        self.name = "picamera2"
        self.size = size
        self.lores_size = lores_size
        self.buffer_count = buffer_count
        #: the machine's memory (None: read from /proc/meminfo when opened)
        self.memory_bytes = memory_bytes
        #: the streams as configured, once open
        self.plan: StreamPlan | None = None
        #: the main stream's size once open (the sensor's full resolution unless ``size`` was given)
        self.main_size: tuple[int, int] | None = size
        self._clock = clock
        self._camera: Any = None
        self._index = 0

    def open(self) -> None:
        if not on_raspberry_pi():
            raise SourceError("picamera2 needs a Raspberry Pi; use a USB camera or a folder elsewhere")
        Picamera2 = load_picamera2()  # a library that cannot load says why (CameraLibraryError)
        try:
            camera = Picamera2()
            width, height = self.size if self.size is not None else camera.sensor_resolution
            memory = self.memory_bytes if self.memory_bytes is not None else machine_memory()
            plan = plan_streams((int(width), int(height)), list(getattr(camera, "sensor_modes", []) or []),
                                memory, self.lores_size)
            if self.buffer_count is not None:
                plan = replace(plan, buffer_count=self.buffer_count)
            config = camera.create_video_configuration(
                main={"size": plan.main, "format": plan.main_format},
                lores={"size": plan.lores, "format": "YUV420"},
                buffer_count=plan.buffer_count,
                controls=plan.controls(),
            )
            camera.configure(config)
            self.main_size, self.plan = plan.main, plan
            camera.start()
        except Exception as error:  # picamera2 raises a variety of errors for a missing/busy camera
            raise SourceError(f"cannot start the Pi camera: {error}") from error
        self._camera = camera

    def read(self) -> Frame | None:
        if self._camera is None:
            raise SourceError("camera not open")
        try:
            request = self._camera.capture_request()
        except Exception as error:
            raise SourceError(f"Pi camera capture failed: {error}") from error
        try:
            image = request.make_array("main")
            lores = request.make_array("lores")[: self.lores_size[1], : self.lores_size[0]]
            if self.plan is not None and self.plan.main_format == "YUV420":  # converted in user memory
                import cv2

                width, height = self.plan.main
                image = cv2.cvtColor(image[: height * 3 // 2, :width], cv2.COLOR_YUV2BGR_I420)
        finally:
            request.release()
        self._index += 1
        return Frame(image, self._index, self._clock(), self.name, lores)

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


class VideoCaptureSource:
    """OpenCV ``VideoCapture``: a USB webcam (device number) or a video file (path)."""

    def __init__(
        self,
        device: int | str = 0,
        size: tuple[int, int] | None = (2304, 1296),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.name = f"videocapture:{device}"
        self.size = size
        self._clock = clock
        self._capture: Any = None
        self._index = 0

    def open(self) -> None:
        import cv2

        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"cannot open video source {self.device!r}")
        if self.size is not None and isinstance(self.device, int):
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def read(self) -> Frame | None:
        if self._capture is None:
            raise SourceError("video source not open")
        ok, image = self._capture.read()
        if not ok or image is None:
            return None  # no frame: the watcher judges by frame age
        self._index += 1
        return Frame(image, self._index, self._clock(), self.name)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource:
    """Recorded frames: every image file of a folder in name order (or a single video file), optionally
    looping. Unreadable files are skipped and counted in ``skipped``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.name = f"folder:{self.path}"
        self.loop = loop
        self._clock = clock
        self._files: list[Path] = []
        self._position = 0
        self._index = 0
        self._video: VideoCaptureSource | None = None
        self.skipped: list[str] = []

    def open(self) -> None:
        if self.path.is_file() and self.path.suffix.lower() in VIDEO_SUFFIXES:
            self._video = VideoCaptureSource(str(self.path), size=None, clock=self._clock)
            self._video.open()
            return
        if not self.path.is_dir():
            raise SourceError(f"no such folder: {self.path}")
        self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError(f"no images in {self.path}")
        self._position = 0

    def read(self) -> Frame | None:

        if self._video is not None:
            frame = self._video.read()
            if frame is None:
                return None
            self._index += 1
            return Frame(frame.image, self._index, frame.timestamp, self.name)
        while True:
            if self._position >= len(self._files):
                if not self.loop or not self._files:
                    return None
                self._position = 0
            path = self._files[self._position]
            self._position += 1
            try:
                image = read_image_file(str(path))  # the size is checked before decoding
            except ImageError:
                image = None
            if image is None:
                self.skipped.append(path.name)
                if len(self.skipped) > 10 * max(1, len(self._files)):
                    return None
                continue
            self._index += 1
            return Frame(image, self._index, self._clock(), f"{self.name}/{path.name}")

    def close(self) -> None:
        if self._video is not None:
            self._video.close()
            self._video = None

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame


class TupleSource:
    """Adapts a camera whose ``read()`` returns ``(image, index, timestamp)`` (the synthetic camera,
    :class:`sim.camera.SyntheticCamera`) to the :class:`FrameSource` interface."""

    def __init__(self, camera: Any, name: str | None = None) -> None:
        self.camera = camera
        self.name = name or str(getattr(camera, "name", "camera"))

    def open(self) -> None:
        opener = getattr(self.camera, "open", None)
        if callable(opener):
            opener()

    def read(self) -> Frame | None:
        result = self.camera.read()
        if result is None:
            return None
        image, index, timestamp = result
        return Frame(image, int(index), float(timestamp), self.name)

    def close(self) -> None:
        closer = getattr(self.camera, "close", None)
        if callable(closer):
            closer()


# ------------------------------------------------------------------------------------------- watching
EventKind = Literal["opened", "lost", "reconnecting", "reconnected", "open-failed", "error"]
Status = Literal["closed", "ok", "stale", "reconnecting"]


@dataclass(frozen=True)
class SourceFault:
    """Why a source does not deliver: ``text`` in words, ``permanent`` when retrying cannot mend it."""

    text: str
    permanent: bool = False


@dataclass(frozen=True)
class SourceEvent:
    kind: EventKind
    at: float
    detail: str = ""


@dataclass
class WatchedSource:
    """Any source, watched by frame age; reopened with backoff when it stops delivering.

    ``read()`` never raises for a failing camera: it returns None while there is no fresh frame and
    records what happened in ``events`` (also passed to ``on_event``). ``status``: ``ok`` (fresh frames),
    ``stale`` (none for ``max_age`` s: the camera-lost signal), ``reconnecting`` (reopening, next attempt at
    ``next_attempt``). Delays grow ``backoff[0], backoff[1]...`` and stay at the last one. ``fault`` is why
    the last opening failed (empty once open); ``fault_permanent`` when retrying cannot mend it (a camera
    library that does not load), which the page then shows as a fault to fix rather than a lost camera."""

    factory: Callable[[], FrameSource]
    max_age: float = 2.0
    backoff: Sequence[float] = (0.5, 1.0, 2.0, 5.0, 10.0)
    clock: Callable[[], float] = time.monotonic
    on_event: Callable[[SourceEvent], None] | None = None
    events: list[SourceEvent] = field(default_factory=list)
    status: Status = "closed"
    last_frame_at: float | None = None
    attempts: int = 0
    next_attempt: float = 0.0
    reconnects: int = 0
    fault: str = ""
    fault_permanent: bool = False

    def __post_init__(self) -> None:
        self._source: FrameSource | None = None
        self._opened_at = 0.0
        self._index = 0

    @property
    def name(self) -> str:
        return self._source.name if self._source is not None else "watched"

    @property
    def camera_lost(self) -> bool:
        """True while no fresh frames arrive (the panel's camera-lost pattern)."""
        return self.status in ("stale", "reconnecting")

    def current_fault(self) -> SourceFault | None:
        """Why the source is not open now (None while it is)."""
        return SourceFault(self.fault, self.fault_permanent) if self.fault else None

    def frame_age(self) -> float | None:
        """Seconds since the last frame (since opening, before the first); None if never opened."""
        if self.status == "closed":
            return None
        since = self.last_frame_at if self.last_frame_at is not None else self._opened_at
        return self.clock() - since

    def _event(self, kind: EventKind, detail: str = "") -> None:
        event = SourceEvent(kind, self.clock(), detail)
        self.events.append(event)
        del self.events[:-200]
        if self.on_event is not None:
            self.on_event(event)

    def open(self) -> None:
        """Open now; a failure is recorded and retried by ``read()`` with backoff (never raised)."""
        self._try_open(first=True)

    def _try_open(self, first: bool = False) -> bool:
        try:
            source = self.factory()
            source.open()
        except Exception as error:
            delay = self.backoff[min(self.attempts, len(self.backoff) - 1)]
            self.attempts += 1
            self.next_attempt = self.clock() + delay
            self.status = "reconnecting"
            self.fault = " ".join(str(error).split()) or type(error).__name__
            self.fault_permanent = bool(getattr(error, "permanent", False))
            self._event("open-failed", f"{self.fault}; retrying in {delay:g} s")
            return False
        self._source = source
        self.fault, self.fault_permanent = "", False
        self._opened_at = self.clock()
        self.last_frame_at = None
        if not first and self.status == "reconnecting":
            self.reconnects += 1
            self._event("reconnected", f"after {self.attempts} attempt(s)")
        else:
            self._event("opened", source.name)
        self.status = "ok"
        self.attempts = 0
        return True

    def _drop(self, why: str) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception as error:  # closing a broken camera may fail too; it is being replaced
                self._event("error", f"close failed: {error}")
            self._source = None
        delay = self.backoff[min(self.attempts, len(self.backoff) - 1)]
        self.next_attempt = self.clock() + delay
        self.attempts += 1
        self.status = "reconnecting"
        self._event("reconnecting", f"{why}; next attempt in {delay:g} s")

    def read(self) -> Frame | None:
        if self.status == "closed":
            self.open()
        if self._source is None:
            if self.clock() < self.next_attempt:
                return None
            if not self._try_open():
                return None
        assert self._source is not None
        try:
            frame = self._source.read()
        except Exception as error:
            self._event("error", str(error))
            frame = None
            self._mark_stale(f"read failed: {error}")
            self._drop(f"read failed: {error}")
            return None
        if frame is None:
            age = self.frame_age() or 0.0
            if age > self.max_age:
                self._mark_stale(f"no frame for {age:.1f} s")
                self._drop(f"no frame for {age:.1f} s")
            return None
        self.last_frame_at = self.clock()
        self.status = "ok"
        self._index += 1
        return Frame(frame.image, self._index, frame.timestamp, frame.source, frame.lores)

    def _mark_stale(self, why: str) -> None:
        if self.status == "ok":
            self.status = "stale"
            self._event("lost", why)

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
        self.status = "closed"


def open_source(spec: str, **options: Any) -> FrameSource:
    """A source from a short spec: ``pi``, ``usb`` / ``usb:N``, a folder or video path."""
    if spec == "pi":
        return PiCameraSource(**options)
    if spec == "usb" or spec.startswith("usb:"):
        device = int(spec.split(":", 1)[1]) if ":" in spec else 0
        return VideoCaptureSource(device, **options)
    return FolderSource(spec, **options)
