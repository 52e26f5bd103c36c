"""A player's own phone: the seat it plays, and private hints for that seat.

A phone takes a seat (one phone per seat and game, until it lets it go); on that phone, and only there,
the player to move may ask what the companion would do. The hint is decided from that seat's view alone
and answered to that request only: never in the snapshot, the live stream, the history or the logs. The
game is marked assisted in its history and exports.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify

from companion import words
from companion.i18n import gettext
from companion.web import security
from companion.web.api import ask, table
from companion.web.validate import field, json_object, only_fields

blueprint = Blueprint("hints", __name__)

_LOCK = threading.Lock()


def _claims(game_id: Any) -> dict[str, str]:
    """Which phone holds which seat of the game (player -> the phone's session token); a new game's
    seats are all free. Call with ``_LOCK`` held."""
    book: dict[Any, dict[str, str]] = current_app.extensions.setdefault("dinotable_seats", {})
    for old in [gid for gid in book if gid != game_id]:  # a new game: every seat is free again
        del book[old]
    return book.setdefault(game_id, {})


def held_seat(snap: dict[str, Any]) -> str | None:
    """The seat this phone holds in the game of ``snap`` (None: it only watches)."""
    device = security.csrf_token()
    with _LOCK:
        claims = _claims(snap.get("game_id"))
        return next((player for player, holder in claims.items() if holder == device), None)


@blueprint.post("/seat")
def take_seat() -> Response:
    """Take a seat on this phone (``{"seat": player}``), or let it go (``{"seat": null}``)."""
    data = json_object()
    only_fields(data, {"seat"})
    seat = field(data, "seat", (str, type(None)), check=lambda s: s is None or 0 < len(s) <= 40)
    snap = ask(table().snapshot)
    players = {p["name"]: p for p in snap.get("players") or []}
    if seat is not None and seat not in players:
        abort(400, description="no such seat in this game")
    if seat is not None and players[seat].get("companion"):
        return _refused(gettext("The companion plays that seat."))
    device = security.csrf_token()
    with _LOCK:
        claims = _claims(snap.get("game_id"))
        holder = claims.get(seat) if seat is not None else None
        if holder is not None and holder != device:
            return _refused(gettext("That seat is another phone's: let it go there first."))
        for player in [p for p, h in claims.items() if h == device]:
            del claims[player]
        if seat is not None:
            claims[seat] = device
    return jsonify({"ok": True, "seat": seat})


@blueprint.post("/hint")
def ask_hint() -> Response:
    """What the companion would do for this phone's seat, when that seat is to move."""
    only_fields(json_object(), set())
    snap = ask(table().snapshot)
    seat = held_seat(snap)
    if seat is None:
        return _refused(gettext("Take your seat on this phone first: a hint is for its own player only."))
    if snap.get("current") != seat:
        return _refused(gettext("A hint is for the player to move."))
    answer = ask(table().hint, seat)
    if not answer.get("ok"):
        return _refused(words.in_words(str(answer.get("error", "")), snap))
    response = jsonify({"ok": True, "seat": seat, "action": answer["action"], "why": answer.get("why"),
                        "words": words.action_label(answer["action"], snap)})
    response.headers["Cache-Control"] = "no-store"
    return response


def _refused(text: str) -> Response:
    response = jsonify({"ok": False, "error": text})
    response.status_code = 409
    return response
