"""The loop at Pi speed: per-stage CPU milliseconds, beside zxing-cpp alone on the same frames.

For each game, bots play through the real loop at 2304x1296 and at the full Camera Module 3 resolution
4608x2592 (synthetic camera, real vision). Every stage of a move read by the camera is timed in CPU
milliseconds of its thread: vision (detect + track of the deciding frame), inference (the search),
engine (applying the move), commit (the fsync'd store write), photo (the evidence JPEG), and the whole
stable frame -> LED signal. Beside them, zxing-cpp alone (QR only, library defaults) reading the same
frames, and the reference the goals are stated against: zxing-cpp alone reading a plain 2304x1296 frame of
64 codes.

Then the messy cases, where a search could run away: a new game started while the last game's pieces lie
on the table, three moves made at once, and a hand that knocks three pieces aside; each must end in a move,
a question or an objection within 5x the reference. And while the loop plays, a thread asks for the
page's snapshot and another feeds a watchdog: their worst waits are printed (goals: snapshot under 100 ms,
watchdog gaps under 5 s).

A Raspberry Pi 4 core is roughly 4-5x slower than one core here: the last column multiplies by
``--pi-factor`` (4.5). Figures only; nothing here asserts a time. Ratios are measured in one run.

    .venv/bin/python benchmarks/bench_pi.py [--moves 12] [--games jurassic-parts,jurassic-brunch,...]
        [--full-resolution] [--tag-size 25]

``--tag-size MM``: the stickers printed at MM instead of the layouts' 40 mm (``companion tags --size``),
and the loop told so (``[camera] tag_size_mm``), as a table with 25 mm stickers at 4608x2592 is set up.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import zxingcpp
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import BotDriver, bot_action
from companion.config import config_from_dict
from companion.store import Store
from companion.table import frames as frame_module
from companion.table import in_progress
from companion.table.loop import TableLoop
from companion.table.pipeline import vision_pipeline
from companion.table.referee import Ticket
from hw.panel import Panel
from sim.camera import SyntheticCamera
from sim.camera_model import CameraModel
from vision.camera_plan import plan_streams
from vision.scene import Scene, Tag
from vision.tags import qr_matrix

QR_ONLY = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
RESOLUTIONS = ((2304, 1296), (4608, 2592))
STAGES = ("vision", "inference", "engine", "commit", "photo", "stable_to_led", "zxing_same_frame")


class StageClock:
    """CPU milliseconds of each stage, collected by wrapping the loop's parts (this benchmark only)."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {stage: [] for stage in STAGES}
        self.last_frame: Any = None

    @contextmanager
    def timing(self, stage: str) -> Iterator[None]:
        start = time.thread_time()
        try:
            yield
        finally:
            self.samples[stage].append((time.thread_time() - start) * 1000)

    def wrap(self, owner: Any, name: str, stage: str) -> Callable[[], None]:
        original = getattr(owner, name)
        clock = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            with clock.timing(stage):
                return original(*args, **kwargs)

        setattr(owner, name, timed)
        return lambda: setattr(owner, name, original)


def plain_frame_of_64_codes(width: int = 2304, height: int = 1296) -> np.ndarray:
    """An 8x8 grid of version-1 codes at about 4 px per module on white: what zxing-cpp reads fastest."""
    image = np.full((height, width), 255, np.uint8)
    module = 4
    for index in range(64):
        matrix = qr_matrix(f"DT1:JP:F{index + 1:02d}")
        size = matrix.shape[0] * module
        x = 80 + (index % 8) * (width - 160) // 8
        y = 60 + (index // 8) * (height - 120) // 8
        block = np.kron(np.where(matrix, 0, 255), np.ones((module, module))).astype(np.uint8)
        image[y:y + size, x:x + size] = block
    return image


def zxing_ms(image: np.ndarray, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        zxingcpp.read_barcodes(image, formats=QR_ONLY)
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


Built = tuple[TableLoop, Any, MockFactory]


class PrintedAt:
    """The synthetic camera with every 40 mm sticker of a scene printed at ``tag_mm`` instead."""

    def __init__(self, camera: SyntheticCamera, tag_mm: float) -> None:
        self.camera = camera
        self.scale = tag_mm / 40.0

    def show(self, scene: Scene) -> None:
        if self.scale != 1.0:
            scene.tags[:] = [Tag(t.payload, t.center, t.angle, t.size * self.scale) for t in scene.tags]
        self.camera.show(scene)

    def read(self) -> Any:
        return self.camera.read()


def build(game: str, resolution: tuple[int, int], seed: int, tag_mm: float = 40.0) -> Built:
    colours = ["blue", "orange"] if game == "jurassic-brunch" else ["red", "blue", "green"]
    camera_settings = {"source": "synthetic", "tag_size_mm": tag_mm} if tag_mm != 40.0 else {}
    config = config_from_dict({"game": game, "seed": seed, "seats": colours, "camera": camera_settings},
                              source="<bench>")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, colours, pin_factory=factory, start=False)
    model = CameraModel(tilt=8.0, margin=28.0, border=0.015, resolution=resolution)
    synthetic = SyntheticCamera(camera=model, seed=seed)
    camera = PrintedAt(synthetic, tag_mm)
    directory = Path(tempfile.mkdtemp(prefix="bench-pi-"))
    loop = TableLoop(config, store=Store(directory), panel=panel, pipeline=vision_pipeline(config, synthetic))
    camera.show(loop.game.model.scene(loop.game.state))
    return loop, camera, factory


def instrument(loop: TableLoop, clock: StageClock) -> list[Callable[[], None]]:
    undo = [
        clock.wrap(Ticket, "think", "inference"),
        clock.wrap(loop.game.store, "append", "commit"),
        clock.wrap(frame_module, "photo_jpeg", "photo"),
        clock.wrap(in_progress, "photo_jpeg", "photo"),
        clock.wrap(loop.pipeline, "process", "vision"),
    ]
    write = loop.game._write

    def engine_timed(*args: Any, **kwargs: Any) -> Any:
        commits_before = sum(clock.samples["commit"])
        start = time.thread_time()
        result = write(*args, **kwargs)
        spent = (time.thread_time() - start) * 1000 - (sum(clock.samples["commit"]) - commits_before)
        clock.samples["engine"].append(spent)
        return result

    loop.game._write = engine_timed  # type: ignore[method-assign]
    return undo


class Watchers:
    """A page asking for the snapshot and a watchdog feeding itself while the loop plays."""

    def __init__(self, loop: TableLoop) -> None:
        self.loop = loop
        self.stop = threading.Event()
        self.snapshot_ms: list[float] = []
        self.watchdog_gaps: list[float] = []
        self.threads = [threading.Thread(target=self._page, daemon=True),
                        threading.Thread(target=self._watchdog, daemon=True)]

    def __enter__(self) -> Watchers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=10)

    def _page(self) -> None:
        while not self.stop.wait(0.05):
            start = time.perf_counter()
            self.loop.snapshot()
            self.snapshot_ms.append((time.perf_counter() - start) * 1000)

    def _watchdog(self) -> None:
        last = time.perf_counter()
        while not self.stop.wait(0.25):
            self.loop.check_camera()
            now = time.perf_counter()
            self.watchdog_gaps.append(now - last)
            last = now


def play(game: str, resolution: tuple[int, int], moves: int, seed: int,
         tag_mm: float = 40.0) -> dict[str, Any]:
    loop, camera, factory = build(game, resolution, seed, tag_mm)
    clock = StageClock()
    undo = instrument(loop, clock)

    def pump() -> Any:
        read = camera.read()
        clock.last_frame = read.image if read is not None else None
        return loop.process_read(read)

    driver = BotDriver(loop, camera.show, seed=seed, pump=pump, max_frames=60)
    zxing_same: list[float] = []
    with Watchers(loop) as watchers:
        for _ in range(moves):
            seen = len(loop.timings)
            if not driver.step():
                break
            if len(loop.timings) > seen and clock.last_frame is not None:
                zxing_same.append(zxing_ms(clock.last_frame, repeat=1))
    for restore in undo:
        restore()
    clock.samples["stable_to_led"] = [t["stable_to_signal_cpu_s"] * 1000 for t in loop.timings]
    clock.samples["zxing_same_frame"] = zxing_same
    result = {"samples": clock.samples, "snapshot_ms": watchers.snapshot_ms,
              "watchdog_gaps": watchers.watchdog_gaps, "camera_moves": len(loop.timings)}
    loop.close()
    factory.reset()
    return result


def messy_cases(game: str, seed: int) -> dict[str, tuple[str, float]]:
    """Each case: (what the loop answered, CPU ms of the judgements until it answered)."""
    results: dict[str, tuple[str, float]] = {}
    for case in ("new game on an uncleared table", "three moves at once", "a hand knocks three pieces"):
        loop, camera, factory = build(game, RESOLUTIONS[0], seed)
        clock = StageClock()
        undo = instrument(loop, clock)
        driver = BotDriver(loop, camera.show, seed=seed, pump=_pump(loop, camera))
        for _ in range(6):
            driver.step()
        clock.samples["inference"].clear()
        answer = _messy(case, loop, camera, seed)
        for restore in undo:
            restore()
        results[case] = (answer, sum(clock.samples["inference"]))
        loop.close()
        factory.reset()
    return results


def _pump(loop: TableLoop, camera: Any) -> Callable[[], object]:
    return lambda: loop.process_read(camera.read())


def _messy(case: str, loop: TableLoop, camera: Any, seed: int) -> str:
    state = loop.current_state()
    count = len(loop.records.history())
    if case.startswith("new game"):
        loop.new_game(loop.settings())  # the old game's pieces still lie in front of the camera
    elif case.startswith("three moves"):
        after = state
        for _ in range(3):
            if after.is_terminal():
                break
            after = after.apply(bot_action(after, seed, model=loop.game.model))
        camera.show(loop.game.model.scene(after))
    else:
        scene: Scene = loop.game.model.scene(state)
        rng = random.Random(seed)
        for index in rng.sample(range(len(scene.tags)), min(3, len(scene.tags))):
            tag = scene.tags[index]
            dx, dy = rng.uniform(30, 60) * rng.choice((-1, 1)), rng.uniform(30, 60) * rng.choice((-1, 1))
            moved = (tag.center[0] + dx, tag.center[1] + dy)
            scene.tags[index] = Tag(tag.payload, moved, tag.angle, tag.size)
        camera.show(scene)
    for _ in range(12):
        loop.process_read(camera.read())
    if loop.game.pending is not None:
        return loop.game.pending.kind
    return "move" if len(loop.records.history()) > count else "nothing"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


def process_mb(key: str) -> float:
    """This process's memory now (``VmRSS``) or at its peak (``VmHWM``), MB (nan where not said)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1]) * 1024 / 1e6
    except OSError:
        pass
    return float("nan")


def report(game: str, resolution: tuple[int, int], result: dict[str, Any], reference: float,
           pi_factor: float) -> None:
    width, height = resolution
    print(f"{game} at {width}x{height}: {result['camera_moves']} moves read by the camera")
    print(f"  {'stage':18} {'median ms':>10} {'p95 ms':>8} {'p95 x ref':>10} {'Pi p95 ms':>10}")
    for stage in STAGES:
        values = result["samples"][stage]
        if not values:
            continue
        high = p95(values)
        print(f"  {stage:18} {statistics.median(values):10.1f} {high:8.1f} {high / reference:10.2f} "
              f"{high * pi_factor:10.1f}")
    snapshot = result["snapshot_ms"]
    gaps = result["watchdog_gaps"]
    print(f"  page snapshot while playing: p95 {p95(snapshot):.1f} ms, "
          f"max {max(snapshot, default=0):.1f} ms; watchdog gaps max {max(gaps, default=0):.2f} s")
    small, large = (plan_streams(resolution, (), memory) for memory in (1024**3, 8 * 1024**3))
    print(f"  memory: process {result['rss_mb']:.0f} MB after the game, "
          f"peak so far {result['peak_mb']:.0f} MB; "
          f"the Pi camera's buffers {small.buffer_bytes / 1e6:.0f} MB on a 1 GB Pi ({small.main_format}), "
          f"{large.buffer_bytes / 1e6:.0f} MB on an 8 GB one ({large.main_format})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--games", default="jurassik,jurassic-parts,jurassic-brunch,isla-nublar")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pi-factor", type=float, default=4.5)
    parser.add_argument("--full-resolution", action="store_true", help="also play at 4608x2592 (slow)")
    parser.add_argument("--tag-size", type=float, default=40.0, help="the stickers' printed size in mm")
    args = parser.parse_args()
    reference = zxing_ms(plain_frame_of_64_codes(), repeat=9)
    print(f"reference: zxing-cpp alone (QR only) reads a plain 2304x1296 frame of 64 codes in "
          f"{reference:.1f} ms of CPU here (Pi estimate {reference * args.pi_factor:.0f} ms)")
    print("goals: stable -> LED p95 at most 1.0x the reference; messy cases at most 5x; snapshot under "
          "100 ms; watchdog gaps under 5 s\n")
    resolutions = RESOLUTIONS if args.full_resolution else RESOLUTIONS[:1]
    plain = plain_frame_of_64_codes()
    for game in [g for g in args.games.split(",") if g]:
        for resolution in resolutions:
            print(f"... playing {game} at {resolution[0]}x{resolution[1]}", file=sys.stderr, flush=True)
            before = [zxing_ms(plain, repeat=1) for _ in range(9)]
            result = play(game, resolution, args.moves, args.seed, args.tag_size)
            result.update(rss_mb=process_mb("VmRSS"), peak_mb=process_mb("VmHWM"))
            # shared cores drift: the reference of each game is read just before and after it plays
            reference = statistics.median(before + [zxing_ms(plain, repeat=1) for _ in range(9)])
            print(f"(reference around this game: {reference:.1f} ms)")
            report(game, resolution, result, reference, args.pi_factor)
        for case, (answer, spent) in messy_cases(game, args.seed).items():
            print(f"  messy: {case:32} -> {answer:9} in {spent:6.1f} ms ({spent / reference:.2f}x reference)")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
