"""The HTML pages. Each renders from the session on the server; the page script only re-fetches them when
a live event arrives and swaps the parts marked ``data-live``, so every page also works without script."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from companion import exports, pairing
from companion.web import security, svg
from companion.web.api import ask, shared_snapshot, table
from companion.web.validate import query_int

blueprint = Blueprint("pages", __name__)


def _common() -> dict[str, Any]:
    snap = shared_snapshot()
    return {"snap": snap, "colours": _player_colours(snap), "rgb": svg.rgb}


def _player_colours(snap: dict[str, Any]) -> dict[str, str]:
    return {str(p.get("name")): str(p.get("colour", "")) for p in snap.get("players") or []}


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, default=str)


@blueprint.app_template_filter("pretty")
def pretty_filter(value: Any) -> str:
    return _pretty(value)


def _kit_of(snap: Any) -> Any:
    from companion.kits import find_kit

    return find_kit(str(snap.get("game"))) if isinstance(snap, dict) and snap.get("game") else None


def _cell_namer(snap: Any) -> Any:
    """The game's own words for a board cell (its kit's), or the engine's coordinates."""
    kit = _kit_of(snap)
    view = (snap or {}).get("view") or {}

    def name(value: Any) -> str:
        words = kit.cell_words(view, value) if kit is not None else None
        return words or _cell_text(value)

    return name


def _component_namer(snap: Any) -> Any:
    """The game's own words for a component, field or score part named by id, or the id."""
    kit = _kit_of(snap)

    def name(value: str) -> str:
        words = kit.component_words(value) if kit is not None else None
        return words or value

    return name


@blueprint.app_template_filter("part_name")
def part_name(name: Any, snap: Any = None) -> str:
    """A score part as players call it (``D3`` -> "dinosaur 3", ``W-GROUPS`` -> its scoring card)."""
    return str(_component_namer(snap)(str(name))).replace("_", " ")


#: field names that read better as the words players use
KEY_WORDS = {"origin": "from", "target": "to", "take_back": "taking back"}


@blueprint.app_template_filter("action_label")
def action_label(action: Any, snap: Any = None) -> str:
    """A short human label for an action dict: its kind and its telling fields (the player is shown apart);
    with ``snap``, board cells in the game's own words."""
    cell_name = _cell_namer(snap)
    component_name = _component_namer(snap)
    if not isinstance(action, dict):
        return str(action or "")
    if isinstance(action.get("text"), str):
        return str(action["text"])
    kind = str(action.get("kind", "action")).replace("_", " ").replace("-", " ")
    parts = [kind]
    row, col = action.get("row"), action.get("col")
    grid_cell = isinstance(row, int) and isinstance(col, int) and not isinstance(row, bool)
    if grid_cell:  # a grid cell as players count it: from 1, row first
        parts.append(f"row {int(row) + 1}, column {int(col) + 1}")  # type: ignore[arg-type]
    if _is_cell(action.get("a")) and _is_cell(action.get("b")):
        parts.append(f"between {cell_name(action['a'])} and {cell_name(action['b'])}")
    for key, value in action.items():
        if key in ("kind", "state", "player", "a", "b", "concealed") or value in (None, "", "none", [], {}):
            continue
        if grid_cell and key in ("row", "col"):
            continue
        if _is_cell(value):
            text = cell_name(value)
        elif isinstance(value, list | dict):
            text = json.dumps(value, default=str)[:40]
        elif isinstance(value, bool):  # a flag: named when set ("eats"), left out when not
            if value:
                parts.append(key.replace("_", " "))
            continue
        elif isinstance(value, str):
            text = component_name(value)[:60]
        else:
            text = str(value)[:40]
        key_words = KEY_WORDS.get(key, key.replace("_", " "))
        # the kind already says it ("move dinosaur Velociraptor", not "move dinosaur dinosaur DINO-2")
        bare = key in ("cell", "fossil", "tile", "card", "token", "field") or key_words in kind.split(" ")
        parts.append(text if bare else f"{key_words} {text}")
        if len(parts) >= 5:
            break
    if action.get("kind") == "correct" and action.get("reason"):
        parts = ["correction", str(action["reason"])[:60]]
    label = " ".join(parts[:1]) + (" " + ", ".join(parts[1:]) if len(parts) > 1 else "")
    return label + (" (concealed)" if action.get("concealed") else "")


def _piece_name(kit: Any, difference: dict[str, Any]) -> str:
    what, item = difference.get("what"), str(difference.get("item") or "")
    if what == "front":
        return str(kit.component_words(item) or f"tile {item}")
    if what == "back":
        return "a face-down piece"
    return f"a {item} {kit.peg_words}" if item != "?" else f"a {kit.peg_words} of a colour not made out"


def _place(kit: Any, snap: Any, place: Any) -> str:
    if not isinstance(place, dict):
        return "nowhere"
    zone, at = place.get("zone"), list(place.get("at") or ())
    view = (snap or {}).get("view") or {}
    colours = [str(p.get("colour", "")) for p in (snap or {}).get("players") or []]
    words = kit.place_words(view, colours, zone, at) if len(at) == 2 else None
    if words:
        return str(words)
    if isinstance(zone, str) and zone.startswith("seat:"):
        return f"in {zone[5:]}'s area"
    shown = str(zone or "the table").replace("-", " ")
    millimetres = f" at ({at[0]:.0f}, {at[1]:.0f}) mm" if len(at) == 2 and zone == "play" else ""
    return f"in {shown}{millimetres}"


@blueprint.app_template_filter("difference_words")
def difference_words(difference: Any, snap: Any = None) -> str:
    """One way the table differs from the game, in the game's words (its pieces, its cells)."""
    kit = _kit_of(snap)
    if not isinstance(difference, dict) or kit is None:
        return str(difference.get("text") or "") if isinstance(difference, dict) else str(difference)
    name = _piece_name(kit, difference)
    expected = _place(kit, snap, difference.get("expected"))
    seen = _place(kit, snap, difference.get("seen"))
    change = difference.get("change")
    if change == "appeared":
        return f"{name} appeared {seen}"
    if change == "vanished":
        return f"{name} is gone from {expected.removeprefix('on ')}"
    return f"{name} moved from {expected.removeprefix('on ')} to {seen.removeprefix('on ')}"


@blueprint.app_template_filter("difference_side")
def difference_side(difference: Any, snap: Any = None, side: str = "expected") -> str:
    """What the game expects (or the camera sees) where the table differs: "a blue chisel between ..."."""
    kit = _kit_of(snap)
    if not isinstance(difference, dict) or kit is None or not isinstance(difference.get(side), dict):
        return ""
    return f"{_piece_name(kit, difference)} {_place(kit, snap, difference[side])}"


def _kind_words(action: Any) -> str:
    return str(action.get("kind", "action")).replace("_", " ").replace("-", " ")


@blueprint.app_template_filter("groupby_kind")
def groupby_kind(actions: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """Action dicts grouped by their kind in words, in the order the kinds first appear."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in actions or []:
        if isinstance(action, dict):
            groups.setdefault(_kind_words(action), []).append(action)
    return list(groups.items())


@blueprint.app_template_filter("action_detail")
def action_detail(action: Any, snap: Any = None) -> str:
    """An action's label without its kind (shown as the group's heading); the kind when nothing else."""
    label = action_label(action, snap)
    kind = _kind_words(action) if isinstance(action, dict) else ""
    rest = label[len(kind):].strip() if label.startswith(kind) else label
    return rest or label


@blueprint.app_template_filter("event_label")
def event_label(event: Any, snap: Any = None) -> str:
    """What an event did: its action, or for undo/notice events what they refer to."""
    if not isinstance(event, dict):
        return ""
    if event.get("action"):
        return action_label(event["action"], snap)
    kind = str(event.get("kind") or "event")
    if event.get("undoes") is not None:
        return f"{kind} of #{event['undoes']}"
    return kind


def _is_cell(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _cell_text(value: Any) -> str:
    return f"({value[0]}, {value[1]})"


@blueprint.app_template_filter("when")
def when_filter(value: Any) -> str:
    """A stored time (epoch seconds or text) as the time of day."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e11:
        import datetime

        return datetime.datetime.fromtimestamp(value).strftime("%H:%M:%S")
    return str(value)


blueprint.add_app_template_filter(svg.colour_class, "cc")


@blueprint.app_template_filter("totals")
def totals_filter(scores: Any) -> dict[str, int]:
    return svg.totals_of(scores)


@blueprint.get("/")
def table_page() -> str:
    common = _common()
    snap, kit = common["snap"], _kit_of(common["snap"])
    current = snap.get("current")
    hand = kit.catalogue_moves(snap.get("view") or {}, str(current)) if kit is not None and current else []
    return render_template("table.html", page="table", hand_moves=hand, **common)


@blueprint.get("/scores")
def scores_page() -> str:
    common = _common()
    scores = common["snap"].get("scores") or {}
    players = scores.get("players") or {}
    categories: list[str] = []
    for entry in players.values():
        for name in (entry.get("breakdown") or {}):
            if name not in categories:
                categories.append(name)
    if categories and all(re.fullmatch(r"[A-Za-z]+\d+", name) for name in categories):
        # numbered parts (a game's dinosaurs 1 to 10) in number order, whoever scored which first
        categories.sort(key=lambda name: (re.sub(r"\d+$", "", name), int(re.sub(r"^\D+", "", name))))
    top = max([1, *[int(entry.get("total", 0)) for entry in players.values()]])
    bg_stats = None
    if common["snap"].get("over"):
        bg_stats = exports.bg_stats_link(ask(table().play_record, None))
    return render_template("scores.html", page="scores", players_scores=players, categories=categories,
                           top=top, bg_stats=bg_stats, **common)


@blueprint.get("/history")
def history_page() -> str:
    common = _common()
    game_id = query_int("game", low=0)
    events = ask(table().history, game_id)
    seq = query_int("seq", low=0)
    seqs = [int(e["seq"]) for e in events if isinstance(e.get("seq"), int)]
    selected: dict[str, Any] | None = None
    position = None
    if seq is not None:
        if seq not in seqs:
            abort(404, description=f"no event {seq} in this game")
        position = seqs.index(seq)
        selected = {"event": events[position], "state": ask(table().state_at, seq, game_id)}
    games = ask(table().games)
    return render_template(
        "history.html", page="history", events=events, selected=selected, seq=seq, game_id=game_id,
        previous_seq=seqs[position - 1] if position else None,
        next_seq=seqs[position + 1] if position is not None and position + 1 < len(seqs) else None,
        last_seq=seqs[-1] if seqs else None, games=games, **common,
    )


@blueprint.get("/dispute")
def dispute_page() -> str:
    common = _common()
    seq = query_int("seq", low=0)
    past = None
    if seq is not None:
        events = {e.get("seq"): e for e in ask(table().history, None)}
        if seq not in events:
            abort(404, description=f"no event {seq} in this game")
        past = {"event": events[seq], "state": ask(table().state_at, seq, None)}
    return render_template("dispute.html", page="dispute", past=past, seq=seq, **common)


@blueprint.get("/setup")
def setup_page() -> str:
    common = _common()
    games = []
    for game in installed_games():
        games.append({
            "name": game.name, "title": game.title, "min": game.min_players, "max": game.max_players,
            "options": [
                {"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help,
                 "house_rule": o.house_rule}
                for o in game.options
            ],
        })
    return render_template("setup.html", page="setup", settings=ask(table().settings), games=games,
                           calibration=ask(table().calibration), seat_colours=list(svg.SEAT_COLOURS),
                           **common)


def installed_games() -> list[Any]:
    """Every registered game."""
    from engines.core import available_games, get_game

    return [get_game(name) for name in available_games()]


@blueprint.get("/panel")
def panel_page() -> str:
    return render_template("panel.html", page="panel", **_common())


@blueprint.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    config = security.web_config()
    target = security.safe_next(request.args.get("next"))
    if not config.lan:
        return redirect(target)
    numeric = pairing.is_numeric(config.pin)
    if request.method == "POST":
        pin = request.form.get("pin", "")
        if len(pin) > pairing.PASSPHRASE_MAX or not security.check_pin(pin):
            return render_template("login.html", page="login", wrong=True, numeric=numeric), 401
        return redirect(target)
    return render_template("login.html", page="login", wrong=False, numeric=numeric)


@blueprint.post("/logout")
def logout() -> Response:
    security.end_session()
    return redirect(url_for("pages.login") if security.web_config().lan else url_for("pages.table_page"))


@blueprint.get("/watch/<token>")
def watch(token: str) -> Response:
    """The spectator link: a watch-only session, no PIN."""
    if len(token) > 64 or not security.watch(token):
        abort(404, description="this watch link is not (or no longer) valid: ask for the new one")
    return redirect(url_for("pages.table_page"))


@blueprint.get("/pair")
def pair_page() -> str:
    """Pair another phone: the login link with the PIN as a QR code, and the watch-only link."""
    if not security.is_unlocked():
        abort(403, description="pairing needs the table's PIN")
    config = security.web_config()
    base = request.host_url.rstrip("/")
    login_link = pairing.pairing_url(base, config.pin) if config.lan and config.pin else None
    token = security.spectator_link_token()
    watch_link = f"{base}{url_for('pages.watch', token=token)}" if token else None
    return render_template(
        "pair.html", page="pair", login_link=login_link, watch_link=watch_link,
        login_qr=pairing.qr_data_uri(login_link) if login_link else None,
        watch_qr=pairing.qr_data_uri(watch_link) if watch_link else None,
        pin=config.pin if config.lan else None, **_common(),
    )
