"""Who may see and change the table.

- Loopback mode (LAN access off): only this machine can connect, and the Host header must name this
  machine, which stops DNS-rebinding pages from reading the table.
- LAN mode, the normal mode on a Pi: only this machine's own names and addresses are answered
  (:mod:`lan.hosts`); every page, the camera and the live stream need a session opened with the
  PIN (:mod:`companion.web.sessions`), or a watch-only session from the spectator link; wrong PINs are
  throttled (:mod:`companion.web.throttle`).
- Every state-changing request (any method but GET/HEAD/OPTIONS) must carry the session's CSRF token and
  come from this page's own origin, LAN or not: a page on another site open in the same browser must not be
  able to press Confirm.
"""

from __future__ import annotations

import hmac
import math
import secrets
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, jsonify, redirect, render_template, request, session
from werkzeug.exceptions import HTTPException, TooManyRequests
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.pairing import PIN_FILE, kept_pin, pin_mark, spectator_token
from companion.web.sessions import SessionBook
from companion.web.settings import WebConfig
from companion.web.throttle import Client, LoginThrottle
from lan.headers import page_headers
from lan.hosts import OwnHosts, is_loopback

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: a phone that once entered the right PIN: ``<id>.<signature>``, kept a year, void once the PIN changes
DEVICE_COOKIE = "dinotable-device"
DEVICE_DAYS = 365
#: the table's own Mode button lets a new phone log in this long after it is pressed
BUTTON_WINDOW_S = 120.0
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
#: what a browser without a session may ask for in LAN mode
PUBLIC_ENDPOINTS = frozenset({"pages.login", "pages.watch", "static", "house.static"})
MAX_NEXT = 512

def web_config() -> WebConfig:
    config: WebConfig = current_app.extensions["web_config"]
    return _with_kept_pin(config) if config.pin_kept else config


def _book() -> SessionBook:
    book: SessionBook = current_app.extensions["session_book"]
    return book


def csrf_token() -> str:
    """This browser session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) != 43:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def access() -> str | None:
    """What this browser may do: ``player`` (watch and change), ``spectator`` (watch), or None."""
    if not web_config().lan:
        return "player"
    return _book().kind_of(session.get("sid"))


def is_unlocked() -> bool:
    """May this browser change the table? Always in loopback mode; with the PIN on the LAN."""
    return access() == "player"


def _open_session(kind: str) -> None:
    """A fresh session of ``kind`` (a new id and token: a session id fixed before login is worth nothing)."""
    _book().close(session.get("sid"))
    session.clear()
    session.permanent = True
    session["sid"] = _book().open(kind)
    csrf_token()


def end_session() -> None:
    _book().close(session.get("sid"))
    session.clear()


def spectator_link_token() -> str | None:
    config = web_config()
    if not config.lan or not config.spectators or not config.pin:
        return None
    return spectator_token(str(current_app.config["SECRET_KEY"]), config.pin)


def watch(token: str) -> bool:
    """Open a watch-only session when ``token`` is the spectator link's."""
    expected = spectator_link_token()
    if expected is None or not hmac.compare_digest(token.encode(), expected.encode()):
        return False
    if access() != "player":
        _open_session("spectator")
    return True


def _device_signature(device: str) -> str:
    mark = pin_mark(str(current_app.config["SECRET_KEY"]), web_config().pin or "")
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"device:{device}:{mark}".encode(), "sha256").hexdigest()[:32]


def paired_device() -> str | None:
    """The id in this browser's device cookie when its signature holds (it once entered this PIN)."""
    cookie = request.cookies.get(DEVICE_COOKIE, "")
    device, _, signature = cookie.partition(".")
    if not device or len(cookie) > 80 or not hmac.compare_digest(signature, _device_signature(device)):
        return None
    return device


def remember_device(response: WerkzeugResponse) -> None:
    """Mark this browser as a paired phone (set after a right PIN)."""
    device = paired_device() or secrets.token_urlsafe(12)
    response.set_cookie(DEVICE_COOKIE, f"{device}.{_device_signature(device)}", max_age=DEVICE_DAYS * 86400,
                        httponly=True, samesite="Strict", secure=web_config().https)


def _client() -> Client:
    return Client(request.remote_addr or "?", paired_device())


def _with_kept_pin(config: WebConfig) -> WebConfig:
    """``config`` with the PIN now kept in the state directory: one that changed there (a new one made
    while the table runs, an owner's edit) applies at once, and the sessions of the old one end."""
    try:
        stamp = (config.state_dir / PIN_FILE).stat().st_mtime_ns if config.state_dir is not None else 0
    except OSError:
        return config
    if current_app.extensions.get("pin_stamp") == stamp:
        return config
    current_app.extensions["pin_stamp"] = stamp
    kept = kept_pin(config.state_dir)
    if kept is None or kept == config.pin:
        return config
    config = replace(config, pin=kept)
    current_app.extensions["web_config"] = config
    _book().bind_pin(pin_mark(str(current_app.config["SECRET_KEY"]), kept))
    current_app.logger.warning("the table's PIN changed in %s: the new one applies now", config.state_dir)
    return config


def check_pin(given: str) -> bool:
    """Check a PIN attempt; a blocked client gets 429 before the PIN is compared."""
    config = web_config()
    throttle: LoginThrottle = current_app.extensions["login_throttle"]
    client = _client()
    wait = throttle.wait_s(client)
    if wait > 0:
        hint = "" if client.paired else " (or press Mode on the table's panel, then enter the PIN)"
        refusal = TooManyRequests(description=f"too many wrong PINs: try again in {math.ceil(wait)} s{hint}")
        refusal.retry_after = math.ceil(wait)
        raise refusal
    if config.pin is not None and hmac.compare_digest(given.encode(), config.pin.encode()):
        throttle.succeeded(client)
        _open_session("player")
        return True
    throttle.failed(client)
    paired = " (a paired phone)" if client.paired else ""
    current_app.logger.warning("wrong PIN from %s%s", client.address, paired)
    return False


def safe_next(target: str | None) -> str:
    """Where to go after logging in: a path on this site, never another site (``//evil``, ``/\\t/evil``)."""
    if not target or len(target) > MAX_NEXT or "\\" in target:
        return "/"
    if any(ord(char) <= 0x20 or ord(char) == 0x7F for char in target):
        return "/"  # browsers drop tabs and newlines from URLs: "/\\t/evil" would become "//evil"
    if not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def _same_origin(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == request.scheme and parts.netloc == request.host


def _check_host(config: WebConfig) -> None:
    hostname = urlsplit(f"//{request.host}").hostname or ""
    if is_loopback(hostname):
        return
    if not config.lan:
        abort(400, description="this page only answers on this machine (LAN access is off)")
    hosts: OwnHosts = current_app.extensions["own_hosts"]
    if not hosts.allows(hostname):
        abort(400, description="unknown Host: this table answers only to its own names and addresses")


def _check_reader(config: WebConfig) -> Any:
    if not config.lan or request.endpoint in PUBLIC_ENDPOINTS or access() is not None:
        return None
    if _wants_json() or request.endpoint in (None, "api.events"):
        abort(401, description="enter the table's PIN first")
    target = request.full_path if request.query_string else request.path
    return redirect(f"/login?next={_quoted(safe_next(target))}")


def _quoted(path: str) -> str:
    from urllib.parse import quote

    return quote(path, safe="/")


def _check_change_allowed(config: WebConfig) -> None:
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        abort(403, description="cross-site request refused")
    origin = request.headers.get("Origin")
    if origin is not None:
        if not _same_origin(origin):
            abort(403, description="request from another origin refused")
    else:
        referer = request.headers.get("Referer")
        if referer is None or not _same_origin(referer):
            abort(403, description="changes need the Origin header of this page")
    expected = session.get("csrf")
    given = request.headers.get(CSRF_HEADER)
    if given is None and request.mimetype == "application/x-www-form-urlencoded":
        given = request.form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not isinstance(given, str) or not hmac.compare_digest(
        expected.encode(), given.encode()
    ):
        abort(403, description="missing or wrong CSRF token: reload the page")
    if request.endpoint in ("pages.login", "language.choose"):  # a watcher may log in and pick a language
        return
    kind = access()
    if kind == "spectator":
        abort(403, description="this is a watch-only link: enter the table's PIN to change the game")
    if kind != "player":
        abort(401, description="enter the table's PIN first")


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def install(app: Flask, config: WebConfig) -> None:
    session_of_table = app.extensions["table_session"]
    app.extensions["login_throttle"] = LoginThrottle(
        free_attempts=config.login_attempts, budget=config.login_budget,
        button_window=lambda: session_of_table.button_pressed_within("mode", BUTTON_WINDOW_S),
    )
    book_path = config.state_dir / "web-sessions.json" if config.state_dir is not None else None
    book = SessionBook(config.idle_hours * 3600, config.session_hours * 3600, book_path)
    book.bind_pin(pin_mark(str(app.config["SECRET_KEY"]), config.pin or ""))
    app.extensions["session_book"] = book
    app.extensions["own_hosts"] = OwnHosts(config.allowed_hosts)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_unlocked"] = is_unlocked
    app.jinja_env.globals["access"] = access

    @app.before_request
    def guard() -> Any:
        _check_host(config)
        if request.method not in SAFE_METHODS:
            _check_change_allowed(config)
            return None
        return _check_reader(config)

    @app.after_request
    def headers(response: Response) -> Response:
        page_headers(response)
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        if config.https:
            response.headers["Strict-Transport-Security"] = "max-age=31536000"
        if request.path.startswith("/api/") or config.lan:
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    install_error_pages(app)


def install_error_pages(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        code = error.code or 500
        message = error.description or error.name
        if _wants_json():
            response = jsonify({"ok": False, "error": message, "status": code})
            response.status_code = code
        else:
            response = Response(render_template("error.html", code=code, name=error.name, message=message),
                                status=code, mimetype="text/html")
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        if _wants_json():
            return jsonify({"ok": False, "error": "internal error", "status": 500}), 500
        return "internal error", 500
