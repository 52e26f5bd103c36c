"""The machine's checks: Python, numpy against the camera library, the camera, the GPIO pins, lgpio."""

from __future__ import annotations

import glob
import os
import platform
import struct
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.doctor import Check, guarded
from companion.doctor.service import unit_setting
from hw.pins import (
    MOCK,
    lgpio_work_dir,
    mock_requested,
    pins_fix,
    raspberry_pi_model,
    writable,
)
from vision.camera_library import (
    INSTALL_FIX,
    SHADOWED_FIX,
    CameraLibraryError,
    load_picamera2,
    numpy_placement,
)
from vision.camera_plan import camera_memory, machine_memory, plan_streams

CAMERA_TIMEOUT_S = 5.0


def python_check(version: tuple[int, ...] | None = None, bits: int | None = None,
                 machine: str | None = None) -> Check:
    version = version or tuple(sys.version_info[:3])
    bits = bits or struct.calcsize("P") * 8
    machine = machine or platform.machine()
    text = f"Python {'.'.join(map(str, version))} at {sys.executable}, {bits}-bit {machine}"
    if bits < 64 or machine in ("armv7l", "armv6l", "armhf"):
        return Check("Python", "fail", text, "a 64-bit Raspberry Pi OS is needed: PyPI has no 32-bit wheels "
                     "for numpy, OpenCV or zxing-cpp (Raspberry Pi Imager: 'Raspberry Pi OS (64-bit)')")
    if version < (3, 11):
        return Check("Python", "fail", text, "Python 3.11 or newer is needed (Raspberry Pi OS bookworm's)")
    return Check.ok("Python", text)


def numpy_check(path: list[str] | None = None, system: list[str] | None = None) -> Check:
    placement = numpy_placement(path, system)
    if placement.loaded_version is None:
        return Check("numpy", "fail", "numpy is not installed where this Python looks", INSTALL_FIX)
    if placement.shadowed:  # the install script will not repair this venv: it is removed first
        return Check("numpy", "fail", placement.describe(), SHADOWED_FIX)
    beside = (f"; the system's is {placement.system_version}" if placement.system_version
              and placement.system_path != placement.loaded_path else "")
    origin = "the system's" if placement.loaded_path == placement.system_path else "this venv's"
    return Check.ok("numpy", f"numpy {placement.loaded_version}, {origin} ({placement.loaded_path}){beside}")


def camera_library_check(camera_kind: str) -> Check:
    if camera_kind != "picamera":
        return Check.skip("camera library", f"the camera is [camera] source = {camera_kind!r}, not picamera")
    try:
        library = load_picamera2()
    except CameraLibraryError as error:
        return Check("camera library", "fail", error.cause, error.fix)
    where = getattr(sys.modules.get(library.__module__), "__file__", "") or library.__module__
    return Check.ok("camera library", f"picamera2 imports ({where})")


FrameSize = tuple[int, int] | None


def camera_open_check(config: Any, model: str, attempt: bool = True) -> tuple[Check, FrameSize]:
    """Open the configured camera and read one frame (the service may hold it: then a warning); the
    frame's size when one was read."""
    from vision.sources import FolderSource, PiCameraSource, VideoCaptureSource

    camera = config.camera
    if not attempt:
        return Check.skip("camera", "not opened (--no-camera)"), None
    if camera.kind == "synthetic":
        return Check.ok("camera", "the synthetic camera (no hardware)"), None
    if camera.kind == "picamera" and not model:
        return Check("camera", "fail", "[camera] source = \"picamera\" but this is not a Raspberry Pi",
                     "on a laptop use source = \"usb:0\" or \"folder:PATH\""), None
    source: Any
    if camera.kind == "picamera":
        source = PiCameraSource(size=camera.size)
    elif camera.kind == "usb":
        source = VideoCaptureSource(int(camera.argument or 0))
    elif camera.kind == "video":
        source = VideoCaptureSource(camera.argument, size=None)
    else:
        source = FolderSource(camera.argument)
    return _read_one_frame(source, camera.source)


#: the size a Pi camera's main stream takes when the config gives none: Camera Module 3's full resolution
FULL_SENSOR = (4608, 2592)
#: the camera's buffers may take at most this share of the reserved memory (the display needs some too)
CAMERA_SHARE = 0.8


def camera_memory_check(config: Any, meminfo: Path = Path("/proc/meminfo")) -> Check:
    """Whether the Pi camera's buffers, as the stream plan sets them up, fit the memory reserved for the
    camera (the CMA pool): a camera that cannot allocate its buffers does not start."""
    camera = config.camera
    if camera.kind != "picamera":
        return Check.skip("camera memory", f"the camera is [camera] source = {camera.kind!r}, not picamera")
    reserved = camera_memory(meminfo)
    size = tuple(camera.size) if camera.size else FULL_SENSOR
    plan = plan_streams((int(size[0]), int(size[1])), (), machine_memory(meminfo))
    need = (f"{size[0]} x {size[1]} {plan.main_format}, {plan.buffer_count} buffers: "
            f"{plan.buffer_bytes / 1e6:.0f} MB")
    if reserved is None:
        return Check.skip("camera memory", f"{need}; this machine does not say its camera memory (CmaTotal)")
    of_reserved = f"{need} of the {reserved / 1e6:.0f} MB reserved for the camera"
    if plan.buffer_bytes > CAMERA_SHARE * reserved:
        return Check("camera memory", "warn", of_reserved,
                     "give the camera more memory (dtoverlay=vc4-kms-v3d,cma-512 in "
                     "/boot/firmware/config.txt) or a smaller [camera] width and height")
    return Check.ok("camera memory", of_reserved)


def _read_one_frame(source: Any, name: str) -> tuple[Check, FrameSize]:
    try:
        source.open()
    except CameraLibraryError as error:
        return Check("camera", "fail", f"{name} cannot load its library: {error.cause}", error.fix), None
    except Exception as error:
        text = " ".join(str(error).split())[:300]
        if any(word in text.lower() for word in ("busy", "in use", "acquire")):
            return Check("camera", "warn", f"{name} is busy: {text}",
                         "the service holds it (sudo systemctl stop dinotable to test it here)"), None
        return Check("camera", "fail", f"{name} does not open: {text}",
                     "check the ribbon cable or the USB plug, then companion doctor again"), None
    try:
        deadline = time.monotonic() + CAMERA_TIMEOUT_S
        while time.monotonic() < deadline:
            frame = source.read()
            if frame is not None:
                height, width = frame.image.shape[:2]
                return Check.ok("camera", f"{name}: a {width} x {height} frame read"), (width, height)
            time.sleep(0.05)
        return Check("camera", "fail", f"{name} opened but gave no frame in {CAMERA_TIMEOUT_S:g} s",
                     "check the camera's cable and that nothing else uses it"), None
    except Exception as error:
        return Check("camera", "fail", f"{name}: reading failed ({error})", "check the camera's cable"), None
    finally:
        source.close()


def pins_check(model: str, environ: Mapping[str, str] | None = None) -> Check:
    """Which pin factory the panel gets: lgpio opened on a Pi, mock asked for, or nothing (a fault)."""
    environ = os.environ if environ is None else environ
    if mock_requested(dict(environ)):
        if model:
            return Check("pins", "warn", f"GPIOZERO_PIN_FACTORY=mock on this {model}: the panel's LEDs and "
                         "buttons are not driven", "unset GPIOZERO_PIN_FACTORY (the unit does not set it)")
        return Check.ok("pins", "mock pins, as GPIOZERO_PIN_FACTORY=mock asks")
    if not model:
        return Check.ok("pins", f"not a Raspberry Pi: the panel is the page's virtual one ({MOCK} pins)")
    named = environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if named and named != "lgpio":
        return Check.ok("pins", f"GPIOZERO_PIN_FACTORY={named} on this {model}")
    try:
        from hw import pins

        pins.import_lgpio()  # first: gpiozero's lgpio factory imports lgpio, which needs LG_WD set
        from gpiozero.pins.lgpio import LGPIOFactory

        factory = LGPIOFactory()
        chip = getattr(factory, "_chip", None)
        factory.close()
    except Exception as error:
        text = " ".join(str(error).split())[:240] or type(error).__name__
        return Check("pins", "fail", f"lgpio cannot open the GPIO chip on this {model}: {text}; the panel "
                     "would be dead", pins_fix(error))
    return Check.ok("pins", f"lgpio opens the GPIO chip on this {model}" + (f" ({chip})" if chip else ""))


def gpiochip_check(model: str, pattern: str = "/dev/gpiochip*") -> Check:
    if not model:
        return Check.skip("GPIO devices", "not a Raspberry Pi")
    chips = sorted(glob.glob(pattern))
    if not chips:
        return Check("GPIO devices", "fail", "no /dev/gpiochip* on this Pi", "update the Pi's kernel")
    usable = [chip for chip in chips if os.access(chip, os.R_OK | os.W_OK)]
    if not usable:
        return Check("GPIO devices", "fail", f"{', '.join(chips)} are not readable and writable by this "
                     "user", "run it as the service user (sudo -u dinotable ...), in the gpio group")
    return Check.ok("GPIO devices", f"{', '.join(usable)} usable by this user")


def lgpio_dir_check(environ: Mapping[str, str] | None = None, unit_text: str = "") -> Check:
    """Where lgpio makes its notification pipe: it must be writable, or the pins fall back to mock."""
    environ = dict(os.environ if environ is None else environ)
    directory = lgpio_work_dir(environ)
    named = "LG_WD" in environ and bool(environ["LG_WD"])
    runtime = unit_setting(unit_text, "RuntimeDirectory").split()
    if named and runtime and Path(directory) == Path("/run", runtime[0]) and not os.path.exists(directory):
        return Check.ok("lgpio work directory", f"LG_WD={directory}, which systemd makes each time the "
                        "service starts (RuntimeDirectory)")
    if named and not writable(directory):
        return Check("lgpio work directory", "fail", f"LG_WD={directory} is not writable by this user",
                     "point LG_WD at a writable directory (the unit's RuntimeDirectory)")
    if unit_text and "LG_WD=" not in unit_text:
        return Check("lgpio work directory", "warn", "the installed dinotable.service gives lgpio no work "
                     "directory (LG_WD)", "re-run scripts/pi-install.sh: it installs the current unit")
    if named:
        return Check.ok("lgpio work directory", f"LG_WD={directory} (writable)")
    if writable(directory):
        return Check.ok("lgpio work directory", f"the working directory {directory} (writable)")
    return Check.ok("lgpio work directory", f"the working directory {directory} is read-only: the companion "
                    "points LG_WD at a writable one")


def speech_check(speak: bool, which: Any = None) -> Check:
    """With ``speak = true``: espeak-ng is there to say the companion's moves."""
    import shutil

    if not speak:
        return Check.skip("speech", "speak = false: the companion's moves are shown, not said")
    found = (which or shutil.which)("espeak-ng")
    if found is None:
        return Check("speech", "fail", "speak = true but espeak-ng is not installed",
                     "sudo apt install espeak-ng")
    return Check.ok("speech", f"espeak-ng at {found}")


def machine_checks(config: Any, environ: Mapping[str, str] | None = None, open_camera: bool = True,
                   unit_text: str = "") -> tuple[list[Check], FrameSize]:
    """The machine's checks, and the size of the frame the camera gave (None when none was read)."""
    model = raspberry_pi_model()
    board = (Check.ok("board", model) if model
             else Check.skip("board", f"not a Raspberry Pi ({platform.node()})"))
    size: FrameSize = None

    def camera() -> Check:
        nonlocal size
        found, size = camera_open_check(config, model, open_camera)
        return found

    return [
        board,
        guarded("python", python_check),
        guarded("numpy", numpy_check),
        guarded("camera library", lambda: camera_library_check(config.camera.kind)),
        guarded("camera", camera),
        guarded("camera memory", lambda: camera_memory_check(config)),
        guarded("pins", lambda: pins_check(model, environ)),
        guarded("GPIO devices", lambda: gpiochip_check(model)),
        guarded("lgpio work directory", lambda: lgpio_dir_check(environ, unit_text)),
        guarded("speech", lambda: speech_check(bool(getattr(config, "speak", False)))),
    ], size
