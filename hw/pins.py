"""Which pins the panel drives, and saying so when they are not real.

gpiozero picks its pin factory by its own rules (``GPIOZERO_PIN_FACTORY``, else lgpio, RPi.GPIO, pigpio,
native in turn). Two things go wrong on a Pi without a word: lgpio makes its notification pipe in
``$LG_WD`` or the working directory when it is imported, and a service's working directory is read-only
(``ProtectSystem=strict``), so lgpio fails; and a factory that fails to load made the companion run on
mock pins with one warning in the journal. :func:`prepare_lgpio` gives lgpio a writable work directory
before gpiozero imports it; :class:`PinReport` says which factory drives the panel, and a Pi whose panel
runs on mock pins it did not ask for is a ``fault`` that the page and ``companion doctor`` show.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

MOCK = "mock"
#: where a service's writable directories are announced, in the order tried for lgpio's work directory
WRITABLE_ENVIRONMENT = ("RUNTIME_DIRECTORY", "STATE_DIRECTORY", "XDG_RUNTIME_DIR")
PI_FIX = ("run scripts/pi-install.sh (the service user in the gpio group, python3-lgpio, a writable "
          "LG_WD), then companion doctor")


def pins_fix(error: BaseException | str, chips: str = "/dev/gpiochip*") -> str:
    """What to do about pins that do not open, for the cause the machine shows: no GPIO chip at all (no
    install mends that), chips this user may not use, lgpio missing, or else the install's steps."""
    import glob

    found = sorted(glob.glob(chips))
    if not found:
        return ("the kernel shows no /dev/gpiochip*: update Raspberry Pi OS (sudo apt full-upgrade) and "
                "reboot; in a container, pass the GPIO devices through")
    if not any(os.access(chip, os.R_OK | os.W_OK) for chip in found):
        return (f"{', '.join(found)} are not this user's to use: the service user is in the gpio group "
                "(run it as sudo -u dinotable ...); after adding a user to the group, log in again")
    if isinstance(error, ImportError) or "No module named 'lgpio'" in str(error):
        return "sudo apt install python3-lgpio"
    return PI_FIX


def raspberry_pi_model(path: str = "/proc/device-tree/model") -> str:
    """The board's model string ("Raspberry Pi 5 Model B Rev 1.0"), or "" when this is not a Pi."""
    try:
        model = Path(path).read_text(encoding="utf-8", errors="ignore").strip("\x00\n ")
    except OSError:
        return ""
    return model if "Raspberry Pi" in model else ""


def writable(directory: str | os.PathLike[str]) -> bool:
    return os.path.isdir(directory) and os.access(directory, os.W_OK | os.X_OK)


def lgpio_work_dir(environ: MutableMapping[str, str] | None = None) -> str:
    """The directory lgpio will make its pipe in: ``$LG_WD``, else the working directory."""
    environ = os.environ if environ is None else environ
    return environ.get("LG_WD") or os.getcwd()


def prepare_lgpio(environ: MutableMapping[str, str] | None = None) -> str:
    """Point ``LG_WD`` at a writable directory when it is unset and the working directory is not
    writable (the service's case); returns the directory lgpio will use. lgpio's import also changes the
    working directory to ``LG_WD``: :func:`import_lgpio` puts it back."""
    environ = os.environ if environ is None else environ
    if environ.get("LG_WD") or writable(os.getcwd()):
        return lgpio_work_dir(environ)
    for name in WRITABLE_ENVIRONMENT:
        for candidate in (environ.get(name) or "").split(":"):
            if candidate and writable(candidate):
                environ["LG_WD"] = candidate
                return candidate
    environ["LG_WD"] = tempfile.gettempdir()
    return environ["LG_WD"]


def import_lgpio() -> object:
    """Import lgpio with a writable work directory, keeping the process's working directory."""
    prepare_lgpio()
    here = os.getcwd()
    try:
        import lgpio
    finally:
        if os.getcwd() != here:
            os.chdir(here)  # lgpio's C side changed into LG_WD; relative paths of ours stay ours
    return lgpio


@dataclass(frozen=True)
class PinReport:
    """What drives the panel: the factory's name, whether the pins are real, and a fault in words."""

    factory: str
    real: bool
    asked_for: bool = False
    fault: str = ""
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"factory": self.factory, "real": self.real, "asked_for": self.asked_for,
                "fault": self.fault, "note": self.note}


def factory_name(factory: object) -> str:
    """gpiozero's short name of a pin factory (LGPIOFactory -> lgpio, MockFactory -> mock)."""
    name = type(factory).__name__
    for suffix in ("Factory",):
        name = name.removesuffix(suffix)
    return {"LGPIO": "lgpio", "RPiGPIO": "rpigpio", "PiGPIO": "pigpio", "Native": "native",
            "Mock": MOCK}.get(name, name.lower())


def mock_requested(environ: MutableMapping[str, str] | None = None) -> bool:
    environ = os.environ if environ is None else environ
    return environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower() == MOCK


def fallback_report(error: BaseException | str, model: str, fallbacks: list[str]) -> PinReport:
    """The report for a panel that had to take mock pins: a fault on a Pi, a note anywhere else."""
    why = " ".join(str(error).split())[:240] or type(error).__name__
    tried = f" (after: {'; '.join(fallbacks)[:240]})" if fallbacks else ""
    if model:
        return PinReport(MOCK, real=False, fault=(
            f"the panel is not connected: no GPIO pin factory loaded on this {model} ({why}){tried}; "
            "its LEDs, buzzer and buttons are dead, the page's virtual panel still works: "
            f"{pins_fix(error)}"))
    return PinReport(MOCK, real=False, note=(
        f"no GPIO on this machine ({why}): the panel is the page's virtual one "
        "(GPIOZERO_PIN_FACTORY=mock says so without this note)"))
