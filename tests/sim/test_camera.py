"""The synthetic camera delivers rendered frames like a frame source, with ground truth alongside."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from sim.camera import SyntheticCamera
from sim.camera_model import CameraModel
from sim.effects import Effects
from vision.scene import Peg, Scene, Tag
from vision.sources import Frame, FrameSource, SourceError

SMALL = CameraModel(resolution=(960, 540), tilt=10.0)


def table(*ids: str) -> Scene:
    scene = Scene.with_corner_markers(800.0, 450.0)
    for index, tile in enumerate(ids):
        scene.tags.append(Tag(f"DT1:JP:{tile}", (150.0 + 160.0 * index, 225.0), 0.0, 50.0))
    scene.pegs.append(Peg((400.0, 380.0), "red", (200, 40, 40), 6.0))
    return scene


def fake_clock() -> Callable[[], float]:
    ticks = itertools.count()
    return lambda: next(ticks) * 0.1


def test_read_gives_frame_index_and_timestamp() -> None:
    camera = SyntheticCamera(table("F01"), SMALL, Effects(noise=2.0), seed=1, clock=fake_clock())
    camera.open()
    frames = list(camera.frames(3))
    assert [frame.index for frame in frames] == [0, 1, 2]
    assert [frame.timestamp for frame in frames] == [0.0, 0.1, 0.2]
    image, index, stamp = frames[1]  # also unpacks like a tuple
    assert index == 1 and stamp == 0.1 and image is frames[1].image
    assert image.shape == (540, 960, 3) and image.dtype == np.uint8
    assert frames[0].lores is not None and frames[0].lores.shape == (324, 576)
    assert frames[0].source == "synthetic"
    assert camera.truth is not None and camera.truth.tags[0].payload == "DT1:JP:F01"
    assert frames[2].truth is camera.truth


def test_it_is_a_frame_source() -> None:
    source: FrameSource = SyntheticCamera(table("F01"), SMALL)
    source.open()
    frame = source.read()
    assert isinstance(frame, Frame) and frame.image.shape == (540, 960, 3)
    source.close()


def test_an_unchanged_table_differs_only_by_sensor_noise() -> None:
    camera = SyntheticCamera(table("F01", "F02"), SMALL, Effects(noise=3.0, jpeg_quality=90), seed=2)
    first, second = (frame.image for frame in camera.frames(2))
    difference = np.abs(first.astype(int) - second.astype(int))
    assert 0.5 < difference.mean() < 6.0
    assert not np.array_equal(first, second)


def test_show_changes_what_the_camera_sees() -> None:
    camera = SyntheticCamera(table("F01"), SMALL, seed=3)
    camera.read()
    camera.show(table("F01", "F02", "F03"))
    camera.read()
    assert camera.truth is not None
    assert [t.payload for t in camera.truth.tags] == ["DT1:JP:F01", "DT1:JP:F02", "DT1:JP:F03"]


def test_a_scripted_hand_comes_and_goes() -> None:
    camera = SyntheticCamera(table("F01", "F02"), SMALL, seed=4)
    camera.read()  # frame 0: nothing over the table
    camera.reach_in(frames=6, reach=(310.0, 200.0), edge="S")
    coverage = []
    for _ in range(8):
        camera.read()
        assert camera.truth is not None and camera.truth.occluded is not None
        coverage.append(int(camera.truth.occluded.sum()))
    assert all(c > 0 for c in coverage[:6]) and coverage[6:] == [0, 0]
    assert max(coverage) == coverage[2]  # fully in after a third of the visit
    assert coverage[0] < coverage[2]


def test_same_seed_same_sequence() -> None:
    def run() -> list[np.ndarray]:
        camera = SyntheticCamera(table("F05"), SMALL, Effects(noise=4.0, hands=1), seed=9)
        camera.reach_in(frames=3)
        return [frame.image for frame in camera.frames(4)]

    for a, b in zip(run(), run()):
        assert np.array_equal(a, b)


def test_a_closed_camera_refuses_to_read() -> None:
    with SyntheticCamera(table(), SMALL) as camera:
        camera.read()
    with pytest.raises(RuntimeError):
        camera.read()


def test_a_bumped_camera_sees_the_table_elsewhere() -> None:
    camera = SyntheticCamera(table("F01"), SMALL, seed=2)
    before = next(camera.frames(1)).truth
    camera.bump(yaw=1.5, tilt=1.0)
    after = next(camera.frames(1)).truth
    assert before is not None and after is not None
    shift = np.abs(np.array(before.markers[0].center) - np.array(after.markers[0].center)).max()
    assert shift > 3.0  # pixels: enough for a calibration check to notice
    assert camera.camera.yaw == SMALL.yaw + 1.5


def test_stalls_and_failures_then_frames_again() -> None:
    camera = SyntheticCamera(table("F01"), SMALL, seed=3, clock=fake_clock())
    camera.stall(2)
    assert camera.read() is None and camera.read() is None
    camera.fail(1)
    with pytest.raises(SourceError):
        camera.read()
    frame = camera.read()
    assert frame is not None and frame.index == 0  # nothing was delivered before


def test_flicker_changes_the_brightness_of_whole_frames() -> None:
    steady = SyntheticCamera(table("F01"), SMALL, seed=5)
    wavering = SyntheticCamera(table("F01"), SMALL, seed=5, flicker=0.15)
    steady_means = [float(frame.image.mean()) for frame in steady.frames(4)]
    wavering_means = [float(frame.image.mean()) for frame in wavering.frames(4)]
    assert max(steady_means) - min(steady_means) < 0.01
    assert max(wavering_means) - min(wavering_means) > 1.0


def test_jitter_shakes_the_frames_and_the_truth_follows() -> None:
    camera = SyntheticCamera(table("F01", "F02"), SMALL, seed=6, jitter=1.5)
    centres = []
    for frame in camera.frames(3):
        assert frame.truth is not None
        centres.append(frame.truth.markers[0].center)
        # The truth moved with the picture: the homography still maps the marker's table centre there.
        np.testing.assert_allclose(frame.truth.to_pixels([(0.0, 0.0)])[0], frame.truth.markers[0].center)
    assert len({(round(x, 3), round(y, 3)) for x, y in centres}) == 3
