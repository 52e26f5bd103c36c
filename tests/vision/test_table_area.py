"""A calibration that cannot be trusted says so: markers that mark another area than the game's layout
(measured from their printed size) make the calibration a misfit, nothing is trusted or read as a move,
and the self-test says what to change."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sim.camera_model import CameraModel
from sim.effects import Effects
from sim.render import render
from vision import calibration as cal
from vision.observation import Observation
from vision.scene import Scene, Tag
from vision.self_test import self_test
from vision.table_area import AreaCheck, camera_estimate
from vision.track import Tracker, TrackerConfig


def _apart(problem: str) -> float:
    """How far apart the words say markers 0 and 1 are (mm)."""
    found = re.search(r"markers 0-1 are (\d+) mm", problem)
    assert found is not None, problem
    return float(found[1])


def frame(width: float, height: float) -> np.ndarray:
    scene = Scene.with_corner_markers(width, height)
    scene.tags.append(Tag("DT1:JP:F01", (width / 2, height / 2), 0.0, size=40.0))
    image: np.ndarray = render(scene, CameraModel(tilt=10.0), Effects(blur=0.6, noise=1.5), rng=3).image
    return image


def test_the_measured_area_is_the_marked_one() -> None:
    calibration = cal.calibrate(frame(1000.0, 500.0), cal.corner_layout(1000.0, 500.0))
    assert calibration.measured is not None
    assert abs(calibration.measured[0] - 1000.0) < 15 and abs(calibration.measured[1] - 500.0) < 10
    assert calibration.area_problem() is None
    monitor = cal.CalibrationMonitor(calibration)
    assert monitor.last.state == "ok" and monitor.last.trusted


def test_markers_of_another_area_are_a_misfit_and_say_what_to_change() -> None:
    image = frame(1000.0, 500.0)
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0))  # the layout assumes 1280 x 720
    problem = calibration.area_problem()
    assert problem is not None and "1280 x 720" in problem and _apart(problem) == pytest.approx(1000, abs=10)
    monitor = cal.CalibrationMonitor(calibration)
    assert monitor.last.state == "misfit" and not monitor.last.trusted
    assert monitor.check(image).state == "misfit"
    report = self_test(image, calibration)
    assert not report["ok"] and report["problems"][0] == problem
    assert report["table_area"]["fits"] is False
    again = cal.Calibration.from_dict(calibration.to_dict())
    assert again.area_problem() == problem  # kept in the calibration file


def test_nothing_is_trusted_on_a_misfit() -> None:
    from companion.kits import kit_for
    from vision import detect

    image = frame(1000.0, 500.0)
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0))
    kit = kit_for("jurassic-parts")
    detector = detect.Detector(kit.manifest(), calibration, kit.hints())
    tracker = Tracker(detector, TrackerConfig(window=2))
    seen: list[Observation] = [tracker.update(image, i, i / 10.0) for i in range(6)]
    assert all(not o.stable for o in seen) and seen[-1].calibration.state == "misfit"
    assert "1280 x 720" in seen[-1].calibration.message


def test_camera_height_and_view_from_the_tables_scale() -> None:
    height, view = camera_estimate(2.0, (2304, 1296))  # 2 px per mm at the centre
    assert height is not None and view == (1152.0, 648.0)
    assert 880 < height < 890  # 2304 px / (2 tan 33 degrees) / 2 px per mm
    check = AreaCheck((1003.0, 560.0), (1280.0, 720.0), height, view)
    text = check.problem() or ""
    assert "raise the camera" in text and "sees about 1152 x 648 mm" in text


def test_calibrate_says_what_to_change(tmp_path: object, capsys: object) -> None:
    import json
    from pathlib import Path

    import cv2

    from companion.cli import main

    path = Path(str(tmp_path)) / "frame.png"
    cv2.imwrite(str(path), frame(1000.0, 500.0))
    assert main(["calibrate", str(path), "--game", "jurassic-parts"]) == 1
    report = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    problem = report["problems"][0]
    assert problem.startswith("markers 0-1 are") and not report["table_area"]["fits"]
    assert _apart(problem) == pytest.approx(1000, abs=10)  # the markers as laid, 1000 mm apart
    given = ["--width", "1000", "--height", "500"]
    assert main(["calibrate", str(path), "--game", "jurassic-parts", *given]) == 1
    report = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert "play zone needs 624 x 541 mm: it does not fit on 1000 x 500 mm" in report["problems"][0]


def test_calibrate_lays_the_game_out_on_the_area_given(tmp_path: object, capsys: object) -> None:
    import json
    from pathlib import Path

    import cv2

    from companion.cli import main
    from vision.calibration import Calibration

    path = Path(str(tmp_path)) / "frame.png"
    cv2.imwrite(str(path), frame(1440.0, 810.0))
    saved = Path(str(tmp_path)) / "calibration.json"
    given = ["--width", "1440", "--height", "810", "--seats", "3", "--out", str(saved)]
    main(["calibrate", str(path), "--game", "jurassic-parts", *given])
    report = json.loads(capsys.readouterr().out)  # type: ignore[attr-defined]
    assert not any("does not fit" in p or "drawn for" in p for p in report["problems"]), report["problems"]
    zones = {zone.name: zone for zone in Calibration.load(saved).zones}
    east = max(p[0] for p in zones["seat:green"].polygon)
    assert 1400 < east <= 1440  # the seats run along the area's own edges, not a 1280 mm table's
