"""How the Pi camera's streams are set up, as picamera2's maintainers advise: the main stream in the
sensor mode that gives its size at that mode's own frame rate (Camera Module 3 gives about 14 fps at
4608 x 2592, not the 30 a video configuration asks for by default), YUV420 converted in user memory on a
Pi with little memory (half the bytes of BGR888 in the camera's reserved memory), few buffers at full size
(a frame is copied out and its buffer released at once), and one configuration for the whole session (no
mode switch per full-resolution read: the first frame after one takes half a second or more)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: below this much memory a Pi takes the main stream as YUV420 (picamera2's advice for small Pis)
SMALL_PI_BYTES = 2 * 1024**3
#: a stream larger than this many pixels keeps the fewest buffers that still stream smoothly
LARGE_PIXELS = 4_000_000
BYTES_PER_PIXEL = {"BGR888": 3.0, "RGB888": 3.0, "XBGR8888": 4.0, "YUV420": 1.5}


@dataclass(frozen=True)
class StreamPlan:
    """The camera's configuration: the main stream's size and format, the lores stream's size, how many
    buffers, and the frame rate the sensor mode gives (None where the camera did not say)."""

    main: tuple[int, int]
    main_format: str
    lores: tuple[int, int]
    buffer_count: int
    fps: float | None

    @property
    def buffer_bytes(self) -> int:
        """The camera's reserved memory (CMA) the buffers take: every buffer holds both streams."""
        main = self.main[0] * self.main[1] * BYTES_PER_PIXEL[self.main_format]
        lores = self.lores[0] * self.lores[1] * BYTES_PER_PIXEL["YUV420"]
        return int(self.buffer_count * (main + lores))

    def controls(self) -> dict[str, Any]:
        """The frame duration the mode can keep (microseconds), for the configuration's controls."""
        if not self.fps:
            return {}
        duration = round(1_000_000 / self.fps)
        return {"FrameDurationLimits": (duration, duration)}


def mode_fps(modes: Sequence[Mapping[str, Any]], size: tuple[int, int]) -> float | None:
    """The fastest frame rate of a sensor mode at least ``size`` in both directions (None: none says)."""
    rates = [float(mode["fps"]) for mode in modes
             if "fps" in mode and "size" in mode
             and int(mode["size"][0]) >= size[0] and int(mode["size"][1]) >= size[1]]
    return max(rates) if rates else None


def plan_streams(size: tuple[int, int], modes: Sequence[Mapping[str, Any]], memory_bytes: int | None,
                 lores: tuple[int, int] = (576, 324)) -> StreamPlan:
    """The streams for a main stream of ``size`` on a Pi with ``memory_bytes`` (None: not known, taken as
    large) whose sensor offers ``modes`` (picamera2's ``sensor_modes``)."""
    small = memory_bytes is not None and memory_bytes < SMALL_PI_BYTES
    large = size[0] * size[1] > LARGE_PIXELS
    buffers = 2 if large and small else 3
    return StreamPlan(size, "YUV420" if small else "BGR888", lores, buffers, mode_fps(modes, size))


def machine_memory(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """This machine's memory in bytes (None where /proc/meminfo does not say)."""
    return _meminfo_bytes(meminfo, "MemTotal")


def camera_memory(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """The memory reserved for the camera and display (the CMA pool), bytes; None where not said."""
    return _meminfo_bytes(meminfo, "CmaTotal")


def _meminfo_bytes(meminfo: Path, key: str) -> int | None:
    try:
        lines = meminfo.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, rest = line.partition(":")
        if name.strip() == key:
            parts = rest.split()
            if parts and parts[0].isdigit():
                return int(parts[0]) * 1024  # kB
    return None
