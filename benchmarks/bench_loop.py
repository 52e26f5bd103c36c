"""The companion loop's latency and memory, on a synthetic table read by the real vision pipeline.

For each game, bots play through the loop: every move is rendered by the synthetic camera, read by vision
(detect + track), explained by inference, applied, committed to the store (SQLite WAL, synchronous=FULL,
with the frame's JPEG) and signalled on the mock panel. Printed per game:

- stable -> signal: from the moment the tracker delivers the first stable observation of a change to the
  LED signal being set (inference + engine + JPEG + database commit + panel), the figure the goal
  "under one frame at 15 fps" (66.7 ms) is about;
- frame -> signal: the same plus vision's work on that frame;
- the database commit alone (one event, fsync'd);
- the resident memory of the process running the loop (goal: under 300 MB), which here also holds the
  renderer, so it is an upper bound; and the peak memory of ``companion replay`` (the loop alone, in its
  own process) over recorded frames of a Jurassic Parts game.

Usage: ``python benchmarks/bench_loop.py [--moves N] [--games jurassik,jurassic-parts,...]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import BotDriver
from companion.config import config_from_dict
from companion.store import Store
from companion.table.loop import TableLoop
from companion.table.pipeline import vision_pipeline
from engines.core import available_games, get_game
from hw.panel import Panel
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera

TARGET_S = 1 / 15


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_game(game: str, moves: int, seed: int) -> dict[str, float]:
    colours = ["blue", "orange"] if game == "jurassic-brunch" else ["red", "blue", "green"]
    directory = Path(tempfile.mkdtemp(prefix="bench-loop-"))
    config = config_from_dict({"game": game, "seed": seed, "seats": colours}, source="<bench>")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, colours, pin_factory=factory, start=False)
    camera = SyntheticCamera(camera=recommended_camera(tilt=8.0), seed=seed)
    loop = TableLoop(config, store=Store(directory), panel=panel, pipeline=vision_pipeline(config, camera))
    camera.show(loop.game.model.scene(loop.game.state))
    driver = BotDriver(
        loop, camera.show, seed=seed, pump=lambda: loop.process_read(camera.read()), max_frames=60
    )
    started = time.perf_counter()
    steps = 0
    while steps < moves and driver.step():
        steps += 1
    elapsed = time.perf_counter() - started
    timings = loop.timings
    stable = [t["stable_to_signal_s"] for t in timings]
    cpu = [t["stable_to_signal_cpu_s"] for t in timings]
    whole = [t["frame_to_signal_s"] for t in timings]
    vision = [t["vision_s"] for t in timings]
    # one fsync'd commit on its own
    commits = []
    for _ in range(20):
        t0 = time.perf_counter()
        loop.game.store.add_notice(loop.game.game_id, 0, "bench", "commit timing", {})
        commits.append(time.perf_counter() - t0)
    rss = psutil.Process().memory_info().rss / 2**20
    loop.close()
    factory.reset()
    return {
        "moves": steps,
        "camera_moves": len(timings),
        "frames": driver.frames,
        "seconds": elapsed,
        "stable_median": statistics.median(stable) if stable else float("nan"),
        "stable_p95": percentile(stable, 0.95) if stable else float("nan"),
        "stable_max": max(stable) if stable else float("nan"),
        "cpu_median": statistics.median(cpu) if cpu else float("nan"),
        "cpu_p95": percentile(cpu, 0.95) if cpu else float("nan"),
        "whole_median": statistics.median(whole) if whole else float("nan"),
        "whole_p95": percentile(whole, 0.95) if whole else float("nan"),
        "vision_median": statistics.median(vision) if vision else float("nan"),
        "commit_median": statistics.median(commits),
        "rss_mb": rss,
        "under_target": sum(1 for s in stable if s < TARGET_S) / len(stable) if stable else float("nan"),
    }


def replay_rss(game: str, moves: int, seed: int) -> tuple[float, int]:
    """Peak RSS of `companion replay` (the loop alone, no renderer) over frames of a bot game recorded
    first: (MB, frames)."""
    import subprocess

    import cv2

    from companion.bots import bot_action
    from companion.table.models import default_model

    colours = ["blue", "orange"] if game == "jurassic-brunch" else ["red", "blue", "green"]
    config = config_from_dict({"game": game, "seed": seed, "seats": colours}, source="<bench>")
    model = default_model(config)
    engine = get_game(game)
    state = engine.new_initial_state(config.players, rng=random.Random(seed))
    camera = SyntheticCamera(camera=recommended_camera(tilt=8.0), seed=seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    pictures = [model.scene(state)]
    for _ in range(moves):
        if state.is_terminal():
            break
        action = bot_action(state, seed, model=model)
        after = state.apply(action)
        pictures.append(model.display_scene(state, action, after))
        state = after
    count = 0
    for scene in pictures:
        camera.show(scene)
        for _ in range(3):
            frame = camera.read()
            assert frame is not None
            cv2.imwrite(str(folder / f"frame{count:05d}.jpg"), frame.image)
            count += 1
    command = [
        sys.executable,
        "-m",
        "companion",
        "replay",
        str(folder),
        "--game",
        game,
        "--players",
        ",".join(colours),
        "--seed",
        str(seed),
        "--state-dir",
        str(folder / "state"),
        "--json",
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent,
    )
    watched = psutil.Process(process.pid)
    peak = 0.0
    while process.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss / 2**20)
        except psutil.Error:
            break
        time.sleep(0.02)
    return peak, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="bot moves per game (default 40)")
    parser.add_argument("--games", default="jurassik,jurassic-parts,jurassic-brunch")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    installed = set(available_games())
    print(
        f"loop latency and memory; goal: stable frame -> LED under {TARGET_S * 1000:.1f} ms, RSS under 300 MB"
    )
    peak = 0.0
    for game in games:
        if get_game(game).name not in installed:
            print(f"{game}: not installed")
            continue
        result = bench_game(game, args.moves, args.seed)
        peak = max(peak, result["rss_mb"])
        print(
            f"{game:>16}: {result['moves']:.0f} moves ({result['camera_moves']:.0f} read by the camera, "
            f"{result['frames']:.0f} frames, {result['seconds']:.1f} s)\n"
            f"{'':>18}stable -> signal  median {result['stable_median'] * 1000:6.1f} ms  "
            f"p95 {result['stable_p95'] * 1000:6.1f} ms  max {result['stable_max'] * 1000:6.1f} ms  "
            f"({result['under_target'] * 100:.0f}% under {TARGET_S * 1000:.1f} ms)\n"
            f"{'':>18}  of it CPU time  median {result['cpu_median'] * 1000:6.1f} ms  "
            f"p95 {result['cpu_p95'] * 1000:6.1f} ms (the rest: waiting for the disk and for the CPU)\n"
            f"{'':>18}frame  -> signal  median {result['whole_median'] * 1000:6.1f} ms  "
            f"p95 {result['whole_p95'] * 1000:6.1f} ms  (vision {result['vision_median'] * 1000:.1f} ms)\n"
            f"{'':>18}one commit (fsync) median {result['commit_median'] * 1000:.1f} ms; "
            f"RSS {result['rss_mb']:.0f} MB"
        )
    print(f"peak resident memory of the loop process: {peak:.0f} MB (renderer included)")
    if "jurassic-parts" in games and "jurassic-parts" in installed:
        rss, frames = replay_rss("jurassic-parts", args.moves, args.seed)
        print(
            f"the loop alone (`companion replay` over {frames} recorded Jurassic Parts frames): "
            f"peak RSS {rss:.0f} MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
