"""Lens correction on rendered Jurassic Parts frames: table positions before and after.

Frames of a 58-tile slab are drawn through a perfect pinhole (the synthetic camera, 2304x1296, tilted
0..20 degrees), then bent by a lens: none, a mild one (k1 -0.08, the Camera Module 3 class) and a wide
cheap one (k1 -0.2, k2 0.05). For each: tags read, the mean and worst distance in mm from a tag's true
place to where the calibration puts it, and the calibration's state, with no correction, with the lens
fitted from 12 photos of the ChArUco board (fitted at 1280x720, scaled to the frame), and with the exact
lens. Then the cost: CPU ms to undistort one frame's points (every tag's centre and corners) beside
zxing-cpp alone decoding the same frame. Figures only; nothing here asserts anything.

    .venv/bin/python benchmarks/bench_lens.py [--frames 3]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import zxingcpp

from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import jp_slab_scene
from sim.lens import board_photos, distort_image
from sim.render import render
from vision import calibration as cal
from vision import detect
from vision.boards import TileLattice
from vision.lens import Lens, fit_lens
from vision.observation import LatticeFit

BACK_OF = dict(kit_for("jurassic-parts").printed_set().back_of)
LENSES = {"none": (0.0, 0.0), "mild": (-0.08, 0.01), "wide": (-0.2, 0.05)}


def lens_of(k1: float, k2: float, width: int, height: int) -> Lens:
    return Lens("bench", (width, height), (width * 0.78, width * 0.78, width / 2, height / 2),
                (k1, k2, 0.0, 0.0, 0.0), "bench")


def read(image: np.ndarray, scene: Any, truth: Any, lens: Lens | None) -> tuple[int, float, float, str]:
    calibration = cal.calibrate(image, cal.corner_layout(1280.0, 720.0), zones=scene.zones, lens=lens)
    board = TileLattice("hex", tile_kinds=("tile",), prior=LatticeFit("hex", truth.origin, truth.pitch, 0.0),
                        pegs_on_gaps=True, peg_radius_mm=5.0)
    hints = detect.GeometryHints(board=board, tile_turn=60.0)
    observation = detect.Detector(kit_for("jurassic-parts").manifest(), calibration, hints).observe(image)
    placed = {t.payload.rsplit(":", 1)[-1]: t.center for t in scene.tags}
    errors = [math.dist(calibration.to_table([r.center_px])[0], placed[k])
              for k, r in observation.tags.items() if k in placed]
    return len(errors), float(np.mean(errors)), float(np.max(errors)), observation.calibration.state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=3)
    args = parser.parse_args()
    print(f"{'lens':6} {'correction':10} {'tags':>5} {'mean mm':>8} {'max mm':>7}  state")
    for name, (k1, k2) in LENSES.items():
        fitted_small = None
        if k1:
            print(f"... fitting the {name} lens from 12 board photos", file=sys.stderr, flush=True)
            fitted_small = fit_lens(board_photos(lens_of(k1, k2, 1280, 720)))
        rows: dict[str, list[tuple[int, float, float, str]]] = {"none": [], "fitted": [], "exact": []}
        for index in range(args.frames):
            scene, truth = jp_slab_scene(seed=10 + index, back_of=BACK_OF)
            effects = Effects(blur=0.6, noise=2.0, jpeg_quality=90)
            image = render(scene, recommended_camera(tilt=10.0 * index), effects, rng=index).image
            height, width = image.shape[:2]
            exact = lens_of(k1, k2, width, height)
            bent = distort_image(image, exact) if k1 else image
            rows["none"].append(read(bent, scene, truth, None))
            if fitted_small is not None:
                rows["fitted"].append(read(bent, scene, truth, fitted_small))
                rows["exact"].append(read(bent, scene, truth, exact))
        for correction, results in rows.items():
            if results:
                tags = min(r[0] for r in results)
                mean = statistics.mean(r[1] for r in results)
                worst = max(r[2] for r in results)
                states = ",".join(sorted({r[3] for r in results}))
                print(f"{name:6} {correction:10} {tags:5d} {mean:8.2f} {worst:7.2f}  {states}")
    scene, _ = jp_slab_scene(seed=10, back_of=BACK_OF)
    image = render(scene, recommended_camera(), Effects(noise=2.0), rng=0).image
    height, width = image.shape[:2]
    lens = lens_of(-0.2, 0.05, width, height)
    points = np.random.default_rng(0).uniform(0, width, (58 * 5, 2))
    start = time.thread_time()
    for _ in range(20):
        lens.undistort(points, (width, height))
    undistort_ms = (time.thread_time() - start) * 1000 / 20
    start = time.thread_time()
    for _ in range(3):
        zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
    zxing_ms = (time.thread_time() - start) * 1000 / 3
    print(f"\nundistorting one frame's 290 points: {undistort_ms:.2f} ms of CPU; zxing-cpp alone on the "
          f"frame: {zxing_ms:.1f} ms ({undistort_ms / zxing_ms:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
