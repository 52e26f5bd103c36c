"""Which language each reader's page speaks: the device's own choice (a cookie set from the page's language
picker), else the browser's ``Accept-Language``, else the language of the game's edition, else English.
Each request is made in its reader's language, so two phones at one table may read two languages."""

from __future__ import annotations

from flask import Blueprint, Flask, abort, current_app, redirect, request
from werkzeug.wrappers import Response

from companion import i18n
from companion.web.security import safe_next
from lan.language import install as pages_in_language

blueprint = Blueprint("language", __name__)

COOKIE = "dinotable_lang"
YEAR_S = 365 * 24 * 3600


def chosen() -> str:
    """The request's language, as the module docstring orders the sources."""
    own = i18n.supported(request.cookies.get(COOKIE))
    if own:
        return own
    # the edition is asked of the table only when the browser names none of the languages
    return (i18n.asked_for(request.headers.get("Accept-Language")) or i18n.supported(_edition_language())
            or i18n.DEFAULT)


def _edition_language() -> str | None:
    try:
        settings = current_app.extensions["table_session"].settings()
    except Exception:  # the table restarting: the page still answers, in the browser's language or English
        return None
    from companion.kits import find_kit

    kit = find_kit(str(settings.get("game") or "")) if isinstance(settings, dict) else None
    return kit.edition_language(settings.get("options") or {}) if kit is not None else None


@blueprint.post("/language")
def choose() -> Response:
    """The picker at the foot of every page: remember this device's language and go back where it was."""
    asked = request.form.get("lang")
    code = i18n.supported(asked)
    if asked is None or (asked and code is None):
        abort(400, description="pick one of the languages offered")
    response = redirect(safe_next(request.form.get("next")))
    if code:
        response.set_cookie(COOKIE, code, max_age=YEAR_S, httponly=True, samesite="Lax",
                            secure=request.is_secure)
    else:  # "the browser's language": the device's own choice is forgotten
        response.delete_cookie(COOKIE)
    return response


def install(app: Flask) -> None:
    app.register_blueprint(blueprint)
    pages_in_language(app, chosen)
    app.jinja_env.globals["language_chosen_here"] = lambda: i18n.supported(request.cookies.get(COOKIE))
