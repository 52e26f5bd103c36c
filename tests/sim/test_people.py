"""Fallible people at the table (``sim.people``) through the camera and the page: the people benchmark's
own games, a few seeds of each game, end with the true score and no false objection."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_people_end_every_game_with_the_true_score_and_no_false_objection() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_people.py"), "--seeds", "2"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    last = run.stdout.strip().splitlines()[-1]
    games = len([line for line in run.stdout.splitlines() if line.startswith("  ")])
    assert last.startswith(f"people: {games}/{games} games ended with the true score, 0 false objections")
    unrecovered = [int(n) for n in re.findall(r"(\d+) not recovered", run.stdout)]
    assert unrecovered and not any(unrecovered), run.stdout[-3000:]
    assert " 0 right" not in run.stdout, run.stdout[-3000:]  # the slips were objected to


def test_a_person_s_slips_are_counted_and_recovered(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_people
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    report = bench_people.play("jurassik", 3)
    assert report.ended_true and report.objections_false == 0 and not report.unrecovered
    assert sum(report.slips.values()) > 0 and len(report.recoveries) > 0 and report.taps > 0


def test_a_card_laid_in_another_seat_s_area_lands_inside_it() -> None:
    """A move out of turn lays its cards in the other player's area, wherever that area is and however
    big: inside it, never off the table (seat areas differ in size round Isla Nublar's board)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_people
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from companion.kits.isla_nublar import table as tables
    from engines.core import get_game

    colours = ("red", "blue", "green")
    layout = tables.IslaNublarLayout(seats=3, colours=colours)
    state = get_game("isla-nublar").new_initial_state(list(colours))
    zones = {z.name: z for z in tables.scene_for(state, layout).zones if z.name.startswith("seat:")}
    for mine in colours:
        for theirs in colours:
            here, there = zones[f"seat:{mine}"], zones[f"seat:{theirs}"]
            shift = bench_people._offset(here.polygon, there.polygon)
            xs, ys = [p[0] for p in here.polygon], [p[1] for p in here.polygon]
            for point in ((min(xs) + 27, min(ys) + 43), (max(xs) - 27, max(ys) - 43)):
                laid = bench_people._inside(there, (point[0] + shift[0], point[1] + shift[1]))
                assert there.contains(laid), (mine, theirs, point, laid)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["jurassik", "jurassic-brunch"])
def test_a_piece_forgotten_on_the_table_is_waited_for_or_objected_to(game: str) -> None:
    """Every move that takes a piece off the table leaves one there a while: the page never reads a move
    the table does not show, never objects once the piece is gone, and the game ends with the true
    score."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_people
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rates = replace(bench_people.SlipRates().none(), left_on_table=1.0)
    report = bench_people.play(game, 2, rates=rates)
    assert report.slips["left_on_table"] >= 2, report.slips
    assert report.ended_true and not report.unrecovered, report.unrecovered
    assert report.objections_false == 0 and not report.missed_slips, (report.false_texts, report.missed_slips)
    assert len(report.recoveries) >= report.slips["left_on_table"]
