"""Fixtures of the loop tests (the toy game lives in loop_toygame.py, importable from the tests here)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

sys.path.insert(0, str(Path(__file__).parent))

from loop_toygame import Toy
from loop_toykit import ToyKit

import companion.kits as kit_registry
from companion.kits import register_kit
from hw.panel import DEFAULT_PINS, Panel


@pytest.fixture(autouse=True)
def toy_kit() -> Iterator[ToyKit]:
    """The toy game's kit, for every loop test (its privacy shows the open slots the tests read back);
    removed after each, so no test elsewhere sees it."""
    kit = register_kit(ToyKit())
    yield kit
    kit_registry._KITS.pop(kit.name, None)


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
