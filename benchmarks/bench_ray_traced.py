"""The product's reading of Jurassic Parts tables ray-traced by another renderer (Mitsuba 3, see
tests/helpers/ray_traced.py): real shadows of standing chisels, a warm lamp, glare on glossy stickers,
tiles 4 mm thick, a tilted camera, a lens bend in some frames, a Bayer sensor with noise, JPEG.

Each frame goes through the commands a person runs: ``companion calibrate FRAME --game JP`` (the seats'
colours learned from their spare chisels standing in their zones) and ``companion observe JP FRAME``.
Reported against what was laid: chisels on the right gap with the right colour (by colour, missed, wrong
colour, invented), codes read (``observe`` and zxing-cpp alone on the same frame), the calibration's
verdict beside how far its stickers really lie, the bend it reports where there is none, the area it
measures, and the stickers' positions.

Frames are kept in ``--folder`` (rendered again only when missing): rendering takes 10-60 s a frame.
Needs the ``raytrace`` extra (``pip install -e .[raytrace]``) and, for speed, Debian's ``libllvm19``.

Run: .venv/bin/python benchmarks/bench_ray_traced.py [--frames 8] [--full 2] [--samples 48] [--json out]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import math
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import cv2  # noqa: E402
import zxingcpp  # noqa: E402
from helpers import ray_traced as rt  # noqa: E402

from companion.cli import main as companion  # noqa: E402
from companion.kits import kit_for  # noqa: E402

QR_ONLY = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
#: lamps beside the table, out of the camera's view (x, y, height mm)
LAMPS = ((-250.0, 150.0, 750.0), (1550.0, 520.0, 700.0), (640.0, -420.0, 800.0), (250.0, 980.0, 650.0),
         (1450.0, -200.0, 900.0))


#: the first table's seed (the frames the figures in the docs come from)
FIRST_SEED = 2000


@dataclass(frozen=True)
class Shot:
    name: str
    seed: int
    light: rt.Light
    lens: rt.Lens


def shots(frames: int, full: int, samples: int, first_seed: int = FIRST_SEED) -> list[Shot]:
    """``frames`` at 2304 x 1296 and ``full`` at 4608 x 2592: tilts 0-15 degrees, five lamp places, glossy
    stickers in every third, a lens bend in every fourth (none in the others), dimmer rooms now and then.
    Another ``first_seed`` lays other tables, under the lamps in another order: frames never tuned on."""
    turn = first_seed - FIRST_SEED
    made = []
    for index in range(frames + full):
        big = index >= frames
        lens = rt.Lens(width=4608 if big else 2304, height=2592 if big else 1296,
                       tilt_deg=round(15.0 * (index % 4) / 3, 1), k1=-0.04 if index % 4 == 3 else 0.0,
                       blur_px=(1.6 if big else 0.8) * (1.0, 1.25, 0.9)[index % 3],
                       full_well=(2500.0, 1200.0, 4000.0)[index % 3], samples=samples,
                       jpeg_quality=(85, 80, 90)[index % 3])
        light = rt.Light(lamp_mm=LAMPS[(index + turn) % len(LAMPS)],
                         ceiling=(0.25, 0.15, 0.35, 0.2)[index % 4],
                         glossy=index % 3 == 1)
        made.append(Shot(f"frame-{index:02d}-{lens.width}", first_seed + index, light, lens))
    return made


def frame_path(folder: Path, shot: Shot, payloads: dict[str, str]) -> Path:
    """The shot's frame, rendered unless a frame of the same settings is already in ``folder``."""
    key = hashlib.sha1(json.dumps(asdict(shot), sort_keys=True).encode()).hexdigest()[:8]
    path = folder / f"{shot.name}-{key}.jpg"
    if not path.exists():
        table = rt.lay_table(shot.seed)
        start = time.perf_counter()
        linear = rt.render_linear(table, shot.light, shot.lens, shot.seed, payloads)
        cv2.imwrite(str(path), rt.develop(linear, shot.lens, shot.seed))
        print(f"  rendered {path.name} in {time.perf_counter() - start:.0f} s", flush=True)
    return path


def run(*argv: str) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = companion(list(argv))
    return code, json.loads(out.getvalue() or "{}")


def measure(shot: Shot, frame: Path, payloads: dict[str, str]) -> dict[str, Any]:
    table = rt.lay_table(shot.seed)
    calibration = frame.with_suffix(".json")
    _, report = run("calibrate", str(frame), "--game", "JP", "--seats", "4", "--out", str(calibration))
    start = time.perf_counter()
    _, seen = run("observe", "JP", str(frame), "--calibration", str(calibration))
    observe_s = time.perf_counter() - start
    image = cv2.imread(str(frame))
    start = time.perf_counter()
    alone = {c.text for c in zxingcpp.read_barcodes(image, formats=QR_ONLY)}
    alone_s = time.perf_counter() - start
    expected = {payloads[tile] for tile in table.tiles}
    read = {tag["payload"] for tag in seen.get("tags", {}).values()}
    errors = [math.dist(tag["center_mm"], table.tiles[tag["id"]][1]) for tag in seen.get("tags", {}).values()
              if tag.get("center_mm") and tag["id"] in table.tiles]
    pegs = {peg["on"]: peg["colour"] for peg in seen.get("pegs", []) if peg.get("on")}
    return {
        "name": frame.name,
        "calibration_ok": bool(report.get("ok")),
        "bend": (report.get("precision") or {}).get("bend"),
        "bent": bool(shot.lens.k1),
        "area_mm": (report.get("table_area") or {}).get("measured_mm"),
        "colours_learned": report.get("colours_learned"),
        "problems": report.get("problems", []),
        "codes": len(expected), "codes_read": len(read & expected), "codes_false": len(read - expected),
        "zxing_alone": len(alone & expected), "zxing_false": len(alone - expected),
        "missed_codes": sorted(payload.split(":")[2] for payload in expected - read),
        "position_mm": errors,
        "chisels": {key: (colour, pegs.get(key)) for key, colour in table.chisels.items()},
        "invented": {key: colour for key, colour in pegs.items() if key not in table.chisels},
        "observe_s": observe_s, "zxing_s": alone_s,
    }


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    by_colour: dict[str, list[int]] = {}
    wrong = missed = 0
    for result in results:
        for laid, seen in result["chisels"].values():
            tally = by_colour.setdefault(laid, [0, 0])
            tally[0] += seen == laid
            tally[1] += 1
            wrong += seen is not None and seen != laid
            missed += seen is None
    right = sum(t[0] for t in by_colour.values())
    total = sum(t[1] for t in by_colour.values())
    honest = [not r["calibration_ok"] or max(r["position_mm"] or [0.0]) <= 3.0 for r in results]
    flat = [r for r in results if not r["bent"]]
    errors = [e for r in flat for e in r["position_mm"]] or [0.0]
    return {
        "frames": len(results),
        "chisels_right": f"{right}/{total}", "chisels_right_share": round(right / max(1, total), 4),
        "by_colour": {colour: f"{a}/{b}" for colour, (a, b) in sorted(by_colour.items())},
        "chisels_missed": missed, "chisels_wrong_colour": wrong,
        "chisels_invented": sum(len(r["invented"]) for r in results),
        "codes": f"{sum(r['codes_read'] for r in results)}/{sum(r['codes'] for r in results)}",
        "codes_false": sum(r["codes_false"] for r in results),
        "zxing_alone": f"{sum(r['zxing_alone'] for r in results)}/{sum(r['codes'] for r in results)}",
        "calibration_honest": f"{sum(honest)}/{len(results)}",
        "calibration_ok": f"{sum(r['calibration_ok'] for r in results)}/{len(results)}",
        "bend_reported_where_none": [r["bend"] for r in flat],
        "position_mm_unbent": {"mean": round(statistics.mean(errors), 2), "max": round(max(errors), 2)},
        "observe_x_zxing_alone": round(sum(r["observe_s"] for r in results)
                                       / max(1e-9, sum(r["zxing_s"] for r in results)), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=8, help="frames at 2304 x 1296")
    parser.add_argument("--full", type=int, default=2, help="frames at 4608 x 2592")
    parser.add_argument("--samples", type=int, default=48, help="paths a pixel")
    parser.add_argument("--folder", default="/tmp/dinotable-ray-traced", help="where frames are kept")
    parser.add_argument("--json", default=None, help="also write every frame's figures here")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED,
                        help="another value lays other tables under the lamps in another order")
    args = parser.parse_args()
    folder = Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    payloads = {p.split(":")[2]: p for p in kit_for("JP").printed_set().manifest.payloads()}
    results = []
    made = shots(args.frames, args.full, args.samples, args.first_seed)
    for number, shot in enumerate(made, start=1):
        print(f"[{number}/{len(made)}] {shot.name}", flush=True)
        result = measure(shot, frame_path(folder, shot, payloads), payloads)
        misses = {k: v for k, v in result["chisels"].items() if v[0] != v[1]}
        print(f"  codes {result['codes_read']}/{result['codes']} (zxing alone {result['zxing_alone']}), "
              f"chisels not right {misses}, invented {result['invented']}, calibration ok "
              f"{result['calibration_ok']} bend {result['bend']}, missed codes {result['missed_codes']}",
              flush=True)
        results.append(result)
    report = summary(results)
    print(json.dumps(report, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": report, "frames": results}, indent=1) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
