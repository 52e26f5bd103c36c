"""The synthetic renderer draws what the scene says, where the homography says, readable by real decoders."""

from __future__ import annotations

import math
import random
from typing import Any

import cv2
import numpy as np
import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.camera_model import CameraModel, apply_homography, local_scale
from sim.effects import Effects, apply_effects
from sim.hands import make_hand
from sim.render import RenderedFrame, qr_matrix, render, tag_corners
from vision.scene import SEAT_RGB, Occluder, Peg, Scene, Shape, Tag


def sample_scene(tag_size: float = 34.0) -> Scene:
    """A 1000 x 560 mm table: 24 tagged tiles at assorted angles and a peg of each colour between them."""
    scene = Scene.with_corner_markers(1000.0, 560.0)
    for index in range(24):
        x = 110.0 + (index % 8) * 112.0
        y = 110.0 + (index // 8) * 170.0
        half = tag_size * 0.95
        scene.shapes.append(
            Shape(
                ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)),
                (205, 185, 140),
                (90, 80, 60),
            )
        )
        scene.tags.append(Tag(f"DT1:JP:F{index + 1:02d}", (x, y), angle=(index * 37) % 360, size=tag_size))
    for index, (name, rgb) in enumerate(SEAT_RGB.items()):
        scene.pegs.append(Peg((166.0 + index * 112.0, 195.0), name, rgb, radius=6.0, height=1 + index % 3))
    return scene


QR_ONLY = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


def decode(image: np.ndarray) -> dict[str, zxingcpp.Barcode]:
    return {code.text: code for code in zxingcpp.read_barcodes(image, formats=QR_ONLY)}


def zxing_corners(code: zxingcpp.Barcode) -> np.ndarray:
    pos = code.position
    return np.array(
        [[p.x, p.y] for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)], float
    )


@pytest.fixture(scope="module")
def scene() -> Scene:
    return sample_scene()


@pytest.mark.parametrize(("tilt", "tag_size"), [(0.0, 35.0), (25.0, 50.0)])
def test_every_tag_decodes_with_zxing_at_three_pixels_per_module(tilt: float, tag_size: float) -> None:
    # Yaw and roll cost resolution (the turned table needs a larger frame) and tilt shrinks the far side.
    scene = sample_scene(tag_size)
    camera = CameraModel(tilt=tilt, yaw=3.0, roll=1.0)
    frame = render(
        scene, camera, Effects(blur=0.7, noise=3.0, vignette=0.2, gradient=0.2, jpeg_quality=85), 7
    )
    assert frame.image.shape == (1296, 2304, 3) and frame.image.dtype == np.uint8
    smallest = min(truth.px_per_module for truth in frame.tags)
    assert smallest >= 3.0, f"tags only {smallest:.2f} px/module at tilt {tilt}"
    found = decode(frame.image)
    assert set(found) == {tag.payload for tag in scene.tags}, f"px/module >= {smallest:.2f}"
    for truth in frame.tags:
        # zxing-cpp puts pixel centres at +0.5 (OpenCV, and the ground truth, at integers).
        corners = zxing_corners(found[truth.payload]) - 0.5
        # zxing's corners are the code's own corners in the same order: agreement proves the angle too.
        # The bottom-right one has no finder pattern and is extrapolated, so it is looser.
        error = np.linalg.norm(corners - np.array(truth.corners), axis=1) / truth.px_per_module
        assert error[[0, 1, 3]].max() < 0.6 and error[2] < 1.3, (truth.payload, error)
        centre_error = np.linalg.norm(corners.mean(axis=0) - np.array(truth.center)) / truth.px_per_module
        assert centre_error < 0.5, (truth.payload, centre_error)


def test_pyzbar_reads_the_clean_frame_too() -> None:
    pyzbar = pytest.importorskip("pyzbar.pyzbar")
    frame = render(sample_scene(48.0), CameraModel(tilt=5.0), Effects(blur=0.6), 1)  # 4.3 px a module
    grey = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
    texts = {symbol.data.decode() for symbol in pyzbar.decode(grey, symbols=[pyzbar.ZBarSymbol.QRCODE])}
    assert texts == {f"DT1:JP:F{index:02d}" for index in range(1, 25)}


def test_markers_found_by_aruco_where_the_homography_puts_them(scene: Scene) -> None:
    frame = render(scene, CameraModel(tilt=20.0, yaw=-6.0, roll=2.0), Effects(blur=0.8, noise=2.0), 3)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for marker_corners, marker_id in zip(corners, ids.ravel()):
        truth = next(m for m in frame.markers if m.marker_id == marker_id)
        assert np.abs(marker_corners.reshape(4, 2) - np.array(truth.corners)).max() < 1.5


def test_ground_truth_agrees_with_the_homography(scene: Scene) -> None:
    frame = render(scene, CameraModel(tilt=25.0, yaw=10.0), None, 0)
    for tag, truth in zip(scene.tags, frame.tags):
        assert truth.payload == tag.payload
        np.testing.assert_allclose(truth.center, frame.to_pixels([tag.center])[0], atol=1e-6)
        np.testing.assert_allclose(truth.corners, frame.to_pixels(tag_corners(tag)), atol=1e-6)
        np.testing.assert_allclose(frame.to_table([truth.center])[0], tag.center, atol=1e-6)
        assert truth.modules == 21 and truth.visible == 1.0 and truth.in_frame
    for peg, peg_truth in zip(scene.pegs, frame.pegs):
        np.testing.assert_allclose(peg_truth.center, frame.to_pixels([peg.center])[0], atol=1e-6)


def test_pegs_are_drawn_at_their_pixels_in_their_colour(scene: Scene) -> None:
    frame = render(scene, CameraModel(tilt=15.0, yaw=-5.0), None, 0)
    for truth in frame.pegs:
        x, y = (round(v) for v in truth.center)
        patch = frame.image[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3).mean(axis=0)
        rgb = patch[::-1]
        distances = {name: float(np.linalg.norm(rgb - np.array(ref))) for name, ref in SEAT_RGB.items()}
        assert min(distances, key=distances.__getitem__) == truth.colour, (truth.colour, rgb)
        assert 8.0 < truth.radius < 13.0  # 6 mm at ~1.6-2 px/mm


def test_stacks_draw_a_larger_top() -> None:
    scene = Scene(width=200.0, height=100.0)
    scene.pegs = [
        Peg((50.0, 50.0), "red", SEAT_RGB["red"], 8.0, 1),
        Peg((150.0, 50.0), "red", SEAT_RGB["red"], 8.0, 4),
    ]
    frame = render(scene, CameraModel(resolution=(800, 450), margin=0.0), None, 0)
    red = (frame.image[:, :, 2].astype(int) - frame.image[:, :, 1].astype(int)) > 80
    left, right = red[:, :400].sum(), red[:, 400:].sum()
    assert right > left * 1.1


def test_same_seed_same_frame_other_seed_other_noise(scene: Scene) -> None:
    effects = Effects(blur=0.5, noise=4.0, jpeg_quality=80, hands=1)
    camera = CameraModel(resolution=(1152, 648), tilt=12.0)
    first, again, other = (
        render(scene, camera, effects, 5),
        render(scene, camera, effects, 5),
        render(scene, camera, effects, 6),
    )
    assert np.array_equal(first.image, again.image)
    assert first.occluders == again.occluders
    assert not np.array_equal(first.image, other.image)


def test_tilt_is_a_real_perspective_and_zero_pose_is_affine() -> None:
    flat = CameraModel().homography(1000.0, 560.0)
    assert abs(flat[2, 0]) < 1e-12 and abs(flat[2, 1]) < 1e-12
    tilted = CameraModel(tilt=25.0).homography(1000.0, 560.0)
    assert abs(tilted[2, 1]) > 1e-5
    # The far (north) edge looks smaller than the near one.
    assert local_scale(tilted, (500.0, 0.0)) < 0.9 * local_scale(tilted, (500.0, 560.0))


@settings(max_examples=40, deadline=None)
@given(
    tilt=st.floats(0.0, 25.0),
    yaw=st.floats(-20.0, 20.0),
    roll=st.floats(-10.0, 10.0),
    width=st.floats(300.0, 1500.0),
    height=st.floats(300.0, 1200.0),
)
def test_the_whole_table_is_framed_for_any_pose(
    tilt: float, yaw: float, roll: float, width: float, height: float
) -> None:
    camera = CameraModel(tilt=tilt, yaw=yaw, roll=roll)
    matrix = camera.homography(width, height)
    corners = apply_homography(matrix, [(0, 0), (width, 0), (width, height), (0, height)])
    assert np.all(corners >= 0) and np.all(corners[:, 0] <= 2304) and np.all(corners[:, 1] <= 1296)
    # Orientation is kept: north-west stays top-left-ish for small yaw/roll (no mirror image).
    (ax, ay), (bx, by) = corners[1] - corners[0], corners[3] - corners[0]
    signed_area = ax * by - ay * bx
    assert signed_area > 0


def test_hands_cover_what_they_cover(scene: Scene) -> None:
    target = scene.tags[9]
    reach = (target.center[0], target.center[1] - 45.0)  # fingertips beyond the tag: the palm is on it
    hand = make_hand(scene.width, scene.height, random.Random(2), reach=reach, edge="S")
    covered = Scene(scene.width, scene.height, scene.markers, scene.shapes, scene.tags, scene.pegs, [hand])
    frame = render(covered, CameraModel(), None, 0)
    truth = frame.tag(target.payload)
    assert truth.visible < 0.2
    assert frame.occluded is not None and frame.occluded[round(truth.center[1]), round(truth.center[0])]
    assert target.payload not in decode(frame.image)
    assert len(frame.occluders) == 1 and not frame.hand_free
    far = frame.tag(scene.tags[0].payload)
    assert far.visible == 1.0


@pytest.mark.parametrize(
    "make",
    [
        lambda: CameraModel(resolution=(0, 720)),
        lambda: CameraModel(border=0.6),
        lambda: CameraModel(distance=-5.0),
        lambda: Effects(blur=-1.0),
        lambda: Effects(jpeg_quality=0),
        lambda: Effects(white_balance=(1.0, 0.0, 1.0)),
    ],
)
def test_impossible_cameras_and_effects_are_refused(make: Any) -> None:
    with pytest.raises(ValueError):
        make()


def test_a_hand_from_nowhere_is_refused() -> None:
    with pytest.raises(ValueError):
        make_hand(1000.0, 560.0, random.Random(1), edge="X")


def test_random_hands_enter_from_an_edge() -> None:
    rng = random.Random(11)
    for _ in range(20):
        hand = make_hand(1000.0, 560.0, rng)
        xs = [p[0] for p in hand.polygon]
        ys = [p[1] for p in hand.polygon]
        assert min(xs) < 0 or max(xs) > 1000.0 or min(ys) < 0 or max(ys) > 560.0
        assert isinstance(hand, Occluder)


def test_payloads_outside_the_tag_encoding_are_refused() -> None:
    assert qr_matrix("DT1:JP:F07").shape == (21, 21)
    assert qr_matrix("DT1:JB:SUPER-YUMMY-01").shape == (25, 25)
    with pytest.raises(ValueError):
        qr_matrix("dt1:jp:f07")
    with pytest.raises(ValueError):
        qr_matrix("DT1:JP:" + "X" * 60)


def test_rendered_frame_exposes_tag_by_payload(scene: Scene) -> None:
    frame: RenderedFrame = render(scene, CameraModel(resolution=(1152, 648)), None, 0)
    assert frame.tag("DT1:JP:F03").table_center == scene.tags[2].center
    with pytest.raises(KeyError):
        frame.tag("DT1:JP:F99")
    assert math.isclose(frame.tags[0].angle, scene.tags[0].angle % 360.0, abs_tol=1e-6)


def test_visible_fraction_predicts_what_the_decoder_reads() -> None:
    scene = sample_scene(40.0)
    rng = random.Random(5)
    scene.occluders = [
        make_hand(scene.width, scene.height, rng, reach=scene.tags[i].center) for i in (3, 12, 20)
    ]
    frame = render(scene, CameraModel(tilt=5.0), Effects(blur=0.6, noise=2.0), 9)
    read = decode(frame.image)
    covered = [t for t in frame.tags if t.visible < 0.3]
    clear = [t for t in frame.tags if t.visible == 1.0]
    assert covered and clear
    assert all(t.payload in read for t in clear)
    assert not any(t.payload in read for t in covered)
    assert frame.occluded is not None
    for truth in frame.tags:
        x, y = (round(v) for v in truth.center)
        if frame.occluded[y, x]:
            assert truth.visible < 1.0


@settings(max_examples=60, deadline=None)
@given(
    angle=st.floats(-720.0, 720.0),
    x=st.floats(0.0, 500.0),
    y=st.floats(0.0, 500.0),
    size=st.floats(5.0, 60.0),
)
def test_tag_corners_follow_the_angle_convention(angle: float, x: float, y: float, size: float) -> None:
    corners = np.array(tag_corners(Tag("DT1:JP:F01", (x, y), angle, size)))
    top = corners[1] - corners[0]
    up = corners[0] - corners[3]  # from the bottom-left to the top-left corner: where the top edge faces
    assert np.linalg.norm(top) == pytest.approx(size) and np.linalg.norm(up) == pytest.approx(size)
    facing = math.degrees(math.atan2(-up[1], up[0]))  # counter-clockwise from east, seen from above
    assert (facing - 90.0 - angle) % 360.0 == pytest.approx(0.0, abs=1e-6) or (
        (facing - 90.0 - angle) % 360.0 == pytest.approx(360.0, abs=1e-6)
    )
    assert corners.mean(axis=0) == pytest.approx((x, y))


def test_white_balance_and_glare_change_the_light_as_asked() -> None:
    grey = np.full((200, 300, 3), 120, dtype=np.uint8)
    warm = apply_effects(grey, Effects(white_balance=(1.2, 1.0, 0.8)))
    b, g, r = (int(v) for v in warm[100, 150])
    assert (r, g, b) == (144, 120, 96)
    glared = apply_effects(grey, Effects(glare=0.8, glare_radius=40.0), 3)
    brightest = np.unravel_index(int(np.argmax(glared[:, :, 1])), glared.shape[:2])
    assert glared[brightest][1] > 200
    corners = [(0, 0), (0, 299), (199, 0), (199, 299)]
    far = max(corners, key=lambda c: (c[0] - brightest[0]) ** 2 + (c[1] - brightest[1]) ** 2)
    assert glared[far][1] <= 125  # a spot, not a wash
    assert np.array_equal(glared, apply_effects(grey, Effects(glare=0.8, glare_radius=40.0), 3))
    assert apply_effects(grey, Effects()) is grey


def test_a_shifted_frame_keeps_its_truth(scene: Scene) -> None:
    frame = render(scene, CameraModel(resolution=(1152, 648)), None, 0)
    moved = frame.shifted(2.5, -1.5)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(moved.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and len(ids) == 4
    for marker_corners, marker_id in zip(corners, ids.ravel()):
        truth = next(m for m in moved.markers if m.marker_id == marker_id)
        assert np.abs(marker_corners.reshape(4, 2) - np.array(truth.corners)).max() < 1.5
    np.testing.assert_allclose(moved.tags[0].center, np.add(frame.tags[0].center, (2.5, -1.5)))
    np.testing.assert_allclose(moved.to_pixels([scene.tags[0].center])[0], moved.tags[0].center, atol=1e-9)
