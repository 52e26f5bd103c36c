"""A new game while the last game's pieces lie on the table: a set-up checklist (amber, nobody blamed)
that follows what the camera sees, and the game starts once the table matches (or Confirm accepts it)."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory
from loop_toygame import GrabState, Take, Toy
from test_loop import feed, make_loop, set_up

from hw.panel import DEFAULT_PINS, Panel


def test_a_new_game_waits_for_the_table_to_be_set_up(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    old = loop.game.state.apply(Take("red", 0))
    feed(loop, source, toy.scene_for(old))  # a move read by the camera
    played = len(loop.records.history())
    assert played >= 1
    answer = loop.new_game(loop.settings())
    assert answer["ok"]
    pending = loop.game.pending
    assert pending is not None and pending.kind == "setup"
    assert mock_panel.signals.waiting and not mock_panel.signals.objection
    feed(loop, source, toy.scene_for(old))  # the old game's pieces still lie there
    pending = loop.game.pending
    assert pending is not None and pending.kind == "setup" and pending.checklist is not None
    checklist = pending.checklist
    assert checklist["in_place"] < checklist["expected"] and checklist["steps"]
    assert any(step.startswith("put ") for step in checklist["steps"]), checklist
    # the new game: no move, no blame
    assert not mock_panel.signals.objection and loop.records.history() == []
    fresh = loop.game.state
    assert isinstance(fresh, GrabState)
    feed(loop, source, toy.scene_for(fresh))  # the table laid out as the setup says
    assert loop.game.pending is None and not mock_panel.signals.waiting
    feed(loop, source, toy.scene_for(fresh.apply(Take("red", 0))))  # and the game goes on as usual
    assert [e["action"]["kind"] for e in loop.records.history()][:1] == ["take"]


def test_the_first_start_waits_for_the_table_too_whatever_lies_there(toy: Toy, tmp_path: Path,
                                                                      mock_panel: Panel) -> None:
    """A first start on a table not yet laid out (or left from another game): the checklist, never an
    objection or a player blamed for a move out of turn."""
    from loop_toygame import is_back

    from companion.store import Store
    from companion.table.loop import TableLoop
    from sim.ideal import IdealPipeline, SceneSource

    source = SceneSource()
    loop = TableLoop(toy.config, store=Store(tmp_path), panel=mock_panel, source=source,
                     pipeline=IdealPipeline("toy-grab", is_back), model_factory=toy.model)
    pending = loop.game.pending
    assert pending is not None and pending.kind == "setup"
    state = loop.game.state
    assert isinstance(state, GrabState)
    feed(loop, source, toy.scene_for(state.apply(Take("red", 0))))  # pieces of some other game
    pending = loop.game.pending
    assert pending is not None and pending.kind == "setup" and loop.records.history() == []
    assert not mock_panel.signals.objection
    source.show(toy.scene_for(state))
    set_up(loop, source)
    assert loop.game.pending is None and loop.records.history() == []


def test_confirm_starts_the_game_with_the_table_as_it_is(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    loop.new_game(loop.settings())
    knocked = loop.game.state.clone()
    assert isinstance(knocked, GrabState)
    knocked.row[3] = False
    feed(loop, source, toy.scene_for(knocked))
    assert loop.game.pending is not None and loop.game.pending.kind == "setup"
    assert loop.press("confirm")["ok"]
    assert loop.game.pending is None and loop.records.history() == []
    notices = loop.game.store.notices(loop.game.game_id)
    setup = [n for n in notices if n["kind"] == "setup"]
    assert setup and "as it is" in setup[-1]["text"]


def test_a_game_started_as_it_is_blames_nobody_for_what_was_off(toy: Toy, tmp_path: Path,
                                                                mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    loop.new_game(loop.settings())
    fresh = loop.game.state
    assert isinstance(fresh, GrabState)
    short = fresh.clone()
    assert isinstance(short, GrabState)
    short.row[3] = False  # a tile left off the row
    feed(loop, source, toy.scene_for(short))
    assert loop.press("confirm")["ok"]  # "Start with the table as it is"
    feed(loop, source)
    assert loop.game.pending is None and not mock_panel.signals.objection
    taken = short.apply(Take("red", 0))  # red's first move, the tile still missing
    feed(loop, source, toy.scene_for(taken))
    assert loop.game.pending is None and not mock_panel.signals.objection
    assert [e["action"] for e in loop.records.history()] == [Take("red", 0).to_dict()]
    feed(loop, source, toy.scene_for(fresh.apply(Take("red", 0))))  # the missing tile put in its place
    assert loop.game.pending is None and len(loop.records.history()) == 1


def test_a_piece_missing_when_started_as_it_is_may_be_the_first_one_played(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    from companion.bots import BotDriver

    loop, source = make_loop(toy, tmp_path, mock_panel)
    loop.new_game(loop.settings())
    fresh = loop.game.state
    short = fresh.clone()
    assert isinstance(short, GrabState)
    short.row[0] = False  # the end tile left off
    feed(loop, source, toy.scene_for(short))
    assert loop.press("confirm")["ok"]
    feed(loop, source, toy.scene_for(fresh.apply(Take("red", 0))))  # put in and taken at once
    assert loop.game.pending is None and len(loop.records.history()) == 1
    driver = BotDriver(loop, source.show, seed=3, pump=lambda: feed(loop, source))
    final = driver.run()  # the rest of the game: the acceptance is over, nothing is added back
    assert final.is_terminal() and loop.game.pending is None


def test_a_game_started_as_it_is_keeps_what_was_accepted_across_a_restart(
    toy: Toy, tmp_path: Path, pin_factory: MockFactory
) -> None:
    loop, source = make_loop(toy, tmp_path, Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory,
                                                  start=False))
    loop.new_game(loop.settings())
    fresh = loop.game.state
    short = fresh.clone()
    assert isinstance(short, GrabState)
    short.row[3] = False  # a tile left off the row
    feed(loop, source, toy.scene_for(short))
    assert loop.press("confirm")["ok"]
    taken = short.apply(Take("red", 0))
    feed(loop, source, toy.scene_for(taken))
    assert len(loop.records.history()) == 1
    loop.close()
    pin_factory.reset()
    panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
    again, source = make_loop(toy, tmp_path, panel)  # the Pi restarted mid-game
    try:
        assert again.game.game_id == loop.game.game_id and len(again.records.history()) == 1
        feed(again, source, toy.scene_for(taken))  # the tile is still missing: still nobody's move
        assert again.game.pending is None and not panel.signals.objection
        feed(again, source, toy.scene_for(fresh.apply(Take("red", 0))))  # put in its place at last
        assert again.game.pending is None and len(again.records.history()) == 1
    finally:
        again.close()
