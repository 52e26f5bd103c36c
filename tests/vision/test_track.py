"""Tracking over frame sequences: hands hold the last stable state, changes settle before they count,
flicker is filtered, unchanged frames take the cheap path."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from helpers.slab import jp_back_of, jp_hints, jp_manifest

from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import SlabTruth, jp_slab_scene
from sim.hands import make_hand
from sim.render import render
from vision import calibration as cal
from vision import detect
from vision.observation import LatticeFit, Observation
from vision.scene import Scene
from vision.track import Expectations, Tracker, TrackerConfig

JP_BACK_OF = jp_back_of()

EFFECTS = Effects(blur=0.7, noise=2.5, vignette=0.2, gradient=0.15, jpeg_quality=85)
CAMERA = recommended_camera(tilt=12.0)


def _frame(scene: Scene, seed: int) -> np.ndarray:
    return render(scene, CAMERA, EFFECTS, rng=seed).image


@pytest.fixture(scope="module")
def table() -> tuple[Scene, SlabTruth]:
    return jp_slab_scene(back_of=JP_BACK_OF, tiles=30, pegs=8, seed=21, backs=2)


def _tracker(scene: Scene, truth: SlabTruth, window: int = 3) -> Tracker:
    image = _frame(scene, 100)
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0), zones=scene.zones)
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    return Tracker(detect.Detector(jp_manifest(), calibration, hints), TrackerConfig(window=window))


def test_hand_over_the_table_holds_then_a_real_change_commits_after_the_window(
    table: tuple[Scene, SlabTruth],
) -> None:
    scene, truth = table
    tracker = _tracker(scene, truth)
    still = _frame(scene, 1)
    results = [tracker.update(still, i, i / 10) for i in range(3)]
    assert [r.stable for r in results] == [False, False, True]
    assert set(results[-1].tags) == set(truth.cells)
    assert tracker.stats.full == 3  # a change (here: the first picture) is read again until it settles
    stable_tags = dict(results[-1].tags)

    # A hand reaches over the slab, covering tiles: held, nothing removed.
    pegged = {cell for key in truth.pegs for cell in key.split("|")}
    taken = next(t for t in sorted(truth.cells) if "{},{}".format(*truth.cells[t]) not in pegged)
    target = next(tag.center for tag in scene.tags if tag.payload.endswith(taken))
    hand_scene = copy.deepcopy(scene)
    hand_scene.occluders.append(make_hand(1280.0, 720.0, random.Random(4), reach=target, edge="S"))
    for i in range(3, 6):
        held = tracker.update(_frame(hand_scene, i), i, i / 10)
        assert held.held and not held.stable
        assert dict(held.tags) == stable_tags
        assert held.occluded and held.occluded[0].reason == "hand"
    assert tracker.stats.held == 1  # later hand frames matched the first: the cheap path kept holding

    # The hand leaves with one tile, and a chisel appears: pending for window-1 frames, then committed.
    after = copy.deepcopy(scene)
    after.tags = [tag for tag in after.tags if not tag.payload.endswith(taken)]
    peg_gap = next(iter(truth.pegs))  # scene.pegs[0]'s gap: the chisel is picked up
    after.pegs = after.pegs[1:]
    image = _frame(after, 7)
    first = tracker.update(image, 6, 0.6)
    assert not first.stable and taken in first.tags  # not yet
    second = tracker.update(image, 7, 0.7)
    assert not second.stable and taken in second.tags
    third = tracker.update(image, 8, 0.8)
    assert third.stable and taken not in third.tags
    assert set(third.tags) == set(truth.cells) - {taken}
    assert {p.on: p.colour for p in third.pegs} == {k: v for k, v in truth.pegs.items() if k != peg_gap}
    assert tracker.stats.commits == 2
    assert tracker.stats.focused >= 1  # the change was read in its region only


def test_a_tag_flickering_for_one_frame_is_not_a_change(table: tuple[Scene, SlabTruth]) -> None:
    scene, truth = table
    tracker = _tracker(scene, truth)
    still = _frame(scene, 2)
    for i in range(3):
        stable = tracker.update(still, i)
    assert stable.stable
    # One frame where a tag is unreadable (a glint): a blot over it.
    blotted = still.copy()
    reading = next(iter(stable.tags.values()))
    x, y = (int(v) for v in reading.center_px)
    blotted[y - 12 : y + 12, x - 12 : x + 12] = 255
    flicker = tracker.update(blotted, 3)
    assert reading.component_id in flicker.tags
    back = [tracker.update(still, i) for i in range(4, 8)]
    assert all(reading.component_id in obs.tags for obs in back)
    assert back[-1].stable and tracker.stats.commits == 1


def test_unchanged_frames_cost_no_decoding(table: tuple[Scene, SlabTruth]) -> None:
    scene, truth = table
    tracker = _tracker(scene, truth, window=2)
    frames = [_frame(scene, seed) for seed in (3, 4)]  # same table, fresh sensor noise and JPEG
    for i in range(10):
        tracker.update(frames[i % 2], i)
    assert tracker.stats.commits == 1
    assert tracker.stats.unchanged == 8  # after the first picture settled (read twice), nothing is decoded
    assert tracker.stats.full == 2


def test_expectations_focus_a_change_inside_them(table: tuple[Scene, SlabTruth]) -> None:
    scene, truth = table
    tracker = _tracker(scene, truth, window=1)
    tracker.update(_frame(scene, 5), 0)
    after = copy.deepcopy(scene)
    removed = after.tags.pop(0)
    image = _frame(after, 6)
    x, y = removed.center
    cell = ((x - 60, y - 60), (x + 60, y - 60), (x + 60, y + 60), (x - 60, y + 60))  # table mm
    result = tracker.update(image, 1, expectations=Expectations(regions_mm=(cell,)))
    assert tracker.last_path == "focused"
    calibration = tracker.detector.calibration
    assert calibration is not None
    (rect,) = Expectations(regions_mm=(cell,)).pixel_regions(calibration.to_pixels)
    assert rect[2] > 150 and rect[3] > 150  # 120 mm at about 1.7 px/mm
    assert result.stable and removed.payload.split(":")[2] not in result.tags
    assert len(result.tags) == len(truth.cells) - 1


def _settled_then_bumped(
    scene: Scene, truth: SlabTruth
) -> tuple[Tracker, Observation, np.ndarray, np.ndarray]:
    """A tracker settled on two frames of the table (window 2), its last result, that still frame and a
    frame of the same table after the camera was knocked (tilted and turned)."""
    tracker = _tracker(scene, truth, window=2)
    still = _frame(scene, 8)
    settled = [tracker.update(still, i) for i in range(2)][-1]
    moved = render(scene, recommended_camera(tilt=14.0, yaw=1.5), EFFECTS, rng=9).image
    return tracker, settled, still, moved


def test_a_bumped_camera_holds_the_last_state_and_says_so(table: tuple[Scene, SlabTruth]) -> None:
    tracker, settled, still, moved = _settled_then_bumped(*table)
    assert settled.stable
    for i in range(2, 6):
        result = tracker.update(moved, i)
        assert result.calibration.state == "bumped" and not result.stable
        assert dict(result.tags) == dict(settled.tags)
    assert tracker.stats.commits == 1
    back = tracker.update(still, 6)
    assert back.calibration.state == "ok" and back.stable


def test_recalibrating_after_a_bump_reads_the_same_table_again(table: tuple[Scene, SlabTruth]) -> None:
    scene, truth = table
    tracker, settled, _, moved = _settled_then_bumped(scene, truth)
    assert tracker.update(moved, 2).calibration.state == "bumped"
    tracker.recalibrate(moved)
    results = [tracker.update(moved, i) for i in range(3, 6)]
    assert results[-1].stable and results[-1].calibration.state == "ok"
    assert set(results[-1].tags) == set(settled.tags)
    assert {k: results[-1].cell_of(k) for k in truth.cells} == truth.cells


def test_the_cameras_lores_stream_drives_change_detection(table: tuple[Scene, SlabTruth]) -> None:
    import cv2

    scene, truth = table
    tracker = _tracker(scene, truth, window=2)

    def lores(image: np.ndarray) -> np.ndarray:
        return cv2.cvtColor(cv2.resize(image, (576, 324), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)

    still = _frame(scene, 10)
    for i in range(3):
        result = tracker.update(still, i, lores=lores(still))
    assert result.stable and tracker.stats.unchanged == 1
    after = copy.deepcopy(scene)
    removed = after.tags.pop(3)
    moved = _frame(after, 11)
    for i in range(3, 5):
        result = tracker.update(moved, i, lores=lores(moved))
    assert result.stable and removed.payload.split(":")[2] not in result.tags
    assert len(result.tags) == len(truth.cells) - 1 and tracker.last_path == "focused"
