"""The light check measures light on what is printed white (the codes' quiet zones), not the table's
content: the demo's own table passes, a shadow across it is flagged."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from companion.commands.demo import build
from sim.camera_model import CameraModel
from sim.effects import Effects
from sim.render import render
from vision import calibration as cal
from vision.self_test import lighting_report, self_test


@pytest.mark.parametrize("game", ["jurassic-parts", "jurassik", "jurassic-brunch"])
def test_the_demo_table_passes_and_a_shadow_is_flagged(game: str) -> None:
    demo = build(game, seed=1, state_dir=Path(tempfile.mkdtemp()))
    try:
        scene = demo.loop.game.model.scene(demo.loop.current_state())
    finally:
        demo.close()
    image = render(scene, CameraModel(tilt=8.0), Effects(blur=0.7, noise=2.0, jpeg_quality=85), rng=1).image
    calibration = cal.calibrate(image)
    lit = self_test(image, calibration)["lighting"]
    assert lit["ok"] and "quiet zones" in lit["measured_on"], lit
    shaded = image.astype(np.float32)
    shaded[:, : int(shaded.shape[1] * 0.45)] *= 0.5  # someone standing in the lamp's light
    dark = self_test(shaded.astype(np.uint8), calibration)["lighting"]
    assert not dark["ok"] and any("light is uneven" in p for p in dark["problems"]), dark
    assert min(dark["white_by_region"]) < 0.6 * max(dark["white_by_region"])


def test_too_few_codes_falls_back_to_the_table_area() -> None:
    gray = np.full((400, 600), 180, np.uint8)
    report = lighting_report(gray)
    assert report["ok"] and "table area" in report["measured_on"]
