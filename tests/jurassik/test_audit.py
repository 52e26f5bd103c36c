"""Defects found in the QA audit of the Jurassik engine: each test failed before its fix."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from engines.core import Action, IllegalAction, InputError, State, StateFormatError, get_game, random_playout
from engines.jurassik import GAME, JurassikState, score_report

JSON_LEAVES = (st.none() | st.booleans() | st.integers(-3, 9) | st.floats(allow_nan=False)
               | st.text(max_size=4))
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
Maker = Callable[..., JurassikState]
FIELDS = ["row", "col", "face", "tile", "victim", "give", "other", "take"]


def _states_by_phase() -> list[JurassikState]:
    """One state of each phase (take, reveal, steal, exchange, discard, return, twice...) from playouts."""
    by_phase: dict[str, JurassikState] = {}

    def keep(state: State, action: Action, after: State) -> None:
        assert isinstance(state, JurassikState)
        by_phase.setdefault(state.phase, state)

    for seed in range(40):
        random_playout(GAME, ["ana", "ben", "cy"], random.Random(seed), on_step=keep)
    return [by_phase[phase] for phase in sorted(by_phase)]


STATES = _states_by_phase()


@settings(max_examples=200, deadline=None)
@given(step=st.integers(0, len(STATES) - 1), data=st.data())
def test_an_action_with_fields_of_any_json_type_is_refused_as_an_engine_error(step: int, data: Any) -> None:
    """A web submit of {"kind": "steal", "victim": {}} raised TypeError (unhashable dict) from apply()."""
    state = STATES[step]
    legal = [action.to_dict() for action in state.legal_actions()]
    action_dict = data.draw(st.sampled_from(legal)) if legal else {"kind": "take", "player": state.to_play}
    for name in data.draw(st.lists(st.sampled_from(sorted(set(action_dict) - {"kind"}) or ["row"]),
                                   min_size=1, max_size=2)):
        action_dict[name] = data.draw(JSON_VALUES)
    before = state.to_dict()
    try:
        action = GAME.action_from_dict(action_dict)
    except StateFormatError as error:
        assert "\n" not in str(error)
        return
    try:
        state.apply(action)
    except IllegalAction as refusal:
        assert "\n" not in str(refusal)
        assert not state.explain(action).legal
    assert state.to_dict() == before


@pytest.mark.parametrize("action", [
    {"kind": "steal", "player": "ana", "victim": {}, "tile": "D1-1"},
    {"kind": "exchange", "player": "ana", "give": "D1-1", "other": {"x": 1}, "take": "D2-1"},
    {"kind": "discard", "player": "ana", "tile": {"a": []}},
    {"kind": "take", "player": "ana", "row": 1.0, "col": 0},
])
def test_wrongly_typed_action_fields_are_a_format_error(action: dict[str, Any]) -> None:
    with pytest.raises(StateFormatError):
        GAME.action_from_dict(action)


@pytest.mark.parametrize("phase, hands, box, compulsory", [
    ("steal", {"ana": ["D1-1"], "ben": []}, None, True),  # no other player holds a loose tile
    ("steal", {"ana": [], "ben": ["D2-1", "D2-2", "D2-3", "D2-4"]}, None, False),  # only a complete one
    ("exchange", {"ana": [], "ben": ["D2-1"]}, None, True),  # nothing to give
    ("exchange", {"ana": ["D2-1"], "ben": []}, None, False),  # nothing to take
    ("return", {"ana": [], "ben": []}, [], True),  # the box holds no dinosaur tile
    ("twice", {"ana": [], "ben": []}, None, False),  # no accessible dinosaur tile
])
def test_an_action_phase_that_cannot_be_carried_out_is_not_a_position(
    make: Maker, phase: str, hands: dict[str, list[str]], box: list[str] | None, compulsory: bool
) -> None:
    """Such a tile has no effect and the turn passes at once (JK-NO-EFFECT), so a state waiting for the
    action is impossible; with compulsory_actions it had no legal action at all and was not over."""
    rows = ["? . ?", "? ? ?"] if phase == "twice" else ["D3-1 . D3-2", "D3-3 D3-4 ?"]
    fields: dict[str, Any] = {"phase": phase, "hands": hands, "to_play": "ana",
                              "compulsory_actions": compulsory}
    if box is not None:
        fields["box"] = {"dinosaurs": box, "start": True}
        every = [f"D{d}-{p}" for d in range(1, 11) for p in range(1, 5)]
        placed = {t for hand in hands.values() for t in hand} | {"D3-1", "D3-2", "D3-3", "D3-4"}
        hands["ben"] = hands["ben"] + [t for t in every if t not in placed]
    with pytest.raises(StateFormatError, match="cannot be carried out"):
        make(rows, **fields)


def test_a_carried_out_action_phase_is_still_a_position(make: Maker) -> None:
    state = make(["D3-1 . D3-2", "D3-3 D3-4 ?"], phase="steal", hands={"ana": [], "ben": ["D1-1"]},
                 to_play="ana", compulsory_actions=True)
    assert [a.to_dict()["kind"] for a in state.legal_actions()] == ["steal"]


@pytest.mark.parametrize("count", [1, 6, 200])
def test_score_takes_the_two_to_five_players_of_jurassik(count: int) -> None:
    data = {"players": [{"name": f"p{i}", "tiles": []} for i in range(count)]}
    with pytest.raises(InputError, match="2-5 players"):
        score_report(data)


def test_score_through_the_console_refuses_one_player(capsys: Any, monkeypatch: Any) -> None:
    one_player = {"players": [{"name": "ana", "tiles": ["D1-1"]}]}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(one_player)))
    status = main(["score", "jurassik", "-"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")


def test_the_game_is_registered_under_its_name() -> None:
    assert get_game("jurassik") is GAME


@pytest.mark.parametrize("rows, fields", [
    (["START . D1-1", "D1-2 D1-3 D1-4"], {}),  # a free space before the start tile is lifted
    (["START ROCK D1-1", "D1-2 D1-3 ?"], {}),  # a revealed Rock before anyone played
    (["START D2-1 D1-1", "D1-2 D1-3 ?"], {"box": {"actions": {"steal": 1}}}),  # an action tile revealed
])
def test_nothing_has_happened_while_the_start_tile_lies_in_the_zone(
    make: Maker, rows: list[str], fields: dict[str, Any]
) -> None:
    """The first player lifts the start tile to create the first free space (JK-START): before that no
    cell is free and no action tile revealed. Such states used to be accepted."""
    with pytest.raises(StateFormatError, match="while the START tile lies in the zone"):
        make(rows, **fields)


def test_a_fresh_table_with_the_start_tile_is_still_a_position(make: Maker) -> None:
    state = make(["START D2-1 D1-1", "D1-2 D1-3 ?"])
    assert [action.kind for action in state.legal_actions()] == ["remove_start"]


def test_the_tile_being_revealed_was_accessible(make: Maker) -> None:
    """Only an accessible tile can be taken (JK-ACCESS), so a reveal pending on a face-down tile with no
    side next to a free space is impossible; it used to be accepted."""
    rows = ["? D1-1 D1-2", "D1-3 D1-4 .", "? ? ?"]
    with pytest.raises(StateFormatError, match="accessible"):
        make(rows, phase="reveal", reveal_cell=[0, 0])
    state = make(rows, phase="reveal", reveal_cell=[2, 2])
    assert state.is_chance_node()


@pytest.mark.parametrize("command, document", [
    ("score", {"players": [{"name": "an\udcffa", "tiles": []}, {"name": "ben", "tiles": []}]}),
    ("legal", {"game": "jurassik", "format": 1, "players": ["an\udcffa", "ben"], "grid": [["START", "?"]]}),
    ("legal", {"game": "jurassik", "format": 1, "players": ["ana", "ben"], "grid": [["START", "?"]],
               "end_reason": "\udcff"}),
])
def test_names_that_are_not_unicode_text_are_bad_input(capsys: Any, monkeypatch: Any, command: str,
                                                     document: dict[str, Any]) -> None:
    """Non-UTF-8 bytes inside a JSON string on standard input reach the engine as lone surrogates
    (surrogateescape); a name made of them was accepted and echoed back with exit 0."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(document, ensure_ascii=False)))
    status = main([command, "jurassik", "-"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and "text" in err
