"""Jurassic Brunch playout speed: whole seeded games per second (uniform and eat-first bots).

Run: .venv/bin/python benchmarks/bench_jurassic_brunch.py [--seconds 2]
Prints playouts/s, engine steps/s and, for scale in the same run, the cost of a JSON round trip per step.
Rates are per second of this process's CPU time (the machine is shared: wall-clock rates swing with load),
with the wall-clock rate beside them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core import Action, State, random_playout
from engines.jurassic_brunch import GAME, Move


def uniform(state: State, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def eat_first(state: State, legal: list[Action], rng: random.Random) -> Action:
    eats = [a for a in legal if isinstance(a, Move) and a.eats]
    return rng.choice(eats) if eats and rng.random() < 0.9 else rng.choice(legal)


def measure(
    policy: object, seconds: float, arrangement: str, round_trip: bool = False
) -> tuple[float, float, float]:
    steps = 0

    def count(before: State, action: Action, after: State) -> None:
        nonlocal steps
        steps += 1
        if round_trip:
            GAME.state_from_dict(json.loads(json.dumps(after.to_dict())))

    games = 0
    seed = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while time.process_time() - cpu_start < seconds:
        random_playout(GAME, ["blue", "orange"], random.Random(seed), {"arrangement": arrangement},
                       policy, on_step=count)  # type: ignore[arg-type]
        games += 1
        seed += 1
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - start
    return games / cpu, steps / cpu, games / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    for name, policy in (("uniform", uniform), ("eat-first", eat_first)):
        for arrangement in ("square", "random"):
            games, steps, wall = measure(policy, args.seconds, arrangement)
            print(f"{name:9s} {arrangement:6s}: {games:8.1f} playouts/s  {steps:9.0f} steps/s"
                  f"  (wall clock {wall:.1f} playouts/s)")
    games, steps, _ = measure(eat_first, args.seconds, "square", round_trip=True)
    _, plain_steps, _ = measure(eat_first, args.seconds, "square")
    print(f"eat-first square with a JSON round trip per step: {games:8.1f} playouts/s "
          f"({plain_steps / steps:.1f}x slower than without)")


if __name__ == "__main__":
    main()
