"""Isla Nublar engine speed: bot playouts per second, clone() against a JSON round trip, and per move at a
real table (cards drawn unseen) against dealt cards: apply() and the shared view each snapshot builds.

Run: .venv/bin/python benchmarks/bench_isla_nublar.py [--seconds 1.0] [--table-games 6]
Prints figures only; nothing here asserts a time. Rates are per second of this process's CPU time, so other
work on a shared machine does not halve them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core import get_game, random_playout, sample_chance
from engines.isla_nublar.bots import bot_policy

PLAYERS = ["red", "blue", "green", "yellow"]
CASES: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (3, {"clients": True}),
    (3, {"individual_ratings": True}),
    (4, {"clients": True, "individual_ratings": True}),
]


def playouts_per_second(
    players: int, options: dict[str, object], seconds: float
) -> tuple[float, float, float]:
    game = get_game("isla-nublar")
    done = 0
    counter = [0]

    def count(before: object, action: object, after: object) -> None:
        counter[0] += 1

    start = time.perf_counter()
    cpu_start = time.process_time()
    while time.perf_counter() - start < seconds:
        random_playout(game, PLAYERS[:players], random.Random(done), options, bot_policy, 50_000, count)
        done += 1
    cpu = time.process_time() - cpu_start
    wall = time.perf_counter() - start
    return done / cpu, done / wall, counter[0] / done


def clone_vs_json(rounds: int = 2000) -> tuple[float, float]:
    game = get_game("isla-nublar")
    rng = random.Random(1)
    state = game.new_initial_state(PLAYERS, rng)
    for _ in range(300):  # into the middle of a game
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
        elif not state.is_terminal():
            state = state.apply(bot_policy(state, state.legal_actions(), rng))
    start = time.perf_counter()
    for _ in range(rounds):
        state.clone()
    clone_us = (time.perf_counter() - start) / rounds * 1e6
    start = time.perf_counter()
    for _ in range(rounds // 10):
        game.state_from_dict(state.to_dict())
    json_us = (time.perf_counter() - start) / (rounds // 10) * 1e6
    return clone_us, json_us


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def apply_and_view_ms(table_cards: str, games: int) -> tuple[list[float], list[float]]:
    """Per move: apply() and the shared view (what each snapshot costs), in ms, over seeded bot games."""
    game = get_game("isla-nublar")
    applies: list[float] = []
    views: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(PLAYERS[:3], random.Random(seed), {"table_cards": table_cards})
        for _ in range(5000):
            if state.is_terminal():
                break
            action = (sample_chance(state, rng) if state.is_chance_node()
                      else bot_policy(state, state.legal_actions(), rng))
            start = time.perf_counter()
            state = state.apply(action)
            applies.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            state.view(None)
            views.append((time.perf_counter() - start) * 1e3)
    return applies, views


def table_mode(games: int) -> None:
    """A real table (cards drawn unseen, the reckoning of what they may be) against dealt cards, same run."""
    dealt_apply, dealt_view = apply_and_view_ms("engine", games)
    table_apply, table_view = apply_and_view_ms("table", games)
    for name, dealt, table in (("apply", dealt_apply, table_apply), ("shared view", dealt_view, table_view)):
        print(f"isla-nublar real table {name:12s}: p50 {_percentile(table, 0.5):6.3f} ms, "
              f"p99 {_percentile(table, 0.99):6.2f} ms, max {max(table):6.1f} ms over {len(table)} moves "
              f"(dealt: p50 {_percentile(dealt, 0.5):.3f} ms, p99 {_percentile(dealt, 0.99):.2f} ms; "
              f"p99 {_percentile(table, 0.99) / _percentile(dealt, 0.99):.1f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per case")
    parser.add_argument("--table-games", type=int, default=6, help="seeded games per real-table figure")
    args = parser.parse_args()
    total = total_wall = 0.0
    for players, options in CASES:
        rate, wall_rate, steps = playouts_per_second(players, options, args.seconds)
        total += rate
        total_wall += wall_rate
        label = f"{players}p " + ("+".join(k for k, v in options.items() if v) or "basic")
        print(
            f"isla-nublar {label:34s}: {rate:7.1f} bot playouts per CPU s, {wall_rate:5.1f} per wall s "
            f"({steps:.0f} actions per game)"
        )
    print(
        f"isla-nublar mean over cases{'':19s}: {total / len(CASES):7.1f} bot playouts per CPU s, "
        f"{total_wall / len(CASES):5.1f} per wall s"
    )
    clone_us, json_us = clone_vs_json()
    print(
        f"isla-nublar clone(){'':27s}: {clone_us:7.1f} us (JSON round trip {json_us:.0f} us, "
        f"{json_us / clone_us:.0f}x slower)"
    )
    table_mode(args.table_games)


if __name__ == "__main__":
    main()
