"""Occlusion sequences from the synthetic camera: hands reach in again and again over a Jurassic Parts game;
no frame may commit a change that did not happen, and a real move commits exactly once."""

from __future__ import annotations

import random
from typing import Any

from companion.kits import kit_for
from engines.core import CHANCE, TERMINAL
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera
from sim.effects import Effects
from vision import calibration as cal
from vision import detect
from vision.sources import TupleSource
from vision.track import Tracker, TrackerConfig


def _state(seed: int, steps: int) -> Any:
    from engines.jurassic_parts import GAME

    rng = random.Random(seed)
    state: Any = GAME.new_initial_state(["ann", "bob", "cy"], rng)
    for _ in range(steps):
        if state.current_player() == TERMINAL:
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_hands_never_commit_a_false_change_and_a_real_move_commits_once() -> None:
    from companion.kits.jurassic_parts.identities import JurassicPartsIds
    from companion.kits.jurassic_parts.table import JurassicPartsLayout, scene_for

    layout = JurassicPartsLayout(seats=3)
    ids = JurassicPartsIds()
    before = scene_for(_state(4, 20), layout, ids=ids)
    camera = SyntheticCamera(
        before, recommended_camera(tilt=10.0), Effects(blur=0.7, noise=2.5, jpeg_quality=85), seed=9
    )
    source = TupleSource(camera)
    source.open()
    first = source.read()
    assert first is not None
    calibration = cal.calibrate(
        first.image, cal.corner_layout(layout.width, layout.height), zones=before.zones
    )
    tracker = Tracker(
        detect.Detector(kit_for("JP").manifest(), calibration, kit_for("JP").hints(layout)),
        TrackerConfig(window=3),
    )
    tracker.update(first.image, first.index, first.timestamp)
    truth = {tag.payload.split(":")[2] for tag in before.tags}

    # Hands come and go over the slab and the seats: 4 visits of 5 frames with quiet frames between.
    rng = random.Random(1)
    for visit in range(4):
        reach = (rng.uniform(300, 980), rng.uniform(150, 600))
        camera.reach_in(5, reach=reach, edge="NESW"[visit], delay=2)
        for _ in range(8):
            frame = source.read()
            assert frame is not None
            result = tracker.update(frame.image, frame.index, frame.timestamp)
            assert set(result.tags) == truth, (visit, frame.index, tracker.last_path)
    assert tracker.stats.commits == 1 and tracker.stats.held >= 4

    # A tile leaves the slab while a hand is over it (the hand takes it), then the table is still.
    after = scene_for(_state(4, 20), layout, ids=ids)
    slab_tags = [tag for tag in after.tags if after.zone_at(tag.center) == "play"]
    taken = slab_tags[0]
    after.tags = [tag for tag in after.tags if tag is not taken]
    camera.reach_in(4, reach=taken.center, edge="S")
    camera.show(after)
    changes = []
    for _ in range(10):
        frame = source.read()
        assert frame is not None
        result = tracker.update(frame.image, frame.index, frame.timestamp)
        if result.stable and set(result.tags) != truth:
            changes.append(frame.index)
            truth = set(result.tags)
    assert truth == {tag.payload.split(":")[2] for tag in after.tags}
    assert tracker.stats.commits == 2
    source.close()
