"""The table's memory under bursts of requests: the demo table (a synthetic camera at the Pi camera's 2304 x
1296, the real vision pipeline) served by waitress on loopback as the page is served, then bursts of
concurrent requests for the camera picture (full size and screen size, annotated and raw) and for the
table page. Printed: the resident memory before, after each burst and at the end, and its peak (goal: under
300 MB at any burst; the table's memory must come back down, not grow burst after burst).

Usage: ``python benchmarks/bench_bursts.py [--bursts N] [--size N] [--game G]``; the last line reads
``bursts: peak X MB, end Y MB (start Z MB) over N bursts of M requests``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psutil

from companion.commands.demo import build, serve

PATHS = ("api/frame.jpg?full=1", "api/frame.jpg", "api/frame.jpg?raw=1&full=1", "")


def megabytes() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def burst(url: str, size: int) -> int:
    """``size`` requests at once, spread over the picture and the page; how many were answered."""
    def get(index: int) -> int:
        try:
            with urllib.request.urlopen(url + PATHS[index % len(PATHS)], timeout=60) as answer:
                answer.read()
                return 1
        except OSError:
            return 0

    with ThreadPoolExecutor(size) as pool:
        return sum(pool.map(get, range(size)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bursts", type=int, default=10)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--game", default="jurassic-parts")
    args = parser.parse_args(argv)
    demo = build(args.game, seed=1, state_dir=Path(tempfile.mkdtemp(prefix="bursts-")), fps=5.0,
                 synchronous=False)
    url = serve(demo, port=0)
    peak = 0.0
    watching = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not watching.is_set():
            peak = max(peak, megabytes())
            time.sleep(0.02)

    try:
        time.sleep(2.0)  # the camera's first frames, read
        start = megabytes()
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        print(f"start: {start:.0f} MB", flush=True)
        for number in range(1, args.bursts + 1):
            began = time.perf_counter()
            answered = burst(url, args.size)
            took = time.perf_counter() - began
            print(f"burst {number}/{args.bursts}: {answered}/{args.size} answered in {took:.1f} s, "
                  f"{megabytes():.0f} MB now, peak {peak:.0f} MB", flush=True)
        time.sleep(1.0)
        end = megabytes()
    finally:
        watching.set()
        demo.close()
    print(f"bursts: peak {peak:.0f} MB, end {end:.0f} MB (start {start:.0f} MB) over {args.bursts} bursts of "
          f"{args.size} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
