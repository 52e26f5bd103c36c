"""Positions drawn as text, for readable rule tests.

``.`` empty cell, ``g`` grass token (face down), ``B``/``O`` standing blue/orange triceratops, ``b``/``o``
asleep ones (fell asleep in an earlier turn), ``R`` the raptor; a space or ``#`` is not on the area.
Row 0 is the first line (y grows south), column 0 the first character (x grows east).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from engines.jurassic_brunch import GAME, BrunchState, PlayingArea
from engines.jurassic_brunch.components import TOKEN_COUNTS, TOKEN_KINDS

Builder = Callable[..., BrunchState]


def build_state(
    picture: str,
    current: str = "blue",
    actions_left: int = 2,
    raptor_moved: bool = False,
    tokens: Mapping[str, Mapping[str, int]] | None = None,
    hidden: Mapping[str, Mapping[str, int]] | None = None,
    options: Mapping[str, Any] | None = None,
    bag: Mapping[str, int] | None = None,
    pool: Mapping[str, int] | None = None,
) -> BrunchState:
    rows = [line for line in picture.strip("\n").split("\n")]
    indent = min(len(row) - len(row.lstrip()) for row in rows if row.strip())
    rows = [row[indent:] for row in rows]
    cells: dict[tuple[int, int], str] = {}
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char not in " #":
                cells[(x, y)] = char
    house_rules = {"charge_blocked_by_grass": False, "wake_same_turn": False, "super_yummy_same_turn": False}
    house_rules.update(options or {})
    state = BrunchState(GAME, PlayingArea.from_cells(cells), house_rules)
    state.turn = 3 if current == "blue" else 4
    state.current = current
    state.actions_left = actions_left
    state.raptor_moved = raptor_moved
    for cell, char in cells.items():
        if char == "g":
            state.grass.add(cell)
        elif char in "BObo":
            owner = "blue" if char in "Bb" else "orange"
            state.triceratops[cell] = (owner, 1 if char.islower() else None)
        elif char == "R":
            state.raptor = cell
        elif char != ".":
            raise ValueError(f"unknown picture character {char!r}")
    for player in ("blue", "orange"):
        state.tokens[player].update((tokens or {}).get(player, {}))
        state.hidden[player].update((hidden or {}).get(player, {}))
        state.pool[player] = (pool or {}).get(player, 5 - state.on_area(player))
    if bag is not None:
        state.bag = {kind: bag.get(kind, 0) for kind in TOKEN_KINDS}
    else:
        held = {k: sum(state.holding(p)[k] for p in ("blue", "orange")) for k in TOKEN_KINDS}
        remaining = len(state.grass)
        for kind in TOKEN_KINDS:
            state.bag[kind] = min(TOKEN_COUNTS[kind] - held[kind], remaining)
            remaining -= state.bag[kind]
    return state


@pytest.fixture
def build() -> Builder:
    return build_state


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)
