"""`companion score|legal jurassic-brunch FILE`: input formats and answers."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

SQUARE = [[x, y] for y in range(6) for x in range(6)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def run_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, data: Any
) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run(capsys, command, "jurassic-brunch", "-")


def test_score_example_file_tie_broken_by_fewer_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "jurassic-brunch", str(EXAMPLES / "jurassic-brunch-score.json"))
    assert status == 0 and err == ""
    result = json.loads(out)
    assert result == {
        "players": {
            "blue": {"total": 13, "breakdown": {"HIDEOUT": 1, "FLOWER": 1, "TRAP": 3, "YUMMY": 8}},
            "orange": {
                "total": 13,
                "breakdown": {"HIDEOUT": 1, "FLOWER": 2, "STODGY": 3, "SUPER_YUMMY": 1, "YUMMY": 6},
            },
        },
        "winners": ["blue"],
        "tiebreak": {"tokens": {"blue": 7, "orange": 8}},
        "reason": "blue and orange tie on 13 points; blue wins with fewer tokens (7 against 8)",
    }


def test_score_from_stdin_with_the_issue_example(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"players": [{"name": "blue", "tokens": ["YUMMY", "STODGY"], "on_area": 3},
                        {"name": "orange", "tokens": ["YUMMY"], "on_area": 2}]}
    status, out, _ = run_stdin(capsys, monkeypatch, "score", data)
    assert status == 0
    assert json.loads(out) == {
        "players": {"blue": {"total": 5, "breakdown": {"STODGY": 3, "YUMMY": 2}},
                    "orange": {"total": 2, "breakdown": {"YUMMY": 2}}},
        "winners": ["blue"],
        "tiebreak": {},
        "reason": "blue has the most points (5)",
    }


def test_score_outright_loss_with_none_on_the_area(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = {"players": [{"name": "orange", "tokens": ["YUMMY"] * 6, "on_area": 0},
                        {"name": "blue", "tokens": ["flower"], "on_area": 1}]}
    status, out, _ = run_stdin(capsys, monkeypatch, "score", data)
    result = json.loads(out)
    assert status == 0 and result["winners"] == ["blue"] and result["players"]["orange"]["total"] == 12
    assert result["reason"] == "orange has no triceratops on the playing area and loses outright"


def test_score_shared_victory(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"players": [{"name": "blue", "tokens": ["STODGY", "BIRTH"], "on_area": 4},
                        {"name": "orange", "tokens": ["YUMMY", "YUMMY"], "on_area": 4}]}
    _, out, _ = run_stdin(capsys, monkeypatch, "score", data)
    assert json.loads(out)["winners"] == ["blue", "orange"]
    assert "share the win" in json.loads(out)["reason"]


@pytest.mark.parametrize(
    "data",
    [
        "{not json",
        [],
        {"players": []},
        {"players": [{"name": "blue", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": [], "on_area": 1},
                     {"name": "blue", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": ["CAKE"], "on_area": 1},
                     {"name": "orange", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": ["TRAP"], "on_area": 1},
                     {"name": "orange", "tokens": ["TRAP"], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": [], "on_area": 6},
                     {"name": "orange", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": "YUMMY", "on_area": 1},
                     {"name": "orange", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": [], "on_area": True},
                     {"name": "orange", "tokens": [], "on_area": 1}]},
        {"players": [{"name": "blue", "tokens": []}, {"name": "orange", "tokens": [], "on_area": 1}]},
    ],
)
def test_score_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: Any
) -> None:
    status, out, err = run_stdin(capsys, monkeypatch, "score", data)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_score_of_a_full_engine_state(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "jurassic-brunch", str(EXAMPLES / "jurassic-brunch-state.json"))
    assert status == 0
    result = json.loads(out)
    # blue: Hideout 1 + Trap 3 + Yummy 2x2 + hidden Flower 1 + hidden Yummy 2x2 = 13
    assert result["players"]["blue"] == {"total": 13, "breakdown": {"HIDEOUT": 1, "FLOWER": 1, "TRAP": 3,
                                                                     "YUMMY": 8}}
    assert result["players"]["orange"]["total"] == 13 and result["winners"] == ["blue"]


def test_score_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "score", "jurassic-brunch", str(tmp_path / "nope.json"))
    assert status == 2 and out == "" and err.count("\n") == 1


def test_legal_example_position(capsys: pytest.CaptureFixture[str]) -> None:
    position = str(EXAMPLES / "jurassic-brunch-position.json")
    status, out, err = run(capsys, "legal", "jurassic-brunch", position)
    assert status == 0 and err == ""
    actions = json.loads(out)["actions"]
    assert {"kind": "wake", "at": [0, 2]} in actions
    assert {"kind": "move", "from": [3, 5], "to": [4, 5], "eats": True} in actions
    assert {"kind": "charge", "from": [4, 2], "target": [5, 2]} in actions
    assert {"kind": "raptor", "from": [3, 1], "to": [4, 2], "scares": True} in actions
    assert not any(a["kind"] == "end_turn" for a in actions)
    assert all(set(a) <= {"kind", "from", "to", "eats", "target", "scares", "at"} for a in actions)


def small_position(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = {
        "cells": [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [1, 1]],  # an L
        "grass": [[3, 0]],
        "triceratops": [{"owner": "blue", "at": [0, 0], "asleep": False},
                        {"owner": "orange", "at": [1, 1], "asleep": True}],
        "raptor": [0, 1],
        "current": "blue",
        "actions_left": 2,
        "raptor_moved": False,
    }
    position.update(changes)
    return position


def test_legal_small_l_position_lists_exactly_the_actions(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_stdin(capsys, monkeypatch, "legal", small_position())
    assert status == 0
    assert json.loads(out) == {"to_play": "blue", "actions": [
        {"kind": "move", "from": [0, 0], "to": [3, 0], "eats": True},
        {"kind": "charge", "from": [0, 0], "target": [0, 1]},
        {"kind": "raptor", "from": [0, 1], "to": [1, 1], "scares": True},
        {"kind": "raptor", "from": [0, 1], "to": [0, 0], "scares": True},  # its own triceratops too
        {"kind": "raptor", "from": [0, 1], "to": [1, 0], "scares": False},  # diagonal at the L's corner
    ]}


def test_legal_house_rule_raptor_moved_and_no_actions_left(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    position = small_position(raptor_moved=True, options={"charge_blocked_by_grass": True})
    _, out, _ = run_stdin(capsys, monkeypatch, "legal", position)
    kinds = [a["kind"] for a in json.loads(out)["actions"]]
    assert kinds == ["move", "charge"]
    spent = small_position(actions_left=0, tokens={"blue": ["SUPER_YUMMY", "HIDEOUT", "YUMMY"]},
                           hidden={"blue": ["STODGY"]})
    _, out, _ = run_stdin(capsys, monkeypatch, "legal", spent)
    assert json.loads(out)["actions"] == [
        {"kind": "super_yummy"}, {"kind": "hide", "token": "SUPER_YUMMY"}, {"kind": "hide", "token": "YUMMY"},
        {"kind": "end_turn"},
    ]


def test_legal_accepts_a_full_engine_state(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "legal", "jurassic-brunch", str(EXAMPLES / "jurassic-brunch-state.json"))
    # orange has spent its actions in the example: only free steps and ending the turn
    assert status == 0 and json.loads(out)["actions"][-1] == {"kind": "end_turn"}


@pytest.mark.parametrize(
    "changes",
    [
        {"cells": []},
        {"cells": [[0, 0], [0, 0]]},
        {"grass": [[9, 9]]},
        {"grass": [[0, 0]]},
        {"triceratops": [{"owner": "green", "at": [0, 0]}]},
        {"triceratops": [{"owner": "blue", "at": [0, 0]}, {"owner": "blue", "at": [0, 0]}]},
        {"triceratops": [{"owner": "blue", "at": [0, 0], "asleep": "no"}]},
        {"raptor": [0, 0]},
        {"raptor": [1.5, 0]},
        {"current": "red"},
        {"actions_left": -1},
        {"actions_left": "2"},
        {"raptor_moved": 1},
        {"colour": "x"},
        {"tokens": {"blue": ["TRAP", "TRAP"]}},
        {"hidden": {"blue": ["YUMMY"]}},
        {"options": {"fly": True}},
    ],
)
def test_legal_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any]
) -> None:
    status, out, err = run_stdin(capsys, monkeypatch, "legal", small_position(**changes))
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_legal_missing_key_and_bad_engine_state(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    position = small_position()
    del position["current"]
    status, out, err = run_stdin(capsys, monkeypatch, "legal", position)
    assert status == 2 and out == "" and "current" in err
    state = json.loads((EXAMPLES / "jurassic-brunch-state.json").read_text())
    state["pool"]["blue"] = 4
    status, out, err = run_stdin(capsys, monkeypatch, "legal", state)
    assert status == 2 and out == "" and "accounted for" in err and err.count("\n") == 1


def test_legal_in_a_finished_position_is_empty(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run_stdin(capsys, monkeypatch, "legal", small_position(grass=[]))
    assert json.loads(out) == {"to_play": None, "actions": []}
