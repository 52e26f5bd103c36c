"""The companion's levels against each other: seeded two-player matches of every game, level against level
(seats swapped every other match), the share each higher level wins, decision time p50/p95 per level and
the peak memory of a level-3 decision, all in one run.

Run: .venv/bin/python benchmarks/bench_bots.py [--matches 10] [--simulations 200] [--games jurassik ...]
Prints figures only; nothing here asserts a time. A Pi core is about 4-5x slower than these machines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.kits import kit_for
from engines.core import available_games, get_game, sample_chance
from engines.core.search import Budget, decide

PAIRINGS = ((2, 1), (3, 1), (3, 2))
MAX_ACTIONS = 5000


def players_of(name: str) -> list[str]:
    colours = list(kit_for(name).demo_colours)
    return colours[:2] if len(colours) >= 2 else ["ana", "ben"]


def match(name: str, high: int, low: int, seed: int, budget: Budget,
          times: dict[int, list[float]]) -> float:
    """One game of ``high`` against ``low``: 1 a win for ``high``, 0.5 a shared win, 0 a loss."""
    players = players_of(name)
    seated = dict(zip(players, (high, low) if seed % 2 == 0 else (low, high)))
    state = get_game(name).new_initial_state(players, random.Random(seed))
    chance = random.Random(seed)
    for step in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, chance))
            continue
        player = state.current_player()
        started = time.perf_counter()
        decision = decide(state, player, seated[player], seed * 100_003 + step, budget)
        times[seated[player]].append(time.perf_counter() - started)
        state = state.apply(decision.action)
    winners = state.scores().winners
    high_seat = next(p for p in players if seated[p] == high)
    return 0.0 if high_seat not in winners else 1.0 / len(winners)


def peak_memory(name: str, budget: Budget) -> float:
    """MB allocated at the peak of level-3 decisions over the first moves of a game."""
    state = get_game(name).new_initial_state(players_of(name), random.Random(0))
    chance = random.Random(0)
    tracemalloc.start()
    for step in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, chance))
            continue
        state = state.apply(decide(state, state.current_player(), 3, step, budget).action)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="matches per pairing and game")
    parser.add_argument("--simulations", type=int, default=Budget().simulations)
    parser.add_argument("--games", nargs="*", default=available_games())
    args = parser.parse_args()
    budget = Budget(simulations=args.simulations)
    print(f"{args.matches} matches per pairing, level 3 at {budget.simulations} simulations, "
          f"depth {budget.depth}")
    for name in args.games:
        times: dict[int, list[float]] = {1: [], 2: [], 3: []}
        results = []
        for high, low in PAIRINGS:
            won = 0.0
            for seed in range(args.matches):
                won += match(name, high, low, seed, budget, times)
                print(f"  {name}: level {high} vs {low}, match {seed + 1}/{args.matches}", end="\r",
                      file=sys.stderr, flush=True)
            results.append(f"L{high} vs L{low} {won / args.matches:.0%}")
        timing = ", ".join(f"L{level} {statistics.median(t) * 1e3:.1f}/{percentile(t, 0.95) * 1e3:.1f} ms"
                           for level, t in times.items() if t)
        print(f"{name}: {'; '.join(results)}; decision p50/p95 {timing}; "
              f"level-3 peak {peak_memory(name, budget):.2f} MB", flush=True)


if __name__ == "__main__":
    main()
