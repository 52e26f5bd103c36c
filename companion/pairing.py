"""Pairing a phone with the table: the PIN, the secrets kept in the state directory, the pairing QR code.

- A PIN is 6 to 12 digits, or a passphrase of 10 to 128 characters; shorter ones are guessable.
- With no PIN in the config, one of 6 digits is generated at first start and kept in
  ``<state_dir>/web-pin`` (mode 0600), so it survives restarts; the service logs it to the journal.
- The key that signs session cookies is kept beside it (``web-secret``), so a restart (the watchdog's
  included) does not log every phone out.
- The pairing link is the login page with the PIN in the URL's fragment (``/login#pin=...``): browsers
  never send a fragment to the server, so the PIN does not reach a log; the login page fills it in.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

PIN_DIGITS_MIN = 6
PIN_DIGITS_MAX = 12
PASSPHRASE_MIN = 10
PASSPHRASE_MAX = 128
GENERATED_DIGITS = 6
PIN_FILE = "web-pin"
SECRET_FILE = "web-secret"


def pin_problem(pin: str) -> str | None:
    """Why ``pin`` cannot be the table's PIN (None: it can)."""
    if pin.isdigit() and pin.isascii():
        if not PIN_DIGITS_MIN <= len(pin) <= PIN_DIGITS_MAX:
            return f"a PIN needs {PIN_DIGITS_MIN} to {PIN_DIGITS_MAX} digits (or a passphrase of " \
                   f"{PASSPHRASE_MIN} characters or more)"
        return None
    if not PASSPHRASE_MIN <= len(pin) <= PASSPHRASE_MAX:
        return f"a passphrase needs {PASSPHRASE_MIN} to {PASSPHRASE_MAX} characters (or use 6 to 12 digits)"
    if not pin.isprintable() or pin != pin.strip():
        return "a passphrase is printable text without leading or trailing spaces"
    return None


def is_numeric(pin: str | None) -> bool:
    return bool(pin) and pin is not None and pin.isdigit() and pin.isascii()


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
    os.replace(temporary, path)


def _read_private(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def resolve_pin(configured: str, state_dir: Path | None) -> tuple[str, bool]:
    """The table's PIN and whether it was generated now: the config's PIN when set, else the one kept in
    the state directory, else a new one (kept there when there is a state directory)."""
    if configured:
        problem = pin_problem(configured)
        if problem:
            raise ValueError(problem)
        return configured, False
    path = state_dir / PIN_FILE if state_dir is not None else None
    kept = kept_pin(state_dir)
    if kept is not None:
        return kept, False
    pin = "".join(secrets.choice("0123456789") for _ in range(GENERATED_DIGITS))
    if path is not None:
        _write_private(path, pin)
    return pin, True


def kept_pin(state_dir: Path | None) -> str | None:
    """The PIN kept in the state directory (a good one), or None."""
    kept = _read_private(state_dir / PIN_FILE) if state_dir is not None else None
    return kept if kept is not None and pin_problem(kept) is None else None


def resolve_secret(state_dir: Path | None) -> str:
    """The key that signs session cookies: kept in the state directory, random when there is none."""
    path = state_dir / SECRET_FILE if state_dir is not None else None
    kept = _read_private(path) if path is not None else None
    if kept is not None and len(kept) >= 32:
        return kept
    secret = secrets.token_hex(32)
    if path is not None:
        with contextlib.suppress(OSError):  # a read-only state directory: sessions last until a restart
            _write_private(path, secret)
    return secret


def pin_mark(secret: str, pin: str) -> str:
    """A keyed digest of the PIN: sessions opened under another PIN are closed."""
    return hmac.new(secret.encode(), b"pin:" + pin.encode(), hashlib.sha256).hexdigest()[:32]


def spectator_token(secret: str, pin: str) -> str:
    """The secret part of the watch-only link; it changes with the PIN."""
    digest = hmac.new(secret.encode(), b"spectate:" + pin.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def pairing_url(base_url: str, pin: str) -> str:
    """The login page with the PIN in the fragment: scanning it pairs a phone."""
    from urllib.parse import quote

    return f"{base_url.rstrip('/')}/login#pin={quote(pin, safe='')}"


def qr_svg(text: str, scale: int = 6) -> str:
    """A QR code as an SVG document (for the page and the printed card)."""
    import io

    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="svg", scale=scale, border=4, xmldecl=False)
    return buffer.getvalue().decode("utf-8")


def qr_data_uri(text: str, scale: int = 6) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(qr_svg(text, scale).encode()).decode()
