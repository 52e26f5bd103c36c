"""Shared fixtures. Hardware is always gpiozero's mock pin factory in tests."""

from __future__ import annotations

import os

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
