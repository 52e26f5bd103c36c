"""Fixtures for the café: a real Mosquitto broker (Debian's, installed by the test set-up)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from broker import MOSQUITTO, Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not Path(MOSQUITTO).exists():
        if os.environ.get("CI"):
            pytest.fail("mosquitto is not installed: scripts/bootstrap.sh --dev installs it as root")
        pytest.skip("Debian's mosquitto is not installed")
    directory = tmp_path / "broker"
    directory.mkdir()
    running = Broker(directory)
    running.start()
    yield running
    running.stop()
