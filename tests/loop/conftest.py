"""Fixtures of the loop tests (the toy game lives in loop_toygame.py, importable from the tests here)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

sys.path.insert(0, str(Path(__file__).parent))

from loop_toygame import Toy

from hw.panel import DEFAULT_PINS, Panel


@pytest.fixture
def toy() -> Toy:
    return Toy()


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def mock_panel(pin_factory: MockFactory, toy: Toy) -> Iterator[Panel]:
    panel = Panel(DEFAULT_PINS, toy.players, pin_factory=pin_factory, start=False)
    yield panel
    panel.close()
