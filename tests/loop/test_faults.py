"""SIGKILL at random moments, at least 200 times over a whole Jurassik game, and segfaults inside the
decoder: every resume equals the uninterrupted run and nothing signalled is lost (see fault_harness.py).

The children read the table through the perfect camera (scenes, not pixels) so that 200+ restarts fit the
test budget; the real vision pipeline's faults are in tests/e2e/test_faults.py."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from fault_harness import run_fault_injection

from companion.bots import bot_game
from companion.config import config_from_dict
from companion.kits import kit_for
from companion.table.models import default_model
from engines.core import get_game


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGKILL")
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    config = config_from_dict({"game": "jurassik", "seed": 5, "seats": ["red", "blue", "green"]})
    game = get_game("jurassik")
    initial = game.new_initial_state(config.players, rng=random.Random(5), options=game.resolve_options({}))
    reference = bot_game(initial, 5, model=default_model(config))
    report = run_fault_injection(
        tmp_path, config, default_model, kit_for("jurassik").is_back, reference, seed=5, min_kills=200
    )
    assert report.finished and report.final is not None
    assert report.final.to_dict() == reference[-1].to_dict()
    assert report.kills >= 200
    assert report.decoder_crashes > 0
    # the kills fell all over the game, not only at its start or end
    events = len(reference) - 1
    assert min(report.events_at_kill) < events / 4 and max(report.events_at_kill) > events / 2
    assert report.acked > 0
    print(
        f"\n{report.kills} SIGKILLs, {report.decoder_crashes} decoder crashes, {report.children} children, "
        f"{report.checks} store checks, {events} events; events stored at each kill: {report.events_at_kill}"
    )
