"""Privacy is an allow-list each kit declares: an action field no kit names as public is hidden, on the
page's event records (history, live stream, last move), the legal moves listed and the broker's messages."""

from __future__ import annotations

import json

import pytest

from companion.kits import kits
from companion.mqtt import messages
from companion.records import event_dict
from companion.shared_view import privacy_for, shareable, shared_action
from companion.store import GameRecord, StoredEvent

SECRET = "POCKET-7-SECRET"


def _legal_example(game: str) -> dict[str, object]:
    """One real move of the game, with a field no kit declares added (a new engine's new hidden field)."""
    import random

    from engines.core import get_game

    state = get_game(game).new_initial_state(list(kits()[game].demo_colours), rng=random.Random(1))
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    return {**state.legal_actions()[0].to_dict(), "pocket": SECRET}


@pytest.mark.parametrize("game", sorted(kits()))
def test_an_undeclared_field_is_hidden_everywhere(game: str) -> None:
    action = _legal_example(game)
    policy = privacy_for(game)
    assert "pocket" in policy.hidden(action) and not policy.option_shareable(action)
    assert shareable([action], game) == []  # never listed as a move to tap
    event = StoredEvent(1, 5, "action", action, None, str(action.get("player") or ""), "camera", 1.0, None,
                        False, None, {})
    record = GameRecord(1, game, game, [], {}, 1, {}, {}, 0.0, None, None)
    shown = [shared_action(action, game), event_dict(event, game),
             messages.event_message("t1", record, event)]
    for place in shown:
        assert SECRET not in json.dumps(place), place
    assert shared_action(action, game)["concealed"] is True  # type: ignore[index]


def test_a_game_without_a_kit_shows_moves_by_kind_and_player_only() -> None:
    action = {"kind": "move", "player": "red", "square": "e4"}
    assert shared_action(action, "no-such-game") == {"kind": "move", "player": "red", "concealed": True}


@pytest.mark.parametrize("game", sorted(kits()))
def test_every_move_a_kit_lists_is_declared(game: str) -> None:
    """The allow-list is not so tight that open moves vanish: the first legal moves of a game are listed
    whole unless a field of theirs is one the rulebook hides."""
    action = _legal_example(game)
    del action["pocket"]
    policy = privacy_for(game)
    assert policy.hidden(action) <= {"fossil", "part", "tile", "tiles", "card", "cards", "hand", "token"}
