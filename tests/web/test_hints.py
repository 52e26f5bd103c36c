"""A phone's own seat and the companion's private hints: shown only to the phone that holds the seat to
move, never in the snapshot, the live stream or the history; one phone per seat; the game marked
assisted."""

from __future__ import annotations

import json
from typing import Any

from companion.web import WebConfig, create_app


def phone(table: Any) -> Any:
    return create_app(table, WebConfig()).test_client()


def test_the_phone_of_the_seat_to_move_gets_a_hint_in_words_and_nobody_else_sees_it(
        table: Any, csrf: Any, post: Any) -> None:
    app = create_app(table, WebConfig())
    mine, other = app.test_client(), app.test_client()
    to_move = table.state.current_player()
    answer = post(mine, "/api/seat", {"seat": to_move}, csrf(mine))
    assert answer.status_code == 200 and answer.get_json() == {"ok": True, "seat": to_move}
    page = mine.get("/").get_data(as_text=True)
    assert 'id="ask-hint"' in page
    hint = post(mine, "/api/hint", {}, csrf(mine))
    assert hint.status_code == 200 and hint.headers["Cache-Control"] == "no-store"
    data = hint.get_json()
    assert data["seat"] == to_move and data["words"] and data["why"]
    assert table.state.is_legal(table.state.game.action_from_dict(data["action"]))
    # another phone: no hint without the seat, and the seat is taken
    refused = post(other, "/api/hint", {}, csrf(other))
    assert refused.status_code == 409 and "seat" in refused.get_json()["error"]
    taken = post(other, "/api/seat", {"seat": to_move}, csrf(other))
    assert taken.status_code == 409 and "another phone" in taken.get_json()["error"]
    # the hint lives in that one answer: the shared snapshot, the history and every page leave it out
    for shared in (json.dumps(table.snapshot()), json.dumps(table.records.history()),
                   other.get("/").get_data(as_text=True), mine.get("/").get_data(as_text=True)):
        assert data["why"] not in shared and '"hint"' not in shared
    empty = '<p class="big" id="hint-answer" aria-live="polite" hidden></p>'
    assert empty in other.get("/").get_data(as_text=True)
    assert any(game["assisted"] for game in table.records.games())


def test_a_seat_not_to_move_gets_no_hint_and_a_phone_lets_its_seat_go(table: Any, csrf: Any,
                                                                        post: Any) -> None:
    client = phone(table)
    token = csrf(client)
    waiting = next(p for p in table.state.players if p != table.state.current_player())
    assert post(client, "/api/seat", {"seat": waiting}, token).status_code == 200
    refused = post(client, "/api/hint", {}, token)
    assert refused.status_code == 409 and "to move" in refused.get_json()["error"]
    assert not any(game.get("assisted") for game in table.records.games())
    assert post(client, "/api/seat", {"seat": None}, token).get_json() == {"ok": True, "seat": None}
    other = phone(table)  # a second app: its own book of seats
    assert post(other, "/api/seat", {"seat": waiting}, csrf(other)).status_code == 200


def test_bad_seat_requests_are_refused_at_the_edge(table: Any, csrf: Any, post: Any) -> None:
    client = phone(table)
    token = csrf(client)
    for body in ({"seat": "nobody"}, {"seat": 3}, {"seat": "x" * 41}, {"chair": "red"}, []):
        assert post(client, "/api/seat", body, token).status_code == 400
    assert post(client, "/api/hint", {"seat": "red"}, token).status_code == 400
    assert post(client, "/api/hint", {}, None).status_code == 403  # no CSRF token


def test_a_seat_the_companion_plays_cannot_be_taken(make_table: Any, csrf: Any, post: Any) -> None:
    table = make_table()
    table.new_game({"game": "jurassik", "seed": 2,
                    "seats": [{"name": "ana", "colour": "red", "seat": 0},
                              {"name": "ben", "colour": "blue", "seat": 1, "companion": 2}]})
    client = phone(table)
    refused = post(client, "/api/seat", {"seat": "ben"}, csrf(client))
    assert refused.status_code == 409 and "companion" in refused.get_json()["error"]
    page = client.get("/").get_data(as_text=True)
    assert '<option value="ben"' not in page and '<option value="ana"' in page


def test_a_new_game_may_seat_the_companion_at_a_level(table: Any, csrf: Any, post: Any) -> None:
    client = phone(table)
    token = csrf(client)
    seats = [{"name": "ana", "colour": "red", "seat": 0}, {"name": "ben", "colour": "blue", "seat": 1}]
    for level, status in ((7, 400), (True, 400), ("3", 400), (3, 200)):
        body = {"settings": {"game": "jurassik", "seats": [seats[0], {**seats[1], "companion": level}]}}
        assert post(client, "/api/new-game", body, token).status_code == status, level
    assert table.settings()["seats"][1]["companion"] == 3
    page = client.get("/setup").get_data(as_text=True)
    assert '<option value="3" selected>' in page  # the setup page shows the seat the companion plays


def test_the_config_file_seats_the_companion_and_refuses_a_level_it_has_not() -> None:
    import pytest

    from companion.config import ConfigError, config_from_dict

    seats = [{"name": "ana", "colour": "red"}, {"name": "ben", "colour": "blue", "companion": 2}]
    config = config_from_dict({"game": "jurassik", "seats": seats}, source="<test>")
    assert [seat.companion for seat in config.seats] == [0, 2]
    assert config.seats[1].to_dict()["companion"] == 2 and "companion" not in config.seats[0].to_dict()
    for wrong in (4, -1, True, "2"):
        with pytest.raises(ConfigError, match="companion"):
            config_from_dict({"game": "jurassik", "seats": [seats[0], {**seats[1], "companion": wrong}]},
                             source="<test>")
