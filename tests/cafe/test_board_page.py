"""The café board's page: every table with its game, seats, turn, scores and status; the league with its
chart; CSV and JSON exports; only its own host names; no route answers 500, whatever is asked."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cafe.app import create_board_app
from cafe.board import BoardStore


def state(table: str, over: bool = False) -> dict[str, Any]:
    return {"table": table, "game": "jurassik", "title": "Jurassik", "game_id": 2, "over": over,
            "players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}],
            "current": None if over else "Bo", "scores": {"Ana": 14, "Bo": 11},
            "winners": ["Ana"] if over else [], "event_count": 31, "waiting": None, "camera_ok": True,
            "at": 1.0}


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    board = BoardStore(tmp_path)
    board.set_status("table-1", "online")
    board.set_state("table-1", state("table-1"))
    board.add_event("table-1", {"game_id": 2, "started": 5.0, "seq": 1, "kind": "action", "player": "Ana",
                                "description": "Ana: take col 2, row 6", "at": 1.0})
    board.set_status("table-2", "offline")
    board.set_state("table-2", state("table-2", over=True))
    players = [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]
    board.add_play("table-2", {"game_id": 2, "started": 5.0, "game": "jurassik", "title": "Jurassik",
                               "players": players,
                               "scores": {"Ana": 14, "Bo": 11}, "winners": ["Ana"], "reason": "",
                               "finished": 900.0, "duration_s": 895.0, "moves": 31})
    return create_board_app(board, lambda: {"ok": True, "broker": "127.0.0.1:1883", "error": None})


def test_the_board_shows_every_table(app: Flask) -> None:
    page = app.test_client().get("/").get_data(as_text=True)
    assert 'id="table-table-1"' in page and 'id="table-table-2"' in page
    assert "Bo</span>" in page and "to play" in page and "Last: Ana: take col 2, row 6" in page
    assert "offline since" in page and "Game over" in page and "broker connected" in page


def test_league_chart_and_exports(app: Flask) -> None:
    client = app.test_client()
    league = client.get("/league").get_data(as_text=True)
    assert "<svg" in league and "1 play" in league and "14.0" in league
    rows = list(csv.reader(io.StringIO(client.get("/plays.csv").get_data(as_text=True))))
    assert rows[0][:2] == ["table", "game"] and len(rows) == 3
    assert client.get("/league.csv").headers["Content-Disposition"].endswith("league.csv")
    assert client.get("/api/league").get_json()["games"][0]["standings"][0]["player"] == "Ana"
    table = client.get("/table/table-1").get_data(as_text=True)
    assert "Ana: take col 2, row 6" in table
    assert client.get("/table/nowhere").status_code == 404


def test_only_its_own_names_and_no_changes(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 421
    assert client.post("/").status_code == 405
    answer = client.get("/api/tables")
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/", "/tables.html", "/league", "/table/", "/api/tables", "/api/plays",
                             "/api/league", "/plays.csv", "/league.csv", "/static/", "/cafe-static/"]),
       tail=st.text(max_size=30), query=st.text(max_size=30),
       method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE"]),
       host=st.sampled_from(["localhost", "127.0.0.1:8090", "[::1]", "evil.example", ""]))
def test_no_route_answers_500(app: Flask, path: str, tail: str, query: str, method: str, host: str) -> None:
    from urllib.parse import quote

    answer = app.test_client().open(path + quote(tail, safe="") + "?game=" + quote(query), method=method,
                                    headers={"Host": host})
    assert answer.status_code < 500, (path, tail, query, answer.status_code)


def test_each_reader_reads_the_board_in_their_own_language(tmp_path: Path) -> None:
    """A move reported in every language the table speaks is shown in the reader's; the board's own words
    follow each reader's browser, and a move reported in English only stays English."""
    board = BoardStore(tmp_path)
    board.set_status("table-1", "online")
    board.set_state("table-1", state("table-1"))
    board.add_event("table-1", {"game_id": 2, "started": 5.0, "seq": 1, "kind": "action", "player": "Ana",
                                "description": "Ana: take row 6, column 2", "at": 1.0,
                                "descriptions": {"en": "Ana: take row 6, column 2",
                                                 "es": "Ana: coger fila 6, columna 2",
                                                 "de": "Ana: nehmen Reihe 6, Spalte 2"}})
    app = create_board_app(board, lambda: {"ok": True, "broker": "127.0.0.1:1883", "error": None})
    spanish = app.test_client().get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="es">' in spanish and "Última: Ana: coger fila 6, columna 2" in spanish
    assert "Mesas" in spanish and "le toca" in spanish and "bróker conectado" in spanish
    german = app.test_client().get("/table/table-1", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="de">' in german and "Ana: nehmen Reihe 6, Spalte 2" in german
    assert "31 Züge" in german and "Bo ist am Zug" in german
    english = app.test_client().get("/").get_data(as_text=True)
    assert '<html lang="en">' in english and "Last: Ana: take row 6, column 2" in english


def test_a_table_s_descriptions_are_checked_at_the_edge(tmp_path: Path) -> None:
    from wire.reports import BadWire, event_report

    good = {"game_id": 2, "started": 5.0, "seq": 1, "kind": "action", "description": "x", "at": 1.0}
    assert event_report({**good, "descriptions": {"es": "y"}}).message["descriptions"] == {"es": "y"}
    for bad in ({"es": 3}, {"e s": "y"}, ["es"], {"es": "y" * 5000}, {str(i): "y" for i in range(20)}):
        with pytest.raises(BadWire):
            event_report({**good, "descriptions": bad})
