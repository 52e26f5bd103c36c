"""The board's store: every event once and in order whatever the broker does to them; the league."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cafe import league
from cafe.board import BoardStore


def event(seq: int, game_id: int = 1, started: float = 50.0) -> dict[str, Any]:
    return {"game_id": game_id, "started": started, "seq": seq, "kind": "action", "player": "Ana",
            "description": f"move {seq}", "at": 1.0}


def test_duplicates_are_dropped_and_early_events_wait(tmp_path: Path) -> None:
    board = BoardStore(tmp_path)
    assert board.add_event("t1", event(1)).kept == 1
    assert board.add_event("t1", event(1)).duplicate
    early = board.add_event("t1", event(4))
    assert early.kept == 0 and early.missing_from == 2
    assert board.add_event("t1", event(2)).missing_from == 3  # 4 still waits for 3
    assert board.add_event("t1", event(3)).kept == 2
    assert [e["seq"] for e in board.events("t1")] == [1, 2, 3, 4]


def test_an_event_is_kept_as_its_fields_never_a_sender_s_extra_keys(tmp_path: Path) -> None:
    import json
    import sqlite3

    board = BoardStore(tmp_path)
    for seq in range(1, 51):
        padded = {**event(seq), "padding": "x" * 60_000, "more": list(range(1000))}
        assert board.add_event("t1", padded).kept == 1
    board.close()
    with sqlite3.connect(tmp_path / "cafe.db") as db:
        messages = [json.loads(row[0]) for row in db.execute("SELECT message FROM events")]
    assert len(messages) == 50 and all("padding" not in m and "more" not in m for m in messages)
    assert messages[0]["description"] == "move 1"
    size = sum(f.stat().st_size for f in tmp_path.iterdir())
    assert size < 1_000_000  # 50 x 60 kB of padding kept whole would be 3 MB


def test_a_replaced_table_store_is_a_new_game(tmp_path: Path) -> None:
    board = BoardStore(tmp_path)
    board.add_event("t1", event(1, started=50.0))
    assert board.add_event("t1", event(1, started=90.0)).kept == 1
    assert len(board.events("t1")) == 2


def test_the_order_survives_a_restart_of_the_board(tmp_path: Path) -> None:
    board = BoardStore(tmp_path)
    board.add_event("t1", event(1))
    board.close()
    again = BoardStore(tmp_path)
    assert again.add_event("t1", event(1)).duplicate
    assert again.add_event("t1", event(2)).kept == 1


def snapshot(game_id: int, event_count: int) -> dict[str, Any]:
    return {"game": "jurassik", "title": "Jurassik", "game_id": game_id, "players": [], "current": None,
            "over": False, "scores": {}, "winners": [], "event_count": event_count, "at": 1.0}


def test_a_snapshot_ahead_of_the_board_says_what_to_ask_for(tmp_path: Path) -> None:
    board = BoardStore(tmp_path)
    behind = board.set_state("t1", snapshot(1, 3))  # a board that started after the events were sent
    assert behind is not None and (behind.game_id, behind.first) == (1, 1)
    board.add_event("t1", event(1))
    board.add_event("t1", event(2))
    behind = board.set_state("t1", snapshot(1, 3))
    assert behind is not None and behind.first == 3
    board.add_event("t1", event(3))
    assert board.set_state("t1", snapshot(1, 3)) is None
    assert board.set_state("t1", snapshot(0, 9)) is None  # a table with no game yet


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=120))
def test_any_delivery_order_keeps_each_event_once_in_order(tmp_path_factory: Any,
                                                           deliveries: list[int]) -> None:
    board = BoardStore(tmp_path_factory.mktemp("board"))
    for seq in deliveries + list(range(1, 31)):  # whatever came first, the resend brings the rest
        board.add_event("t1", event(seq))
    assert [e["seq"] for e in board.events("t1")] == list(range(1, 31))
    board.close()


def play(game_id: int, scores: dict[str, int], winners: list[str], game: str = "jurassik") -> dict[str, Any]:
    return {"game_id": game_id, "started": 10.0 * game_id, "game": game, "title": game.title(),
            "players": [{"name": n, "colour": "red"} for n in scores], "scores": scores, "winners": winners,
            "reason": "", "finished": 10.0 * game_id + 5, "duration_s": 5.0, "moves": 40}


def test_league_counts_plays_wins_average_and_best(tmp_path: Path) -> None:
    board = BoardStore(tmp_path)
    board.add_play("t1", play(1, {"Ana": 20, "Bo": 18}, ["Ana"]))
    board.add_play("t2", play(1, {"Ana": 10, "Bo": 30}, ["Bo"]))
    board.add_play("t1", play(2, {"Ana": 12, "Bo": 12}, ["Ana", "Bo"]))
    board.add_play("t1", play(2, {"Ana": 12, "Bo": 12}, ["Ana", "Bo"]))  # sent twice: one play
    board.add_play("t3", play(1, {"Cy": 9, "Ana": 3}, ["Cy"], game="jurassic-brunch"))
    games = {g.game: g for g in league.leagues(board.plays())}
    assert games["jurassik"].plays == 3
    standings = {s.player: s.to_dict() for s in games["jurassik"].standings}
    assert standings["Ana"] == {"player": "Ana", "plays": 3, "wins": 2, "win_rate": 0.667, "average": 14.0,
                                "best": 20}
    assert standings["Bo"]["best"] == 30 and standings["Bo"]["wins"] == 2
    assert [s.player for s in games["jurassic-brunch"].standings] == ["Cy", "Ana"]
    svg = league.standings_svg(games["jurassik"])
    assert svg.startswith("<svg") and "Ana" in svg and "best 30" in svg
    rows = league.plays_csv(board.plays()).splitlines()
    assert rows[0].startswith("table,game") and len(rows) == 1 + 8
