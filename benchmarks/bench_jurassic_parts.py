"""Jurassic Parts engine benchmark: split ruling on a 58-tile slab, whole random playouts per second.

Goals: a split ruling under 0.5 ms; at least 50 whole random playouts per second on one core.
Times are CPU time of this process (``time.process_time``), so other work on a shared machine disturbs them
less; the figures are printed next to the goals.

    .venv/bin/python benchmarks/bench_jurassic_parts.py [--games 40] [--rulings 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.core import random_playout
from engines.core.playout import uniform_policy
from engines.jurassic_parts import GAME, Layout, bot_policy, split_ruling
from engines.jurassic_parts.game import default_cells

SPLIT_GOAL_MS = 0.5
PLAYOUT_GOAL_PER_S = 50.0
PLAYERS = ["red", "blue", "green", "yellow", "purple", "orange"]


def split_position(seed: int = 7) -> dict[str, Any]:
    """A 58-tile slab with a ring of chisels around a 7-tile region near the rim plus 25 loose chisels."""
    rng = random.Random(seed)
    cells = default_cells(58, rng)
    ids = {cell: f"F{i + 1:02d}" for i, cell in enumerate(cells)}
    layout = Layout(cells)
    centre = cells[40]
    region = {cell for cell in cells if max(abs(cell[0] - centre[0]), abs(cell[1] - centre[1]),
                                            abs(cell[0] + cell[1] - centre[0] - centre[1])) <= 1}
    players = PLAYERS[:4]
    chisels = []
    for a, b in layout.gaps:
        ca, cb = layout.cells[a], layout.cells[b]
        if (ca in region) != (cb in region):
            chisels.append({"a": ids[ca], "b": ids[cb], "player": rng.choice(players)})
    spare = [g for g in layout.gaps if (layout.cells[g[0]] in region) == (layout.cells[g[1]] in region)]
    rng.shuffle(spare)
    data = {"players": players, "current": "blue",
            "tiles": [{"id": ids[c], "q": c[0], "r": c[1]} for c in cells], "chisels": chisels}
    owned = {p: sum(1 for c in chisels if c["player"] == p) for p in players}
    for index, (a, b) in enumerate(spare):
        if len(data["chisels"]) >= len(chisels) + 25:
            break
        free = [p for p in players if owned[p] < 12]  # a player has 12 chisels
        if not free:
            break
        who = free[index % len(free)]
        trial = {**data, "chisels": [*data["chisels"],
                                     {"a": ids[layout.cells[a]], "b": ids[layout.cells[b]], "player": who}]}
        try:
            split_ruling(trial)
        except ValueError:
            continue  # that chisel would cut a third part
        owned[who] += 1
        data = trial
    return data


def bench_split(rounds: int) -> tuple[float, float, dict[str, Any]]:
    data = split_position()
    ruling = split_ruling(data)
    samples: list[float] = []
    for _ in range(rounds):
        tick = time.process_time_ns()
        split_ruling(data)
        samples.append((time.process_time_ns() - tick) / 1e6)
    # process_time has a coarse tick on some systems: also time a batch
    start = time.process_time()
    for _ in range(rounds):
        split_ruling(data)
    batch = (time.process_time() - start) / rounds * 1e3
    return statistics.median(samples), batch, {"tiles": len(data["tiles"]), "chisels": len(data["chisels"]),
                                                "awarded": len(ruling["options"][0]["smaller"])}


def bench_engine_split_check(rounds: int) -> float:
    """Microseconds for the engine's own check after a chisel (wing test, then a search) on a full slab."""
    state = GAME.new_initial_state(PLAYERS[:3], rng=random.Random(1))
    layout = state.layout
    owner = [-1] * len(layout.gaps)
    rng = random.Random(2)
    gaps = rng.sample(range(len(layout.gaps)), 40)
    start = time.process_time()
    for _ in range(rounds):
        for gap in gaps:
            owner[gap] = 0
            layout.cut_off(gap, state.on_slab, owner)
        for gap in gaps:
            owner[gap] = -1
    return (time.process_time() - start) / (rounds * len(gaps)) * 1e6


def bench_playouts(games: int, policy: Any = uniform_policy) -> tuple[float, float, float]:
    steps = 0

    def count(_before: Any, _action: Any, _after: Any) -> None:
        nonlocal steps
        steps += 1

    start = time.process_time()
    for seed in range(games):
        players = PLAYERS[: 2 + seed % 5]
        final = random_playout(GAME, players, random.Random(seed), policy=policy, on_step=count)
        assert final.is_terminal()
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed, steps / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="whole random playouts (2-6 players in turn)")
    parser.add_argument("--rulings", type=int, default=2000, help="split rulings to time")
    args = parser.parse_args()

    median_ms, batch_ms, shape = bench_split(args.rulings)
    verdict = "OK" if batch_ms < SPLIT_GOAL_MS else "MISSED"
    print(f"split ruling, {shape['tiles']}-tile slab, {shape['chisels']} chisels, "
          f"{shape['awarded']} awarded: {batch_ms:.3f} ms per ruling "
          f"(median single {median_ms:.3f} ms); goal < {SPLIT_GOAL_MS} ms: "
          f"{verdict} ({SPLIT_GOAL_MS / batch_ms:.1f}x margin)")

    check_us = bench_engine_split_check(200)
    print(f"engine split check after one chisel (58-tile slab, 1-40 cracks): {check_us:.1f} us")

    per_second, actions, per_game = bench_playouts(args.games)
    verdict = "OK" if per_second >= PLAYOUT_GOAL_PER_S else "MISSED"
    print(f"random playouts (uniform policy, 2-6 players): {per_second:.1f} games/s, "
          f"{actions:,.0f} actions/s, {per_game:.0f} actions per game; "
          f"goal >= {PLAYOUT_GOAL_PER_S:.0f} games/s: {verdict} "
          f"({per_second / PLAYOUT_GOAL_PER_S:.2f}x)")
    per_second, actions, per_game = bench_playouts(max(1, args.games // 2), policy=bot_policy)
    print(f"bot playouts (engines.jurassic_parts.bot_policy): {per_second:.1f} games/s, "
          f"{actions:,.0f} actions/s, {per_game:.0f} actions per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
