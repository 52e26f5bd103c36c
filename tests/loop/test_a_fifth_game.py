"""A game defined only in the tests (the toy engine and its kit) plays through the loop and the page
without a line of shared code changed: the camera reads its moves, the page lists and takes its taps,
draws its diagram and keeps its score, as for the four real games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from loop_toygame import Toy, is_back
from loop_toykit import ToyKit
from test_loop import feed

from companion.kits import find_kit
from companion.store import Store
from companion.table.loop import TableLoop
from companion.web import WebConfig, create_app
from hw.panel import DEFAULT_PINS, Panel
from sim.ideal import IdealPipeline, SceneSource

HOST = {"Host": "localhost"}


def _token(client: Any) -> str:
    html = client.get("/", headers=HOST).get_data(as_text=True)
    marker = 'name="csrf-token" content="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]


def test_a_game_defined_in_the_tests_plays_through_the_loop_and_the_page(
    toy_kit: ToyKit, tmp_path: Path, pin_factory: MockFactory
) -> None:
    """(``toy_kit``: registered for the loop tests by their conftest, removed after each.)"""
    toy = Toy()
    assert find_kit("toy-grab") is toy_kit
    panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
    source = SceneSource()
    loop = TableLoop(toy.config, store=Store(tmp_path), panel=panel, source=source,
                     pipeline=IdealPipeline("toy-grab", is_back))  # the kit's own model: no factory
    try:
        client: Any = create_app(loop, WebConfig()).test_client()
        token = _token(client)
        feed(loop, source, toy_kit.scene(loop.current_state()))
        rng = random.Random(5)
        for _ in range(60):
            state = loop.current_state()
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            after = state.apply(action)
            if action.kind == "pass":  # invisible to the camera: tapped on the page
                listed = client.get("/api/snapshot", headers=HOST).get_json()["legal"]
                assert action.to_dict() in listed
                answer = client.post("/api/submit", json={"action": action.to_dict()},
                                     headers={**HOST, "X-CSRF-Token": token, "Origin": "http://localhost"})
                assert answer.get_json()["ok"], answer.get_json()
            else:  # a tile taken or turned up: the camera reads it
                feed(loop, source, toy_kit.scene(after))
                feed(loop, source)
            assert loop.game.pending is None, loop.game.pending
            assert loop.current_state().to_dict() == after.to_dict()
        assert loop.current_state().is_terminal()
        sources = {event["source"] for event in loop.records.history()}
        assert sources == {"camera", "web"}
        page = client.get("/", headers=HOST).get_data(as_text=True)
        assert "Toy Grab" in page and "Game over" in page
        assert 'class="slot"' in client.get("/api/board.svg", headers=HOST).get_data(as_text=True)
        for path in ("/scores", "/history", "/dispute", "/setup", "/api/scores.svg"):
            assert client.get(path, headers=HOST).status_code == 200, path
    finally:
        loop.close()


def test_a_game_s_own_ruling_is_a_command_of_its_own(capsys: Any) -> None:
    """The toy declares a ruling in its engine only; the command line offers it beside split, score and
    legal, with the one-line refusal contract of every ruling."""
    import io
    import json
    import sys

    from companion.cli import build_parser, main

    assert "tiles-left" in build_parser().format_help()
    stdin = sys.stdin
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO(b"[true, false, true]"))
        assert main(["tiles-left", "-"]) == 0
        assert json.loads(capsys.readouterr().out) == {"left": 2, "taken": 1}
        sys.stdin = io.TextIOWrapper(io.BytesIO(b'{"row": 3}'))
        assert main(["tiles-left", "-"]) == 2
        refused = capsys.readouterr()
        assert refused.out == "" and refused.err.count("\n") == 1 and "list of true" in refused.err
    finally:
        sys.stdin = stdin
