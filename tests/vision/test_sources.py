"""Frame sources: folder replay, video files, and the watcher that reconnects a flaky camera."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.sources import (
    FolderSource,
    Frame,
    PiCameraSource,
    SourceError,
    SourceEvent,
    VideoCaptureSource,
    WatchedSource,
    on_raspberry_pi,
    open_source,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FlakySource:
    """Delivers ``good`` frames, then nothing (a frozen camera) or errors; opening fails ``refuse`` times."""

    opened = 0
    refuse = 0

    def __init__(self, good: int = 3, mode: str = "silent") -> None:
        self.name = "flaky"
        self.good = good
        self.mode = mode
        self.count = 0

    def open(self) -> None:
        if FlakySource.refuse > 0:
            FlakySource.refuse -= 1
            raise SourceError("device busy")
        FlakySource.opened += 1

    def read(self) -> Frame | None:
        self.count += 1
        if self.count <= self.good:
            return Frame(np.zeros((4, 4, 3), np.uint8), self.count, float(self.count), self.name)
        if self.mode == "error":
            raise SourceError("USB disconnected")
        return None

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def _reset() -> None:
    FlakySource.opened = 0
    FlakySource.refuse = 0


def test_a_camera_that_stops_is_reported_and_reopened_with_backoff() -> None:
    clock = FakeClock()
    events: list[SourceEvent] = []
    watched = WatchedSource(
        lambda: FlakySource(good=2), max_age=1.0, backoff=(0.5, 2.0), clock=clock, on_event=events.append
    )
    frames = [watched.read() for _ in range(2)]
    assert all(frame is not None for frame in frames) and watched.status == "ok"
    assert watched.read() is None and watched.status == "ok"  # no frame, but not old yet
    clock.advance(1.5)
    assert watched.read() is None
    assert watched.camera_lost and [e.kind for e in events][-2:] == ["lost", "reconnecting"]
    clock.advance(0.2)
    assert watched.read() is None and FlakySource.opened == 1  # still waiting for the backoff
    clock.advance(0.4)
    frame = watched.read()  # reopened: a fresh camera delivers again
    assert frame is not None and frame.index == 3  # indices keep counting across reconnects
    assert watched.status == "ok" and watched.reconnects == 1
    assert [e.kind for e in events].count("reconnected") == 1


def test_open_failures_back_off_longer_each_time() -> None:
    clock = FakeClock()
    FlakySource.refuse = 3
    watched = WatchedSource(lambda: FlakySource(), backoff=(0.5, 1.0, 2.0), clock=clock)
    assert watched.read() is None
    assert watched.camera_lost
    for _ in range(100):
        if watched.read() is not None:
            break
        clock.advance(0.05)
    attempts = [e.at for e in watched.events if e.kind in ("open-failed", "reconnected")]
    gaps = [round(b - a, 1) for a, b in itertools.pairwise(attempts)]
    assert gaps == [0.5, 1.0, 2.0]
    assert [e.kind for e in watched.events][-1] == "reconnected" and not watched.camera_lost


def test_read_errors_do_not_escape_the_watcher() -> None:
    clock = FakeClock()
    watched = WatchedSource(lambda: FlakySource(good=1, mode="error"), clock=clock, backoff=(0.1,))
    assert watched.read() is not None
    assert watched.read() is None and watched.status == "reconnecting"
    assert any("USB disconnected" in e.detail for e in watched.events)
    clock.advance(0.2)
    assert watched.read() is not None


def test_folder_replays_images_in_order_and_skips_broken_files(tmp_path: Path) -> None:
    for index in range(3):
        cv2.imwrite(str(tmp_path / f"frame{index}.png"), np.full((8, 8, 3), index * 50, np.uint8))
    (tmp_path / "frame1b.png").write_bytes(b"broken")
    (tmp_path / "notes.txt").write_text("ignored")
    source = FolderSource(tmp_path)
    source.open()
    values = [int(frame.image[0, 0, 0]) for frame in source]
    assert values == [0, 50, 100] and source.skipped == ["frame1b.png"]
    looping = FolderSource(tmp_path, loop=True)
    looping.open()
    assert [looping.read() is not None for _ in range(7)] == [True] * 7


def test_video_file_replay(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5, (32, 24))
    for index in range(4):
        writer.write(np.full((24, 32, 3), 60 * index, np.uint8))
    writer.release()
    source = open_source(str(path))
    source.open()
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    source.close()
    assert len(frames) == 4 and frames[-1].index == 4


def test_missing_devices_are_named() -> None:
    with pytest.raises(SourceError, match="no such folder"):
        FolderSource("/nonexistent/folder").open()
    with pytest.raises(SourceError, match="cannot open video source"):
        VideoCaptureSource("/nonexistent/video.mp4").open()
    if not on_raspberry_pi():
        with pytest.raises(SourceError, match="Raspberry Pi"):
            PiCameraSource().open()


class _StandInPicamera2:
    """What the source asks of picamera2, recorded (no Pi here). A Camera Module 3 sensor: 4608 x 2592."""

    sensor_resolution = (4608, 2592)
    #: Camera Module 3's modes as picamera2 lists them (size and the fastest frame rate)
    sensor_modes = ({"size": (1536, 864), "fps": 120.13}, {"size": (2304, 1296), "fps": 56.03},
                    {"size": (4608, 2592), "fps": 14.35})

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls
        self.sizes: dict[str, tuple[int, int]] = {}
        self.formats: dict[str, str] = {}
        self.controls: dict[str, Any] = {}

    def create_video_configuration(
        self, main: dict[str, Any], lores: dict[str, Any], buffer_count: int = 6,
        controls: dict[str, Any] | None = None,
    ) -> dict[str, object]:
        self.calls.append(
            f"config:{main['size']}:{main['format']}:{lores['size']}:{lores['format']}:{buffer_count}"
        )
        self.sizes = {"main": main["size"], "lores": lores["size"]}
        self.formats = {"main": main["format"], "lores": lores["format"]}
        self.controls = dict(controls or {})
        return {"main": main, "lores": lores}

    def configure(self, config: object) -> None:
        self.calls.append("configure")

    def start(self) -> None:
        self.calls.append("start")

    def capture_request(self) -> Any:
        camera = self

        class Request:
            def make_array(self, stream: str) -> np.ndarray:
                camera.calls.append(f"array:{stream}")
                width, height = camera.sizes[stream]
                if stream == "main" and camera.formats["main"] == "BGR888":
                    return np.zeros((height, width, 3), np.uint8)
                return np.zeros((height * 3 // 2, width), np.uint8)  # YUV420: luma rows, then chroma

            def release(self) -> None:
                camera.calls.append("release")

        return Request()

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def _stand_in_picamera2(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    import sys
    import types

    from vision import sources

    module = types.ModuleType("picamera2")
    cameras: list[_StandInPicamera2] = []

    def opened() -> _StandInPicamera2:
        cameras.append(_StandInPicamera2(calls))
        return cameras[-1]

    module.Picamera2 = opened  # type: ignore[attr-defined]
    module.cameras = cameras  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(sources, "on_raspberry_pi", lambda: True)


def test_pi_camera_reads_main_and_lores_streams_through_picamera2(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    _stand_in_picamera2(monkeypatch, calls)
    camera = PiCameraSource(size=(2304, 1296), clock=lambda: 5.0, memory_bytes=8 * 1024**3)
    camera.open()
    frame = camera.read()
    camera.close()
    assert frame is not None and frame.image.shape == (1296, 2304, 3)
    assert frame.lores is not None and frame.lores.shape == (324, 576)  # the luma plane only
    assert calls[0] == "config:(2304, 1296):BGR888:(576, 324):YUV420:3"
    assert calls[-2:] == ["stop", "close"] and "release" in calls


def test_pi_camera_reads_at_the_sensors_full_resolution_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full resolution doubles the pixels per QR module of 2304 x 1296; change detection stays small."""
    calls: list[str] = []
    _stand_in_picamera2(monkeypatch, calls)
    camera = PiCameraSource(clock=lambda: 5.0, memory_bytes=8 * 1024**3)
    assert camera.main_size is None  # not known before the camera says
    camera.open()
    frame = camera.read()
    camera.close()
    assert calls[0] == "config:(4608, 2592):BGR888:(576, 324):YUV420:3"
    assert camera.main_size == (4608, 2592)
    assert frame is not None and frame.image.shape == (2592, 4608, 3)
    assert frame.lores is not None and frame.lores.shape == (324, 576)


def test_a_small_pi_takes_the_full_frame_as_yuv420_at_the_modes_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2's advice: YUV420 converted in user memory where memory is short, the frame rate the
    sensor mode gives (14 fps at full size, not 30), few buffers; the frame the loop gets is still BGR."""
    import sys

    calls: list[str] = []
    _stand_in_picamera2(monkeypatch, calls)
    camera = PiCameraSource(clock=lambda: 5.0, memory_bytes=1024**3)
    camera.open()
    frame = camera.read()
    camera.close()
    assert calls[0] == "config:(4608, 2592):YUV420:(576, 324):YUV420:2"
    stand_in = sys.modules["picamera2"].cameras[-1]  # type: ignore[attr-defined]
    assert stand_in.controls == {"FrameDurationLimits": (69686, 69686)}  # 14.35 fps
    assert frame is not None and frame.image.shape == (2592, 4608, 3)
    assert camera.plan is not None and camera.plan.fps == pytest.approx(14.35)


def test_the_stream_plan_costs_less_camera_memory_on_a_small_pi() -> None:
    from vision.camera_plan import mode_fps, plan_streams

    modes = _StandInPicamera2.sensor_modes
    small = plan_streams((4608, 2592), modes, 1024**3)
    large = plan_streams((4608, 2592), modes, 8 * 1024**3)
    assert (small.main_format, small.buffer_count) == ("YUV420", 2)
    assert (large.main_format, large.buffer_count) == ("BGR888", 3)
    assert small.buffer_bytes < large.buffer_bytes / 2 and large.buffer_bytes > 100_000_000
    assert mode_fps(modes, (2304, 1296)) == pytest.approx(56.03)  # a smaller size: a faster mode
    assert mode_fps(modes, (9000, 9000)) is None and plan_streams((9000, 9000), modes, None).controls() == {}
