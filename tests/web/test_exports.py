"""At game over: a BG Stats link in its documented push format, the play as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

from companion.exports import bg_stats_data, bg_stats_link, play_csv, ranks


def finished_play() -> dict[str, Any]:
    return {"game_id": 4, "game": "jurassik", "title": "Jurassik", "start_player": "Bo", "table": "cafe-2",
            "variant": "edition es",
            "players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"},
                        {"name": "Cy", "colour": "green"}],
            "started": 1_700_000_000.0, "finished": 1_700_002_430.0, "duration_s": 2430.0, "moves": 73,
            "over": True,
            "scores": {"players": {"Ana": {"total": 20, "breakdown": {"D3": 6, "D8": 14}},
                                   "Bo": {"total": 20, "breakdown": {"D3": 10, "D8": 10}},
                                   "Cy": {"total": 9, "breakdown": {"D3": 9}}},
                       "winners": ["Bo"], "reason": "the last tile was taken",
                       "tiebreak": {"Bo": "more completed dinosaurs"}}}


def test_bg_stats_push_format() -> None:
    data = bg_stats_data(finished_play())
    assert data["game"] == {"name": "Jurassik", "highestWins": True, "noPoints": False,
                            "sourceGameId": "jurassik"}
    assert data["durationMin"] == 40 and len(data["playDate"]) == 19
    players = {p["name"]: p for p in data["players"]}
    assert players["Bo"]["winner"] and players["Bo"]["rank"] == 1 and players["Bo"]["startPlayer"]
    assert players["Ana"]["rank"] == 2 and not players["Ana"]["winner"]  # tied on points, lost the tie-break
    assert players["Cy"]["score"] == 9 and players["Cy"]["rank"] == 3


def test_the_link_carries_every_field_the_app_needs_and_ids_that_stay(tmp_path: Any) -> None:
    play = finished_play()
    link = bg_stats_link(play)
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    data = json.loads(parse_qs(parts.query)["data"][0])
    assert data == bg_stats_data(play)
    assert set(data) >= {"sourceName", "sourcePlayId", "game", "playDate", "durationMin", "location", "board",
                         "comments", "players"}
    assert data["board"] == "edition es" and data["sourcePlayId"] == "dinotable:cafe-2:4:1700000000"
    assert {"highestWins", "noPoints", "name", "sourceGameId"} <= set(data["game"])
    for player in data["players"]:
        assert {"name", "sourcePlayerId", "score", "winner", "rank", "startPlayer"} <= set(player)
        assert isinstance(player["winner"], bool) and isinstance(player["startPlayer"], bool)
    # the same play pushed again is the same play; the same person in another seat the same player
    assert json.loads(parse_qs(urlsplit(bg_stats_link(finished_play())).query)["data"][0]) == data
    later = finished_play()
    later.update(game_id=5, started=1_700_090_000.0, table="cafe-2")
    later["players"] = [{"name": "bo ", "colour": "red"}, {"name": "Ana", "colour": "blue"},
                        {"name": "Cy", "colour": "green"}]
    again = bg_stats_data(later)
    ids = {p["name"].strip().lower(): p["sourcePlayerId"] for p in data["players"]}
    assert {p["name"].strip().lower(): p["sourcePlayerId"] for p in again["players"]} == ids
    assert again["sourcePlayId"] != data["sourcePlayId"]
    # another table's game 4 is another play
    other = finished_play()
    other["table"] = "cafe-3"
    assert bg_stats_data(other)["sourcePlayId"] != data["sourcePlayId"]


def test_ties_share_a_rank() -> None:
    play = finished_play()
    play["scores"]["winners"] = ["Ana", "Bo"]
    assert ranks(play) == {"Ana": 1, "Bo": 1, "Cy": 3}


def test_the_scores_page_links_bg_stats_and_exports_at_game_over(client: Any, table: Any) -> None:
    assert b"Log this play in BG Stats" not in client.get("/scores").data
    while not table.state.is_terminal():
        table.play(50)
    page = client.get("/scores").get_data(as_text=True)
    assert "Log this play in BG Stats" in page
    link = page.split('id="bg-stats" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    data = json.loads(parse_qs(parts.query)["data"][0])
    winners = set(table.state.scores().winners)
    assert {p["name"] for p in data["players"] if p["winner"]} == winners
    rows = list(csv.DictReader(io.StringIO(client.get("/api/play.csv").get_data(as_text=True))))
    assert len(rows) == len(data["players"]) and {r["player"] for r in rows if r["winner"] == "1"} == winners
    assert client.get("/api/play.json").get_json()["bg_stats"].startswith("https://app.bgstatsapp.com/")
    assert client.get("/api/play.json?game=99").status_code == 404


def test_csv_has_every_part_of_the_score() -> None:
    rows = list(csv.DictReader(io.StringIO(play_csv(finished_play()))))
    assert [r["player"] for r in rows] == ["Ana", "Bo", "Cy"]
    assert rows[0]["D8"] == "14" and rows[2]["D8"] == "0" and rows[1]["start_player"] == "1"


def test_a_stored_game_as_a_play(tmp_path: Any) -> None:
    import random

    from companion.records import GameRecords
    from companion.store import Store
    from engines.core import get_game, sample_chance

    store = Store(tmp_path)
    game = get_game("jurassik")
    rng = random.Random(2)
    state = game.new_initial_state(["Ana", "Bo"], rng=rng)
    starter = state.current_player()
    seats = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]
    game_id = store.new_game(game, state, seats, {}, 2)
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state = state.apply(action)
        store.append(game_id, "action", action.to_dict(), state_after=state)
    store.finish(game_id, state.outcome().to_dict())  # type: ignore[union-attr]
    play = GameRecords(store, game_id, "kitchen").play_record()
    assert play["table"] == "kitchen" and play["variant"] == "edition en"
    assert play["over"] and play["finished"] is not None and play["moves"] == len(store.events(game_id))
    assert play["start_player"] == starter and play["scores"]["winners"] == list(state.scores().winners)
    data = bg_stats_data(play)
    assert {p["name"] for p in data["players"] if p["winner"]} == set(state.scores().winners)
