"""Helpers for Isla Nublar tests: positions built by moving real pieces and cards (none created or lost)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from engines.isla_nublar import GAME, IslaNublarState
from engines.isla_nublar.codec import check_conservation
from engines.isla_nublar.components import add, take


def fresh(players: tuple[str, ...] = ("red", "blue"), seed: int = 1, **options: Any) -> IslaNublarState:
    return cast(IslaNublarState, GAME.new_initial_state(players, rng=random.Random(seed), options=options))


def give(state: IslaNublarState, player: str, card: str, zone: str = "hand", count: int = 1) -> None:
    """Move ``count`` copies of ``card`` into ``player``'s ``zone`` from wherever they are not in use."""
    for _ in range(count):
        sources = [state.zones[player][z] for z in ("draw", "discard", "hand") if z != zone]
        sources += [pile["rest"] for pile in state.piles.values()]
        sources += [state.dino_deck, state.box, state.scoring_deck]
        for other in state.players:
            if other != player:
                sources += [state.zones[other][z] for z in ("draw", "discard", "hand")]
        for source in sources:
            if source.get(card, 0):
                take(source, card)
                add(state.zones[player][zone], card)
                break
        else:
            raise AssertionError(f"no spare {card}")


def set_hand(state: IslaNublarState, player: str, *cards: str) -> None:
    """Empty the hand into the draw pile, then take exactly ``cards`` into it."""
    zones = state.zones[player]
    for card, n in list(zones["hand"].items()):
        add(zones["draw"], card, n)
    zones["hand"] = {}
    for card in cards:
        give(state, player, card)


def put_camp(state: IslaNublarState, player: str, field: str) -> None:
    state.personal[player]["camps"] -= 1
    state.camps.setdefault(field, []).append(player)


def put_boxes(state: IslaNublarState, player: str, field: str, n: int = 1) -> None:
    state.personal[player]["boxes"] -= n
    held = state.boxes.setdefault(field, {})
    held[player] = held.get(player, 0) + n


def park_dinos(state: IslaNublarState) -> None:
    """Dinosaurs back on their volcanoes in order (DINO-1 on the first volcano ...)."""
    for dino, volcano in zip(sorted(state.dinos), state.board.volcanoes, strict=True):
        state.dinos[dino] = volcano


def checked(state: IslaNublarState) -> IslaNublarState:
    check_conservation(state)
    return state


@pytest.fixture
def kit() -> SimpleNamespace:
    """The helpers above, for tests (conftest modules are not importable under --import-mode=importlib)."""
    return SimpleNamespace(
        fresh=fresh,
        give=give,
        set_hand=set_hand,
        put_camp=put_camp,
        put_boxes=put_boxes,
        park_dinos=park_dinos,
        checked=checked,
        game=GAME,
    )
