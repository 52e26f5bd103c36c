"""`companion score isla-nublar FILE` and `companion legal isla-nublar FILE`, through companion.cli.main."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def run(capsys: Any, monkeypatch: Any, args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def ok(capsys: Any, monkeypatch: Any, args: list[str], stdin: str | None = None) -> Any:
    status, out, err = run(capsys, monkeypatch, args, stdin)
    assert status == 0 and err == "", err
    return json.loads(out)


def bad(capsys: Any, monkeypatch: Any, args: list[str], stdin: str | None = None) -> str:
    status, out, err = run(capsys, monkeypatch, args, stdin)
    assert status == 2 and out == "", out
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n")
    return err


def test_every_isla_nublar_example_file_is_accepted(capsys: Any, monkeypatch: Any) -> None:
    files = sorted(EXAMPLES.glob("isla-nublar-*.json"))
    assert len(files) >= 5
    for path in files:
        ok(capsys, monkeypatch, ["score", "isla-nublar", str(path)])
        if "position" not in path.name:
            ok(capsys, monkeypatch, ["legal", "nublar", str(path)])


def test_example_states_are_what_the_engine_writes() -> None:
    # the documented examples follow the current state format (every option, every pool)
    from engines.isla_nublar import GAME

    for path in sorted(EXAMPLES.glob("isla-nublar-*.json")):
        data = json.loads(path.read_text())
        if "position" in data:
            continue
        state = data["state"] if "state" in data and "game" not in data else data
        assert GAME.state_from_dict(state).to_dict() == state, path.name


def test_score_of_the_connections_example(capsys: Any, monkeypatch: Any) -> None:
    result = ok(capsys, monkeypatch, ["score", "isla-nublar", str(EXAMPLES / "isla-nublar-connections.json")])
    assert result["scoring_cards"]["W-CONNECTIONS"]["points"]["red"] == 6  # "Red gets 6 points"
    assert "W-CONNECTIONS" in result["active_scoring"]
    assert result["players"]["blue"] == {"total": 9, "breakdown": {"camp areas": 5, "scoring cards": 4}}
    assert result["winners"] == ["blue"]


def test_score_of_a_typed_position(capsys: Any, monkeypatch: Any) -> None:
    result = ok(capsys, monkeypatch, ["score", "isla-nublar", str(EXAMPLES / "isla-nublar-position.json")])
    cards = result["scoring_cards"]
    assert cards["W-CONNECTIONS"]["points"] == {"red": 6, "blue": 2, "green": 0}
    assert cards["W-FOREFRONT"]["points"] == {"red": 5, "blue": 6, "green": 5}
    assert cards["W-GROUPS"]["points"]["blue"] == 6
    assert result["players"]["blue"]["total"] == 11 and result["winners"] == ["blue"]


def test_legal_lists_the_dinosaur_moves_and_explains_one(capsys: Any, monkeypatch: Any) -> None:
    result = ok(
        capsys, monkeypatch, ["legal", "isla-nublar", str(EXAMPLES / "isla-nublar-dinosaur-move.json")]
    )
    assert result["to_move"] == "red" and result["pending"] == "dino-move"
    assert [a["steps"] for a in result["actions"]] == [1, 2]
    explained = ok(capsys, monkeypatch, ["legal", "isla-nublar", str(EXAMPLES / "isla-nublar-explain.json")])
    assert explained["explanation"]["legal"] is False
    assert explained["explanation"]["rules"][0]["id"] == "IN-DINO-END"
    assert "skip" in explained["explanation"]["summary"]


def test_legal_at_a_chance_node_lists_the_outcomes(capsys: Any, monkeypatch: Any) -> None:
    from engines.isla_nublar.actions import PlayCard

    data = json.loads((EXAMPLES / "isla-nublar-connections.json").read_text())
    from engines.isla_nublar import GAME

    state = GAME.state_from_dict(data).apply(PlayCard(player="red", card="EGG", use="egg"))
    result = ok(capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps(state.to_dict()))
    assert result["to_move"] == "<chance>"
    assert sum(c["probability"] for c in result["chance"]) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        ("{not json", "malformed JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"game": "isla-nublar", "format": 1}', "players"),
        ('{"game": "jurassik", "format": 1}', "not a isla-nublar state"),
        ('{"position": {"players": ["red"]}}', "2-4 players"),
        ('{"position": {"players": ["red", "blue"], "fields": {"C9R9": {"camps": ["red"]}}}}', "C9R9"),
        (
            '{"position": {"players": ["red", "blue"], "fields": {"C3R3": {"boxes": {"red": 7}}}}}',
            "more boxes",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: Any, monkeypatch: Any, stdin: str, fragment: str) -> None:
    err = bad(capsys, monkeypatch, ["score", "isla-nublar", "-"], stdin)
    assert fragment in err


def test_bad_state_and_bad_action_for_legal(capsys: Any, monkeypatch: Any) -> None:
    data = json.loads((EXAMPLES / "isla-nublar-start.json").read_text())
    data["fields"]["C3R3"] = {"camps": ["red", "red", "red", "red"]}
    assert "at most 3" in bad(capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps(data))
    start = json.loads((EXAMPLES / "isla-nublar-start.json").read_text())
    asking = {"state": start, "action": {"kind": "fly", "player": "red"}}
    assert "unknown action kind" in bad(
        capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps(asking)
    )
    position = (EXAMPLES / "isla-nublar-position.json").read_text()
    assert "full isla-nublar state" in bad(capsys, monkeypatch, ["legal", "isla-nublar", "-"], position)
    assert "cannot read" in bad(capsys, monkeypatch, ["score", "isla-nublar", "/nonexistent/x.json"])


@pytest.mark.parametrize(
    ("position", "fragment"),
    [
        ({"scoring_row": [["W-GROUPS"], "W-RIVER", "W-STACKS", "W-COLUMNS", "W-VARIETY"]}, "scoring_row"),
        ({"scoring_row": [{"a": 1}, "W-RIVER", "W-STACKS", "W-COLUMNS", "W-VARIETY"]}, "scoring_row"),
        ({"dinosaurs": {"DINO-1": ["C3R3"], "DINO-2": "C2R0", "DINO-3": "C4R0", "DINO-4": "C5R0"}}, "DINO-1"),
        ({"fields": {"C3R3": {"camps": [["red"]]}}}, "C3R3"),
    ],
)
def test_unhashable_values_in_a_position_are_input_errors(
    capsys: Any, monkeypatch: Any, position: dict[str, Any], fragment: str
) -> None:
    data = {"game": "isla-nublar", "position": {"players": ["red", "blue"], **position}}
    assert fragment in bad(capsys, monkeypatch, ["score", "isla-nublar", "-"], json.dumps(data))


def test_a_pending_task_missing_a_key_is_a_state_error(capsys: Any, monkeypatch: Any) -> None:
    data = json.loads((EXAMPLES / "isla-nublar-dinosaur-move.json").read_text())
    del data["tasks"][0]["dino"]  # the state format documents "dino": null for "any figure"
    report = ok(capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps(data))
    assert report["pending"] == "dino-move" and report["count"] > 0
    data["tasks"] = [{"t": "improve", "player": "red", "extra": 2, "exclude": "A5-IMPROVE"}]
    assert "exclude" in bad(capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps(data))


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "move-dinosaur", "player": "red", "dinosaur": "DINO-2", "steps": None},
        {"kind": "move-dinosaur", "player": "red", "dinosaur": "DINO-2", "steps": "2"},
        {"kind": "move-dinosaur", "player": "red", "dinosaur": "DINO-2", "steps": True},
        {"kind": "move-dinosaur", "player": "red", "dinosaur": ["DINO-2"], "steps": 1},
        {"kind": "build-camp", "player": "red", "field": "C3R3", "take_back": 1.5},
        {"kind": "play", "player": {"x": 1}, "card": "EGG", "use": "egg"},
    ],
)
def test_action_fields_of_the_wrong_type_are_input_errors(
    capsys: Any, monkeypatch: Any, action: dict[str, Any]
) -> None:
    state = json.loads((EXAMPLES / "isla-nublar-dinosaur-move.json").read_text())
    err = bad(
        capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps({"state": state, "action": action})
    )
    assert "must be" in err


def test_a_correction_with_a_broken_state_names_it(capsys: Any, monkeypatch: Any) -> None:
    state = json.loads((EXAMPLES / "isla-nublar-start.json").read_text())
    broken = {"kind": "correct", "state": {"game": "isla-nublar"}, "reason": "re-seen"}
    err = bad(
        capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps({"state": state, "action": broken})
    )
    assert "the corrected state" in err
    fixed = {"kind": "correct", "state": state, "reason": "re-seen"}
    report = ok(
        capsys, monkeypatch, ["legal", "isla-nublar", "-"], json.dumps({"state": state, "action": fixed})
    )
    assert report["explanation"]["legal"] is True
