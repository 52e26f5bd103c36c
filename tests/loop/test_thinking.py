"""Inference holds no lock: the page, the panel and the watchdog are answered while the loop thinks, and a
judgement made on a game that moved meanwhile is dropped and made again. The search is bounded."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from loop_toygame import GRAB, Pass, Take, Toy, is_back
from test_loop import Clock, feed, set_up

from companion.infer import TableModel, infer
from companion.store import Store
from companion.table.loop import TableLoop
from hw.panel import Panel
from sim.ideal import IdealPipeline, SceneSource, ideal_observation


class SlowModel(TableModel):
    """The toy's model whose search waits until the test lets it go on (a stand-in for a slow Pi)."""

    def __init__(self, base: TableModel) -> None:
        super().__init__(base._scene_for, base.is_back, base.players_by_colour, base.tolerance)
        self.thinking = threading.Event()
        self.go_on = threading.Event()

    def candidate_actions(self, state: Any, differences: Any) -> list[Any]:
        self.thinking.set()
        assert self.go_on.wait(timeout=120)
        return super().candidate_actions(state, differences)


def slow_loop(toy: Toy, tmp_path: Path, panel: Panel) -> tuple[Any, Any, SlowModel]:
    models: list[SlowModel] = []

    def factory(config: Any) -> TableModel:
        models.append(SlowModel(toy.model(config)))
        return models[-1]

    source = SceneSource()
    loop = TableLoop(toy.config, store=Store(tmp_path), panel=panel, source=source,
                     pipeline=IdealPipeline("toy-grab", is_back), model_factory=factory, clock=Clock())
    source.show(toy.scene_for(loop.game.state))
    set_up(loop, source)
    return loop, source, models[-1]


def test_the_page_and_the_buttons_are_answered_while_the_loop_thinks(toy: Toy, tmp_path: Path,
                                                                     mock_panel: Panel) -> None:
    loop, source, model = slow_loop(toy, tmp_path, mock_panel)
    after = loop.game.state.apply(Take("red", 0))
    worker = threading.Thread(target=feed, args=(loop, source, toy.scene_for(after)))
    worker.start()
    assert model.thinking.wait(timeout=120)
    # inference is blocked inside the search: everything else still answers (a lock held while thinking
    # would keep this thread waiting until the search went on, which it never does before the join)
    answers: dict[str, Any] = {}

    def ask() -> None:
        answers["snapshot"] = loop.snapshot()
        answers["camera"] = loop.check_camera()
        answers["mode"] = loop.press("mode")

    asking = threading.Thread(target=ask)
    asking.start()
    asking.join(timeout=60)
    assert not asking.is_alive(), "the page waited for inference"
    assert answers["snapshot"]["event_count"] == 0 and answers["mode"]["ok"] is True
    model.go_on.set()
    worker.join(timeout=120)
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]


def test_a_judgement_on_a_game_that_moved_meanwhile_is_made_again(toy: Toy, tmp_path: Path,
                                                                  mock_panel: Panel) -> None:
    loop, source, model = slow_loop(toy, tmp_path, mock_panel)
    state = loop.game.state
    seen = state.apply(Take("red", 0))
    worker = threading.Thread(target=feed, args=(loop, source, toy.scene_for(seen)))
    worker.start()
    assert model.thinking.wait(timeout=120)
    # while the loop thinks, the move arrives from the page: the judgement in flight is stale
    assert loop.submit(Take("red", 0).to_dict())["ok"] is True
    model.go_on.set()
    worker.join(timeout=120)
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]  # not applied twice
    # the same picture is judged again against the new game: it now matches it
    result = feed(loop, source)
    assert result is not None and result.kind in ("unchanged", "apply")
    assert len(loop.records.history()) >= 1 and loop.game.pending is None


def test_a_later_picture_judged_meanwhile_outranks_the_page_s_look_at_an_older_one(
    toy: Toy, tmp_path: Path, mock_panel: Panel
) -> None:
    """A move tapped on the page makes the page's thread judge the last picture again (the table not yet
    showing it); while that judgement thinks, the player makes the move on the table and the camera
    judges the new picture, which agrees. The older judgement, an objection, must not stand over it."""
    loop, source, model = slow_loop(toy, tmp_path, mock_panel)
    after = loop.game.state.apply(Take("red", 0))
    answers: list[Any] = []
    tapping = threading.Thread(target=lambda: answers.append(loop.submit(Take("red", 0).to_dict())))
    tapping.start()
    assert model.thinking.wait(timeout=120)  # the page's look at the old picture is thinking
    result = feed(loop, source, toy.scene_for(after))  # the move made on the table, read by the camera
    assert result is not None and result.kind == "unchanged"
    model.go_on.set()
    tapping.join(timeout=120)
    assert answers and answers[0]["ok"] is True
    assert loop.game.pending is None, loop.game.pending.inference.text
    assert [e["action"]["kind"] for e in loop.records.history()] == ["take"]
    assert feed(loop, source) is None and loop.game.pending is None  # and it stays so


def test_a_change_too_large_to_search_is_an_objection_at_once(toy: Toy) -> None:
    """The bound holds whatever the model offers: a model that offers every move of every depth still
    draws at most ``search_budget`` positions."""
    model = toy.model()
    counted = {"drawn": 0}
    scene_for = model._scene_for

    def counting(state: Any) -> Any:
        counted["drawn"] += 1
        return scene_for(state)

    model._scene_for = counting
    model.search_budget = 5
    state = GRAB.new_initial_state(toy.players, rng=random.Random(3), options={"slots": toy.slots})
    far = state
    for _ in range(6):  # six moves at once, more than five positions can explain
        if far.is_chance_node():
            far = far.apply(far.chance_outcomes()[0][0])
        else:
            far = far.apply(next(a for a in far.legal_actions() if not isinstance(a, Pass)))
    observation = ideal_observation(toy.scene_for(far), "toy-grab", model.is_back)
    result = infer(state, observation, model)
    assert result.kind == "objection" and "Too much changed" in result.text
    assert counted["drawn"] <= 5 + 2  # the budget, plus the state itself and what is seen


def test_the_watchdog_follows_the_frame_thread_going_round() -> None:
    """A frame thread stuck anywhere (a decoder, a search, a lock) stops the watchdog's pings."""
    from companion.table.runner import FrameRunner

    stuck, entered = threading.Event(), threading.Event()

    class Source:
        def read(self) -> Any:
            return ("frame", 1, 0.0)

    def handle(read: Any) -> None:
        entered.set()
        stuck.wait(timeout=120)

    runner = FrameRunner(Source(), handle, lambda: None, lambda error: None)
    assert not runner.alive(60.0)  # not started
    runner.start()
    try:
        assert entered.wait(timeout=60)
        assert runner.alive(60.0)
        beat = runner.beat_at
        threading.Event().wait(0.2)
        assert runner.beat_at == beat and not runner.alive(0.1)  # stuck: no beat since
    finally:
        stuck.set()
        runner.stop()


def test_a_pending_table_read_again_with_other_jitter_is_not_judged_again(toy: Toy) -> None:
    """A knocked table raises one objection: the same table read again, its pieces a little elsewhere
    within the tolerance (another snapped key), starts no new search; a real change does."""
    from companion.table.referee import Referee
    from vision.scene import Tag

    model = toy.model()
    state = GRAB.new_initial_state(toy.players, rng=random.Random(3), options={"slots": toy.slots})
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    referee = Referee(model, state)
    scene = toy.scene_for(state)
    knocked = scene.tags[0]
    x, y = knocked.center
    scene.tags[0] = Tag(knocked.payload, (x + 40.0, y + 40.0), 0.0, knocked.size)
    ticket = referee.ticket(ideal_observation(scene, "toy-grab", is_back))
    assert ticket is not None
    result = ticket.think()
    assert result.kind == "objection"
    referee.hold("objection", result, 0.0)
    nudge = model.tolerance * 0.5
    jittered = toy.scene_for(state)
    jittered.tags = [Tag(t.payload, (t.center[0] + nudge, t.center[1]), t.angle, t.size) for t in scene.tags]
    again = ideal_observation(jittered, "toy-grab", is_back)
    assert model.seen(again).key(model.tolerance) != referee.pending.seen_key  # another key...
    assert referee.ticket(again) is None  # ...but the same table: nothing to judge
    moved = toy.scene_for(state)
    moved.tags = list(scene.tags)
    other = moved.tags[1]
    moved.tags[1] = Tag(other.payload, (other.center[0] - 45.0, other.center[1]), 0.0, other.size)
    assert referee.ticket(ideal_observation(moved, "toy-grab", is_back)) is not None


def test_a_full_collection_due_soon_is_made_between_moves() -> None:
    import gc

    from companion.table.runner import collect_if_due

    old = gc.get_threshold()
    try:
        gc.set_threshold(old[0], old[1], 3)
        for _ in range(12):  # young collections until the old generation is about due
            gc.collect(1)
            if gc.get_count()[2] >= 1:
                break
        assert gc.get_count()[2] >= 1
        collect_if_due()
        assert gc.get_count()[2] == 0  # collected now, not during the next move
        gc.set_threshold(old[0], old[1], 1000)
        gc.collect(1)
        before = gc.get_count()[2]
        collect_if_due()
        assert gc.get_count()[2] == before  # not due: left alone
    finally:
        gc.set_threshold(*old)
