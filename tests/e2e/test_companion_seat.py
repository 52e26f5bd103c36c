"""The companion's own seat at a (synthetic) table: it decides from its seat's view in a thread of its own,
shows its move, people make it, and the camera checks it; a different move is objected to, naming the
move it wanted. Games come from the registered kits."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table import Table, build_table

from companion.kits import kits
from companion.table.companion_seat import COMPANION_RULE
from engines.core import State

KITS = sorted(kits())
#: companion moves carried out per game in the fast lane (whole games of the long ones are slow)
MOVES = 6


def companion_table(game: str, tmp_path: Path, level: int = 1, seed: int = 3) -> tuple[Table, str]:
    colours = list(kits()[game].demo_colours[:2])
    table = build_table(game, colours, tmp_path, seed=seed, companion={colours[1]: level})
    return table, colours[1]


def wait_for_companion(table: Table, state: State, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        decision = table.loop.companion.wanted_now(state)
        if decision is not None:
            return decision
        time.sleep(0.01)
    raise AssertionError("the companion did not decide")


def companion_turn(table: Table) -> tuple[State, Any]:
    """Play on until the companion's seat is to move; the state then and what it decided there."""
    while table.loop.companion.to_move(table.loop.current_state()) is None:
        table.driver.step()
    state = table.loop.current_state()
    return state, wait_for_companion(table, state)


@pytest.mark.parametrize("game", KITS)
def test_the_companion_s_moves_are_made_by_people_and_read_by_the_camera(game: str, tmp_path: Path) -> None:
    table, seat = companion_table(game, tmp_path)
    try:
        driver = table.driver
        while driver.companion_moves < MOVES and driver.step():
            pass
        assert driver.companion_moves >= min(MOVES, 1)
        events = table.loop.records.history()
        mine = [e for e in events if e.get("action", {}).get("player") == seat or e["source"] == "companion"]
        assert mine and table.loop.game.pending is None  # nothing it wanted was objected to
        assert table.loop.companion.failures == 0
    finally:
        table.close()


def test_a_whole_game_against_the_companion_ends_with_its_moves_all_made(tmp_path: Path) -> None:
    table, _ = companion_table("jurassik", tmp_path, level=2)
    try:
        final = table.driver.run()
        assert final.is_terminal() and table.driver.companion_moves > 3
        snapshot = table.loop.snapshot()
        assert snapshot["over"] and snapshot["companion"] is None
        assert [p.get("companion") for p in snapshot["players"]] == [None, 2]
    finally:
        table.close()


def test_another_move_for_the_companion_s_seat_is_objected_to_until_its_own_is_made(tmp_path: Path) -> None:
    table, seat = companion_table("jurassik", tmp_path)
    try:
        loop = table.loop
        state, wanted = companion_turn(table)
        snapshot = loop.snapshot()
        shown = snapshot["companion"]
        assert shown["player"] == seat and shown["action"] == wanted.action.to_dict() and shown["differences"]
        assert snapshot["panel"]["active_seat"] == 1 and snapshot["panel"]["pattern"] == "waiting"
        other = next(a for a in state.legal_actions() if a != wanted.action and a.kind == wanted.action.kind)
        model = loop.game.model
        table.camera.show(model.display_scene(state, other, state.apply(other)))
        table.frames(8)
        pending = loop.game.pending
        assert pending is not None and pending.kind == "objection"
        assert pending.inference.rule == COMPANION_RULE
        assert "wanted" in pending.inference.text and loop.current_state() == state  # nothing applied
        table.camera.show(model.display_scene(state, wanted.action, state.apply(wanted.action)))
        table.frames(8)
        assert loop.game.pending is None
        last = loop.game.last_event
        assert last is not None and last.action == wanted.action.to_dict()
        assert loop.current_state() != state
    finally:
        table.close()


def test_a_hint_is_for_the_player_to_move_and_marks_the_game_assisted(tmp_path: Path) -> None:
    from companion.records import export_game

    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=4)
    try:
        loop = table.loop
        table.driver.step()
        state = loop.current_state()
        player = state.current_player()
        waiting = next(p for p in state.players if p != player)
        assert loop.records.play_record()["assisted"] is False
        refused = loop.hint(waiting)
        assert not refused["ok"] and "not to play" in refused["error"]
        answer = loop.hint(player)
        assert answer["ok"] and state.is_legal(state.game.action_from_dict(answer["action"]))
        assert loop.records.play_record()["assisted"] is True
        exported = export_game(loop.game.store, loop.game.game_id)
        assert exported["assisted"] is True
        notes = [n for n in exported["notices"] if n["kind"] == "hint"]
        assert [n["detail"] for n in notes] == [{"player": player}]  # who asked, never the move hinted
    finally:
        table.close()


def test_a_game_whose_kit_cannot_have_the_companion_at_a_real_table_says_so_and_seats_people(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = KITS[0]
    kit = kits()[game]
    why = "its pieces are the players' own: its seats are played by people"  # a kit that says so
    monkeypatch.setattr(type(kit), "no_companion_at_real_table", why)
    colours = list(kit.demo_colours[:2])
    table = build_table(game, colours, tmp_path, seed=3, real_table=True, companion={colours[1]: 2})
    try:
        snapshot = table.loop.snapshot()
        faults = [f for f in snapshot["faults"] if f["part"] == "companion"]
        assert faults and faults[0]["text"] == why
        assert not table.loop.companion.levels and snapshot["companion"] is None
    finally:
        table.close()
