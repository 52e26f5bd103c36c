"""The café board's page (Flask, the table page's look): every table live, the league per game with its
charts, CSV and JSON exports. Read-only and public by design (it shows only what the tables publish, the
shared view), so it needs no PIN; it still answers only its own host names and sends no change routes."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request
from markupsafe import Markup

from cafe import league
from cafe.board import MAX_TABLES, BoardStore
from lan import i18n
from lan.headers import page_headers
from lan.hosts import OwnHosts, is_loopback
from lan.language import install as pages_in_language
from lan.look import house_blueprint
from wire.seats import colour_class

i18n.add_catalogues(Path(__file__).resolve().parent / "translations")
blueprint = Blueprint("cafe", __name__, template_folder="templates", static_folder="static",
                      static_url_path="/cafe-static")
#: a table whose state is older than this is shown as quiet (its camera or network may be down)
QUIET_S = 120.0


def board() -> BoardStore:
    found: BoardStore = current_app.extensions["board"]
    return found


@blueprint.app_template_filter("clock")
def clock_time(value: Any) -> str:
    if not isinstance(value, int | float):
        return "-"
    return datetime.datetime.fromtimestamp(value).strftime("%H:%M")


@blueprint.app_template_filter("minutes")
def minutes(value: Any) -> str:
    if not isinstance(value, int | float):
        return "-"
    return f"{value / 60:.0f} min" if value >= 60 else f"{value:.0f} s"


def _tables() -> list[dict[str, Any]]:
    now = time.time()
    tables = board().tables()
    for table in tables:
        table["quiet"] = table["online"] and (table["state_at"] is None or now - table["state_at"] > QUIET_S)
    return tables


def _broker() -> dict[str, Any]:
    """The listener's status and the board's own problems (a database moved aside), for every page."""
    status: Callable[[], dict[str, Any]] = current_app.extensions["broker_status"]
    return {**status(), "problems": list(board().problems), "max_tables": MAX_TABLES}


@blueprint.get("/")
def board_page() -> str:
    return render_template("cafe_board.html", page="board", tables=_tables(), broker=_broker())


@blueprint.get("/tables.html")
def tables_fragment() -> str:
    return render_template("cafe_tables.html", tables=_tables(), broker=_broker())


@blueprint.get("/table/<name>")
def table_page(name: str) -> str:
    found = [t for t in _tables() if t["name"] == name]
    if not found:
        abort(404, description=f"no table {name!r} has reported to this board")
    events = board().events(name)
    state = found[0]["state"] or {}
    game_id = state.get("game_id")
    current = [e for e in events if e["game_id"] == game_id] if game_id is not None else events
    return render_template("cafe_table.html", page="table", table=found[0], events=current[-200:][::-1],
                           plays=[p for p in board().plays() if p["table"] == name][::-1], broker=_broker())


@blueprint.get("/league")
def league_page() -> str:
    games = league.leagues(board().plays())
    charts = {g.game: Markup(league.standings_svg(g)) for g in games}  # built from escaped text
    return render_template("cafe_league.html", page="league", games=games, charts=charts,
                           plays=board().plays()[::-1][:50], broker=_broker())


@blueprint.get("/api/tables")
def api_tables() -> Response:
    return jsonify({"tables": _tables(), "broker": _broker()})


@blueprint.get("/api/plays")
def api_plays() -> Response:
    game = request.args.get("game") or None
    return jsonify({"plays": board().plays(game)})


@blueprint.get("/api/league")
def api_league() -> Response:
    return jsonify({"games": [g.to_dict() for g in league.leagues(board().plays())]})


@blueprint.get("/plays.csv")
def plays_csv() -> Response:
    return _csv(league.plays_csv(board().plays()), "plays.csv")


@blueprint.get("/league.csv")
def league_csv() -> Response:
    return _csv(league.league_csv(league.leagues(board().plays())), "league.csv")


def moves(n: Any) -> str:
    """"1 move", "3 moves", in the reader's language."""
    count = n if isinstance(n, int) and not isinstance(n, bool) else 0
    return i18n.ngettext("%(num)d move", "%(num)d moves", count) % {"num": count}


def _csv(text: str, name: str) -> Response:
    disposition = {"Content-Disposition": f"attachment; filename={name}"}
    return Response(text, mimetype="text/csv", headers=disposition)


def create_board_app(store: BoardStore, broker_status: Callable[[], dict[str, Any]],
                     allowed_hosts: tuple[str, ...] = ()) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.extensions["board"] = store
    app.extensions["broker_status"] = broker_status
    hosts = OwnHosts(allowed_hosts)
    app.register_blueprint(house_blueprint())
    app.register_blueprint(blueprint)
    app.add_template_filter(colour_class, "cc")
    app.add_template_filter(moves, "moves")
    pages_in_language(app)  # each reader's browser language: the board is public, nobody logs in

    @app.before_request
    def own_hosts_only() -> None:
        host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
        if not (is_loopback(host) or hosts.allows(host)):
            abort(421, description="this board answers only its own host names")
        if request.method not in ("GET", "HEAD"):
            abort(405)

    @app.after_request
    def headers(response: Response) -> Response:
        page_headers(response)
        if request.path.startswith("/api/") or request.path.endswith(".html"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
