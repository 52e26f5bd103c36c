"""The loop over the toy game with a perfect camera: commits, questions, objections, buttons, camera
health, crash-proof frames, resume, and the TableSession contract."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from loop_toygame import GRAB, GrabState, Pass, Reveal, Take, Toy

from companion.bots import BotDriver, bot_game
from companion.infer import state_key
from companion.store import Store
from companion.table.loop import TableLoop
from companion.table.session import TableSession
from engines.core import State
from hw.panel import Panel
from sim.ideal import IdealPipeline, SceneSource
from vision.scene import Scene


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def make_loop(
    toy: Toy, tmp_path: Path, panel: Panel, clock: Any = None, store: Store | None = None, **kwargs: Any
) -> tuple[TableLoop, SceneSource]:
    from loop_toygame import is_back

    source = SceneSource()
    loop = TableLoop(
        toy.config,
        store=store or Store(tmp_path),
        panel=panel,
        source=source,
        pipeline=IdealPipeline("toy-grab", is_back),
        model_factory=toy.model,
        clock=clock or Clock(),
        **kwargs,
    )
    source.show(toy.scene_for(loop.game.state))
    set_up(loop, source)
    return loop, source


def set_up(loop: TableLoop, source: SceneSource) -> None:
    """A game not begun waits for its table to be set up: frames of the table as set up end the wait."""
    for _ in range(12):
        if loop.game.pending is None or loop.game.pending.kind != "setup":
            return
        feed(loop, source)
    raise AssertionError("the set-up table was not seen")


def feed(loop: TableLoop, source: SceneSource, scene: Scene | None = None) -> Any:
    if scene is not None:
        source.show(scene)
    return loop.process_frame(*source.read())


def direct_play(toy: Toy, seed: int) -> State:
    """The same bots playing the engine directly (no table, no camera)."""
    state = GRAB.new_initial_state(
        toy.players, rng=random.Random(toy.config.seed), options={"slots": toy.slots}
    )
    return bot_game(state, seed)[-1]


def test_the_loop_is_a_table_session(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, _ = make_loop(toy, tmp_path, mock_panel)
    assert isinstance(loop, TableSession)
    snap = loop.snapshot()
    json.dumps(snap)
    assert snap["game"] == "toy-grab" and snap["current"] == "red" and snap["pending"] is None
    assert snap["panel"]["active_seat"] == 0 and snap["panel"]["pattern"] == "turn"


def test_a_bot_game_read_by_the_camera_ends_like_the_engine(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    driver = BotDriver(loop, source.show, seed=11, pump=lambda: feed(loop, source))
    final = driver.run()
    expected = direct_play(toy, 11)
    assert final.to_dict() == expected.to_dict()
    assert final.outcome() == expected.outcome()
    assert driver.physical > 0 and driver.submitted > 0  # takes and reveals read, passes submitted
    events = loop.records.history()
    assert len(events) == driver.physical + driver.submitted
    assert {e["source"] for e in events} == {"camera", "bot"}
    assert loop.game.store.replay(loop.game.game_id).state.to_dict() == final.to_dict()
    assert loop.game.store.game(loop.game.game_id).finished is not None
    assert loop.snapshot()["panel"]["pattern"] == "game-over"


def test_a_take_then_its_reveal_seen_at_once_is_two_actions(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    after = loop.game.state.apply(Take("red", 0)).apply(Reveal(0, 5))
    result = feed(loop, source, toy.scene_for(after))
    assert result.kind == "apply" and [a.kind for a in result.actions] == ["take", "reveal"]
    assert state_key(loop.game.state) == state_key(after)
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take", "reveal"]
    assert mock_panel.snapshot()["status"]["rgb"] == [0.0, 1.0, 0.0]  # the legal flash


def test_an_illegal_move_is_flagged_never_applied_until_put_right(
    toy: Toy, tmp_path: Path, mock_panel: Panel, pin_factory: Any
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    before = state_key(loop.game.state)
    illegal = loop.game.state.clone()
    assert isinstance(illegal, GrabState)
    illegal.row[3] = False  # a middle tile taken: not from an end
    illegal.held[3] = ("red", None)
    result = feed(loop, source, toy.scene_for(illegal))
    assert result.kind == "objection"
    assert state_key(loop.game.state) == before and loop.records.history() == []
    pending = loop.snapshot()["pending"]
    assert pending["kind"] == "objection" and pending["seen"] and pending["expected"] == "a move by red"
    assert mock_panel.signals.objection
    blinks = set()
    for k in range(10):
        frame = mock_panel.tick(2000 + k * 0.05)
        blinks.add(frame.status)
    assert (1.0, 0.0, 0.0) in blinks and frame.pattern == "objection"
    # the table put right clears it
    feed(loop, source, toy.scene_for(loop.game.state))
    assert loop.game.pending is None and not mock_panel.signals.objection


def test_the_rule_is_cited_when_the_game_module_names_the_attempt(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)

    def attempted(state: State, differences: Any, actor: Any) -> list[Any]:
        slots = [
            int(d.expected.at[0] // 50) for d in differences if d.what == "back" and d.change == "vanished"
        ]
        return [Take(actor or state.current_player(), slot) for slot in slots]

    loop.game.model.attempted_actions = attempted  # type: ignore[method-assign]
    illegal = loop.game.state.clone()
    assert isinstance(illegal, GrabState)
    illegal.row[3] = False
    illegal.held[3] = ("red", None)
    result = feed(loop, source, toy.scene_for(illegal))
    assert result.rule.rule_id == "GRAB-ENDS" and "not at an end" in result.text


def test_a_move_out_of_turn_names_the_player(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    wrong = loop.game.state.clone()
    assert isinstance(wrong, GrabState)
    wrong.row[0] = False
    wrong.held[0] = ("blue", None)  # blue takes while it is red's turn
    result = feed(loop, source, toy.scene_for(wrong))
    assert result.kind == "objection" and result.actor == "blue"
    assert "blue moved out of turn" in result.text and result.rule.rule_id == "TABLE-TURN"


def test_confirm_answers_a_low_confidence_question(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    from loop_toygame import is_back

    from sim.ideal import ideal_observation
    from vision.observation import CalibrationStatus

    loop, _ = make_loop(toy, tmp_path, mock_panel)
    after = loop.game.state.apply(Take("red", 7))
    observation = ideal_observation(toy.scene_for(after), "toy-grab", is_back, 1, 1.0)
    bumped = type(observation)(**{**observation.__dict__, "calibration": CalibrationStatus(state="bumped")})
    result = loop.handle_observation(bumped)
    assert result is not None and result.kind == "question"
    assert mock_panel.signals.waiting and loop.snapshot()["pending"]["options"][0]["action"]["slot"] == 7
    assert loop.press("confirm")["ok"]
    assert state_key(loop.game.state) == state_key(after) and loop.game.pending is None


def test_next_passes_and_undo_takes_back(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    start = state_key(loop.game.state)
    feed(loop, source)
    mock_panel.press("next", source="button")  # the physical button path
    assert loop.game.state.current_player() == "blue"
    assert loop.records.history()[-1]["action"] == Pass("red").to_dict()
    assert loop.press("undo")["ok"]
    assert state_key(loop.game.state) == start
    kinds = [e["kind"] for e in loop.records.history()]
    assert kinds == ["action", "undo"]
    from companion.words import event_label

    undo = loop.records.history()[-1]  # the undo says what it took back
    assert event_label(undo, loop.snapshot()) == "took back move #1: pass"
    assert loop.game.store.replay(loop.game.game_id).state.to_dict() == loop.game.state.to_dict()
    assert loop.press("undo")["ok"] is False  # nothing left to undo
    assert loop.press("self-destruct")["ok"] is False


def test_undo_of_a_camera_move_is_not_read_again(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    after = loop.game.state.apply(Take("red", 0))
    feed(loop, source, toy.scene_for(after))
    assert state_key(loop.game.state) == state_key(after)
    loop.press("undo")
    for _ in range(3):
        feed(loop, source)  # the tile still lies in red's zone: not applied again
    assert loop.game.state.current_player() == "red"
    assert [e["kind"] for e in loop.records.history()] == ["action", "undo"]


def test_an_undo_asks_the_table_to_follow_until_it_does(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    before = loop.game.state
    feed(loop, source, toy.scene_for(before.apply(Take("red", 0))))
    loop.press("undo")
    pending = loop.snapshot()["pending"]  # the tile still lies in red's zone: the page says to put it back
    assert pending["kind"] == "objection" and pending["rule"]["id"] == "TABLE-UNDO"
    assert "move #1" in pending["text"] and pending["differences"]
    assert mock_panel.signals.objection
    for _ in range(3):
        feed(loop, source)  # not read as the move made again, and the objection stays
    assert loop.game.pending is not None and state_key(loop.game.state) == state_key(before)
    feed(loop, source, toy.scene_for(before))  # put back: table and game agree, nothing pending
    assert loop.game.pending is None and not mock_panel.signals.objection
    assert [e["kind"] for e in loop.records.history()] == ["action", "undo"]


def test_a_tapped_move_the_table_does_not_show_is_objected_to(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    feed(loop, source)
    after = loop.game.state.apply(Take("red", 0))
    assert loop.submit(Take("red", 0).to_dict())["ok"]  # tapped on the page; the tile is still in the row
    pending = loop.snapshot()["pending"]
    assert pending is not None and pending["kind"] == "objection" and pending["differences"]
    assert pending["rule"]["id"] == "TABLE-TAP"  # the unchanged table is read into no further move
    assert len(loop.records.history()) == 1
    feed(loop, source, toy.scene_for(after))  # the players move the tile as tapped
    assert loop.game.pending is None and state_key(loop.game.state) == state_key(after)


def test_the_bots_follow_a_person_s_undo_and_finish_the_game(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    driver = BotDriver(loop, source.show, seed=11, pump=lambda: feed(loop, source))
    while not any(e["source"] == "camera" for e in loop.records.history()):
        driver.step()
    assert loop.press("undo")["ok"]  # a person takes the camera's last move back between the bots' moves
    final = driver.run()  # the bots put the table back, then play on to the end
    assert final.is_terminal() and loop.game.pending is None
    assert "undo" in [e["kind"] for e in loop.records.history()]
    assert loop.game.store.replay(loop.game.game_id).state.to_dict() == final.to_dict()


def test_submit_validates_and_cites_rules(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, _ = make_loop(toy, tmp_path, mock_panel)
    refused = loop.submit(Take("red", 4).to_dict())
    assert refused["ok"] is False and refused["rule"]["id"] == "GRAB-ENDS"
    assert loop.submit({"kind": "teleport"})["ok"] is False
    assert loop.submit("nonsense")["ok"] is False  # type: ignore[arg-type]
    assert loop.submit(Pass("red").to_dict())["ok"] is True
    assert loop.submit(Pass("red").to_dict())["rule"]["id"] == "GRAB-TURN"
    assert loop.choose(0)["ok"] is False and loop.choose(-3)["ok"] is False


def test_camera_loss_and_return(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    clock = Clock()
    loop, source = make_loop(toy, tmp_path, mock_panel, clock=clock)
    feed(loop, source)
    assert loop.check_camera()
    clock.now += 5.0  # no frame for 5 s
    assert not loop.check_camera()
    assert mock_panel.signals.camera_lost and loop.snapshot()["camera"]["ok"] is False
    feed(loop, source)
    assert not mock_panel.signals.camera_lost and loop.snapshot()["camera"]["ok"] is True


def test_a_crashing_decoder_costs_frames_not_the_game(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    from loop_toygame import is_back

    class Flaky(IdealPipeline):
        calls = 0

        def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Any:
            self.calls += 1
            if self.calls % 3 == 0:
                raise RuntimeError("decoder exploded")
            return super().process(frame, index, timestamp)

    loop, source = make_loop(toy, tmp_path, mock_panel)
    loop.pipeline = Flaky("toy-grab", is_back)
    driver = BotDriver(loop, source.show, seed=4, pump=lambda: feed(loop, source))
    final = driver.run()
    assert final.to_dict() == direct_play(toy, 4).to_dict()
    assert loop.camera.errors > 0 and "decoder exploded" in loop.camera.last_error


def test_resume_after_close_continues_the_same_game(toy: Toy, tmp_path: Path, pin_factory: Any) -> None:
    panel = Panel(pin_factory=pin_factory, seat_colours=toy.players, start=False)
    loop, source = make_loop(toy, tmp_path, panel)
    driver = BotDriver(loop, source.show, seed=8, pump=lambda: feed(loop, source))
    for _ in range(5):
        driver.step()
    middle = loop.game.state.to_dict()
    game_id = loop.game.game_id
    loop.close()
    pin_factory.reset()
    panel = Panel(pin_factory=pin_factory, seat_colours=toy.players, start=False)
    loop, source = make_loop(toy, tmp_path, panel)
    assert loop.game.game_id == game_id and loop.game.state.to_dict() == middle
    driver = BotDriver(loop, source.show, seed=8, pump=lambda: feed(loop, source))
    assert driver.run().to_dict() == direct_play(toy, 8).to_dict()
    loop.close()


def test_events_history_state_at_and_games(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    stream = loop.events(timeout=0.01)
    assert next(stream)["type"] == "hello"
    assert next(stream)["type"] == "ping"
    after = loop.game.state.apply(Take("red", 0))
    feed(loop, source, toy.scene_for(after))
    messages = [next(stream) for _ in range(3)]
    assert any(m["type"] == "event" and m["event"]["action"]["kind"] == "take" for m in messages)
    stream.close()  # type: ignore[attr-defined]
    assert loop.records.state_at(1)["view"] == after.view(None)
    assert loop.records.state_at(0)["view"]["row"] == [True] * toy.slots
    assert loop.records.event_photo(1) is None  # scenes have no pixels; rendered frames store a JPEG
    assert loop.records.games()[0]["game"] == "toy-grab"
    assert loop.settings()["game"] == "toy-grab"


def test_new_game_keeps_the_old_one(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    loop, _ = make_loop(toy, tmp_path, mock_panel)
    loop.submit(Pass("red").to_dict())
    old = loop.game.game_id
    assert loop.new_game({"game": "toy-grab", "seats": ["green", "red", "blue"]})["ok"]
    assert loop.game.game_id != old and loop.game.state.players == ("green", "red", "blue")
    assert len(loop.records.games()) == 2 and len(loop.records.history(old)) == 1
    assert loop.new_game({"game": "chess"})["ok"] is False
    assert loop.new_game({"pins": {"buzzer": 3}})["ok"] is False


def test_several_explanations_make_a_question_answered_on_the_web(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    from loop_toygame import is_back

    class Blurry(type(toy.model())):  # type: ignore[misc]
        """A camera that cannot tell the fronts apart: every reveal looks the same."""

        def name_of(self, component_id: str, back: bool, zone: str | None) -> str | None:
            return "back" if back else "front"

    def blurry_model(config: Any = None) -> Any:
        colours = [s.colour for s in toy.config.seats]
        from loop_toygame import grab_scene

        return Blurry(lambda s: grab_scene(s, colours), is_back, {c: c for c in colours}, tolerance=20.0)

    source = SceneSource()
    loop = TableLoop(
        toy.config,
        store=Store(tmp_path),
        panel=mock_panel,
        source=source,
        pipeline=IdealPipeline("toy-grab", is_back),
        model_factory=blurry_model,
        clock=Clock(),
    )
    taken = loop.game.state.apply(Take("red", 0))
    loop.submit(Take("red", 0).to_dict())
    revealed = taken.apply(Reveal(0, 3))
    result = feed(loop, source, toy.scene_for(revealed))
    assert result.kind == "question" and len(result.options) == toy.slots
    assert mock_panel.signals.waiting
    pending = loop.snapshot()["pending"]
    index = next(o["index"] for o in pending["options"] if o["action"]["front"] == 3)
    assert loop.choose(index)["ok"]
    assert state_key(loop.game.state) == state_key(revealed) and loop.game.pending is None
    assert loop.records.history()[-1]["source"] == "choice"


def test_a_confirmed_correction_settles_an_objection(toy: Toy, tmp_path: Path, mock_panel: Panel) -> None:
    from engines.core import Correct

    loop, source = make_loop(toy, tmp_path, mock_panel)
    knocked = loop.game.state.clone()
    assert isinstance(knocked, GrabState)
    knocked.row[4] = False  # a tile knocked off the row: no move explains it
    feed(loop, source, toy.scene_for(knocked))
    assert loop.game.pending is not None and loop.game.pending.kind == "objection"
    corrected = loop.submit(Correct(state=knocked.to_dict(), reason="tile knocked off").to_dict())
    assert corrected["ok"] and corrected["event"]["kind"] == "correct"
    assert loop.game.pending is None and not mock_panel.signals.objection
    assert loop.game.store.replay(loop.game.game_id).state.to_dict() == knocked.to_dict()


def test_web_calls_from_other_threads_while_the_loop_runs(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    import threading

    loop, source = make_loop(toy, tmp_path, mock_panel, clock=time.monotonic)
    loop.start()
    errors: list[BaseException] = []
    stop = threading.Event()

    def hammer() -> None:
        try:
            while not stop.is_set():
                snap = loop.snapshot()
                json.dumps(snap)
                history = loop.records.history()
                if history:
                    loop.records.state_at(history[-1]["seq"])
                loop.press("mode")
                loop.frame_jpeg()
        except BaseException as error:
            errors.append(error)

    workers = [threading.Thread(target=hammer) for _ in range(3)]
    for worker in workers:
        worker.start()
    try:
        driver = BotDriver(loop, source.show, seed=13, pump=None, max_frames=2000, frame_wait=0.002)
        final = driver.run()
    finally:
        stop.set()
        for worker in workers:
            worker.join(timeout=5)
        loop.stop()
    assert errors == []
    assert final.to_dict() == direct_play(toy, 13).to_dict()
    assert loop.game.store.replay(loop.game.game_id).state.to_dict() == final.to_dict()


def test_a_log_that_no_longer_replays_is_kept_and_a_new_game_starts(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, _ = make_loop(toy, tmp_path, mock_panel)
    old = loop.game.game_id
    refused = {"kind": "take", "player": "red", "slot": 4}  # refused by the rules now
    loop.game.store.append(old, "action", refused)
    loop.game.store.close()
    again, _ = make_loop(toy, tmp_path, mock_panel)
    assert again.game.game_id != old and "could not be resumed" in again.snapshot()["problems"][0]["text"]
    assert len(again.records.games()) == 2  # the old game stays in the store


def test_an_objection_offers_the_nearest_legal_moves_to_tap(toy: Toy, tmp_path: Path,
                                                            mock_panel: Panel) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    state = loop.game.state
    after = state.apply(Take("red", 0)).clone()
    assert isinstance(after, GrabState)
    after.row[4] = False  # red took the end tile, and a hand knocked another off the row
    feed(loop, source, toy.scene_for(after))
    pending = loop.game.pending
    assert pending is not None and pending.kind == "objection"
    offered = [option["action"] for option in loop.snapshot()["pending"]["options"]]
    assert offered and offered[0] == {"kind": "take", "player": "red", "slot": 0}
    ahead = loop.option_view(0)  # the picture on the option's button: the table after it
    assert ahead["view"] == state.apply(Take("red", 0)).view(None) and ahead["action"] == offered[0]
    with pytest.raises(LookupError):
        loop.option_view(len(offered))
    answer = loop.choose(0)
    assert answer["ok"] and answer["event"]["source"] == "choice"
    assert loop.records.history()[-1]["action"] == {"kind": "take", "player": "red", "slot": 0}
    # what the tapped move does not explain (the knocked tile) is objected to at once, on its own
    assert loop.game.pending is not None and loop.game.pending.kind == "objection"
    assert len(loop.game.pending.inference.differences) == 1
    assert loop.choose(5)["ok"] is False  # no such option: nothing happens
    assert len(loop.records.history()) == 1


def test_undo_takes_back_every_move_read_from_one_change_of_the_table(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    loop, source = make_loop(toy, tmp_path, mock_panel)
    before = loop.game.state
    taken = before.apply(Take("red", 0))
    shown = taken.apply(taken.chance_outcomes()[0][0])  # the tile taken, and its front as it lands
    feed(loop, source, toy.scene_for(shown))
    read = [e for e in loop.records.history() if e["kind"] == "action"]
    assert len(read) == 2 and {e["source"] for e in read} == {"camera"}  # two moves, one reading
    loop.press("undo")  # one Undo takes back what the table changed: both
    assert state_key(loop.game.state) == state_key(before)
    assert [e["undoes"] for e in loop.records.history()[-2:]] == [read[1]["seq"], read[0]["seq"]]
    feed(loop, source, toy.scene_for(before))
    assert loop.game.pending is None
