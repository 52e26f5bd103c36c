"""JSON, pictures and server-sent events: everything the page's script asks for."""

from __future__ import annotations

import collections
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask import session as flask_session

from companion import drawing, exports, i18n, words
from companion.config import COMPANION_LEVELS
from companion.shared_view import shareable
from companion.status_words import sentence_words
from companion.store import StoreError
from companion.table.session import TableHands, TableSession
from companion.web import security, svg
from companion.web.streams import StreamSlots
from companion.web.validate import field, json_object, only_fields, query_int
from engines.core import EngineError
from hw.signals import BUTTONS

blueprint = Blueprint("api", __name__)

MAX_OPTION_INDEX = 10_000
T = TypeVar("T")


def table() -> TableSession:
    session: TableSession = current_app.extensions["table_session"]
    return session


def ask(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Call the session, turning its refusals of bad input into clean 4xx answers."""
    try:
        return call(*args, **kwargs)
    except LookupError as error:
        abort(404, description=_message(error, "not found"))
    except (EngineError, ValueError, TypeError) as error:
        abort(400, description=_message(error, "bad request"))
    except StoreError as error:  # the stored game cannot answer (an event log the engine refuses)
        abort(409, description=_message(error, "the store cannot answer that"))


def _message(error: Exception, fallback: str) -> str:
    text = str(error.args[0]) if error.args else ""
    return text[:300] or fallback


def shared_snapshot() -> dict[str, Any]:
    """The session's snapshot with every legal move that could name a concealed holding left out."""
    snap = dict(ask(table().snapshot))
    legal = snap.get("legal")
    if isinstance(legal, list):
        snap["legal"] = shareable(legal, str(snap.get("game") or "") or None)
    return snap


def _game_id() -> int | None:
    return query_int("game", low=0)


def _answer(result: dict[str, Any]) -> Response:
    """A session answer: refusals (``ok`` false: illegal, nothing pending...) are 409 Conflict, their
    message in the game's words."""
    if not result.get("ok", True) and isinstance(result.get("error"), str):
        game = ask(table().settings).get("game")  # the settings name it; a snapshot would build the page's
        result = {**result, "error": words.in_words(result["error"], {"game": game})}
    response = jsonify(result)
    if not result.get("ok", True):
        response.status_code = 409
    return response


def _jpeg(data: bytes | None, what: str) -> Response:
    if not data:
        abort(404, description=f"no {what} yet")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _svg(text: str) -> Response:
    return Response(text, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@blueprint.get("/snapshot")
def snapshot() -> Response:
    """The shared snapshot, with what the page says of it in the reader's language (``words``)."""
    return jsonify(spoken_snapshot(shared_snapshot()))


def spoken_snapshot(snap: dict[str, Any]) -> dict[str, Any]:
    """``snap`` with its sentences in the language of the request: the status line, the last move, the
    player to act and what is pending (its ``text`` too)."""
    spoken: dict[str, Any] = {"language": i18n.language(), "next_step": words.next_step(snap)}
    last = snap.get("last_event")
    if isinstance(last, dict):
        spoken["last_move"] = words.event_sentence(last, snap)
        rule = last.get("rule")
        if isinstance(rule, dict):  # the rule's title and the project's reading; the passage as printed
            said_rule = {key: i18n.gettext(rule[key]) for key in ("title", "note")
                         if isinstance(rule.get(key), str) and rule[key]}
            snap = {**snap, "last_event": {**last, "rule": {**rule, **said_rule}}}
    problems = snap.get("problems")
    if isinstance(problems, list):
        snap = {**snap, "problems": [
            {**problem, "text": sentence_words(problem.get("said"), problem.get("text"))}
            for problem in problems if isinstance(problem, dict)]}
    if snap.get("current"):
        spoken["turn"] = i18n.gettext("%(player)s to play") % {"player": words.who(snap["current"], snap)}
    pending = snap.get("pending")
    if isinstance(pending, dict):
        spoken["pending"] = words.said_words(pending.get("said"), pending.get("text"), snap)
        snap = {**snap, "pending": {**pending, "text": spoken["pending"]}}
    return {**snap, "words": spoken}


@blueprint.get("/frame.jpg")
def frame() -> Response:
    """The latest camera frame; scaled down for screens unless ``full=1`` (a Pi camera's 2304-pixel JPEG
    is several hundred kilobytes, twice a second, per browser)."""
    raw = request.args.get("raw", "0")
    full = request.args.get("full", "0")
    if raw not in ("0", "1") or full not in ("0", "1"):
        abort(400, description="raw and full must be 0 or 1")
    data = ask(table().frame_jpeg, annotated=raw == "0")
    if data and full == "0":
        data = screen_sized(data)
    return _jpeg(data, "camera frame")


SCREEN_WIDTH = 1280
THUMB_WIDTH = 240
_scaled_cache: collections.OrderedDict[tuple[int, int, int], bytes] = collections.OrderedDict()
_scaled_lock = threading.Lock()
_REDUCED = ((8, "IMREAD_REDUCED_COLOR_8"), (4, "IMREAD_REDUCED_COLOR_4"),
            (2, "IMREAD_REDUCED_COLOR_2"), (1, "IMREAD_COLOR"))


def screen_sized(data: bytes) -> bytes:
    return scaled_jpeg(data, SCREEN_WIDTH)


def scaled_jpeg(data: bytes, max_width: int) -> bytes:
    """A JPEG at most ``max_width`` wide, decoded at a reduced scale where it can be (fast); the last
    64 results are cached, so many browsers asking for the same frame cost one scaling."""
    key = (len(data), hash(data), max_width)
    with _scaled_lock:  # one scaling at a time: a burst of requests waits for it and shares it
        if key in _scaled_cache:
            _scaled_cache.move_to_end(key)
            return _scaled_cache[key]
        smaller = _scaled(data, max_width)
        _scaled_cache[key] = smaller
        while len(_scaled_cache) > 64:
            _scaled_cache.popitem(last=False)
        return smaller


def _scaled(data: bytes, max_width: int) -> bytes:
    import cv2
    import numpy as np

    buffer = np.frombuffer(data, np.uint8)
    probe = cv2.imdecode(buffer, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if probe is None:
        return data
    width = probe.shape[1] * 8
    if width <= max_width * 1.25:
        return data
    flag = next(name for f, name in _REDUCED if width / f >= max_width or f == 1)
    image = cv2.imdecode(buffer, getattr(cv2, flag))
    if image is None:
        return data
    if image.shape[1] > max_width:
        height = max(1, round(image.shape[0] * max_width / image.shape[1]))
        image = cv2.resize(image, (max_width, height), interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 78])
    return bytes(encoded) if ok else data


@blueprint.get("/history")
def history() -> Response:
    return jsonify(ask(table().records.history, _game_id()))


@blueprint.get("/state/<int:seq>")
def state_at(seq: int) -> Response:
    return jsonify(ask(table().records.state_at, _bounded(seq), _game_id()))


@blueprint.get("/photo/<int:seq>.jpg")
def photo(seq: int) -> Response:
    """The photo stored with an event: screen-sized, ``size=thumb`` for the history list, ``size=full``."""
    size = request.args.get("size", "screen")
    if size not in ("thumb", "screen", "full"):
        abort(400, description="size must be thumb, screen or full")
    data = ask(table().records.event_photo, _bounded(seq), _game_id())
    if data and size != "full":
        data = scaled_jpeg(data, THUMB_WIDTH if size == "thumb" else SCREEN_WIDTH)
    return _jpeg(data, f"photo for event {seq}")


@blueprint.get("/games")
def games() -> Response:
    return jsonify(ask(table().records.games))


@blueprint.get("/play.json")
def play_json() -> Response:
    play = ask(table().records.play_record, _game_id())
    return jsonify({**play, "bg_stats": exports.bg_stats_link(play)})


@blueprint.get("/play.csv")
def play_csv() -> Response:
    play = ask(table().records.play_record, _game_id())
    name = f"{play['game']}-{play['game_id']}.csv"
    return Response(exports.play_csv(play), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


def shared_settings() -> dict[str, Any]:
    """The settings as this browser may see them: a watch-only link does not see the seed (it decides
    every shuffle the companion makes)."""
    found: dict[str, Any] = dict(ask(table().settings))
    if not security.is_unlocked():
        found.pop("seed", None)
    return found


@blueprint.get("/settings")
def settings() -> Response:
    return jsonify(shared_settings())


@blueprint.get("/calibration")
def calibration() -> Response:
    return jsonify(ask(table().calibration))


def option_snapshot(snap: dict[str, Any], option: int) -> dict[str, Any]:
    """``snap`` as the table would be after a pending question's option (what its picture draws)."""
    ahead = ask(table().option_view, option)
    return {**snap, "view": ahead.get("view"), "split": None, "pending": None, "legal": [],
            "last_event": {"action": ahead.get("action")}}


@blueprint.get("/board.svg")
def board_svg() -> Response:
    """The table as a picture: the slab or board, legal moves, last move, and a split with its shares."""
    seq = query_int("seq", low=0)
    option = query_int("option", low=0)
    snap = shared_snapshot()
    if option is not None:  # a question's option: the table as it would be after it
        snap = option_snapshot(snap, option)
    elif seq is not None:
        past = ask(table().records.state_at, seq, _game_id())
        view = past.get("view")
        game = view.get("game", snap.get("game")) if isinstance(view, dict) else snap.get("game")
        event = past.get("event")
        if event is None:  # the session's state_at need not carry its event: find it in the history
            event = next((e for e in ask(table().records.history, _game_id()) if e.get("seq") == seq), None)
        snap = {**snap, "game": game, "view": view, "split": past.get("split"), "pending": None,
                "legal": [], "last_event": event}
    picture = svg.board_svg(snap)
    # an option's picture is a thumbnail beside its words: the shape of the table, no type too small to read
    return _svg(svg.without_words(picture) if option is not None else picture)


@blueprint.get("/scores.svg")
def scores_svg() -> Response:
    snap = ask(table().snapshot)
    return _svg(svg.score_chart_svg(ask(table().records.history, _game_id()), snap.get("players") or []))


@blueprint.post("/press")
def press() -> Response:
    data = json_object()
    only_fields(data, {"button"})
    button = field(data, "button", str, check=lambda b: b in BUTTONS, why=f"one of {', '.join(BUTTONS)}")
    return _answer(ask(table().press, button))


@blueprint.post("/choose")
def choose() -> Response:
    data = json_object()
    only_fields(data, {"index"})
    index = field(data, "index", int, check=lambda i: 0 <= i <= MAX_OPTION_INDEX)
    return _answer(ask(table().choose, index))


@blueprint.post("/submit")
def submit() -> Response:
    data = json_object()
    only_fields(data, {"action"})
    action = field(data, "action", dict)
    if not isinstance(action.get("kind"), str):
        abort(400, description="an action needs a text 'kind'")
    hands: TableHands | None = current_app.extensions.get("table_hands")
    if hands is not None:  # a drawn table: the move is made on it, and the camera reads it
        return _answer(ask(hands.make, action))
    return _answer(ask(table().submit, action, "web"))


@blueprint.post("/new-game")
def new_game() -> Response:
    data = json_object()
    only_fields(data, {"settings"})
    settings = field(data, "settings", dict)
    only_fields(settings, {"game", "options", "house_rules", "seats", "seed"})
    field(settings, "game", str, check=lambda g: 0 < len(g) <= 40)
    players = field(settings, "seats", list, check=lambda p: 1 <= len(p) <= 6, why="1 to 6 seats")
    for player in players:
        if not isinstance(player, dict):
            abort(400, description="each seat is an object {name, colour, seat, companion}")
        only_fields(player, {"name", "colour", "seat", "companion"})
        field(player, "name", str, check=lambda n: 0 < len(n.strip()) <= 24, why="1-24 characters")
        field(player, "colour", str, check=lambda c: c in drawing.SEAT_COLOURS,
              why=f"one of {', '.join(drawing.SEAT_COLOURS)}")
        field(player, "seat", int, required=False, check=lambda s: 0 <= s < 6)
        field(player, "companion", int, required=False, check=lambda level: level in COMPANION_LEVELS,
              why="0 (a person) or a level of the companion, 1-3")
    for name in ("options", "house_rules"):
        field(settings, name, dict, required=False)
    field(settings, "seed", int, required=False, check=lambda s: 0 <= s < 2**32)
    colours = [p["colour"] for p in players]
    names = [p["name"].strip() for p in players]
    if len(set(colours)) != len(colours) or len(set(names)) != len(names):
        abort(400, description="every player needs their own name and colour")
    return _answer(ask(table().new_game, settings))


#: live-update streams one browser session may hold (its newest; the rest stay for the other phones)
STREAMS_PER_SESSION = 4
#: how often a live-update stream looks whether its browser is still there, and pings it, seconds
STREAM_CHECK_S, STREAM_PING_S = 1.0, 5.0


def _bounded(seq: int) -> int:
    if seq > 10**9:
        abort(404, description="no such event")
    return seq


@blueprint.get("/events")
def events() -> Response:
    """Server-sent events from ``session.events()``; the number of open streams is bounded (a browser's
    newest stream takes the place of its oldest: :mod:`companion.web.streams`).

    Every event goes out as an unnamed ``data:`` message carrying its ``type``, so that the page's one
    ``onmessage`` handler sees all of them; pings become SSE comments (they only keep the line open). A
    stream whose place a newer one took ends with a ``replaced`` message.
    """
    config = current_app.extensions["web_config"]
    slots: StreamSlots = current_app.extensions.setdefault(
        "stream_slots", StreamSlots(config.max_streams, STREAMS_PER_SESSION))
    seated = security.is_unlocked()  # a watcher counts by its device's address, however many links it opened
    holder = flask_session.get("sid") if seated else f"watching from {request.remote_addr}"
    slot = slots.admit(str(holder or request.remote_addr or "?"), seated)
    if slot is None:
        abort(429, description="too many live connections: close a tab")
    session = table()
    # waitress says when the browser has gone (a page left for another): the stream then ends within a
    # second, not at its next write, so a phone tapping through the pages never runs out of connections
    gone = request.environ.get("waitress.client_disconnected") or (lambda: False)

    def stream() -> Iterator[str]:
        yield "retry: 2000\n\n"
        quiet = 0
        for event in session.events(timeout=STREAM_CHECK_S):
            if gone():
                return
            if slot.ended.is_set():
                yield f"data: {json.dumps({'type': 'replaced'})}\n\n"
                return
            if event.get("type") != "ping":
                quiet = 0
                yield f"data: {json.dumps(event, default=str)}\n\n"
                continue
            quiet += 1
            if quiet * STREAM_CHECK_S >= STREAM_PING_S:  # a comment now and then keeps proxies from closing
                quiet = 0
                yield ": ping\n\n"

    response = Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: slots.release(slot))
    return response
