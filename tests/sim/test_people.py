"""Fallible people at the table (``sim.people``) through the camera and the page: the people benchmark's
own games, a few seeds of each game, end with the true score and no false objection."""

from __future__ import annotations

import os
import re
import subprocess
import sys
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
