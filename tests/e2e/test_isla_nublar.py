"""A whole Isla Nublar game at a synthetic table: every frame rendered, read by the real vision pipeline
(detect + track), inferred, applied, stored and signalled; it ends exactly as the engine played directly
by the same bots. Cards laid face up are read from their stickers (a card of several uses is asked about)
and picking them up ends the turn; purchases and face-down reveals are invisible to the camera and come
by the bots' submit path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table import build_table
from test_games import play_and_check

from companion.kits.isla_nublar.model import IslaNublarModel
from engines.core import uniform_policy
from engines.isla_nublar.actions import EndTurn, PlayCard
from vision.observation import Observation


@pytest.mark.slow
def test_a_whole_two_player_game_through_the_camera(tmp_path: Path) -> None:
    """The demo's bots (the engine's own): camps set up taking boxes back, stacks, figures, scoring
    (seed 2: 271 actions, 76 of them read from the table and 67 more answered questions about cards laid
    face up; about 11 s here)."""
    play_and_check("isla-nublar", ["red", "blue"], tmp_path, seed=2)


@pytest.mark.slow
def test_a_whole_two_player_game_of_random_bots_through_the_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Uniformly random bots: long games (1081 actions, 360 read from the table, about 50 s) in which the
    figures crowd the ends of the columns that stop in an upper area."""
    monkeypatch.setattr(IslaNublarModel, "bot_policy", lambda self: uniform_policy)
    play_and_check("isla-nublar", ["red", "blue"], tmp_path, seed=2)


def test_figures_crowding_a_column_end_are_read_through_the_camera(tmp_path: Path) -> None:
    """Two figures on the last field of a column and a third arriving next to them: every figure's code
    is read where the layout stands it (the arriving figure used to cover a neighbour's code)."""
    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1)
    try:
        loop = table.loop
        table.frames(3)
        state = loop.current_state()
        from engines.isla_nublar import IslaNublarState

        assert isinstance(state, IslaNublarState)
        crowded = state.clone()
        crowded.dinos.update({"DINO-2": "C1R6", "DINO-3": "C1R6", "DINO-4": "C1R5"})
        table.camera.show(loop.game.model.scene(crowded))
        table.frames(6)
        detections = loop.snapshot()["detections"]
        assert detections is not None
        observation = Observation.from_dict(detections)
        figures = {k: v.center_mm for k, v in observation.tags.items() if k.startswith("DINO-")}
        expected = {t.payload.rsplit(":", 1)[-1]: t.center for t in loop.game.model.scene(crowded).tags}
        assert set(figures) == {"DINO-1", "DINO-2", "DINO-3", "DINO-4"}
        for figure, at in figures.items():
            assert at is not None
            assert abs(at[0] - expected[figure][0]) < 6 and abs(at[1] - expected[figure][1]) < 6
    finally:
        table.close()


def _until(table: Any, condition: Any, limit: int = 60) -> None:
    for _ in range(limit):
        table.frame()
        if condition():
            return
    raise AssertionError("the loop did not read the table")


def test_cards_laid_face_up_are_read_as_played_and_picked_up_as_the_turn_ends(tmp_path: Path) -> None:
    """A real table: the cards turned face up at setup are tapped; each card red lays face up is read
    from its sticker (a card of several uses is asked about, one option per use); picking the played
    cards up ends the turn, and the five cards drawn are noted unseen by the table."""
    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1, real_table=True)
    loop = table.loop
    try:
        while loop.current_state().is_chance_node():  # the buy piles' tops and the scoring row, tapped
            outcome = loop.current_state().chance_outcomes()[0][0]
            assert loop.submit(outcome.to_dict(), source="web")["ok"]
        table.frames(3)
        state = loop.current_state()
        for card in ("S-BOXES2", "S-AMBER1", "S-AMBER1", "S-BOXES2", "S-AMBER1-BOXES1"):
            laid = state.apply(PlayCard(player="red", card=card, use="none"))
            table.camera.show(loop.game.model.scene(laid))
            _until(table, lambda: getattr(loop.game.pending, "kind", None) == "question")
            options = [list(option) for option in loop.game.pending.options]
            uses = {action.use for [action] in options}
            assert {action.card for [action] in options} == {card}
            assert "none" in uses and len(uses) == len(options) >= 2
            assert loop.choose(next(i for i, [a] in enumerate(options) if a.use == "none"))["ok"]
            state = loop.current_state()
            assert state.zones["red"]["played"].get(card, 0) >= 1
        count = len(loop.records.history())
        ended = state.apply(EndTurn(player="red"))
        table.camera.show(loop.game.model.scene(ended))  # the played cards picked up: none in red's area
        _until(table, lambda: len(loop.records.history()) > count)
        events = loop.records.history()[count:]
        assert events[0]["action"]["kind"] == "end-turn" and events[0]["source"] == "camera"
        draws = [e for e in events if e["action"]["kind"] == "draw"]
        assert len(draws) == 5 and {e["source"] for e in draws} == {"table"}
        assert loop.current_state().current_player() == "blue"
    finally:
        table.close()


def test_a_single_use_card_is_played_at_once(tmp_path: Path) -> None:
    """The dinosaur egg has one use: laid face up, it is played without a question, and the dinosaur
    card turned up from the deck into red's area is read as the reveal."""
    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1)
    loop = table.loop
    try:
        table.frames(3)
        state = loop.current_state()
        assert state.zones["red"]["hand"].get("EGG")
        count = len(loop.records.history())
        laid = state.apply(PlayCard(player="red", card="EGG", use="egg"))
        table.camera.show(loop.game.model.scene(laid))
        _until(table, lambda: len(loop.records.history()) > count)
        assert loop.records.history()[count]["action"]["card"] == "EGG" and loop.game.pending is None
        revealed = laid.apply(laid.chance_outcomes()[0][0])
        table.camera.show(loop.game.model.scene(revealed))
        _until(table, lambda: len(loop.records.history()) > count + 1)
        event = loop.records.history()[count + 1]
        assert event["action"]["kind"] == "reveal-dinosaur" and event["source"] == "camera"
    finally:
        table.close()


def test_what_follows_on_the_board_tells_how_a_card_was_played(tmp_path: Path) -> None:
    """A card of two uses laid face up asks which; a box placed next settles it (the boxes it gave), with
    no tap: the question goes and both moves are read from the table."""
    from engines.isla_nublar.actions import PlaceBox

    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1, real_table=True)
    loop = table.loop
    try:
        while loop.current_state().is_chance_node():
            assert loop.submit(loop.current_state().chance_outcomes()[0][0].to_dict(), source="web")["ok"]
        table.frames(3)
        state = loop.current_state()
        played = state.apply(PlayCard(player="red", card="S-BOXES2", use="none"))
        table.camera.show(loop.game.model.scene(played))
        _until(table, lambda: getattr(loop.game.pending, "kind", None) == "question")
        count = len(loop.records.history())
        played = state.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
        field = next(a.field for a in played.legal_actions() if isinstance(a, PlaceBox))
        table.camera.show(loop.game.model.scene(played.apply(PlaceBox(player="red", field=field))))
        _until(table, lambda: len(loop.records.history()) > count)
        events = loop.records.history()[count:]
        read = [(e["action"]["kind"], e["source"]) for e in events]
        assert read == [("play", "camera"), ("place-box", "camera")]
        assert events[0]["action"]["use"] == "boxes" and loop.game.pending is None
    finally:
        table.close()


def test_cards_face_up_about_the_board_are_not_read_as_played(tmp_path: Path) -> None:
    """At a real table every card carries a sticker: cards put down about the board (outside the players'
    areas, the buy piles and the scoring row) raise nothing."""
    from vision.scene import Tag

    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1)
    loop = table.loop
    try:
        table.frames(3)
        count = len(loop.records.history())
        scene = loop.game.model.scene(loop.current_state())
        general = next(z for z in scene.zones if z.name == "general").polygon
        x0, y0 = min(p[0] for p in general), min(p[1] for p in general)
        shown = {t.payload.rsplit(":", 1)[-1] for t in scene.tags}
        tags = [f"CARD-{n:03d}" for n in range(60, 100) if f"CARD-{n:03d}" not in shown][:3]  # spare copies
        scene.tags += [Tag(f"DT1:IN:{tag}", (x0 + 300.0 + 60.0 * i, y0 + 24.0), 0.0, 36.0)
                       for i, tag in enumerate(tags)]
        table.camera.show(scene)
        table.frames(20)
        detections = loop.snapshot()["detections"]
        assert detections is not None and set(tags) <= set(Observation.from_dict(detections).tags)
        assert loop.game.pending is None and len(loop.records.history()) == count
    finally:
        table.close()
