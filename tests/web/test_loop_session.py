"""The web page over the real loop (not the test session): what the loop's snapshot gives the page."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import config_from_dict
from companion.kits import kit_for
from companion.shared_view import privacy_for, shared_legal_actions
from companion.store import Store
from companion.table.loop import TableLoop
from companion.web import WebConfig, create_app
from engines.core import get_game
from hw.panel import Panel
from sim.ideal import IdealPipeline, SceneSource


@pytest.fixture
def jp_loop(tmp_path: Path) -> Iterator[TableLoop]:
    config = config_from_dict({"game": "jurassic-parts", "seed": 1,
                               "seats": [{"name": c, "colour": c} for c in ("red", "blue", "green")]})
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, ["red", "blue", "green"], pin_factory=factory, start=False)
    source = SceneSource()
    loop = TableLoop(config, store=Store(tmp_path), panel=panel, source=source,
                     pipeline=IdealPipeline(config.game, kit_for(config.game).is_back))
    source.show(loop.game.model.scene(loop.game.state))
    yield loop
    loop.close()
    factory.reset()


def test_the_legal_chisel_gaps_are_ringed_on_the_table_diagram(jp_loop: TableLoop) -> None:
    client: Any = create_app(jp_loop, WebConfig()).test_client()
    snap = client.get("/api/snapshot").get_json()
    state = jp_loop.current_state()
    expected = [a.to_dict() for a in state.legal_actions()]
    placements = [a for a in expected if a["kind"] == "place-chisel"]
    assert placements and all(a["player"] == state.current_player() for a in expected)
    assert snap["legal"] == expected  # nothing concealed among a chisel turn's moves: all of them
    board = client.get("/api/board.svg").get_data(as_text=True)
    assert board.count('class="legal"') == len(placements)
    page = client.get("/").get_data(as_text=True)
    assert f"Legal moves <small>{len(expected)} · " in page
    assert page.count('class="move" data-post="/api/submit"') == len(expected)  # every one a control


def test_a_chisel_is_placed_by_tapping_its_gap_and_tiles_carry_the_words_numbers(
        jp_loop: TableLoop, csrf: Any, post: Any) -> None:
    import json

    from companion.kits.jurassic_parts.words import slab_cell_words

    for _ in range(4):  # the camera sees the table set up: the game starts
        jp_loop.process_frame(*jp_loop.source.read())
    assert jp_loop.game.pending is None
    client: Any = create_app(jp_loop, WebConfig()).test_client()
    board = client.get("/api/board.svg").get_data(as_text=True)
    page = client.get("/").get_data(as_text=True)
    spots = re.findall(r'<circle class="spot" cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" role="button" '
                       r'tabindex="0" data-post="/api/submit" data-body=\'([^\']+)\'', page)
    legal = [a for a in client.get("/api/snapshot").get_json()["legal"] if a["kind"] == "place-chisel"]
    assert len(spots) == len(legal)  # one spot over each gap a chisel may go in, as the picture rings it
    assert re.search(r'class="diagram-spots" viewBox="(0 0 \d+ \d+)"', page).group(1) == re.search(
        r'viewBox="(0 0 \d+ \d+)"', board).group(1)
    ringed = {(round(float(x)), round(float(y))) for x, y in
              re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="5" fill="none" stroke="#2e7d32"', board)}
    assert {(round(float(x)), round(float(y))) for x, y, _ in spots} == ringed
    action = json.loads(spots[0][2].replace("&#34;", '"'))["action"]
    assert action in legal
    # a tap on the spot submits its move as the button would: the chisel is placed there
    answer = post(client, "/api/submit", {"action": action}, csrf(client))
    assert answer.get_json().get("ok"), answer.get_json()
    assert client.get("/api/snapshot").get_json()["last_event"]["action"] == action
    # every tile's number under its fossil is the one the words give it
    view = client.get("/api/snapshot").get_json()["view"]
    drawn = re.findall(r'data-cell="(-?\d+),(-?\d+)".*?class="tile-number">(\d+)<', board)
    assert len(drawn) >= 30
    for q, r, number in drawn:
        words = slab_cell_words(view, (int(q), int(r)))
        assert words is not None and f", tile {number} (" in words


def test_legal_moves_never_name_a_concealed_holding() -> None:
    # Isla Nublar's card plays name the cards in a hand: none of them reaches the shared view
    game = get_game("isla-nublar")
    state = game.new_initial_state(["red", "blue"], rng=random.Random(3))
    rng = random.Random(4)
    seen_private = seen_reveals = 0
    policy = privacy_for(state.game.name)
    for _ in range(200):
        if state.is_terminal():
            break
        shared = shared_legal_actions(state)
        every = [a.to_dict() for a in state.legal_actions()]
        if state.is_chance_node():
            # a card drawn into a hand is never told; one turned face up for everyone may be tapped
            drawing = state.tasks[0].kind == "draw"
            assert shared == ([] if drawing else every)
            assert {a["kind"] for a in shared} <= {"reveal-pile", "reveal-scoring", "reveal-dinosaur"}
            seen_reveals += len(shared)
        else:
            seen_private += sum(1 for a in every if policy.hidden(a))
            assert all(not policy.hidden(a) for a in shared)
            assert shared == [a for a in every if not policy.hidden(a)]
        state = state.apply(rng.choice(state.legal_actions()))
    assert seen_private > 0 and seen_reveals > 0  # the playout reached moves naming cards, and reveals


def test_no_legal_moves_are_shown_once_the_game_is_over_or_at_a_reveal() -> None:
    game = get_game("jurassic-parts")
    state = game.new_initial_state(["red", "blue"], rng=random.Random(2))
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            assert shared_legal_actions(state) == []
        state = state.apply(rng.choice(state.legal_actions()))
    assert shared_legal_actions(state) == []


def test_undo_takes_back_a_tapped_move_with_the_cards_drawn_unseen_after_it(tmp_path: Path) -> None:
    config = config_from_dict({"game": "isla-nublar", "seed": 2,
                               "seats": [{"name": c, "colour": c} for c in ("red", "blue")]})
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, ["red", "blue"], pin_factory=factory, start=False)
    source = SceneSource()
    loop = TableLoop(config, store=Store(tmp_path), panel=panel, source=source,
                     pipeline=IdealPipeline(config.game, kit_for(config.game).is_back))
    try:
        rng = random.Random(7)
        for _ in range(400):  # moves tapped on the page until one is followed by a card drawn unseen
            state = loop.current_state()
            assert not state.is_terminal()
            action = rng.choice(state.legal_actions())
            before = len(loop.records.history())
            assert loop.submit(action.to_dict())["ok"]
            added = loop.records.history()[before:]
            if len(added) > 1 and added[-1]["source"] == "table":
                break
        else:
            raise AssertionError("no move was followed by a card drawn unseen")
        assert loop.press("undo")["ok"]
        assert loop.current_state().to_dict() == state.to_dict()  # the move and its draws, all taken back
        undone = [e for e in loop.records.history() if e["kind"] == "undo"]
        assert [e["undoes"] for e in undone] == [e["seq"] for e in reversed(added)]
        assert loop.game.store.replay(loop.game.game_id).state.to_dict() == state.to_dict()
    finally:
        loop.close()
        factory.reset()


def test_brunch_seats_with_people_s_names_play_and_show_them(tmp_path: Path) -> None:
    seats = [{"name": "Ana", "colour": "orange"}, {"name": "Bo", "colour": "blue"}]
    config = config_from_dict({"game": "jurassic-brunch", "seed": 1, "seats": seats})
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, ["orange", "blue"], pin_factory=factory, start=False)
    loop = TableLoop(config, store=Store(tmp_path), panel=panel, source=SceneSource(),
                     pipeline=IdealPipeline(config.game, kit_for(config.game).is_back))
    try:
        state = loop.current_state()
        assert sorted(state.players) == ["blue", "orange"]
        client: Any = create_app(loop, WebConfig()).test_client()
        page = client.get("/").get_data(as_text=True)
        current = state.current_player()
        person = {"orange": "Ana", "blue": "Bo"}[current]
        assert f"{person} ({current}) to play" in page
        setup = client.get("/setup").get_data(as_text=True)
        assert 'value="Ana"' in setup and 'value="Bo"' in setup
        assert loop.new_game(loop.settings())["ok"]  # the settings round-trip keeps the people's names
        assert [s.person for s in loop.config.seats] == ["Ana", "Bo"]
    finally:
        loop.close()
        factory.reset()
