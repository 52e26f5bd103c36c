"""JSON round trip with validation, corrections, action JSON, and what each player may see."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engines.core import Correct, StateFormatError, get_game
from engines.jurassic_brunch import GAME, Charge, EndTurn, Look, Move, RaptorMove, Reveal, Wake
from engines.jurassic_brunch.state import BrunchState

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example_state() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "jurassic-brunch-state.json").read_text())
    return data


def test_registered_under_its_name_and_alias() -> None:
    assert get_game("jurassic-brunch") is GAME and get_game("brunch") is GAME


def test_documented_example_state_loads_and_round_trips() -> None:
    data = example_state()
    state = GAME.state_from_dict(data)
    assert state.to_dict() == data
    assert state.current_player() == "orange" and state.raptor == (3, 1)
    assert json.loads(json.dumps(state.to_dict())) == data


def test_initial_and_pending_states_round_trip() -> None:
    state = GAME.new_initial_state(["blue", "orange"], options={"arrangement": "t-shape",
                                                               "charge_blocked_by_grass": True})
    assert GAME.state_from_dict(state.to_dict()) == state
    eating = next(a for a in state.legal_actions() if isinstance(a, Move) and a.eats)
    pending = state.apply(eating)
    restored = GAME.state_from_dict(json.loads(json.dumps(pending.to_dict())))
    assert restored == pending and restored.pending == pending.pending
    assert restored.legal_actions() == pending.legal_actions()
    assert restored.options["charge_blocked_by_grass"] is True


def corrupt(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(example_state())
    target = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("game", "jurassik", "not a jurassic-brunch state"),
        ("format", 99, "unsupported state format"),
        ("bag.YUMMY", 9, "bag holds"),
        ("grass.0", [40, 40], "not on the playing area"),
        ("grass.0", [0, 1], "stands on the grass"),
        ("triceratops.0.at", [0, 2], "two triceratops"),
        ("triceratops.0.owner", "green", "owner"),
        ("pool.blue", 3, "triceratops accounted for"),
        ("raptor", [0, 1], "shares"),
        ("holdings.blue.tokens.YUMMY", 7, "YUMMY tokens are accounted for"),
        ("holdings.blue.hidden.STODGY", 1, "more tokens than the Hideouts hold"),
        ("turn.current", "blue", "belongs to orange"),
        ("turn.actions_left", -1, "actions_left"),
        ("turn.raptor_moved", "no", "true or false"),
        ("pending", {"kind": "dance"}, r"\$.pending.kind: must be one of"),
        ("pending", {"kind": "steal", "from": "orange"}, "pending steal"),
        ("result", {"reason": "x", "rule": "JB-FOO"}, r"\$.result.rule: must be one of"),
        ("result", {"reason": "x", "rule": "JB-END-NO-GRASS"}, "grass is left"),
        ("result", {"reason": "x", "rule": "JB-END-QUIET"}, "two quiet turns"),
        ("result", {"reason": "x", "rule": "JB-END-NO-TRICERATOPS", "losers": ["blue"]}, "are not the"),
        ("area.boards.0.centre", [2, 1], "overlaps"),
        ("area.boards.1.rotation", 7, "rotation"),
        ("options", {"fly": True}, r"\$.options: unknown key 'fly'"),
        ("looks.0.token", "YUMMY", r"\$.looks\[0\].token: must be one of 'BIRTH', 'FLOWER'"),
        ("discarded", {"YUMMY": 1}, "only Super Yummy"),
        ("extra", 1, r"\$: unknown key 'extra'"),
        ("holdings", KeyError, r"\$: missing 'holdings'"),
        ("turn.number", KeyError, r"\$.turn: missing 'number'"),
    ],
)
def test_corrupt_states_are_refused(path: str, value: Any, message: str) -> None:
    data = corrupt(path, value)
    with pytest.raises(StateFormatError, match=message):
        GAME.state_from_dict(data)


def test_a_finished_game_must_say_so() -> None:
    data = example_state()
    data["grass"] = []
    data["bag"] = {}
    data["holdings"]["blue"]["tokens"]["YUMMY"] += 5
    data["holdings"]["orange"]["tokens"].update({"BIRTH": 3, "FLOWER": 3, "STODGY": 3, "SUPER_YUMMY": 3})
    with pytest.raises(StateFormatError, match="no result"):
        GAME.state_from_dict(data)
    data["result"] = {"reason": "no grass token is left", "rule": "JB-END-NO-GRASS"}
    assert GAME.state_from_dict(data).is_terminal()


def test_correct_replaces_the_state_after_validation() -> None:
    state = GAME.state_from_dict(example_state())
    fixed = example_state()
    fixed["raptor"] = [5, 0]
    corrected = state.apply(Correct(fixed, "the raptor was knocked over"))
    assert isinstance(corrected, BrunchState) and corrected.raptor == (5, 0) and state.raptor == (3, 1)
    with pytest.raises(StateFormatError):
        state.apply(Correct({**fixed, "raptor": [0, 1]}, "bad"))


@pytest.mark.parametrize(
    "action",
    [
        Move((0, 1), (0, 3), True), Move((0, 1), (0, 3)), Charge((1, 2), (5, 2)),
        RaptorMove((3, 1), (4, 2), True), Wake((0, 2)), Reveal("SUPER_YUMMY"), Look(((1, 1), (2, 2))),
        EndTurn(),
    ],
)
def test_actions_round_trip_with_the_issue_7_keys(action: Any) -> None:
    data = action.to_dict()
    if action.kind in ("move", "charge", "raptor"):
        assert "from" in data and "origin" not in data
    assert GAME.action_from_dict(json.loads(json.dumps(data))) == action


def test_action_json_is_checked() -> None:
    assert GAME.action_from_dict({"kind": "move", "from": [0, 0], "to": [0, 3], "eats": True}) == Move(
        (0, 0), (0, 3), True
    )
    for bad in (
        {"kind": "move", "from": [0], "to": [0, 3]},
        {"kind": "move", "from": [0, 0], "to": [0, "3"]},
        {"kind": "move", "from": [0, 0], "to": [0, 3], "eats": "yes"},
        {"kind": "charge", "from": [0, 0]},
        {"kind": "look", "cells": [[0, 0], 5]},
        {"kind": "teleport"},
    ):
        with pytest.raises(StateFormatError):
            GAME.action_from_dict(bad)


def test_shared_view_hides_face_down_and_hidden_tokens() -> None:
    state = GAME.state_from_dict(example_state())
    shared = state.view(None)
    text = json.dumps(shared)
    assert "bag" not in shared
    assert shared["holdings"]["blue"] == {"tokens": 3, "hideouts": 1, "hidden": 3}
    assert shared["holdings"]["orange"] == {"tokens": 7, "hideouts": 1, "hidden": 0}
    assert "TRAP" not in text and "STODGY" not in text and "score" not in shared
    assert shared["grass_left"] == 13 and len(shared["grass"]) == 13
    own = state.view("blue")
    assert own["holdings"]["blue"]["hidden"] == {"FLOWER": 1, "YUMMY": 2}
    assert own["holdings"]["orange"] == shared["holdings"]["orange"]
    assert own["score"]["total"] == state.scores().scores["blue"]
