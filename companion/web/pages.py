"""The HTML pages. Each renders from the session on the server; the page script only re-fetches them when
a live event arrives and swaps the parts marked ``data-live``, so every page also works without script."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion import drawing, exports, pairing, status_words, words
from companion.i18n import gettext
from companion.kits import find_kit
from companion.kits.kit import hand_cards, hand_moves
from companion.web import hints, security, svg
from companion.web.api import ask, option_snapshot, shared_settings, shared_snapshot, table
from companion.web.validate import query_int

blueprint = Blueprint("pages", __name__)


def _common() -> dict[str, Any]:
    snap = shared_snapshot()
    return {"snap": snap, "colours": _player_colours(snap), "rgb": drawing.rgb}


def _player_colours(snap: dict[str, Any]) -> dict[str, str]:
    return {str(p.get("name")): str(p.get("colour", "")) for p in snap.get("players") or []}


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=True, default=str)


@blueprint.app_template_filter("pretty")
def pretty_filter(value: Any) -> str:
    return _pretty(value)


_WORD_FILTERS: dict[str, Any] = {
    "part_name": words.part_name,
    "action_label": words.action_label,
    "difference_words": words.difference_words,
    "difference_side": words.difference_side,
    "groupby_kind": words.groupby_kind,
    "action_detail": words.action_detail,
    "event_label": words.event_label,
    "event_sentence": words.event_sentence,
    "shared_words": words.shared_words,
    "in_words": words.in_words,
    "setup_step_words": words.setup_step_words,
    "choice_words": words.choice_words,
    "calibration_facts": status_words.calibration_facts,
    "sentence_words": status_words.sentence_words,
    "self_test_lines": status_words.self_test_lines,
    "who": words.who,
    "next_step": words.next_step,
    "event_kind": words.event_kind,
    "pattern_words": status_words.pattern_words,
    "button_name": status_words.button_name,
    "colour_name": words.colour_name,
    "calibration_state": status_words.calibration_state,
    "rule_words": words.rule_words,
    "rulebook_language": words.rulebook_language,
    "option_name": words.option_name,
    "option_words": words.option_words,
    "said_words": words.said_words,
    "reason_words": words.reason_words,
}
for _name, _filter in _WORD_FILTERS.items():
    blueprint.add_app_template_filter(_filter, _name)


@blueprint.app_template_filter("when")
def when_filter(value: Any) -> str:
    """A stored time (epoch seconds or text) as the time of day."""
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e11:
        import datetime

        return datetime.datetime.fromtimestamp(value).strftime("%H:%M:%S")
    return str(value)


blueprint.add_app_template_filter(drawing.colour_class, "cc")


@blueprint.app_template_filter("totals")
def totals_filter(scores: Any) -> dict[str, int]:
    return svg.totals_of(scores)


@blueprint.get("/")
def table_page() -> str:
    common = _common()
    snap, kit = common["snap"], words.kit_of(common["snap"])
    current = snap.get("current")
    view = snap.get("view") or {}
    hand = hand_moves(kit, view, str(current)) if current else []
    cards = hand_cards(kit, view, str(current)) if current else []
    for card in cards:  # the kit's own picture of the face, built from its card data (no page input)
        card["face"] = Markup(card["face"])
    return render_template("table.html", page="table", hand_moves=hand, hand_cards=cards,
                           table_hand=view.get("table_hand") or {}, spots=svg.diagram_spots(snap),
                           my_seat=hints.held_seat(snap), **common)


@blueprint.app_template_filter("chance_words")
def chance_words_filter(snap: Any) -> str:
    """What is being turned face up and by whom, in the game's words."""
    kit, pending = words.kit_of(snap), (snap or {}).get("pending") or {}
    setting_up = pending.get("kind") == "setup"
    said = kit.chance_words((snap or {}).get("view") or {}, setting_up) if kit is not None else None
    return said or gettext("a piece is being turned face up")


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
        bg_stats = exports.bg_stats_link(ask(table().records.play_record, None))
    return render_template("scores.html", page="scores", players_scores=players, categories=categories,
                           top=top, bg_stats=bg_stats, **common)


@blueprint.get("/history")
def history_page() -> str:
    common = _common()
    game_id = query_int("game", low=0)
    events = ask(table().records.history, game_id)
    seq = query_int("seq", low=0)
    seqs = [int(e["seq"]) for e in events if isinstance(e.get("seq"), int)]
    selected: dict[str, Any] | None = None
    position = None
    if seq is not None:
        if seq not in seqs:
            abort(404, description=f"no event {seq} in this game")
        position = seqs.index(seq)
        selected = {"event": events[position], "state": ask(table().records.state_at, seq, game_id)}
    games = ask(table().records.games)
    return render_template(
        "history.html", page="history", events=events, selected=selected, seq=seq, game_id=game_id,
        salvages=ask(table().records.salvages),
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
        events = {e.get("seq"): e for e in ask(table().records.history, None)}
        if seq not in events:
            abort(404, description=f"no event {seq} in this game")
        past = {"event": events[seq], "state": ask(table().records.state_at, seq, None)}
    pending = common["snap"].get("pending") or {}
    shared, labels = words.shared_words([o.get("action") for o in pending.get("options") or []],
                                        common["snap"])
    return render_template("dispute.html", page="dispute", past=past, seq=seq,
                           option_pictures=_options_look_different(common["snap"], pending),
                           shared_words=shared, option_labels=labels, **common)


def _options_look_different(snap: dict[str, Any], pending: dict[str, Any]) -> bool:
    """Whether the options' pictures differ: options the diagram draws alike (ways of playing a card that
    change nothing on the board) are told apart by their words alone."""
    options = [o for o in pending.get("options") or [] if o.get("action")]
    if len(options) < 2 or pending.get("kind") == "resume":
        return bool(options) and pending.get("kind") != "resume"
    pictures = {svg.board_svg(option_snapshot(snap, int(option["index"]))) for option in options}
    return len(pictures) > 1


@blueprint.get("/setup")
def setup_page() -> str:
    common = _common()
    games = []
    for game in installed_games():
        kit = find_kit(game.name)
        table_made = set(kit.real_table_options) if kit is not None else set()  # not the players' choice
        games.append({
            "name": game.name, "title": game.title, "min": game.min_players, "max": game.max_players,
            "options": [
                {"name": o.name, "default": o.default, "choices": list(o.choices), "help": o.help,
                 "house_rule": o.house_rule}
                for o in game.options if o.name not in table_made
            ],
        })
    return render_template("setup.html", page="setup", settings=shared_settings(), games=games,
                           calibration=ask(table().calibration), seat_colours=list(drawing.SEAT_COLOURS),
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
        response = redirect(target)
        security.remember_device(response)
        return response
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
