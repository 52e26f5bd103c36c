"""The app factory of the table's page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion.pairing import resolve_secret
from companion.table.session import TableHands, TableSession
from companion.web.settings import WebConfig


def create_app(session: TableSession, config: WebConfig | Mapping[str, Any] | None = None,
               hands: TableHands | None = None) -> Flask:
    """The Flask app for one live table. ``config`` is a :class:`WebConfig` or its mapping form;
    ``hands``: a synthetic table's hands (a move tapped on the page is made on the table)."""
    from companion import drawing
    from companion.web import api, hints, language, pages, security
    from lan.look import house_blueprint

    if not isinstance(config, WebConfig):
        config = WebConfig.from_mapping(config)
    app = Flask(__name__, static_folder="static", template_folder="templates")
    # Never the debugger, whatever the environment says: it runs arbitrary code for whoever reaches it.
    app.debug = False
    app.config.update(
        SECRET_KEY=config.secret_key or resolve_secret(config.state_dir),
        MAX_CONTENT_LENGTH=config.max_body,
        MAX_FORM_MEMORY_SIZE=min(config.max_body, 64 * 1024),
        MAX_FORM_PARTS=50,
        SESSION_COOKIE_NAME="dinotable",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=config.https,
        PERMANENT_SESSION_LIFETIME=int(config.session_hours * 3600),
        JSON_SORT_KEYS=False,
        TEMPLATES_AUTO_RELOAD=False,
        PROPAGATE_EXCEPTIONS=False,
        TRAP_HTTP_EXCEPTIONS=False,
    )
    app.extensions["table_session"] = session
    app.extensions["table_hands"] = hands
    app.extensions["web_config"] = config
    security.install(app, config)
    language.install(app)
    app.register_blueprint(house_blueprint())
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(api.blueprint, url_prefix="/api")
    app.register_blueprint(hints.blueprint, url_prefix="/api")
    app.jinja_env.globals["web_config"] = config
    app.jinja_env.globals["table_by_hand"] = hands is not None
    app.jinja_env.globals["rgb"] = drawing.rgb
    return app
