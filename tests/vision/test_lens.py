"""Lens correction: a lens fitted from photos of the ChArUco board, and table positions read through a
bending lens before and after its distortion is taken out of the detected points."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import pytest
from helpers.slab import jp_back_of, jp_hints

from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import jp_slab_scene
from sim.lens import board_photos, distort_image
from sim.render import render
from vision import calibration as cal
from vision import detect
from vision.lens import (
    DEFAULT_LENSES,
    Lens,
    LensError,
    fit_lens,
)
from vision.observation import LatticeFit

#: a wide, cheap lens: about 5 % barrel distortion in the frame's corners
BARREL = Lens("barrel", (1280, 720), (1000.0, 1000.0, 640.0, 360.0), (-0.28, 0.09, 0.0, 0.0, 0.0), "test")


def test_undistorting_then_distorting_gives_the_point_back() -> None:
    points = np.array([[10.0, 10.0], [640.0, 360.0], [1270.0, 700.0], [200.0, 650.0]])
    straight = BARREL.undistort(points, (1280, 720))
    assert np.abs(straight[1] - points[1]).max() < 1e-6  # the centre does not move
    assert np.abs(straight[0] - points[0]).max() > 20  # a corner moves far out (barrel)
    assert np.abs(BARREL.distort(straight, (1280, 720)) - points).max() < 0.05
    twice = BARREL.undistort(points * 2, (2560, 1440))  # the same lens at twice the resolution
    assert np.abs(twice - straight * 2).max() < 0.05


def test_a_lens_is_fitted_from_photos_of_the_board() -> None:
    fitted = fit_lens(board_photos(BARREL))
    assert fitted.rms_px is not None and fitted.rms_px < 0.5
    assert "of 12 photos" in fitted.source
    ys, xs = np.mgrid[40:680:40, 40:1240:40]
    grid = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    error = np.linalg.norm(fitted.undistort(grid, (1280, 720)) - BARREL.undistort(grid, (1280, 720)), axis=1)
    assert float(np.median(error)) < 1.0 and float(error.max()) < 4.0, (np.median(error), error.max())
    again = Lens.from_dict(fitted.to_dict())
    assert again == fitted


def test_too_few_photos_of_the_board_say_so() -> None:
    with pytest.raises(LensError, match="found in 0 of 2 photos"):
        fit_lens([np.full((720, 1280, 3), 128, np.uint8)] * 2)
    with pytest.raises(LensError, match="lens: "):
        Lens.from_dict({"matrix": [1, 2], "distortion": [0] * 5, "resolution": [10, 10]})


def test_photos_of_the_board_held_flat_are_refused_saying_to_tilt_it() -> None:
    """Slid about but never tilted, the board's photos fitted a focal length 19 % off without a word;
    now they are refused, saying what to photograph; a little tilt (up to 8 degrees) is enough."""
    with pytest.raises(LensError, match=r"nearly flat to the camera .* tilted about 20 to 40 degrees"):
        fit_lens(board_photos(BARREL, tilt=0.0))
    fitted = fit_lens(board_photos(BARREL, tilt=0.15))
    assert abs(fitted.matrix[0] - 1000.0) < 30.0


def test_shipped_profiles_are_marked_nominal() -> None:
    for lens in DEFAULT_LENSES.values():
        assert lens.source.startswith("nominal") and lens.distortion == (0.0,) * 5
        assert lens.matrix[0] > 1000  # the datasheet's focal length in pixels


def _read(image: np.ndarray, scene: Any, truth: Any, lens: Lens | None) -> tuple[float, int, str]:
    """Mean distance (mm) from each tag's true place to where the calibration puts its centre, the
    number of tags read, and the calibration's state."""
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0), zones=scene.zones, lens=lens)
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    observation = detect.Detector(kit_for("JP").manifest(), calibration, hints).observe(image)
    placed = {tag.payload.rsplit(":", 1)[-1]: tag.center for tag in scene.tags}
    errors = [math.dist(calibration.to_table([reading.center_px])[0], placed[key])
              for key, reading in observation.tags.items() if key in placed]
    return float(np.mean(errors)), len(errors), observation.calibration.state


def test_table_positions_through_a_bending_lens_before_and_after_correction() -> None:
    scene, truth = jp_slab_scene(back_of=jp_back_of(), seed=4)
    image = render(scene, recommended_camera(tilt=5.0), Effects(blur=0.6, noise=2.0, jpeg_quality=90),
                   rng=1).image
    height, width = image.shape[:2]
    lens = Lens("barrel", (width, height), (width * 0.78, width * 0.78, width / 2, height / 2),
                (-0.2, 0.05, 0.0, 0.0, 0.0), "test")
    bent = distort_image(image, lens)
    straight, read, _ = _read(image, scene, truth, None)
    before, read_before, state_before = _read(bent, scene, truth, None)
    after, read_after, state_after = _read(bent, scene, truth, lens)
    assert read_before >= read - 2 and read_after >= read - 2
    assert before > 2.0, before  # the bent picture misplaces tiles by millimetres...
    assert state_before == "misfit"  # ...and measures the table too large: nothing is committed on it
    assert after < max(1.0, 1.5 * straight), (after, straight)  # corrected, neither happens
    assert state_after == "ok"
    calibration = cal.calibrate(bent, cal.corner_layout(1280.0, 720.0), zones=scene.zones, lens=lens)
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    observation = detect.Detector(kit_for("JP").manifest(), calibration, hints).observe(bent)
    assert {peg.on: peg.colour for peg in observation.pegs} == truth.pegs  # chisels looked for through it


def test_calibrate_fits_the_lens_from_photos_and_keeps_it(tmp_path: Any, capsys: Any) -> None:
    import json

    from companion.cli import main

    photos = []
    for index, view in enumerate(board_photos(BARREL)):
        photos.append(str(tmp_path / f"board-{index}.png"))
        cv2.imwrite(photos[-1], view)
    scene, _ = jp_slab_scene(back_of=jp_back_of(), seed=4)
    image = render(scene, recommended_camera(tilt=5.0), Effects(noise=2.0, jpeg_quality=90), rng=1).image
    frame = tmp_path / "table.png"
    cv2.imwrite(str(frame), distort_image(image, BARREL))  # the same lens at the camera's resolution
    saved = tmp_path / "calibration.json"
    assert main(["calibrate", str(frame), "--out", str(saved), "--lens", *photos]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    assert report["lens"]["source"].startswith("fitted from 12 of 12") and report["lens"]["rms_px"] < 0.5
    corrected = cal.Calibration.load(saved)
    assert corrected.lens is not None and corrected.measured is not None
    straight = cal.calibrate(image).measured  # what a perfect lens measures from the same place
    assert straight is not None
    measured = corrected.measured
    assert all(abs(c - s) < 0.01 * s for c, s in zip(measured, straight)), (measured, straight)
    uncorrected = cal.calibrate(cv2.imread(str(frame))).measured
    assert uncorrected is not None and uncorrected[0] > straight[0] * 1.03  # the bent lens measures wide
    assert main(["calibrate", str(frame), "--lens", photos[0]]) == 2  # one photo is not enough
    assert "at least 4 are needed" in capsys.readouterr().err
