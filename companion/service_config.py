"""A config file that names the service's state directory, so that every command given it (pair, history,
calibrate) uses the store and the PIN the service uses.

``python -m companion.service_config FILE DIR`` sets ``[store] state_dir = "DIR"`` in FILE, keeping its
comments and everything else; ``scripts/pi-install.sh`` runs it on a config that is already there.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

STORE_HEADER = re.compile(r"^\s*\[store\]\s*(#.*)?$")
TABLE_HEADER = re.compile(r"^\s*\[")
STATE_DIR_LINE = re.compile(r"^\s*#?\s*state_dir\s*=")


def set_state_dir(text: str, state_dir: str) -> str:
    """``text`` (a TOML config) with ``[store] state_dir`` set to ``state_dir``."""
    line = f"state_dir = {tomllib_string(state_dir)}   # the service's (systemd StateDirectory)"
    lines = text.splitlines()
    start = next((i for i, value in enumerate(lines) if STORE_HEADER.match(value)), None)
    if start is None:
        result = [*lines, "", "[store]", line]
    else:
        end = next((i for i in range(start + 1, len(lines)) if TABLE_HEADER.match(lines[i])), len(lines))
        body = [value for value in lines[start + 1:end] if not STATE_DIR_LINE.match(value)]
        result = [*lines[: start + 1], line, *body, *lines[end:]]
    new = "\n".join(result)
    parsed = tomllib.loads(new)  # what was written must read back as meant
    if parsed.get("store", {}).get("state_dir") != state_dir:
        raise ValueError("the config's [store] table could not be edited")
    return new


def tomllib_string(value: str) -> str:
    """A TOML basic string."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m companion.service_config CONFIG STATE_DIR", file=sys.stderr)
        return 2
    path, state_dir = Path(argv[0]), argv[1]
    try:
        text = path.read_text(encoding="utf-8")
        new = set_state_dir(text, state_dir)
        if new.rstrip("\n") != text.rstrip("\n"):
            path.write_text(new + "\n", encoding="utf-8")
            print(f"{path}: [store] state_dir = {state_dir}")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"error: {path}: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
