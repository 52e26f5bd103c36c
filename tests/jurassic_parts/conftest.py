"""Helpers for the Jurassic Parts tests, handed out as the ``jp`` fixture (conftest modules are not
importable under --import-mode=importlib)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import Action
from engines.jurassic_parts import COMPONENTS, GAME, JurassicPartsState

NO_ROCKS = [False] * 6


def ids_of(fossil: str) -> list[str]:
    """Tile ids showing ``fossil`` in the component list."""
    return [c.tile_id for c in COMPONENTS if c.fossil == fossil]


class TilePicker:
    """Hands out distinct tile ids by fossil name."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, fossil: str) -> str:
        """``"*"``: any unused tile that is not a Pile of Bones."""
        anything = [c.tile_id for c in COMPONENTS if c.fossil != "BONES"]
        candidates = ids_of(fossil) if fossil != "*" else anything
        for tile_id in candidates:
            if tile_id not in self.used:
                self.used.add(tile_id)
                return tile_id
        raise ValueError(f"no {fossil} tile left")


def build(
    players: Sequence[str],
    tiles: Iterable[tuple[Any, ...]],
    *,
    rocks: dict[tuple[int, int], list[bool]] | None = None,
    first: str | None = None,
    cards: dict[str, list[str]] | None = None,
    options: dict[str, Any] | None = None,
) -> JurassicPartsState:
    """A game started on a slab: ``tiles`` are (q, r, fossil or None for face down[, rotation]).

    Tiles have no rocks unless ``rocks`` gives them (at rotation 0) by cell."""
    pick = TilePicker()
    entries = []
    for tile in tiles:
        q, r, fossil = tile[0], tile[1], tile[2]
        rotation = tile[3] if len(tile) > 3 else 0
        cell = (q, r)
        entry: dict[str, Any] = {
            "cell": [q, r],
            "rotation": rotation,
            "rocks": (rocks or {}).get(cell, NO_ROCKS),
            "face_up": fossil is not None,
            "id": pick(fossil) if fossil is not None else None,
        }
        entries.append(entry)
    return GAME.state_from_layout(players, entries, first_player=first, cards=cards, options=options)


def hexagon(radius: int) -> list[tuple[int, int]]:
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if max(abs(q), abs(r), abs(q + r)) <= radius]


def edit(state: JurassicPartsState, change: Any) -> JurassicPartsState:
    """Change a state through its JSON form (``change(data)`` edits the dict); the result is validated."""
    data = json.loads(json.dumps(state.to_dict()))
    change(data)
    return GAME.state_from_dict(data)


def play(state: JurassicPartsState, *actions: Action) -> JurassicPartsState:
    for action in actions:
        new = state.apply(action)
        assert isinstance(new, JurassicPartsState)
        state = new
    return state


def totals(state: JurassicPartsState) -> tuple[int, int, list[int]]:
    """(tiles, amber, chisels per player) across the whole table: none may be created or lost."""
    tiles = state.slab_count + len(state.pool) + sum(state.leader)
    tiles += sum(sum(h) for h in state.loose) + sum(sum(h) for h in state.in_sets)
    amber = state.supply + sum(state.amber)
    chisels = [state.dull[p] + state.sharp[p] + state.on_board[p] for p in range(len(state.players))]
    assert [sum(1 for who in state.owner if who == p) for p in range(len(state.players))] == state.on_board
    return tiles, amber, chisels


@pytest.fixture
def jp() -> SimpleNamespace:
    return SimpleNamespace(build=build, ids_of=ids_of, hexagon=hexagon, edit=edit, play=play, totals=totals,
                           game=GAME, NO_ROCKS=NO_ROCKS)
