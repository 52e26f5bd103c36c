"""Loading the Pi camera library (picamera2) and saying in words why it would not load.

picamera2 comes from Raspberry Pi OS's apt, and so does what it imports when it loads (simplejpeg, built
against the system's numpy). A venv made with ``--system-site-packages`` sees it, but a numpy that pip put
into the venv shadows the system's: a numpy-1.x extension then fails under numpy 2 with "numpy.dtype size
changed" (a ValueError, not an ImportError). :func:`load_picamera2` turns every such failure into one
:class:`CameraLibraryError` that names the cause and the fix; :func:`numpy_placement` tells which numpy
this interpreter loads and which one the system has, without importing either.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INSTALL_FIX = "run scripts/pi-install.sh (it keeps the system's numpy)"
#: a venv that holds a numpy of its own: pi-install.sh refuses to repair one, so it is removed first
SHADOWED_FIX = "remove the venv (sudo rm -r /opt/dinotable/.venv), then run scripts/pi-install.sh"
#: what an extension built against another numpy says when it loads
ABI_SIGNS = ("numpy.dtype size changed", "binary incompatibility", "_ARRAY_API not found",
             "compiled using NumPy 1.x cannot be run in", "numpy.core.multiarray failed to import")


class CameraLibraryError(RuntimeError):
    """picamera2 cannot be imported: ``cause`` says why, ``fix`` what to do (the message holds both).
    Restarting does not mend it."""

    permanent = True

    def __init__(self, cause: str, fix: str = INSTALL_FIX) -> None:
        super().__init__(f"{cause}: {fix}")
        self.cause = cause
        self.fix = fix


@dataclass(frozen=True)
class NumpyPlacement:
    """The numpy this interpreter imports and the one the system's site holds (None: absent)."""

    loaded_version: str | None
    loaded_path: str | None
    system_version: str | None
    system_path: str | None

    @property
    def shadowed(self) -> bool:
        """A numpy of another version in front of the system's (what breaks apt's camera stack)."""
        return (self.system_version is not None and self.loaded_path is not None
                and self.loaded_path != self.system_path and self.loaded_version != self.system_version)

    def describe(self) -> str:
        if self.shadowed:
            return (f"numpy {self.loaded_version} in {self.loaded_path} shadows the system's numpy "
                    f"{self.system_version} that picamera2 was built with")
        where = f" ({self.loaded_path})" if self.loaded_path else ""
        return f"numpy {self.loaded_version or 'not installed'}{where}"


def system_site_dirs(path: Iterable[str] | None = None) -> list[str]:
    """The interpreter's own site directories outside a venv (Debian's dist-packages), in search order."""
    in_venv = sys.prefix != sys.base_prefix
    found = []
    for entry in sys.path if path is None else path:
        if not entry.endswith(("site-packages", "dist-packages")):
            continue
        if in_venv and Path(entry).resolve().is_relative_to(Path(sys.prefix).resolve()):
            continue
        found.append(entry)
    return found


def _distribution_in(name: str, directories: Iterable[str]) -> tuple[str, str] | None:
    for directory in directories:
        for distribution in importlib.metadata.distributions(name=name, path=[directory]):
            return str(distribution.version), str(Path(directory) / name)
    return None


def numpy_placement(path: Iterable[str] | None = None, system: Iterable[str] | None = None) -> NumpyPlacement:
    """Where numpy comes from, read from metadata and the import system (numpy is not imported): the
    search ``path`` (default ``sys.path``) and the ``system`` site directories among it."""
    search = list(sys.path if path is None else path)
    spec = importlib.machinery.PathFinder.find_spec("numpy", search)
    loaded_path = str(Path(spec.origin).parent) if spec is not None and spec.origin else None
    loaded_version = None
    if loaded_path is not None:
        found = _distribution_in("numpy", [str(Path(loaded_path).parent)])
        loaded_version = found[0] if found else None
    system_found = _distribution_in("numpy", system_site_dirs(search) if system is None else system)
    return NumpyPlacement(loaded_version, loaded_path, system_found[0] if system_found else None,
                          system_found[1] if system_found else None)


def explain_import_failure(error: BaseException, placement: NumpyPlacement | None = None) -> str:
    """Why picamera2 did not load, in one clause (the fix is :data:`INSTALL_FIX`)."""
    text = " ".join(str(error).split())[:200]
    if isinstance(error, ModuleNotFoundError) and (error.name or "").split(".")[0] == "picamera2":
        return ("picamera2 is not installed where this Python looks (it comes from apt's python3-picamera2, "
                "seen by a venv made with --system-site-packages)")
    placement = placement or numpy_placement()
    if placement.shadowed or any(sign in text for sign in ABI_SIGNS):
        return f"{placement.describe()} ({text})"
    return f"picamera2 failed to load ({type(error).__name__}: {text})"


def load_picamera2() -> Any:
    """The ``Picamera2`` class, or a :class:`CameraLibraryError` naming the cause and the fix."""
    try:
        from picamera2 import Picamera2
    except Exception as error:  # a numpy ABI clash is a ValueError; a broken install anything at all
        placement = numpy_placement()
        fix = SHADOWED_FIX if placement.shadowed else INSTALL_FIX
        raise CameraLibraryError(explain_import_failure(error, placement), fix) from error
    return Picamera2
