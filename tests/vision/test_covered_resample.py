"""A code too blurred for the decoder's own binarizer (about 3 px a module under a lamp: the lens blurs
light before the camera's gamma, a Bayer sensor, JPEG) is read again module by module where the lattice
says it lies: its grid placed by its finder patterns, each module called against its neighbours, the code
redrawn crisp."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from helpers.slab import jp_back_of

from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import jp_slab_scene
from sim.light import Lighting
from sim.render import RenderedFrame, render
from vision import covered, qr


@pytest.fixture(scope="module")
def lit_frame() -> RenderedFrame:
    scene, _ = jp_slab_scene(back_of=jp_back_of(), pegs=40, seed=2000, pitch=66.0, tag_size=40.0)
    scene.card_mm = 4.15
    return render(scene, recommended_camera(tilt=0.0), Effects(blur=0.9, noise=3.0, jpeg_quality=85), rng=0,
                  lighting=Lighting(lamp_mm=(500.0, 200.0, 800.0), ambient=0.3))


def test_codes_the_decoder_misses_under_a_lamp_are_read_module_by_module(
        lit_frame: RenderedFrame, monkeypatch: pytest.MonkeyPatch) -> None:
    gray = cv2.cvtColor(lit_frame.image, cv2.COLOR_BGR2GRAY)
    backend = qr.get_backend("zxing")
    read = {code.text for code in backend.decode(gray)}
    missed = [tag for tag in lit_frame.tags if tag.payload not in read]
    assert len(missed) >= 6, "the frame holds no code hard enough to read: nothing is tested"

    def second_look() -> list[str]:
        found = [covered._read_one(gray, np.array(tag.corners), tag.modules, [], backend) for tag in missed]
        return [code.text for code in found if code is not None]

    monkeypatch.setattr(covered, "RESAMPLE_WINDOWS", ())
    cut_only = second_look()
    monkeypatch.undo()
    resampled = second_look()
    assert set(resampled) <= {tag.payload for tag in missed}  # never another code
    assert len(resampled) == len(missed) > len(cut_only)


def test_a_place_with_no_code_reads_nothing() -> None:
    rng = np.random.default_rng(5)
    frame = np.clip(rng.normal(200.0, 30.0, (90, 90)), 0, 255).astype(np.uint8)
    corners = np.array([[15.0, 15.0], [75.0, 15.0], [75.0, 75.0], [15.0, 75.0]])
    assert covered._read_one(frame, corners, 21, [], qr.get_backend("zxing")) is None
