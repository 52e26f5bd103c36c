"""The wire format's one reader: anything at all is a checked record or a BadWire, never another error; the
board keeps bounded memory and tables, and pages built from a poisoned database still answer."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cafe import board as board_module
from cafe.app import create_board_app
from cafe.board import BadMessage, BoardStore
from wire import reports as wire

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                      max_size=4),
    max_leaves=20)
FIELDS = st.sampled_from(["game_id", "started", "seq", "kind", "player", "description", "at", "players",
                          "scores", "winners", "game", "title", "finished", "duration_s", "moves", "from",
                          "current", "over", "event_count", "camera_ok", "colour", "name", "action"])
MESSAGES = st.dictionaries(FIELDS, JSON, max_size=12)
READERS = [wire.event_report, wire.play_report, wire.state_report, wire.resend_request]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(payload=st.binary(max_size=300))
def test_any_bytes_are_an_object_or_a_bad_wire(payload: bytes) -> None:
    with contextlib.suppress(wire.BadWire):
        assert isinstance(wire.read_json(payload), dict)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(message=MESSAGES)
def test_any_object_is_a_report_or_a_bad_wire(message: dict[str, Any]) -> None:
    for reader in READERS:
        with contextlib.suppress(wire.BadWire):
            reader(message)


@pytest.mark.parametrize("payload", [
    b'{"game_id": NaN}', b'{"game_id": Infinity}', b'{"at": -Infinity}', b'{"game_id": 1e400}',
    b'{"game_id": ' + b"9" * 5000 + b"}", b"[" * 100_000 + b"]" * 100_000, b"x" * 70_000, b"[1, 2]",
    b"\xff\xfe", b'"text"'])
def test_what_broke_the_board_and_the_table_is_refused_in_words(payload: bytes) -> None:
    with pytest.raises(wire.BadWire) as refused:
        wire.read_json(payload)
    assert len(str(refused.value)) < 120 and str(refused.value)


def event(seq: int, game_id: int = 1, size: int = 0) -> dict[str, Any]:
    """An event with ``size`` more bytes in its action (what a big but well-formed message carries)."""
    return {"game_id": game_id, "started": 10.0, "seq": seq, "kind": "action", "player": "Ana",
            "description": "Ana: take", "at": 11.0, "action": {"kind": "take", "note": "x" * size}}


def test_held_back_events_stay_within_their_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_module, "MAX_EARLY_BYTES", 200_000)
    store = BoardStore(tmp_path)
    for game_id in range(1, 301):  # each game's event 2 waits for a 1 that never comes
        assert store.add_event("t1", event(2, game_id, size=1000)).missing_from == 1
    assert store._early_bytes <= 200_000
    held = sum(len(waiting) for waiting in store._early.values())
    assert 0 < held < 300
    store.add_event("t1", event(1, 1))  # a game whose 2 was held gets both
    assert [e["seq"] for e in store.events("t1")] == [1, 2]


def test_the_board_keeps_a_bounded_number_of_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Full of tables that reported moves, the board refuses one more; full of announcements that never
    reported a move (as anyone can send on a broker without an ACL), a real new table takes the place of
    the one heard from longest ago, even after the board restarts."""
    monkeypatch.setattr(board_module, "MAX_TABLES", 5)
    store = BoardStore(tmp_path)
    for index in range(5):
        store.set_status(f"t{index}", "online")
        store.add_event(f"t{index}", event(1, 1))
    with pytest.raises(BadMessage, match="keeps 5 tables"):
        store.set_status("forged", "online")
    store.set_status("t0", "offline")  # a known table still reports
    assert store.refused_tables == 1 and len(store.tables()) == 5
    other = BoardStore(tmp_path / "other")
    for index in range(300):
        other.set_status(f"forged-{index}", "online")
    other.close()
    again = BoardStore(tmp_path / "other")
    again.set_status("table-9", "online")
    again.add_event("table-9", event(1, 1))
    names = {table["name"] for table in again.tables()}
    assert "table-9" in names and len(names) == 5 and again.refused_tables == 0


def test_pages_from_a_database_an_older_board_poisoned_still_answer(tmp_path: Path) -> None:
    store = BoardStore(tmp_path)
    store.set_status("good", "online")
    store.close()
    with sqlite3.connect(tmp_path / "cafe.db") as db:
        db.execute("INSERT INTO tables VALUES ('bad', 'online', 1.0, ?, 1.0)", (json.dumps({"players": 5}),))
        db.execute("INSERT INTO plays VALUES ('bad', 1, 1.0, 'jurassik', 'Jurassik', ?, ?, '[]', '', "
                   "2.0, 1.0, 3)", (json.dumps(["red"]), json.dumps({"red": "x"})))
    store = BoardStore(tmp_path)
    app = create_board_app(store, lambda: {"ok": True, "broker": "b:1", "error": None, "bad_messages": 0})
    client = app.test_client()
    for path in ("/", "/tables.html", "/league", "/api/league", "/league.csv", "/api/tables", "/table/bad"):
        assert client.get(path, headers={"Host": "localhost"}).status_code == 200, path
    assert {t["name"]: t["state"] for t in store.tables()}["bad"] is None
    assert store.plays() == []


def test_a_corrupt_or_foreign_board_database_is_moved_aside(tmp_path: Path) -> None:
    (tmp_path / "cafe.db").write_bytes(b"not a database at all, only words" * 100)
    store = BoardStore(tmp_path)
    assert store.problems and "moved to cafe.db.unreadable-" in store.problems[0]
    store.set_status("t1", "online")
    store.close()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    with sqlite3.connect(foreign / "cafe.db") as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    adopted = BoardStore(foreign)
    assert adopted.problems and "other tables (invoices)" in adopted.problems[0]
    assert sorted(p.name for p in foreign.iterdir() if p.name.startswith("cafe.db.unreadable"))
