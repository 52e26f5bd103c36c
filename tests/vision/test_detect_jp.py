"""Jurassic Parts frames read back: every tag, its cell and rotation, every chisel and its colour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.slab import jp_back_of, jp_hints, jp_manifest

from companion.cli import main
from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import SlabTruth, colours_from_card, jp_slab_scene
from sim.render import RenderedFrame, render
from vision import calibration as cal
from vision import detect, pegs
from vision.observation import LatticeFit, Observation

JP_BACK_OF = jp_back_of()

EFFECTS = Effects(blur=0.8, noise=3.0, vignette=0.2, gradient=0.2, jpeg_quality=80)


@pytest.fixture(scope="module")
def colours() -> pegs.ColourModel:
    return colours_from_card(recommended_camera(tilt=10.0), EFFECTS, rng=3, radius=4.0)


def _read(tilt: float, seed: int, colours: pegs.ColourModel) -> tuple[Observation, SlabTruth, RenderedFrame]:
    scene, truth = jp_slab_scene(back_of=JP_BACK_OF, seed=seed)
    frame = render(scene, recommended_camera(tilt=tilt), EFFECTS, rng=seed)
    calibration = cal.calibrate(frame.image, cal.corner_layout(1280.0, 720.0), zones=scene.zones)
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    detector = detect.Detector(jp_manifest(), calibration, hints, colours)
    return detector.observe(frame.image, 7, 1.5), truth, frame


@pytest.mark.parametrize(("tilt", "seed"), [(0.0, 11), (25.0, 12)])
def test_every_tag_cell_rotation_and_peg_is_read(tilt: float, seed: int, colours: pegs.ColourModel) -> None:
    observation, truth, frame = _read(tilt, seed, colours)
    assert set(observation.tags) == set(truth.cells)
    assert observation.rejected == {} and observation.duplicates == ()
    for tile_id, cell in truth.cells.items():
        assert observation.cell_of(tile_id) == cell, tile_id
        reading = observation.tags[tile_id]
        assert round(reading.angle / 60.0) % 6 == truth.rotations[tile_id], tile_id
        assert reading.zone == "play"
        assert reading.center_mm is not None
        assert abs(reading.center_mm[0] - frame.scene.tags[0].center[0]) >= 0  # positions are in mm
    faces = {tile_id: observation.tags[tile_id].face for tile_id in truth.cells}
    assert sum(face == "back" for face in faces.values()) == 4
    assert {peg.on: peg.colour for peg in observation.pegs} == truth.pegs
    assert all(peg.confidence > 0.3 for peg in observation.pegs)
    assert observation.calibration.state == "ok"
    assert observation.lattice is not None and observation.lattice.residual < 3.0
    assert observation.frame_index == 7 and observation.zones["play"]


def test_other_games_and_junk_are_counted_not_trusted(colours: pegs.ColourModel) -> None:
    scene, _ = jp_slab_scene(back_of=JP_BACK_OF, tiles=10, pegs=0, seed=3)
    scene.tags[0] = type(scene.tags[0])("DT1:JK:D1-1", scene.tags[0].center, 0.0, scene.tags[0].size)
    scene.tags[1] = type(scene.tags[1])("HELLO WORLD", scene.tags[1].center, 0.0, scene.tags[1].size)
    scene.tags[2] = type(scene.tags[2])(scene.tags[3].payload, scene.tags[2].center, 0.0, scene.tags[2].size)
    frame = render(scene, recommended_camera(), Effects(), rng=1)
    calibration = cal.calibrate(frame.image, cal.corner_layout(1280.0, 720.0))
    observation = detect.Detector(kit_for("JP").manifest(), calibration, colours=colours).observe(frame.image)
    assert observation.rejected == {"other-game": 1, "other-scheme": 1}
    duplicate = scene.tags[3].payload.split(":")[2]
    assert observation.duplicates == (duplicate,)
    assert len(observation.tags) == 10 - 3


def test_uncalibrated_reading_gives_pixels_only() -> None:
    scene, _ = jp_slab_scene(back_of=JP_BACK_OF, tiles=6, pegs=0, seed=4)
    frame = render(scene, recommended_camera(), Effects(), rng=1)
    observation = detect.Detector(kit_for("JP").manifest()).observe(frame.image)
    assert len(observation.tags) == 6
    assert observation.calibration.state == "uncalibrated" and observation.lattice is None
    assert all(reading.center_mm is None for reading in observation.tags.values())


def test_observe_command_prints_the_observation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    scene, truth = jp_slab_scene(back_of=JP_BACK_OF, tiles=12, pegs=3, seed=5)
    frame = render(scene, recommended_camera(tilt=8.0), EFFECTS, rng=2)
    path = tmp_path / "frame.jpg"
    cv2.imwrite(str(path), frame.image)
    assert main(["observe", "JP", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["tags"]) == set(truth.cells)
    assert data["calibration"]["state"] == "ok"
    assert data["lattice"]["kind"] == "hex" and len(data["lattice"]["cells"]) == 12
    assert {peg["colour"] for peg in data["pegs"]} == set(truth.pegs.values())


def test_observe_command_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["observe", "JP", str(tmp_path / "none.png")]) == 2
    assert main(["observe", "chess", str(tmp_path / "none.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 2


def test_a_lens_with_barrel_distortion_still_reads_cells_and_chisels(colours: pegs.ColourModel) -> None:
    import cv2
    import numpy as np

    scene, truth = jp_slab_scene(back_of=JP_BACK_OF, seed=4)
    image = render(
        scene, recommended_camera(tilt=5.0), Effects(blur=0.7, noise=2.0, jpeg_quality=85), rng=1
    ).image
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xs - w / 2) / (w / 2), (ys - h / 2) / (w / 2)
    bend = 1 + 0.06 * (x * x + y * y)  # a cheap webcam's barrel distortion, uncorrected
    image = cv2.remap(image, x * bend * (w / 2) + w / 2, y * bend * (w / 2) + h / 2, cv2.INTER_LINEAR)
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0), zones=scene.zones)
    assert calibration.reprojection_mm > 1.0  # the plane fit feels the bent lines...
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    observation = detect.Detector(kit_for("JP").manifest(), calibration, hints, colours).observe(image)
    assert {k: observation.cell_of(k) for k in truth.cells} == truth.cells  # ...the reading does not
    assert {peg.on: peg.colour for peg in observation.pegs} == truth.pegs


def test_chisels_in_their_own_shade_keep_their_colour(colours: pegs.ColourModel) -> None:
    """A chisel in shade shows its colour at about half the light (a yellow one reads olive): it is read
    as its seat's colour, and no gap without a chisel is taken for one."""
    from dataclasses import replace

    scene, truth = jp_slab_scene(back_of=JP_BACK_OF, seed=14, pegs=24)
    shaded = [replace(peg, rgb=tuple(int(v * 0.52) for v in peg.rgb)) for peg in scene.pegs]
    scene = replace(scene, pegs=shaded)
    frame = render(scene, recommended_camera(tilt=10.0), EFFECTS, rng=14)
    calibration = cal.calibrate(frame.image, cal.corner_layout(1280.0, 720.0), zones=scene.zones)
    hints = jp_hints(prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0), peg_radius_mm=5.0)
    observation = detect.Detector(jp_manifest(), calibration, hints, colours).observe(frame.image, 1, 0.1)
    assert {peg.on: peg.colour for peg in observation.pegs} == truth.pegs
