"""A restart whose stored game is not the config's is asked about, on the page and the panel: the stored
game carries on with its own seats meanwhile; Confirm (or option 0) carries on, option 1 starts anew."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from loop_toygame import GRAB, Toy
from test_loop import feed, make_loop

from companion.bots import BotDriver
from hw.panel import Panel


def played(toy: Toy, tmp_path: Path, pin_factory: Any) -> tuple[int, dict[str, Any]]:
    panel = Panel(pin_factory=pin_factory, seat_colours=toy.players, start=False)
    loop, source = make_loop(toy, tmp_path, panel)
    driver = BotDriver(loop, source.show, seed=8, pump=lambda: feed(loop, source))
    for _ in range(4):
        driver.step()
    result = loop.game.game_id, loop.game.state.to_dict()
    loop.close()
    pin_factory.reset()
    return result


def test_other_seats_in_the_config_are_asked_about_and_the_stored_seats_kept(tmp_path: Path,
                                                                             pin_factory: Any) -> None:
    game_id, middle = played(Toy(("red", "blue")), tmp_path, pin_factory)
    other = Toy(("green", "yellow"))  # the config was edited: other players, other colours
    panel = Panel(pin_factory=pin_factory, seat_colours=other.players, start=False)
    loop, source = make_loop(other, tmp_path, panel)
    assert loop.game.game_id == game_id and loop.game.state.to_dict() == middle
    assert [s.colour for s in loop.config.seats] == ["red", "blue"]  # the stored seats light the LEDs
    pending = loop.snapshot()["pending"]
    assert pending["kind"] == "resume" and "stored seats red (red), blue (blue)" in pending["text"]
    assert [o["label"].split(":")[0] for o in pending["options"]] == [f"Carry on game {game_id}",
                                                                      "Start a new game"]
    assert loop.snapshot()["panel"]["pattern"] == "waiting"
    # nothing on the table is read before the answer
    fresh = GRAB.new_initial_state(other.players, rng=random.Random(1), options={"slots": other.slots})
    assert feed(loop, source, other.scene_for(fresh)) is None
    assert loop.choose(1)["ok"] is True
    assert loop.game.game_id != game_id and [s.colour for s in loop.config.seats] == ["green", "yellow"]
    assert getattr(loop.game.pending, "kind", None) == "setup"  # the new game's table is laid out
    assert feed(loop, source, other.scene_for(loop.game.state)) is None and loop.game.pending is None
    loop.close()


def test_confirm_carries_on_the_stored_game(tmp_path: Path, pin_factory: Any) -> None:
    game_id, middle = played(Toy(("red", "blue")), tmp_path, pin_factory)
    other = Toy(("red", "green"))
    panel = Panel(pin_factory=pin_factory, seat_colours=other.players, start=False)
    loop, _ = make_loop(other, tmp_path, panel)
    assert loop.press("confirm")["ok"] is True
    assert loop.game.pending is None and loop.game.game_id == game_id
    assert loop.game.state.to_dict() == middle
    loop.close()


def test_the_same_config_carries_on_without_a_question(tmp_path: Path, pin_factory: Any) -> None:
    toy = Toy(("red", "blue"))
    game_id, _ = played(toy, tmp_path, pin_factory)
    panel = Panel(pin_factory=pin_factory, seat_colours=toy.players, start=False)
    loop, _ = make_loop(toy, tmp_path, panel)
    assert loop.game.game_id == game_id and loop.game.pending is None
    loop.close()


def test_a_stored_game_s_seats_keep_their_people(tmp_path: Path) -> None:
    from companion.config import config_from_dict
    from companion.store import Store
    from companion.table.resume import plan
    from engines.core import get_game

    brunch = get_game("jurassic-brunch")
    stored = config_from_dict({"game": brunch.name, "seats": [{"name": "Ana", "colour": "orange"},
                                                              {"name": "Bo", "colour": "blue"}]})
    store = Store(tmp_path)
    state = brunch.new_initial_state(stored.players, rng=random.Random(1))
    store.new_game(brunch, state, [seat.to_dict() for seat in stored.seats], {}, 1)
    edited = config_from_dict({"game": brunch.name, "seats": [{"name": "Cy", "colour": "blue"},
                                                              {"name": "Di", "colour": "orange"}]})
    config, mismatch = plan(store, edited)
    assert mismatch is not None and "stored seats Ana (orange), Bo (blue)" in " ".join(mismatch.differences)
    assert [(s.person, s.colour) for s in config.seats] == [("Ana", "orange"), ("Bo", "blue")]
    assert [s.label for s in config.seats] == ["Ana (orange)", "Bo (blue)"]
