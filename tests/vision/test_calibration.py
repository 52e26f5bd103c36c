"""Calibration from the four ArUco markers: mapping accuracy, size estimate, self-test, bumped camera."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from sim.camera_model import CameraModel
from sim.effects import Effects
from sim.render import RenderedFrame, render
from vision import calibration as cal
from vision.scene import Scene, Tag, Zone

WIDTH, HEIGHT = 900.0, 500.0


def _frame(camera: CameraModel, hands: int = 0, seed: int = 1) -> RenderedFrame:
    scene = Scene.with_corner_markers(WIDTH, HEIGHT)
    scene.tags.append(Tag("DT1:JP:F01", (450.0, 250.0), 30.0, size=36.0))
    return render(scene, camera, Effects(blur=0.7, noise=2.0, jpeg_quality=85, hands=hands), rng=seed)


@pytest.fixture(scope="module")
def tilted() -> RenderedFrame:
    return _frame(CameraModel(tilt=22.0, yaw=4.0))


def test_homography_maps_pixels_to_table_mm_within_a_millimetre(tilted: RenderedFrame) -> None:
    calibration = cal.calibrate(tilted.image, cal.corner_layout(WIDTH, HEIGHT))
    probes = [(60.0, 60.0), (450.0, 250.0), (850.0, 120.0), (100.0, 470.0)]
    mapped = calibration.to_table(tilted.to_pixels(probes))
    assert np.max(np.linalg.norm(mapped - np.array(probes), axis=1)) < 1.0
    back = calibration.to_pixels(probes)
    assert np.max(np.linalg.norm(back - tilted.to_pixels(probes), axis=1)) < 1.5


def test_table_size_is_estimated_from_the_markers_printed_size(tilted: RenderedFrame) -> None:
    layout = cal.estimate_layout(cal.detect_markers(tilted.image))
    assert math.isclose(layout[2][0], WIDTH, rel_tol=0.02)
    assert math.isclose(layout[2][1], HEIGHT, rel_tol=0.02)


def test_calibration_json_round_trip_keeps_zones(tmp_path: Path, tilted: RenderedFrame) -> None:
    zone = Zone("seat:red", ((0.0, 400.0), (300.0, 400.0), (300.0, 500.0), (0.0, 500.0)))
    calibration = cal.calibrate(tilted.image, cal.corner_layout(WIDTH, HEIGHT), zones=[zone])
    calibration = calibration.with_colours({"red": (50.0, 60.0, 40.0)})
    calibration.save(tmp_path / "c.json")
    again = cal.Calibration.load(tmp_path / "c.json")
    assert np.allclose(again.homography, calibration.homography)
    assert again.zone_at((100.0, 450.0)) == "seat:red" and again.zone_at((100.0, 100.0)) is None
    assert again.colours == {"red": (50.0, 60.0, 40.0)}


def test_missing_marker_is_named() -> None:
    frame = _frame(CameraModel())
    image = frame.image.copy()
    x0, y0 = np.min(frame.markers[2].corners, axis=0).astype(int) - 20
    x1, y1 = np.max(frame.markers[2].corners, axis=0).astype(int) + 20
    image[y0:y1, x0:x1] = 90
    with pytest.raises(cal.CalibrationError, match="not visible: 2"):
        cal.calibrate(image)


def test_monitor_reports_a_bumped_camera_and_tolerates_hidden_markers(tilted: RenderedFrame) -> None:
    calibration = cal.calibrate(tilted.image, cal.corner_layout(WIDTH, HEIGHT))
    monitor = cal.CalibrationMonitor(calibration)
    same_pose = _frame(CameraModel(tilt=22.0, yaw=4.0), seed=7)  # new noise, same camera
    assert monitor.check(same_pose.image).state == "ok"
    covered = same_pose.image.copy()
    for marker in same_pose.markers[:3]:
        x0, y0 = np.min(marker.corners, axis=0).astype(int) - 20
        x1, y1 = np.max(marker.corners, axis=0).astype(int) + 20
        covered[max(0, y0) : y1, max(0, x0) : x1] = (120, 150, 196)
    hidden = monitor.check(covered)
    assert hidden.state == "markers-hidden" and hidden.trusted
    bumped = monitor.check(_frame(CameraModel(tilt=23.0, yaw=4.8)).image)
    assert bumped.state == "bumped" and not bumped.trusted and bumped.drift_px > 6
    assert "recalibrate" in bumped.message
    moved = _frame(CameraModel(tilt=23.0, yaw=4.8))
    monitor.recalibrate(moved.image)
    assert monitor.check(moved.image).state == "ok"


def test_calibrate_command_prints_a_self_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    frame = _frame(CameraModel(tilt=10.0))
    path = tmp_path / "frame.jpg"
    cv2.imwrite(str(path), frame.image)
    out = tmp_path / "cal.json"
    status = main(["calibrate", str(path), "--width", "900", "--height", "500", "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    assert all(m["visible"] for m in report["markers"].values())
    assert report["tags"]["read"] == 1 and report["tags"]["min_module_px"] > 3.0
    assert set(report["lighting"]) >= {"mean", "unevenness", "ok"}
    assert status == (0 if report["ok"] else 1)
    assert cal.Calibration.load(out).image_size == (2304, 1296)


def test_calibrate_command_bad_image_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", str(tmp_path / "missing.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1


def test_calibrate_command_names_hidden_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    frame = _frame(CameraModel())
    image = frame.image.copy()
    x0, y0 = np.min(frame.markers[1].corners, axis=0).astype(int) - 20
    x1, y1 = np.max(frame.markers[1].corners, axis=0).astype(int) + 20
    image[max(0, y0) : y1, x0:x1] = 90
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), image)
    assert main(["calibrate", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and "not visible: 1" in report["problems"][0]
    assert [m["visible"] for m in report["markers"].values()] == [True, False, True, True]
