"""Vision accuracy and speed on a fixed set of rendered 2304x1296 Jurassic Parts frames.

Each frame: a 58-tile slab (4 tiles face down), 40 chisels of the six seat colours on random gaps, camera
tilt 0..25 degrees, lens blur, sensor noise, vignette and uneven light, JPEG. All seeded: the same frames
every run. Per frame the seat colours are learned once from a calibration view (the seats' own chisels on
a card), as ``companion calibrate`` does.

Measured in the same run, on the same frames:
- zxing-cpp alone (``zxingcpp.read_barcodes`` with QR only, library defaults; and ``zxing_tuned``: on the
  grey image without downscaled or inverted passes, the pipeline's settings) and pyzbar alone
  (``pyzbar.decode`` on the grey image, QR only): tag recall, false reads, time per frame;
- the pipeline with each backend (``vision.detect.Detector.observe``): tag recall and precision, tiles
  on the right lattice cell and rotation, chisels right (on the right gap with the right colour), false
  chisels, time per frame of (a) a full reading;
- (b) a frame with nothing changed: ``vision.track.Tracker.update`` on a fresh render of the same table
  (new sensor noise and JPEG) after the state has settled.

With ``--light`` the frames are not flat pictures (:mod:`sim.light`): a warm lamp at one of four places
over the table, a dim ceiling light, chisels standing 25 mm tall in their gaps, lit on one side and in
their own shade on the other, casting shadows; stickers on 4.15 mm tiles; glossy stickers mirroring the
lamp in half the frames. The colours are then learned from the colour card under the same light, and
the report adds chisels right by colour, the stickers' positions and the calibration's measured area.

Run: .venv/bin/python benchmarks/bench_vision.py [--frames 8] [--repeat 5] [--light] [--json out.json]
Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np
import zxingcpp
from pyzbar import pyzbar

from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import SlabTruth, add_clutter, colours_from_card, jp_slab_scene
from sim.light import Lighting
from sim.render import render
from vision import calibration as cal
from vision import detect, pegs, qr
from vision.boards import TileLattice
from vision.colour_learning import learn_seat_colours
from vision.observation import LatticeFit
from vision.track import Tracker, TrackerConfig

JP_BACK_OF = dict(kit_for("JP").printed_set().back_of)

QR_ONLY = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


def frame_specs(count: int) -> list[dict[str, Any]]:
    """``count`` frame settings spread over the tilt range, with varied optics (fixed, seeded)."""
    specs = []
    for index in range(count):
        tilt = 25.0 * index / max(1, count - 1)
        specs.append(
            {
                "index": index,
                "seed": 1000 + index,
                "tilt": round(tilt, 1),
                "yaw": [0.0, 2.0, -2.0, 1.0][index % 4],
                "effects": Effects(
                    blur=[0.6, 0.9, 1.2, 0.8][index % 4],
                    noise=[2.0, 3.0, 4.0, 3.0][index % 4],
                    vignette=0.25,
                    gradient=[0.1, 0.25, 0.2, 0.3][index % 4],
                    gradient_angle=[90.0, 0.0, 45.0, 200.0][index % 4],
                    brightness=[1.0, 0.9, 1.05, 0.95][index % 4],
                    jpeg_quality=[85, 75, 80, 70][index % 4],
                ),
            }
        )
    return specs


def layout_table(seed: int) -> tuple[Any, SlabTruth, detect.GeometryHints]:
    """A Jurassic Parts game a few turns in (all 58 tiles still on the slab), drawn by the game's layout."""
    import random
    import re

    from companion.kits.jurassic_parts.table import JurassicPartsLayout, scene_for
    from engines.core import CHANCE
    from engines.jurassic_parts import GAME

    layout = JurassicPartsLayout(seats=4)
    rng = random.Random(seed)
    state: Any = GAME.new_initial_state(["ann", "bob", "cy", "dee"], rng)
    best = scene_for(state, layout)
    for _ in range(20):
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        scene = scene_for(state, layout)
        if sum(1 for tag in scene.tags if scene.zone_at(tag.center) == "play") < 58:
            break
        best = scene
    truth = SlabTruth(origin=layout.slab_origin, pitch=layout.pitch)
    for tag in best.tags:
        if best.zone_at(tag.center) == "play":
            tag_id = tag.payload.split(":")[2]
            truth.cells[tag_id] = layout.mm_to_axial(tag.center)
            truth.rotations[tag_id] = round(tag.angle / 60.0) % 6
    for peg in best.pegs:
        match = re.match(r"chisel \((-?\d+), (-?\d+)\)\|\((-?\d+), (-?\d+)\)", peg.label)
        if match:
            a, b = sorted([(int(match[1]), int(match[2])), (int(match[3]), int(match[4]))])
            truth.pegs[f"{a[0]},{a[1]}|{b[0]},{b[1]}"] = peg.colour
    return best, truth, kit_for("JP").hints(layout)


#: the tiles' thickness with their stickers (the Jurassic Parts kit's)
CARD_MM = 4.15
#: the slab set's code size unless ``--tag-mm`` says another
SLAB_TAG_MM = 52.0
#: where the lamp hangs over the table (x, y, height in mm), frame by frame
LAMPS = ((500.0, 200.0, 800.0), (200.0, -250.0, 800.0), (1100.0, 600.0, 700.0), (640.0, 360.0, 900.0))


def room_light(index: int) -> Lighting:
    """A lamp at one of four places, a dim ceiling light, glossy stickers in every other frame."""
    return Lighting(lamp_mm=LAMPS[index % 4], gloss=(0.0, 0.8, 0.0, 0.6)[index % 4],
                    ambient=(0.3, 0.2, 0.35, 0.25)[index % 4])


def positions(observation: Any, scene: Any) -> list[float]:
    """How far each sticker read lies from where it lies (mm)."""
    truth = {tag.payload: tag.center for tag in scene.tags}
    return [math.dist(reading.center_mm, truth[reading.payload]) for reading in observation.tags.values()
            if reading.center_mm is not None and reading.payload in truth]


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall time (s) over ``repeat`` calls, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def observe_timed(detector: detect.Detector, image: np.ndarray, repeat: int) -> tuple[float, Any]:
    return timed(partial(detector.observe, image), repeat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5, help="timing repeats per frame (median)")
    parser.add_argument("--json", default=None, help="also write the figures here")
    parser.add_argument(
        "--set",
        choices=("slab", "layout"),
        default="slab",
        help="slab: 58 tiles, 52 mm tags, 40 chisels; layout: engine states drawn by vision.tables "
        "(58 slab tiles, 40 mm tags on 66 mm hexes, seat pieces, the chisels of the first turns)",
    )
    parser.add_argument("--surface", choices=("felt", "wood", "clutter"), default="felt",
                        help="the table under the pieces: felt, wood grain, or wood with clutter about")
    parser.add_argument("--tag-mm", type=float, default=None, help="code side (slab set; default 52 mm)")
    parser.add_argument("--full-resolution", action="store_true", help="render at 4608x2592")
    parser.add_argument("--light", action="store_true",
                        help="a lamp's light and shadows, standing chisels, stickers on 4 mm tiles, glare")
    args = parser.parse_args()

    totals: dict[str, Any] = {
        "frames": 0,
        "tags": 0,
        "tags_3px": 0,
        "pegs": 0,
        "cells": 0,
        "zxing_alone": {"read": 0, "read_3px": 0, "false": 0, "time": []},
        "zxing_tuned": {"read": 0, "read_3px": 0, "false": 0, "time": []},
        "pyzbar_alone": {"read": 0, "read_3px": 0, "false": 0, "time": []},
    }
    for name in qr.backend_names():
        totals[f"pipeline_{name}"] = {
            "read": 0,
            "read_3px": 0,
            "false": 0,
            "cells_right": 0,
            "rotation_right": 0,
            "pegs_right": 0,
            "pegs_false": 0,
            "time": [],
        }
    totals["unchanged_time"] = []
    totals["focused_time"] = []
    totals["focused_right"] = 0
    totals["by_colour"] = {}
    totals["settle_frames"] = []
    totals["unchanged_misread"] = 0
    totals["position_mm"] = []
    totals["area_error"] = []
    totals["bends"] = []
    module_px: list[float] = []

    for spec in frame_specs(args.frames):
        camera = recommended_camera(tilt=spec["tilt"], yaw=spec["yaw"])
        if args.full_resolution:
            camera = dataclasses.replace(camera, resolution=(4608, 2592))
        effects = spec["effects"]
        if args.surface != "felt":
            effects = dataclasses.replace(effects, surface="wood")
        lighting = room_light(spec["index"]) if args.light else None
        # the printed size the table was told (`[camera] tag_size_mm`, `companion tags --size`)
        manifest = kit_for("JP").manifest()
        if args.set == "layout":
            scene, truth, hints = layout_table(spec["seed"])
        else:
            manifest = kit_for("JP").printed_set().resized(args.tag_mm or SLAB_TAG_MM).manifest
            sized = {"tag_size": args.tag_mm or SLAB_TAG_MM}
            scene, truth = jp_slab_scene(back_of=JP_BACK_OF, tiles=58, pegs=40, seed=spec["seed"], **sized)
            prior = LatticeFit("hex", truth.origin, truth.pitch, 0.0)
            height = lighting.piece_mm if lighting is not None else 0.0
            scene.card_mm = CARD_MM if lighting is not None else 0.0
            board = TileLattice("hex", prior=prior, pegs_on_gaps=True, peg_radius_mm=5.0,
                                peg_height_mm=height)
            hints = detect.GeometryHints(board=board, tile_turn=60.0, card_mm=scene.card_mm)
        if args.surface == "clutter":
            add_clutter(scene, spec["seed"])
        table = (scene.width, scene.height)
        draw = partial(render, scene, camera, effects, lighting=lighting)
        frame = draw(rng=spec["seed"])
        again = draw(rng=spec["seed"] + 1).image  # same table, new noise/JPEG
        calibration = cal.calibrate(frame.image, cal.corner_layout(*table), zones=scene.zones)
        measured = calibration.measured or table
        totals["area_error"].append(max(abs(measured[0] / table[0] - 1), abs(measured[1] / table[1] - 1)))
        totals["bends"].append(calibration.verdict().bend or 0.0)
        if args.set == "layout":
            # As `companion calibrate --game JP`: each seat's colour from its own chisels in its zone.
            zones = [(zone.name, zone.polygon) for zone in scene.zones]
            learned = learn_seat_colours(frame.image, calibration.homography, zones)
            colours = pegs.ColourModel.seats(learned.colours, shades=learned.shades)
        else:
            colours = colours_from_card(camera, effects, rng=spec["seed"] + 2, radius=4.0, lighting=lighting)
        totals["cells"] += len(truth.cells)

        expected = {tag.payload for tag in frame.tags}
        big = {t.payload for t in frame.tags if t.px_per_module >= 3.0}
        module_px += [t.px_per_module for t in frame.tags]
        totals["frames"] += 1
        totals["tags"] += len(expected)
        totals["tags_3px"] += len(big)
        totals["pegs"] += len(truth.pegs)
        image = frame.image
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

        # Decoders alone, the way a caller would use each library directly.
        t_z, zx = timed(partial(zxingcpp.read_barcodes, image, formats=QR_ONLY), args.repeat)
        # ... and zxing-cpp with the pipeline's own settings (grey image, no downscaled or inverted passes),
        # so that the pipeline's own overhead shows too.
        t_t, zt = timed(
            partial(zxingcpp.read_barcodes, gray, formats=QR_ONLY, try_downscale=False, try_invert=False),
            args.repeat,
        )
        t_p, pz = timed(
            partial(pyzbar.decode, gray, symbols=[pyzbar.ZBarSymbol.QRCODE]),
            max(1, args.repeat // 3),
        )
        for key, texts, spent in (
            ("zxing_alone", {r.text for r in zx}, t_z),
            ("zxing_tuned", {r.text for r in zt}, t_t),
            ("pyzbar_alone", {r.data.decode("latin-1") for r in pz}, t_p),
        ):
            totals[key]["read"] += len(texts & expected)
            totals[key]["read_3px"] += len(texts & big)
            totals[key]["false"] += len(texts - expected)
            totals[key]["time"].append(spent)

        for name in qr.backend_names():
            backend = qr.get_backend(name)
            detector = detect.Detector(manifest, calibration, hints, colours, backend=backend)
            repeat = args.repeat if name == "zxing" else max(1, args.repeat // 3)
            spent, observation = observe_timed(detector, image, repeat)
            stats = totals[f"pipeline_{name}"]
            read = {r.payload for r in observation.tags.values()}
            stats["read"] += len(read & expected)
            stats["read_3px"] += len(read & big)
            stats["false"] += len(read - expected)
            stats["cells_right"] += sum(observation.cell_of(k) == c for k, c in truth.cells.items())
            stats["rotation_right"] += sum(
                k in observation.tags and round(observation.tags[k].angle / 60.0) % 6 == rho
                for k, rho in truth.rotations.items()
            )
            seen = {p.on: p.colour for p in observation.pegs}
            stats["pegs_right"] += sum(seen.get(k) == c for k, c in truth.pegs.items())
            if name == "zxing":
                for key, colour in truth.pegs.items():
                    right, count = totals["by_colour"].get(colour, (0, 0))
                    totals["by_colour"][colour] = (right + (seen.get(key) == colour), count + 1)
                totals["position_mm"] += positions(observation, scene)
            stats["pegs_false"] += sum(1 for k in seen if k not in truth.pegs)
            stats["time"].append(spent)

        # (b) nothing changed: settle the tracker on this table, then time fresh frames of the same table.
        detector = detect.Detector(manifest, calibration, hints, colours)
        tracker = Tracker(detector, TrackerConfig(window=2))
        settle = 0
        while tracker.stable is None and settle < 8:  # two readings alike settle it
            tracker.update(image, settle)
            settle += 1
        totals["settle_frames"].append(settle)
        frames = [again, image]
        unchanged_times = []
        for index in range(max(4, args.repeat)):
            start = time.perf_counter()
            result = tracker.update(frames[index % 2], settle + index)
            unchanged_times.append(time.perf_counter() - start)
            totals["unchanged_misread"] += int(tracker.last_path != "unchanged" or not result.stable)
        totals["unchanged_time"].append(statistics.median(unchanged_times))

        # (c) one tile taken off the slab: the tracker re-reads only the changed region.
        slab_tags = [tag for tag in scene.tags if scene.zone_at(tag.center) == "play"]
        taken = slab_tags[len(slab_tags) // 2]
        changed_scene = copy.copy(scene)
        changed_scene.tags = [tag for tag in scene.tags if tag is not taken]
        changed = render(changed_scene, camera, effects, rng=spec["seed"] + 3, lighting=lighting).image
        start = time.perf_counter()
        result = tracker.update(changed, 100)
        totals["focused_time"].append(time.perf_counter() - start)
        reading = tracker.pending or result
        taken_id = taken.payload.split(":")[2]
        # Right: the taken tile is gone and no other tile the stable state had was lost.
        totals["focused_right"] += int(
            tracker.last_path == "focused" and set(result.tags) - set(reading.tags) == {taken_id}
        )

    report = summarise(totals, module_px)
    report["set"] = args.set
    report["surface"] = args.surface
    report["tag_mm"] = args.tag_mm
    report["resolution"] = "4608x2592" if args.full_resolution else "2304x1296"
    report["light"] = "lamp, shadows, standing chisels, 4 mm tiles, glare" if args.light else "flat"
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def summarise(totals: dict[str, Any], module_px: list[float]) -> dict[str, Any]:
    frames, tags, big, pegs_total = totals["frames"], totals["tags"], totals["tags_3px"], totals["pegs"]
    zx_time = statistics.mean(totals["zxing_alone"]["time"])
    report: dict[str, Any] = {
        "frames": frames,
        "tags": tags,
        "tags_at_3px_or_more": big,
        "module_px": {"min": round(min(module_px), 2), "median": round(statistics.median(module_px), 2)},
        "pegs": pegs_total,
    }
    for key in ("zxing_alone", "zxing_tuned", "pyzbar_alone"):
        stats = totals[key]
        report[key] = {
            "recall": round(stats["read"] / tags, 4),
            "recall_3px": round(stats["read_3px"] / max(1, big), 4),
            "false_reads": stats["false"],
            "ms_per_frame": round(1000 * statistics.mean(stats["time"]), 2),
        }
    for name in qr.backend_names():
        stats = totals[f"pipeline_{name}"]
        mean = statistics.mean(stats["time"])
        report[f"pipeline_{name}"] = {
            "tag_recall": round(stats["read"] / tags, 4),
            "tag_recall_3px": round(stats["read_3px"] / max(1, big), 4),
            "false_tags": stats["false"],
            "cells_right": round(stats["cells_right"] / max(1, totals["cells"]), 4),
            "rotations_right": round(stats["rotation_right"] / max(1, totals["cells"]), 4),
            "pegs_right": round(stats["pegs_right"] / max(1, pegs_total), 4),
            "false_pegs": stats["pegs_false"],
            "ms_per_frame": round(1000 * mean, 2),
            "x_zxing_alone": round(mean / zx_time, 3),
        }
    report["chisels_by_colour"] = {colour: f"{right}/{count}"
                                   for colour, (right, count) in sorted(totals["by_colour"].items())}
    errors = totals["position_mm"] or [0.0]
    report["position_mm"] = {"mean": round(statistics.mean(errors), 2), "max": round(max(errors), 2)}
    report["calibration"] = {"area_off_max": f"{100 * max(totals['area_error']):.2f} %",
                             "bend_max": f"{100 * max(totals['bends']):.2f} %"}
    focused = statistics.mean(totals["focused_time"])
    report["one_tile_taken"] = {
        "ms_per_frame": round(1000 * focused, 2),
        "x_zxing_alone": round(focused / zx_time, 3),
        "right": f"{totals['focused_right']}/{frames}",
    }
    unchanged = statistics.mean(totals["unchanged_time"])
    report["unchanged_frame"] = {
        "ms_per_frame": round(1000 * unchanged, 3),
        "x_zxing_alone": round(unchanged / zx_time, 4),
        "settled_after_frames": max(totals["settle_frames"]),
        "not_read_as_unchanged": totals["unchanged_misread"],
    }
    return report


def print_report(report: dict[str, Any]) -> None:
    print(
        f"set {report['set']} on {report['surface']} in {report['light']} light"
        f"{'' if report['tag_mm'] is None else ', codes of ' + format(report['tag_mm'], 'g') + ' mm'}: "
        f"{report['frames']} frames {report['resolution']}, {report['tags']} tags "
        f"({report['tags_at_3px_or_more']} at >= 3 px/module; module px min {report['module_px']['min']}, "
        f"median {report['module_px']['median']}), {report['pegs']} chisels"
    )
    print(f"{'':24} {'recall':>8} {'>=3px':>8} {'false':>6} {'ms/frame':>9} {'x zxing':>8}")
    for key in ("zxing_alone", "zxing_tuned", "pyzbar_alone"):
        r = report[key]
        ratio = r["ms_per_frame"] / report["zxing_alone"]["ms_per_frame"]
        print(
            f"{key:24} {r['recall']:8.4f} {r['recall_3px']:8.4f} {r['false_reads']:6d} "
            f"{r['ms_per_frame']:9.2f} {ratio:8.3f}"
        )
    for name in qr.backend_names():
        r = report[f"pipeline_{name}"]
        print(
            f"{'pipeline (a) ' + name:24} {r['tag_recall']:8.4f} {r['tag_recall_3px']:8.4f} "
            f"{r['false_tags']:6d} {r['ms_per_frame']:9.2f} {r['x_zxing_alone']:8.3f}   "
            f"cells {r['cells_right']:.4f} rotations {r['rotations_right']:.4f} "
            f"pegs right {r['pegs_right']:.4f} false pegs {r['false_pegs']}"
        )
    f = report["one_tile_taken"]
    print(
        f"{'(c) one tile taken':24} {'':8} {'':8} {'':6} {f['ms_per_frame']:9.2f} {f['x_zxing_alone']:8.3f}"
        f"   focused re-reading saw the removal in {f['right']} frames"
    )
    where, calibration = report["position_mm"], report["calibration"]
    print(f"chisels by colour {report['chisels_by_colour']}; stickers read within {where['mean']} mm on "
          f"average, {where['max']} mm at most; the calibration's area off by at most "
          f"{calibration['area_off_max']}, a bend of at most {calibration['bend_max']}")
    u = report["unchanged_frame"]
    print(
        f"{'(b) nothing changed':24} {'':8} {'':8} {'':6} {u['ms_per_frame']:9.3f} {u['x_zxing_alone']:8.4f}"
        f"   settled after {u['settled_after_frames']} frames at most, "
        f"{u['not_read_as_unchanged']} frames of an unchanged table not read as unchanged"
    )


if __name__ == "__main__":
    sys.exit(main())
