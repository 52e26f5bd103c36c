"""A Flask app's pages in each reader's language: the Jinja i18n extension with the LAN's gettext, and the
request's language set before it is answered and forgotten after (the thread serves other readers next)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, g, request

from lan import i18n


def browser_language() -> str:
    """The request's language as its browser's ``Accept-Language`` asks (English when it names none)."""
    return i18n.negotiate(request.headers.get("Accept-Language"))


def install(app: Flask, chosen: Callable[[], str] = browser_language) -> None:
    """Every page of ``app`` in the language ``chosen()`` says for its request; ``_``, ``gettext``,
    ``ngettext`` and ``pgettext`` in its templates, ``current_language()`` for ``<html lang>``."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext, npgettext=i18n.npgettext)
    app.jinja_env.globals["languages"] = i18n.LANGUAGES
    app.jinja_env.globals["current_language"] = i18n.language

    @app.before_request
    def speak() -> Any:
        g.language_token = i18n.enter(chosen())
        return None

    @app.teardown_request
    def stop_speaking(error: BaseException | None) -> None:
        token = g.pop("language_token", None)
        if token is not None:
            i18n.leave(token)
