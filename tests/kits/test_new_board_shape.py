"""A game of a new board shape goes through the real camera pipeline, tracker, inference and the demo's bots
with no shared file touched, whether its kit brings a board fit of its own or none; and the registry
refuses a kit whose reading contract leaves something out, in one line saying what."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.table import build_table
from kits.track_game import HEIGHT, WIDTH, TrackKit, TrackState, square_centre

import companion.kits as kit_registry
from companion.bots import bot_game
from companion.kits import KitContractError, TableReading, register_kit
from sim.hands import make_hand
from vision.places import POSITIONAL, UNORDERED, Place, Places
from vision.scene import Scene


@pytest.fixture(params=[True, False], ids=["own-board-fit", "no-board-fit"])
def track_kit(request: pytest.FixtureRequest) -> Iterator[TrackKit]:
    kit = register_kit(TrackKit(board_fit=request.param))
    yield kit
    kit_registry._KITS.pop(kit.name, None)


def test_a_whole_game_with_hands_reaching_in_is_read_move_by_move(track_kit: TrackKit,
                                                                   tmp_path: Path) -> None:
    table = build_table("toy-track", ["red", "blue"], tmp_path, seed=3)
    rng = random.Random(3)
    shown: list[Scene] = [table.loop.game.model.scene(table.loop.game.state)]

    def show_with_a_hand(scene: Scene) -> None:
        """A person's hand reaches over the figure's new square for a few frames, then the move shows."""
        moved = [tag.center for tag in scene.tags if tag not in shown[-1].tags]
        reaching = copy.deepcopy(shown[-1])
        reaching.occluders.append(make_hand(WIDTH, HEIGHT, rng, reach=moved[0] if moved else None, edge="S"))
        table.camera.show(reaching)
        table.frames(3)
        table.camera.show(scene)
        shown.append(scene)

    table.driver.show = show_with_a_hand
    try:
        reference = bot_game(table.initial_state(), 3, model=table.loop.game.model)
        final = table.driver.run()
        assert isinstance(final, TrackState) and final.is_terminal()
        assert final.to_dict() == reference[-1].to_dict()
        events = table.loop.records.history()
        assert len(events) == len(reference) - 1 == table.driver.physical  # every move read, none invented
        assert all(event["source"] == "camera" for event in events)
        assert table.loop.camera.errors == 0
    finally:
        table.close()


def test_a_figure_moving_within_one_zone_is_a_new_place_and_a_nudge_is_not() -> None:
    places = TrackKit.reading.places
    start = places.place("track", square_centre(2))
    assert not places.same(start, places.place("track", square_centre(3)))
    nudged = (square_centre(2)[0] + 6.0, square_centre(2)[1] - 4.0)
    assert places.same(start, places.place("track", nudged))
    # in a seat's area only the area counts; in the box nothing does
    assert places.same(places.place("seat:red", (200.0, 600.0)), places.place("seat:red", (500.0, 650.0)))
    assert places.place("box", (1000.0, 600.0)) == Place("box")
    assert places.meaning("seat:blue") == UNORDERED and places.meaning("unknown") == POSITIONAL


class Unsized(TrackKit):
    reading = TableReading(places=Places({"track": POSITIONAL}), tag_mm={"tile": 40.0})


class TappedAndUnseen(TrackKit):
    reading = TableReading(places=Places(), tag_mm={"figure": 40.0}, tapped_chance=frozenset({"roll"}),
                           unseen_chance=frozenset({"roll"}))


class Tiny(TrackKit):
    reading = TableReading(places=Places(), tag_mm={"figure": 3.0})


class Undeclared(TrackKit):
    reading = None  # type: ignore[assignment]


@pytest.mark.parametrize(("kit_class", "words"), [
    (Unsized, "no printed size for the tags of kind figure"),
    (TappedAndUnseen, "chance roll is both tapped and unseen"),
    (Tiny, "tag sizes must be 8 to 100 mm: figure=3.0"),
    (Undeclared, "declares no reading"),
])
def test_a_kit_leaving_part_of_its_reading_out_is_refused_in_one_line(kit_class: Any, words: str) -> None:
    with pytest.raises(KitContractError) as refused:
        register_kit(kit_class(board_fit=False))
    assert words in str(refused.value) and "\n" not in str(refused.value)
    assert "toy-track" not in kit_registry._KITS


def test_zone_meanings_and_tolerances_are_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="zone meanings"):
        Places({"track": "sideways"})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="tolerance"):
        Places(tolerance_mm=0.0)


def test_fallible_people_play_it_through_the_camera_and_the_page(track_kit: TrackKit) -> None:
    """The people benchmark's players (knocking figures, forgetting, tapping wrong, a second phone) end
    the new game with its true score, every slip objected to and none invented."""
    import sys

    benchmarks = str(Path(__file__).resolve().parents[2] / "benchmarks")
    sys.path.insert(0, benchmarks)
    try:
        import bench_people
    finally:
        sys.path.remove(benchmarks)
    reports = [bench_people.play(track_kit.name, seed) for seed in (1, 3)]
    assert all(report.ended_true and not report.unrecovered for report in reports), reports
    assert sum(report.objections_false for report in reports) == 0
    assert sum(report.objections_right for report in reports) > 0 and sum(r.taps for r in reports) > 0


def test_its_page_shows_its_diagram_and_takes_a_tap(track_kit: TrackKit, tmp_path: Path) -> None:
    from companion.web import WebConfig, create_app

    table = build_table(track_kit.name, ["red", "blue"], tmp_path, seed=3)
    try:
        client: Any = create_app(table.loop, WebConfig()).test_client()
        page = client.get("/", headers={"Host": "localhost"}).get_data(as_text=True)
        assert "Legal moves" in page and 'class="move" data-post="/api/submit"' in page
        board = client.get("/api/board.svg", headers={"Host": "localhost"}).get_data(as_text=True)
        assert board.startswith("<svg") and board == track_kit.diagram(
            table.loop.snapshot()["view"], table.loop.snapshot())
        marker = 'name="csrf-token" content="'
        token = page[page.index(marker) + len(marker):page.index('"', page.index(marker) + len(marker))]
        import html
        import json
        import re

        # a tap on the page's first move button posts that button's own body
        buttons = re.findall(r'data-post="/api/submit" data-body=\'([^\']*)\'', page)
        body = json.loads(html.unescape(buttons[0]))
        move = body["action"]
        assert move in table.loop.snapshot()["legal"]
        answer = client.post("/api/submit", json=body, headers={
            "Host": "localhost", "Origin": "http://localhost", "X-CSRF-Token": token}).get_json()
        assert answer["ok"], answer
        assert table.loop.records.history()[-1]["action"] == move
    finally:
        table.close()
