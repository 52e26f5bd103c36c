"""A real table where the engine deals one seat's cards (option ``dealt_seats``: the companion's, whose
deck nobody handles): that seat holds named cards dealt and drawn from its own deck, the others draw at the
table unseen, and what the dealt seat holds reaches nobody's view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines.core import StateFormatError
from engines.isla_nublar import GAME
from engines.isla_nublar.actions import Draw
from engines.isla_nublar.components import size
from engines.isla_nublar.unseen import UNSEEN, at_table, unseen_in_hand

DEALT = {"table_cards": "table", "dealt_seats": ["Bo"]}


def new(options: dict[str, Any], seed: int = 1) -> Any:
    resolved = GAME.resolve_options(options)
    return GAME.new_initial_state(["Ana", "Bo"], rng=random.Random(seed), options=resolved)


def test_the_dealt_seat_holds_its_five_cards_by_name_and_the_others_draw_at_the_table() -> None:
    state = new(DEALT)
    assert size(state.zones["Bo"]["hand"]) == 5 and unseen_in_hand(state, "Bo") == 0
    assert size(state.zones["Ana"]["hand"]) == 0 and unseen_in_hand(state, "Ana") == 5
    assert at_table(state) and at_table(state, "Ana") and not at_table(state, "Bo")
    plain = new({"table_cards": "table"})
    assert size(plain.zones["Bo"]["hand"]) == 0 and unseen_in_hand(plain, "Bo") == 5


def test_a_dealt_seat_draws_named_cards_an_undealt_one_a_card_nobody_names() -> None:
    state = new(DEALT)
    rng = random.Random(2)
    draws: dict[str, set[str]] = {"Ana": set(), "Bo": set()}
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            for action, _ in outcomes:
                if isinstance(action, Draw):
                    draws[action.player].add(action.card)
            state = state.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert draws["Ana"] == {UNSEEN}
    assert draws["Bo"] and UNSEEN not in draws["Bo"]


def test_the_dealt_seat_s_hand_is_in_nobody_s_view_and_never_the_table_s_hand_list() -> None:
    state = new(DEALT)
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    rng = random.Random(3)
    seen_bo_deciding = False
    for _ in range(200):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(state.chance_outcomes()[0][0])
            continue
        shared = state.view(None)
        assert set(shared["cards"]["Bo"]["hand"]) == {"count"}
        assert set(state.view("Ana")["cards"]["Bo"]["hand"]) == {"count"}
        if state.current_player() == "Bo":
            seen_bo_deciding = True
            assert shared.get("table_hand") is None  # its hand is the engine's, listed for nobody
        state = state.apply(rng.choice(state.legal_actions()))
    assert seen_bo_deciding


def test_dealt_seats_survive_a_save_and_name_only_players() -> None:
    state = new(DEALT)
    again = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and again.options["dealt_seats"] == ("Bo",)
    with pytest.raises(StateFormatError, match="dealt_seats"):
        new({"table_cards": "table", "dealt_seats": ["Cy"]})
    with pytest.raises(StateFormatError, match="dealt_seats"):
        GAME.resolve_options({"dealt_seats": "Bo"})
    data = state.to_dict()
    data["options"]["dealt_seats"] = ["Zed"]
    with pytest.raises(StateFormatError, match="dealt_seats"):
        GAME.state_from_dict(data)
