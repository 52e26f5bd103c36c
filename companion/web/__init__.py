"""The web page: a Flask app over a :class:`companion.table.session.TableSession`.

``create_app(session, config)`` is the only entry point. The app never reaches into the loop: every page
and endpoint asks the session protocol, and the shared view (``state.view(None)``) is all it ever shows.
"""

from __future__ import annotations

from companion.web.app import create_app
from companion.web.settings import WebConfig

__all__ = ["WebConfig", "create_app"]
