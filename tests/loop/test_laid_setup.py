"""The table as laid is the game: a Jurassik square the group dealt and laid itself (its own dinosaurs,
its own action tiles, wherever it put the square, every tile a little off) starts the game as laid, and
every take is read as itself; what a square lacks is said in the diagram's words; Confirm starts a
group's own variant; a restart keeps the game and where it lies. Perfect camera (the real one: tests/e2e)."""

from __future__ import annotations

import contextlib
import math
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from group_tables import GroupTable

from companion.config import config_from_dict
from companion.kits import kit_for
from companion.store import Store
from companion.table.loop import TableLoop
from engines.jurassik import JurassikState
from hw.panel import DEFAULT_PINS, Panel
from sim.ideal import IdealPipeline, SceneSource

PLAYERS = ("Ana", "Bruno")
COLOURS = ("red", "blue")


@pytest.fixture
def panel() -> Iterator[Panel]:
    factory = MockFactory(pin_class=MockPWMPin)
    made = Panel(DEFAULT_PINS, list(COLOURS), pin_factory=factory, start=False)
    yield made
    made.close()
    factory.reset()


def open_table(tmp_path: Path, panel: Panel, seed: int = 1, game: str = "jurassik",
               seats: Any = None, **loop_options: Any) -> tuple[TableLoop, SceneSource]:
    seats = seats or [{"name": name, "colour": colour} for name, colour in zip(PLAYERS, COLOURS)]
    config = config_from_dict({"game": game, "seed": seed, "seats": seats}, source="<test>")
    source = SceneSource()
    loop = TableLoop(config, store=Store(tmp_path), panel=panel, source=source,
                     pipeline=IdealPipeline(game, kit_for(game).is_back), **loop_options)
    return loop, source


def look(loop: TableLoop, source: SceneSource, scene: Any = None, frames: int = 3) -> None:
    if scene is not None:
        source.show(scene)
    for _ in range(frames):
        loop.process_frame(*source.read())


def play_takes(loop: TableLoop, source: SceneSource, group: GroupTable, moves: int) -> JurassikState:
    """The group plays on from ``group.state``, each move read by the camera from the square as the group
    laid it: every move must be read as itself, with nothing pending."""
    state = group.state
    for action, after in group.moves(moves):
        before = len(loop.records.history())
        look(loop, source, group.scene(after))
        history = loop.records.history()
        assert len(history) == before + 1, (action, loop.game.pending and loop.game.pending.to_dict())
        assert history[-1]["action"] == action.to_dict()
        assert loop.game.pending is None
        state = after
    return state


def test_a_square_the_group_dealt_and_laid_itself_starts_as_laid(tmp_path: Path, panel: Panel) -> None:
    loop, source = open_table(tmp_path, panel, seed=1)
    group = GroupTable(PLAYERS, COLOURS, deal=77, shift=(23.0, -17.0))
    try:
        dealt = loop.game.state
        assert isinstance(dealt, JurassikState) and dealt.cells != group.state.cells
        look(loop, source, group.scene())
        assert loop.game.pending is None and not panel.signals.objection
        assert loop.game.state == group.state  # their dinosaurs, their tiles, where they lie
        notices = [n["text"] for n in loop.game.store.notices(loop.game.game_id) if n["kind"] == "setup"]
        assert notices[-1] == "the game starts as laid on the table"
        play_takes(loop, source, group, moves=9)
    finally:
        loop.close()


def test_what_a_square_lacks_is_said_in_the_diagram_s_words(tmp_path: Path, panel: Panel) -> None:
    loop, source = open_table(tmp_path, panel)
    group = GroupTable(PLAYERS, COLOURS, deal=5, shift=(-30.0, 12.0))
    try:
        short = group.state.clone()
        assert isinstance(short, JurassikState)
        short.cells[2 * short.cols + 4] = None  # a tile not laid yet
        look(loop, source, group.scene(short))
        pending = loop.game.pending
        assert pending is not None and pending.kind == "setup" and pending.checklist is not None
        assert pending.checklist["steps"] == ["the square has a gap at row 3, column 5"]
        assert pending.checklist["in_place"] == 35 and pending.checklist["expected"] == 36
        assert loop.records.history() == [] and not panel.signals.objection
        # the diagram shows the square as read so far (the group's dinosaurs and tiles), not the deal
        shown = loop.snapshot()
        assert shown["view"]["grid"] != loop.game.state.view(None)["grid"]
        laid = [row[:4] + row[5:] if r == 2 else row for r, row in enumerate(shown["view"]["grid"])]
        wanted = group.state.view(None)["grid"]
        assert laid == [row[:4] + row[5:] if r == 2 else row for r, row in enumerate(wanted)]
        assert shown["laid"] is not None and pending.checklist["preview"]
        look(loop, source, group.scene())  # laid
        assert loop.game.pending is None and loop.game.state == group.state
        assert loop.game.preview is None and loop.snapshot()["view"]["grid"] == wanted
    finally:
        loop.close()


def test_a_tile_the_wrong_way_up_is_asked_to_be_turned(tmp_path: Path, panel: Panel) -> None:
    loop, source = open_table(tmp_path, panel)
    group = GroupTable(PLAYERS, COLOURS, deal=8)
    try:
        scene = group.scene()
        first = next(t for t in scene.tags if t.payload.endswith(("D1-1", "D2-2", "D3-3", "D4-4", "D5-1",
                                                                  "D6-2", "D7-3", "D8-4", "D9-1")))
        tile = first.payload.rsplit(":", 1)[-1]
        index = group.state.cells.index(tile)
        living = replace(scene, tags=[t if t is not first else replace(t, payload=t.payload + "L")
                                      for t in scene.tags])
        look(loop, source, living)
        pending = loop.game.pending
        assert pending is not None and pending.checklist is not None
        dinosaur, piece = tile[1:].split("-")
        row, col = divmod(index, group.state.cols)
        assert pending.checklist["steps"] == [
            f"turn dinosaur {dinosaur}, piece {piece} skeleton side up (row {row + 1}, column {col + 1})"]
    finally:
        loop.close()


def test_confirm_starts_a_square_of_the_group_s_own(tmp_path: Path, panel: Panel) -> None:
    """Seven dinosaurs where the rulebook says six for two players: asked, then started on Confirm."""
    loop, source = open_table(tmp_path, panel)
    group = GroupTable(PLAYERS, COLOURS, deal=3)
    try:
        own = group.state.clone()
        assert isinstance(own, JurassikState)
        action_cell = own.cells.index("?")
        own.cells[action_cell] = next(f"D{d}-1" for d in range(1, 11)
                                      if f"D{d}-1" not in own.cells)  # one action tile swapped
        look(loop, source, group.scene(own))
        pending = loop.game.pending
        assert pending is not None and pending.kind == "setup" and pending.checklist is not None
        assert pending.checklist["steps"][0].startswith("dinosaur ")  # a dinosaur with 1 of its 4 tiles
        assert loop.press("confirm")["ok"]
        assert loop.game.pending is None
        state = loop.game.state
        assert isinstance(state, JurassikState) and state.cells == own.cells
        texts = [n["text"] for n in loop.game.store.notices(loop.game.game_id) if n["kind"] == "setup"]
        assert texts[-1].endswith("a set-up of the group's own")
    finally:
        loop.close()


def test_a_restart_keeps_the_game_and_where_it_lies(tmp_path: Path) -> None:
    group = GroupTable(PLAYERS, COLOURS, deal=41, shift=(35.0, 20.0))
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(DEFAULT_PINS, list(COLOURS), pin_factory=factory, start=False)
    loop, source = open_table(tmp_path, panel)
    look(loop, source, group.scene())
    assert loop.game.state == group.state
    group.state = play_takes(loop, source, group, moves=3)
    loop.close()
    factory.reset()
    panel = Panel(DEFAULT_PINS, list(COLOURS), pin_factory=factory, start=False)
    again, source = open_table(tmp_path, panel)
    try:
        assert again.game.state == group.state and again.game.pending is None
        look(again, source, group.scene())
        assert again.game.pending is None
        play_takes(again, source, group, moves=3)
    finally:
        again.close()
        factory.reset()


def test_a_slab_the_group_laid_itself_starts_as_laid_and_is_played_on(tmp_path: Path) -> None:
    """Jurassic Parts: the group's own shuffle and layout ("any layout you prefer"), laid off the
    companion's place by hand, is the game: every tile where it lies, face up or down as it came."""
    from group_tables import by_hand

    from companion.bots import BotDriver
    from companion.kits.jurassic_parts import table as tables
    from companion.kits.jurassic_parts.identities import JurassicPartsIds
    from companion.kits.tabletop import offset
    from engines.core import get_game

    colours = ("red", "blue", "green")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(DEFAULT_PINS, list(colours), pin_factory=factory, start=False)
    kit = kit_for("jurassic-parts")
    loop, source = open_table(tmp_path, panel, game="jurassic-parts",
                              seats=[{"name": c, "colour": c} for c in colours])
    try:
        group = get_game("jurassic-parts").new_initial_state(list(colours), random.Random(55))
        base = kit.layout(list(colours))
        laid = replace(base, slab_origin=offset(base.slab_origin, (25.0, -15.0)))
        look(loop, source, by_hand(tables.scene_for(group, laid, ids=JurassicPartsIds()), 3.0, 2.0))
        assert loop.game.pending is None
        state = loop.game.state

        def slab(shown: Any) -> dict[Any, Any]:
            layout = shown.layout
            return {cell: (layout.rotations[i], layout.backs[i] if layout.backs else None, shown.fossil[i])
                    for i, cell in enumerate(layout.cells)}

        assert slab(state) == slab(group)  # every tile where the group laid it
        assert state.to_dict() == group.to_dict()  # numbered from the Pile of Bones in the middle
        placement = loop.game.placement
        assert placement is not None and math.dist(placement["slab_origin"], (665.0, 337.0)) < 1.5

        def shown_by_hand(scene: Any) -> None:
            source.show(by_hand(scene, 3.0, 2.0))

        driver = BotDriver(loop, shown_by_hand, seed=4, pump=lambda: look(loop, source, frames=1),
                           max_frames=40)
        while driver.physical < 12:  # chisels placed, cracks made, tiles turned up and taken
            assert driver.step()
            assert loop.game.pending is None or loop.game.pending.kind == "question"
    finally:
        loop.close()
        factory.reset()


def test_isla_nublar_figures_stand_where_the_group_put_them(tmp_path: Path) -> None:
    """At a real Isla Nublar table the figures go on the red volcanoes at random, the players' own way:
    read from the table as the set-up's chance, never a checklist step moving them to a deal of the
    companion's."""
    from engines.core import get_game
    from engines.isla_nublar.actions import PlaceDinosaurs

    colours = ("red", "blue")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(DEFAULT_PINS, list(colours), pin_factory=factory, start=False)
    loop, source = open_table(tmp_path, panel, game="isla-nublar", real_table=True,
                              seats=[{"name": c, "colour": c} for c in colours])
    try:
        dealt = loop.game.state
        assert dealt.is_chance_node() and all(at is None for at in dealt.dinos.values())
        own = "DINO-4 DINO-2 DINO-1 DINO-3"  # not the order the outcomes are listed in
        group = get_game("isla-nublar").new_initial_state(list(colours), random.Random(9),
                                                          {"table_cards": "table"})
        group = group.apply(PlaceDinosaurs(figures=own))
        look(loop, source, loop.game.model.scene(group))
        state = loop.game.state
        assert state.dinos == group.dinos
        placed = [e for e in loop.records.history() if e["action"]["kind"] == "place-dinosaurs"]
        assert [e["action"]["figures"] for e in placed] == [own] and placed[0]["source"] == "camera"
        pending = loop.game.pending
        steps = (pending.checklist or {}).get("steps", []) if pending is not None else []
        assert not any("Tyrannosaurus" in s or "DINO" in s or "figure" in s for s in steps), steps
    finally:
        loop.close()
        factory.reset()


def test_a_pasture_the_group_joined_itself_starts_as_joined_and_is_played_on(tmp_path: Path) -> None:
    """Jurassic Brunch: the boards joined "the way you like", off the companion's place, are read while
    nothing covers their codes; the checklist then asks for the figures on the eggs and the grass in the
    diagram's words; each team's triceratops stand on the eggs in an order of the group's own; every move
    is read as itself."""
    from companion.bots import BotDriver
    from companion.kits.jurassic_brunch import table as tables
    from companion.kits.tabletop import offset
    from companion.words import setup_step_words
    from engines.core import get_game

    with brunch_table(tmp_path) as (loop, source, panel):
        group = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], random.Random(9),
                                                              {"arrangement": "random"})
        dealt = loop.game.state.area.boards
        assert [b.to_dict() for b in group.area.boards] != [b.to_dict() for b in dealt]
        home = tables.BrunchLayout.for_area(group.area)
        laid = replace(home, origin=offset(home.origin, (40.0, -25.0)))
        ids = tables.BrunchIds()
        eggs = sorted(group.area.egg_cells["blue"], reverse=True)  # their figures on the eggs in their order
        ids.figures.update({f"TRI-BLUE-{n}": cell for n, cell in enumerate(eggs, start=1)})

        look(loop, source, tables.scene_for(group, laid, ids=ids, boards_only=True))
        pending = loop.game.pending
        assert pending is not None and pending.kind == "setup"
        assert loop.game.state.to_dict() == group.to_dict()  # the boards as joined
        assert loop.game.placement == {"origin": [laid.origin[0], laid.origin[1]], "table": [1280.0, 720.0]}
        snap = loop.snapshot()
        steps = [setup_step_words(d, snap) for d in snap["pending"]["checklist"]["differences"]]
        assert steps and all(re.fullmatch(r"put (a face-down grass token|a (blue|orange) triceratops) on "
                                          r"row \d+, column \d+", step) for step in steps), steps

        def shown(scene: Any) -> None:
            source.show(scene)

        theirs = tables.scene_for(group, laid, ids=ids)
        ours = loop.game.model.scene(loop.game.state)

        def blue_one(scene: Any) -> Any:
            return next(tag.center for tag in scene.tags if tag.payload.endswith(":TRI-BLUE-1"))

        assert math.dist(blue_one(theirs), blue_one(ours)) > 30.0  # not where the companion would stand it
        look(loop, source, theirs)
        assert loop.game.pending is None and not panel.signals.objection
        driver = BotDriver(loop, shown, seed=4, pump=lambda: look(loop, source, frames=1), max_frames=40)
        while driver.physical < 12:  # figures moved, charges, the raptor, tokens eaten and turned up
            assert driver.step()
            assert loop.game.pending is None or loop.game.pending.kind == "question"
        assert len(loop.records.history()) >= 12


def test_the_companion_s_own_pasture_laid_as_asked_starts_with_its_codes_covered(tmp_path: Path) -> None:
    with brunch_table(tmp_path) as (loop, source, _panel):
        dealt = loop.game.state
        scene = loop.game.model.scene(dealt)
        assert not any(":BOARD-" in tag.payload for tag in scene.tags)  # grass on every middle cell
        look(loop, source, replace(scene, tags=scene.tags[1::2]))  # half laid as the diagram shows it
        pending = loop.game.pending
        assert pending is not None and pending.checklist is not None
        assert pending.checklist["differences"] and pending.checklist["in_place"] > 0  # the deal's steps
        look(loop, source, scene)
        assert loop.game.pending is None and loop.game.state is dealt and loop.game.placement is None


@contextlib.contextmanager
def brunch_table(tmp_path: Path) -> Iterator[tuple[TableLoop, SceneSource, Panel]]:
    """A Jurassic Brunch table for two, its panel on mock pins."""
    colours = ("blue", "orange")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(DEFAULT_PINS, list(colours), pin_factory=factory, start=False)
    loop, source = open_table(tmp_path, panel, game="jurassic-brunch",
                              seats=[{"name": c, "colour": c} for c in colours])
    try:
        yield loop, source, panel
    finally:
        loop.close()
        factory.reset()
