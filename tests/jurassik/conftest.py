"""Fixtures for the Jurassik tests: build positions from a compact picture of the excavation zone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engines.core import get_game
from engines.jurassik import JurassikGame, JurassikState

Maker = Callable[..., JurassikState]


def position(rows: list[str], **fields: Any) -> dict[str, Any]:
    """A state dict from rows like ``"D1-1 . ? ROCK"`` ('.' is a free space); other fields as given."""
    grid = [[None if token == "." else token for token in row.split()] for row in rows]
    data: dict[str, Any] = {"game": "jurassik", "format": 1, "players": ["ana", "ben"], "grid": grid}
    data.update(fields)
    return data


@pytest.fixture()
def game() -> JurassikGame:
    found = get_game("jurassik")
    assert isinstance(found, JurassikGame)
    return found


@pytest.fixture()
def make(game: JurassikGame) -> Maker:
    def build(rows: list[str], **fields: Any) -> JurassikState:
        return game.state_from_dict(position(rows, **fields))

    return build
