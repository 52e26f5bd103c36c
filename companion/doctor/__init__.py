"""`companion doctor`: what stands between this machine and a working table, one line a check.

Each check returns a :class:`Check` (ok, warn, fail or skip) with what it found and, when it is not ok,
what to do. The checks of the machine (Python, numpy against the camera library, the camera, the pins,
lgpio's work directory) live in :mod:`companion.doctor.machine`; those of the service (its state
directory, the PIN, disk, clock, broker, calibration) in :mod:`companion.doctor.service`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Level = Literal["ok", "warn", "fail", "skip"]
LABELS: dict[Level, str] = {"ok": "ok", "warn": "WARN", "fail": "FAIL", "skip": "--"}


@dataclass(frozen=True)
class Check:
    """One finding: ``name`` (what was checked), ``level``, ``detail`` (what was found), ``fix``."""

    name: str
    level: Level
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "level": self.level, "detail": self.detail, "fix": self.fix}

    @classmethod
    def ok(cls, name: str, detail: str) -> Check:
        return cls(name, "ok", detail)

    @classmethod
    def skip(cls, name: str, detail: str) -> Check:
        return cls(name, "skip", detail)


def guarded(name: str, check: Callable[[], Check]) -> Check:
    """A check that cannot raise: whatever stops it (a folder this user may not look into, a device that
    errs) is its own failure, in words, with what to do."""
    try:
        return check()
    except PermissionError as error:
        where = f" {error.filename}" if error.filename else ""
        return Check(name, "fail", f"this user may not look into{where} ({error.strerror})",
                     "run it as the service user (sudo -u dinotable ...) or as root (sudo companion doctor)")
    except Exception as error:  # a check that fails is a line and its fix, never a traceback
        text = " ".join(str(error).split())[:240] or type(error).__name__
        return Check(name, "fail", f"could not be checked: {text}",
                     "run it again; if it stays, report this line")


def failed(checks: list[Check]) -> bool:
    return any(check.level == "fail" for check in checks)


def report(checks: list[Check], width: int = 110) -> str:
    """The checks as one screen of text: a line each, the fix indented below, and a last line."""
    import textwrap

    name_width = max((len(check.name) for check in checks), default=8) + 2
    indent = " " * (6 + name_width)
    lines = []
    for check in checks:
        head = f"{LABELS[check.level]:<6}{check.name:<{name_width}}"
        lines += textwrap.wrap(check.detail, width, initial_indent=head, subsequent_indent=indent) or [head]
        if check.fix and check.level in ("warn", "fail"):
            lines += textwrap.wrap(f"fix: {check.fix}", width, initial_indent=indent,
                                   subsequent_indent=indent)
    fails = sum(check.level == "fail" for check in checks)
    warns = sum(check.level == "warn" for check in checks)
    if fails or warns:
        problems = f"{fails} problem{'s' if fails != 1 else ''}"
        lines.append(f"{problems}, {warns} warning{'s' if warns != 1 else ''}: the fixes are above")
    else:
        lines.append("everything checked is in order")
    return "\n".join(lines)
