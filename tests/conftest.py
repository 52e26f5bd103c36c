"""Shared fixtures. Hardware is always gpiozero's mock pin factory in tests."""

from __future__ import annotations

import os

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


def _english_readers() -> None:
    """The tests' requests come from a browser that asks for English (as Playwright's chromium does), so
    that a German game's pages read in English unless a test asks for another language (or for none)."""
    from typing import Any

    from flask import Flask
    from flask.testing import FlaskClient

    class EnglishReader(FlaskClient):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.environ_base.setdefault("HTTP_ACCEPT_LANGUAGE", "en")

    Flask.test_client_class = EnglishReader


_english_readers()
