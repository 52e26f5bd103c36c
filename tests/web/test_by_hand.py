"""`companion serve` with the synthetic camera, tried by hand: a move tapped on the page is made on the drawn
table and read back by the real camera pipeline, the companion's moves are made for it, face-down pieces
turn up, and no objection arises that the people did not cause. Every registered game, against a companion
seat, through the page's own routes."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.by_hand import TableByHand
from companion.commands.web import open_camera
from companion.config import config_from_dict
from companion.infer import state_key
from companion.kits import kit_for, kits
from companion.table.loop import TableLoop
from companion.table.pipeline import vision_pipeline
from companion.web import create_app
from hw.panel import Panel

#: moves the person taps in each game (the companion moves between them)
TAPS = 6
WAIT_S = 60.0
LOCAL = {"Host": "localhost", "Origin": "http://localhost"}


def until(done: Callable[[], bool], what: str, within: float = WAIT_S) -> None:
    deadline = time.monotonic() + within
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {within:.0f} s for {what}")
        time.sleep(0.05)


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[TableLoop, TableByHand, Any]]:
    game: str = request.param
    person, companion = kit_for(game).demo_colours[:2]
    config = config_from_dict({
        "game": game, "seed": 5, "camera": {"source": "synthetic", "fps": 10},
        "seats": [{"name": person, "colour": person},
                  {"name": companion, "colour": companion, "companion": 1}],
        "store": {"state_dir": str(tmp_path / "state")}, "web": {"lan": False}})
    panel = Panel(config.pins, [person, companion], pin_factory=MockFactory(pin_class=MockPWMPin),
                  start=False)
    loop = TableLoop(config, pipeline=vision_pipeline(config), panel=panel, real_table=False)
    camera = open_camera(config, loop)
    loop.source = camera
    hands = TableByHand(loop, camera.synthetic.show, seed=5)
    client = create_app(loop, {"lan": False}, hands=hands).test_client()
    loop.start()
    hands.start()
    try:
        yield loop, hands, client
    finally:
        hands.stop()
        loop.close()


def post(client: Any, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    page = client.get("/", headers=LOCAL).get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page)
    assert token, "the page carries its CSRF token"
    answer = client.post(path, json=body, headers={**LOCAL, "X-CSRF-Token": token[1]})
    assert answer.status_code == status, answer.get_json()
    result: dict[str, Any] = answer.get_json()
    return result


def tap(client: Any, action: dict[str, Any]) -> dict[str, Any]:
    return post(client, "/api/submit", {"action": action})


@pytest.mark.parametrize("served", sorted(kits()), indirect=True)
def test_a_game_is_played_by_hand_on_the_drawn_table(served: tuple[TableLoop, TableByHand, Any]) -> None:
    loop, hands, client = served
    person = loop.config.seats[0].name
    rng = random.Random(3)
    objections: list[str] = []

    def settled() -> bool:
        pending = loop.game.pending
        if pending is not None and pending.kind == "objection":
            objections.append(str(pending.inference.text))
        state = loop.current_state()
        return state.is_terminal() or (pending is None and state.current_player() == person)

    until(settled, "the person's first turn")
    out_of_turn = {**loop.current_state().legal_actions()[0].to_dict(), "player": loop.config.seats[1].name}
    refused = post(client, "/api/submit", {"action": out_of_turn}, status=409)  # never made on the table
    assert not refused["ok"] and refused["error"]
    taps = 0
    while taps < TAPS:
        until(settled, "the person's turn")
        assert objections == [], objections  # none the person did not cause
        state = loop.current_state()
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        assert tap(client, action.to_dict())["ok"]
        taps += 1
        before = state_key(state)
        until(lambda before=before: state_key(loop.current_state()) != before, "the tapped move to be read")
    until(settled, "the table to settle")
    assert objections == [], objections
    done = loop.game.seq()
    assert post(client, "/api/press", {"button": "undo"})["ok"]  # taken back on the page, then on the table
    until(lambda: loop.game.seq() > done and loop.game.pending is None, "the table to follow the undo")
    events = loop.records.history()
    assert events and any(event["source"] == "camera" for event in events)  # read off the drawn table
    assert hands.done.get("made", 0) + hands.done.get("turned up", 0) > 0  # the companion's, or a face
