"""SIGKILL at random moments, at least 200 times over a game, and decoder crashes: nothing is lost."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from fault_harness import run_fault_injection
from loop_toygame import GRAB, Toy, is_back

from companion.loop import bot_game
from engines.core import State


def reference_run(toy: Toy, seed: int) -> list[State]:
    state = GRAB.new_initial_state(
        toy.players, rng=random.Random(toy.config.seed), options={"slots": toy.slots}
    )
    return bot_game(state, seed)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGKILL")
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    toy = Toy(players=("red", "blue", "green"), slots=40)
    reference = reference_run(toy, seed=21)
    report = run_fault_injection(tmp_path, toy.config, toy.model, is_back, reference, seed=21, min_kills=200)
    assert report.finished and report.final is not None
    assert report.final.to_dict() == reference[-1].to_dict()
    assert report.kills >= 200
    assert report.decoder_crashes > 0
    # the kills fell all over the game, not only at its start or end
    assert min(report.events_at_kill) < len(reference) / 4 and max(report.events_at_kill) > len(reference) / 2
    assert report.acked > 0
    print(
        f"\n{report.kills} SIGKILLs, {report.decoder_crashes} decoder crashes, {report.children} children, "
        f"{report.checks} store checks, {len(reference) - 1} events"
    )
