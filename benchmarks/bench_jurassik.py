"""Jurassik engine speed: random playouts per second, and the cost of clone() against a JSON round trip.

Run: .venv/bin/python benchmarks/bench_jurassik.py [--seconds 1.0]
Prints figures only; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core import get_game, random_playout
from engines.jurassik import JurassikState, RemoveStart

PLAYERS = ["ana", "ben", "cy", "dee", "eve"]
CASES = [
    ("en", 2, False),
    ("en", 4, False),
    ("en", 5, False),
    ("en", 3, True),
    ("es", 2, False),
    ("es", 5, False),
]


def playouts_per_second(edition: str, players: int, long_game: bool, seconds: float) -> tuple[float, float]:
    game = get_game("jurassik")
    options = {"edition": edition, "long_game": long_game}
    done = 0
    counter = [0]

    def count(before: object, action: object, after: object) -> None:
        counter[0] += 1

    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_playout(game, PLAYERS[:players], random.Random(done), options, on_step=count)
        done += 1
    elapsed = time.perf_counter() - start
    steps = counter[0]
    return done / elapsed, steps / done


def clone_vs_json(rounds: int = 2000) -> tuple[float, float]:
    game = get_game("jurassik")
    state = game.new_initial_state(PLAYERS[:5], random.Random(0)).apply(RemoveStart("ana"))
    assert isinstance(state, JurassikState)
    start = time.perf_counter()
    for _ in range(rounds):
        state.clone()
    clone_us = (time.perf_counter() - start) / rounds * 1e6
    start = time.perf_counter()
    for _ in range(rounds):
        game.state_from_dict(state.to_dict())
    json_us = (time.perf_counter() - start) / rounds * 1e6
    return clone_us, json_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per case")
    args = parser.parse_args()
    total_rate = 0.0
    for edition, players, long_game in CASES:
        rate, steps = playouts_per_second(edition, players, long_game, args.seconds)
        total_rate += rate
        label = f"{edition} {players}p{' long' if long_game else ''}"
        print(f"jurassik {label:10s}: {rate:8.1f} random playouts/s ({steps:.0f} actions per game)")
    print(f"jurassik mean over cases : {total_rate / len(CASES):8.1f} random playouts/s")
    clone_us, json_us = clone_vs_json()
    print(f"jurassik clone()         : {clone_us:8.2f} us (JSON round trip {json_us:.1f} us, "
          f"{json_us / clone_us:.0f}x slower)")


if __name__ == "__main__":
    main()
