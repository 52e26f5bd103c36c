"""The house look that the table's page and the café board both wear: one stylesheet and the icon."""

from __future__ import annotations

from flask import Blueprint


def house_blueprint() -> Blueprint:
    """Serves ``lan/static`` at ``/house/`` (``url_for('house.static', filename='style.css')``)."""
    return Blueprint("house", __name__, static_folder="static", static_url_path="/house")
