"""Tables that are not felt: a wooden top (the same top in every frame of a table) and clutter about the
pieces, for measuring vision on material unlike the layouts' own."""

from __future__ import annotations

import cv2
import numpy as np

from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import add_clutter, jp_slab_scene
from sim.render import render
from vision import qr


def test_a_wooden_table_is_the_same_table_in_every_frame() -> None:
    scene, _ = jp_slab_scene(seed=2, back_of=dict(kit_for("JP").printed_set().back_of))
    wood = Effects(surface="wood", surface_seed=7)
    first = render(scene, recommended_camera(), wood, rng=1).image
    again = render(scene, recommended_camera(), wood, rng=2).image  # another frame, no noise asked for
    other = render(scene, recommended_camera(), Effects(surface="wood", surface_seed=8), rng=1).image
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    felt = render(scene, recommended_camera(), Effects(), rng=1).image
    h, w = first.shape[:2]
    bare = (slice(int(h * 0.45), int(h * 0.55)), slice(int(w * 0.06), int(w * 0.12)))  # empty table, west
    def texture(image: np.ndarray) -> float:
        return float(np.std(cv2.cvtColor(np.ascontiguousarray(image[bare]), cv2.COLOR_BGR2GRAY)))

    assert texture(first) > 3 * texture(felt) + 2  # grain and knots, not felt


def test_clutter_lies_clear_of_every_piece_and_the_codes_still_read() -> None:
    scene, _ = jp_slab_scene(seed=3, back_of=dict(kit_for("JP").printed_set().back_of))
    before = len(scene.shapes)
    add_clutter(scene, seed=3)
    clutter = scene.shapes[before:]
    assert len(clutter) >= 8
    for shape in clutter:
        cx = sum(p[0] for p in shape.polygon) / 4
        cy = sum(p[1] for p in shape.polygon) / 4
        assert all(np.hypot(cx - t.center[0], cy - t.center[1]) > t.size for t in scene.tags)
    frame = render(scene, recommended_camera(), Effects(surface="wood", noise=2.0), rng=3)
    read = {code.text for code in qr.get_backend("zxing").decode(frame.image)}
    assert read >= {tag.payload for tag in frame.tags if tag.px_per_module >= 3.2}
