"""Who may change the table: loopback by default; on the LAN, a PIN-backed session.

Every state-changing request (any method but GET/HEAD/OPTIONS) must carry the session's CSRF token and come
from this page's own origin, LAN or not: a page on another site open in the same browser must not be able
to press Confirm. With LAN access on, changes also need a session unlocked with the PIN. In loopback mode
the Host header must name this machine, which stops DNS-rebinding pages from reading the table.
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import secrets
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, jsonify, request, session
from werkzeug.exceptions import HTTPException

from companion.web.app import WebConfig, is_loopback

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
LOGIN_WINDOW_S = 60.0

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)


def web_config() -> WebConfig:
    config: WebConfig = current_app.extensions["web_config"]
    return config


def csrf_token() -> str:
    """This browser session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) != 43:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def pin_fingerprint(config: WebConfig) -> str:
    """Binds a login to the PIN it was made with: changing the PIN logs every browser out."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, (config.pin or "").encode(), hashlib.sha256).hexdigest()[:32]


def is_unlocked() -> bool:
    """May this browser change the table? Always in loopback mode; with the PIN on the LAN."""
    config = web_config()
    if not config.lan:
        return True
    given = session.get("pin")
    return isinstance(given, str) and hmac.compare_digest(given, pin_fingerprint(config))


class LoginLimiter:
    """At most ``attempts`` wrong PINs per client address per minute (a 4-digit PIN is guessable)."""

    def __init__(self, attempts: int) -> None:
        self.attempts = attempts
        self._failures: dict[str, collections.deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str, now: float) -> collections.deque[float]:
        failures = self._failures.setdefault(address, collections.deque())
        while failures and now - failures[0] > LOGIN_WINDOW_S:
            failures.popleft()
        return failures

    def blocked(self, address: str) -> bool:
        with self._lock:
            return len(self._recent(address, time.monotonic())) >= self.attempts

    def failed(self, address: str) -> None:
        with self._lock:
            self._recent(address, time.monotonic()).append(time.monotonic())
            if len(self._failures) > 10_000:  # bounded memory under a flood of spoofed clients
                self._failures.clear()


def check_pin(given: str) -> bool:
    """Check a PIN attempt, counting failures; a blocked client gets 429 before the PIN is compared."""
    config = web_config()
    limiter: LoginLimiter = current_app.extensions["login_limiter"]
    address = request.remote_addr or "?"
    if limiter.blocked(address):
        abort(429, description="too many wrong PINs: wait a minute")
    if config.pin is not None and hmac.compare_digest(given.encode(), config.pin.encode()):
        session.clear()
        session["pin"] = pin_fingerprint(config)
        csrf_token()
        return True
    limiter.failed(address)
    return False


def _same_origin(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme == request.scheme and parts.netloc == request.host


def _check_host(config: WebConfig) -> None:
    hostname = urlsplit(f"//{request.host}").hostname or ""
    if not config.lan and not is_loopback(hostname):
        abort(400, description="this page only answers on this machine (LAN access is off)")
    listed = hostname in config.allowed_hosts or is_loopback(hostname)
    if config.lan and config.allowed_hosts and not listed:
        abort(400, description="unknown Host")


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
    if request.endpoint != "pages.login" and not is_unlocked():
        abort(401, description="enter the table's PIN first")


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def install(app: Flask, config: WebConfig) -> None:
    app.extensions["login_limiter"] = LoginLimiter(config.login_attempts)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["is_unlocked"] = is_unlocked

    @app.before_request
    def guard() -> None:
        _check_host(config)
        if request.method not in SAFE_METHODS:
            _check_change_allowed(config)

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        code = error.code or 500
        message = error.description or error.name
        if _wants_json():
            response = jsonify({"ok": False, "error": message, "status": code})
            response.status_code = code
            return response
        from flask import render_template

        return render_template("error.html", code=code, name=error.name, message=message), code

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        if _wants_json():
            return jsonify({"ok": False, "error": "internal error", "status": 500}), 500
        return "internal error", 500
