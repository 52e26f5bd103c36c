"""Setup by edition and player count, the observed-table builder, views, and the state JSON format."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import CHANCE, Correct, StateFormatError, get_game
from engines.jurassik import (
    ACTION_MIX,
    JurassikGame,
    JurassikState,
    RemoveStart,
    Reveal,
    Take,
    all_dino_tiles,
    face_of_tag,
    setup_for,
    state_from_observation,
)

# edition, players, long game -> dinosaurs, action tiles, rows, cols (the RULES-NOTES table)
TABLE = [
    ("en", 2, False, 6, 11, 6, 6),
    ("en", 3, False, 8, 16, 7, 7),
    ("en", 4, False, 8, 16, 7, 7),
    ("en", 5, False, 10, 23, 8, 8),
    ("en", 2, True, 10, 23, 8, 8),
    ("en", 3, True, 10, 23, 8, 8),
    ("en", 4, True, 10, 23, 8, 8),
    ("es", 2, False, 8, 15, 6, 8),
    ("es", 3, False, 8, 15, 6, 8),
    ("es", 4, False, 8, 15, 6, 8),
    ("es", 5, False, 8, 15, 6, 8),
]


def names(count: int) -> list[str]:
    return ["ana", "ben", "cy", "dee", "eve"][:count]


@pytest.mark.parametrize(("edition", "players", "long_game", "dinos", "actions", "rows", "cols"), TABLE)
def test_setup_follows_the_rules_notes_table(game: JurassikGame, edition: str, players: int, long_game: bool,
                                             dinos: int, actions: int, rows: int, cols: int) -> None:
    state = game.new_initial_state(names(players), random.Random(3),
                                   {"edition": edition, "long_game": long_game})
    assert (state.rows, state.cols) == (rows, cols)
    tokens = Counter(t for t in state.cells if t is not None)
    assert tokens["?"] == actions and tokens["START"] == 1 and None not in state.cells
    zone_dinos = {t for t in state.cells if t is not None and t.startswith("D")}
    assert len(zone_dinos) == 4 * dinos
    used = {t.split("-")[0] for t in zone_dinos}
    assert all(f"{d}-{piece}" in zone_dinos for d in used for piece in range(1, 5))  # whole dinosaurs
    assert sorted(zone_dinos | set(state.box_dinos)) == sorted(all_dino_tiles(edition))
    assert state.unseen == ACTION_MIX[edition]  # drawn or set aside, no action face is known
    assert state.phase == "start" and state.current_player() == "ana"
    assert setup_for(edition, players, long_game).tiles == rows * cols


def test_setup_is_seeded(game: JurassikGame) -> None:
    first = game.new_initial_state(names(3), random.Random(11))
    again = game.new_initial_state(names(3), random.Random(11))
    other = game.new_initial_state(names(3), random.Random(12))
    assert first == again and first != other


@pytest.mark.parametrize(("players", "options"), [
    ([*names(5), "fay"], {}),
    (names(1), {}),
    (names(2), {"edition": "es", "long_game": True}),
    (names(2), {"edition": "fr"}),
    (names(2), {"variant": 1}),
])
def test_setup_refuses_what_the_rulebooks_do_not_have(game: JurassikGame, players: list[str],
                                                      options: dict[str, Any]) -> None:
    with pytest.raises(StateFormatError):
        game.new_initial_state(players, random.Random(0), options)


def test_aliases_find_the_game() -> None:
    assert get_game("jurassik-es") is get_game("jurassik") is get_game("Jurassik")


def test_the_view_shows_face_down_tiles_only_as_question_marks(game: JurassikGame) -> None:
    state = game.new_initial_state(names(2), random.Random(5))
    state = state.apply(RemoveStart("ana"))
    hidden = next((i for i in state.accessible_cells() if state.cells[i] == "?"), None)
    views = [state.view(None)] + [state.view(p) for p in state.players]
    assert all(v == views[0] for v in views)  # nothing is private among players
    with pytest.raises(ValueError):
        state.view("zed")
    text = json.dumps(views[0])
    for tag in ("ROCK", "STEAL", "TWICE", "DISCARD", "EXCHANGE", "RETURN"):
        assert tag not in text
    flat = [t for row in views[0]["grid"] for t in row]
    assert flat.count("?") == 11
    if hidden is not None:
        taken = state.apply(Take("ana", *state.cell_of(hidden)))
        assert taken.current_player() == CHANCE and taken.view()["grid"] == views[0]["grid"]


def test_observed_table_of_any_size(game: JurassikGame) -> None:
    grid = [["D1-1", None, "7QX2K", "ROCK-2"], ["D1-2L", "D2-1", "D2-2", None],
            [None, None, "D2-3", "D2-4"]]
    state = state_from_observation(game, names(3), grid, hands={"ben": ["D1-3"]},
                                   revealed_actions={"steal": 1}, to_play="cy")
    assert (state.rows, state.cols) == (3, 4)
    assert state.tile_at(0, 3) == "ROCK" and state.tile_at(1, 0) == "D1-2" and state.tile_at(0, 2) == "?"
    assert state.unseen["rock"] == 5 and state.unseen["steal"] == 3
    assert "D1-4" in state.box_dinos and len(state.box_dinos) == 40 - 7
    assert state.current_player() == "cy"
    assert face_of_tag("STEAL-2") == "steal" and face_of_tag("SHOVEL-1") is None


BASE: dict[str, Any] = {
    "game": "jurassik", "format": 1, "players": ["ana", "ben"],
    "grid": [[None, "?", "D1-1"], ["D1-2", "D1-3", "D1-4"]],
}


@pytest.mark.parametrize(("change", "message"), [
    ({"game": "jurassic-parts"}, "not a jurassik state"),
    ({"format": 9}, "unsupported state format"),
    ({"colour": "red"}, "$: unknown key 'colour'"),
    ({"edition": "fr"}, "edition"),
    ({"grid": [[None, "D1-1"], ["D1-2"]]}, "same length"),
    ({"grid": []}, "$.grid: must hold 1 to 20 items"),
    ({"grid": [[None, "BONE"]]}, "unknown tile"),
    ({"grid": [[None, "STEAL-1", "D1-1"]]}, "only a Rock"),
    ({"grid": [[None, "D1-1", "D1-1"]]}, "two places"),
    ({"hands": {"ana": ["D1-1"]}}, "two places"),
    ({"hands": {"zed": []}}, "$.hands: unknown key 'zed'"),
    ({"hands": {"ana": ["D11-1"]}}, "not a dinosaur tile"),
    ({"edition": "es", "hands": {"ana": ["D9-1"]}}, "not in this edition"),
    ({"box": {"dinosaurs": []}}, "nowhere"),
    ({"box": {"start": False}}, "START"),
    ({"box": {"actions": {"rock": 7}}}, "more action tiles revealed"),
    ({"box": {"actions": {"fly": 1}}}, "no action face"),
    ({"unseen_actions": {"rock": 1}}, "accounted for"),
    ({"phase": "start"}, "START"),
    ({"phase": "dance"}, "$.phase: must be one of"),
    ({"phase": "reveal"}, "reveal_cell"),
    ({"phase": "reveal", "reveal_cell": [0, 2]}, "face-down"),
    ({"reveal_cell": [0, 1]}, "only set while"),
    ({"phase": "twice", "twice_left": 3}, "twice_left"),
    ({"twice_left": 1}, "twice_left"),
    ({"phase": "discard"}, "no loose tile"),
    ({"edition": "es", "phase": "return"}, "no Returning"),
    ({"to_play": "zed"}, "$.to_play: must be one of 'ana', 'ben'"),
    ({"players": ["ana"]}, "2-5 players"),
    ({"long_game": "yes"}, "long_game"),
])
def test_bad_states_are_refused_in_one_line(game: JurassikGame, change: dict[str, Any], message: str) -> None:
    with pytest.raises(StateFormatError) as refusal:
        game.state_from_dict({**BASE, **change})
    assert message in str(refusal.value) and "\n" not in str(refusal.value)


def test_json_round_trip_and_correction(game: JurassikGame) -> None:
    state = game.new_initial_state(names(4), random.Random(9), {"long_game": True}).apply(RemoveStart("ana"))
    text = json.dumps(state.to_dict())
    again = game.state_from_dict(json.loads(text))
    assert again == state and again.to_dict() == state.to_dict()
    fixed = state.to_dict()
    fixed["to_play"] = "cy"
    corrected = state.apply(Correct(fixed, "cy was next"))
    assert isinstance(corrected, JurassikState) and corrected.current_player() == "cy"
    for action in [Take("ana", 1, 2), Reveal("rock"), RemoveStart("ben")]:
        assert game.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_clone_is_independent(game: JurassikGame) -> None:
    state = game.new_initial_state(names(2), random.Random(1)).apply(RemoveStart("ana"))
    before = state.to_dict()
    copy = state.clone()
    copy.cells[:] = [None] * len(copy.cells)
    copy.hands["ana"].append("D9-4")
    copy.box_dinos.clear()
    copy.box_actions["steal"] = 3
    copy.unseen["rock"] = 0
    assert state.to_dict() == before


STATE_KEYS = ["game", "format", "edition", "long_game", "players", "to_play", "phase", "twice_left",
              "reveal_cell", "grid", "hands", "box", "unseen_actions", "end_reason", "last_event",
              "compulsory_actions"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12)
    | st.sampled_from(["", "?", "ROCK", "START", "D1-1", "ana", "steal", "take", "es", "D9-4"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["ana", "ben", "rock",
                                                                                  "dinosaurs", "x"]), inner,
                                                                max_size=3),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(field=st.sampled_from(STATE_KEYS), value=JSON_VALUES)
def test_any_corrupt_field_is_refused_cleanly(field: str, value: Any) -> None:
    from engines.core import InputError
    from engines.jurassik import GAME, legal_report

    data = GAME.new_initial_state(["ana", "ben"], random.Random(2)).to_dict() | {field: value}
    try:
        GAME.state_from_dict(data)
    except StateFormatError as error:
        assert "\n" not in str(error)
    try:
        legal_report(GAME, data)
    except InputError as error:
        assert "\n" not in str(error)


ACTION_VALUES = st.none() | st.booleans() | st.integers(-2, 9) | st.sampled_from(
    ["ana", "ben", "D1-1", "D2-1", "D3-4", "rock", "steal", "return", "twice", ""]) | st.lists(
    st.integers(0, 3), max_size=2)


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["remove_start", "take", "reveal", "discard", "steal", "exchange", "return",
                             "decline", "fly"]),
       fields=st.dictionaries(st.sampled_from(["player", "row", "col", "face", "tile", "victim", "give",
                                               "other", "take"]), ACTION_VALUES, max_size=5),
       phase=st.sampled_from(["take", "steal", "exchange", "discard", "reveal"]))
def test_any_malformed_action_is_refused_cleanly(kind: str, fields: dict[str, Any], phase: str) -> None:
    from engines.core import IllegalAction
    from engines.jurassik import GAME

    data = {**BASE, "hands": {"ana": ["D2-1"], "ben": ["D3-4"]}, "phase": phase}
    if phase == "reveal":
        data["reveal_cell"] = [0, 1]
    state = GAME.state_from_dict(data)
    try:
        action = GAME.action_from_dict({"kind": kind, **fields})
    except StateFormatError:
        return
    before = state.to_dict()
    try:
        state.apply(action)
    except IllegalAction as refusal:
        assert "\n" not in str(refusal)
    assert state.to_dict() == before
