"""`companion score jurassik FILE` and `companion legal jurassik FILE`, through companion.cli.main."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str],
        stdin: str | None = None) -> tuple[int, str, str]:
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
    assert status == 2 and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("error: ")
    return err


def test_score_contract_from_the_issue(capsys: Any, monkeypatch: Any, tmp_path: Path) -> None:
    path = tmp_path / "holdings.json"
    path.write_text(json.dumps({"players": [{"name": "ana", "tiles": ["D1-1", "D1-2", "D3-4"]},
                                            {"name": "ben", "tiles": ["D2-1"]}]}))
    result = ok(capsys, monkeypatch, ["score", "jurassik", str(path)])
    assert result == {"players": {"ana": {"total": 4, "breakdown": {"D1": 3, "D3": 1}},
                                  "ben": {"total": 1, "breakdown": {"D2": 1}}},
                      "winners": ["ana"]}


def test_score_reads_standard_input_and_shares_the_win(capsys: Any, monkeypatch: Any) -> None:
    holdings = {"players": [{"name": "ana", "tiles": ["D1-1", "D1-2", "D1-3", "D1-4L"]},
                            {"name": "ben", "tiles": ["D2-1", "D2-2", "D2-3", "D2-4"]},
                            {"name": "cy", "tiles": []}]}
    result = ok(capsys, monkeypatch, ["score", "jurassik", "-"], json.dumps(holdings))
    assert result["winners"] == ["ana", "ben"]
    assert result["players"]["ana"] == {"total": 10, "breakdown": {"D1": 10}}
    assert result["players"]["cy"] == {"total": 0, "breakdown": {}}


@pytest.mark.parametrize("stdin", [
    "{not json",
    "[]",
    '{"players": []}',
    '{"players": [{"name": "ana"}]}',
    '{"players": [{"name": "", "tiles": []}]}',
    '{"players": [{"name": "ana", "tiles": ["D11-1"]}]}',
    '{"players": [{"name": "ana", "tiles": ["D1-5"]}]}',
    '{"players": [{"name": "ana", "tiles": [7]}]}',
    '{"players": [{"name": "ana", "tiles": ["D1-1", "D1-1"]}]}',
    '{"players": [{"name": "ana", "tiles": ["D1-1"]}, {"name": "ben", "tiles": ["D1-1L"]}]}',
    '{"players": [{"name": "ana", "tiles": []}, {"name": "ana", "tiles": []}]}',
    '{"players": [{"name": "ana", "tiles": [], "hat": 1}]}',
    '{"players": [], "extra": 1}',
])
def test_score_bad_input_exits_2_with_one_line(capsys: Any, monkeypatch: Any, stdin: str) -> None:
    bad(capsys, monkeypatch, ["score", "jurassik", "-"], stdin)


def test_score_missing_file(capsys: Any, monkeypatch: Any, tmp_path: Path) -> None:
    assert "cannot read" in bad(capsys, monkeypatch, ["score", "jurassik", str(tmp_path / "none.json")])


def test_legal_lists_the_actions_of_the_documented_example(capsys: Any, monkeypatch: Any) -> None:
    result = ok(capsys, monkeypatch, ["legal", "jurassik", str(EXAMPLES / "jurassik-state.json")])
    assert result["to_play"] == "cy" and result["phase"] == "take"
    assert result["actions"] and all(a["kind"] == "take" and a["player"] == "cy" for a in result["actions"])
    assert [[a["row"], a["col"]] for a in result["actions"]] == result["accessible"]


def test_legal_at_a_chance_node_and_at_the_end(capsys: Any, monkeypatch: Any) -> None:
    state = {"game": "jurassik", "format": 1, "players": ["ana", "ben"], "phase": "reveal",
             "reveal_cell": [0, 1], "grid": [[None, "?", "D1-1"]]}
    result = ok(capsys, monkeypatch, ["legal", "jurassik", "-"], json.dumps(state))
    assert result["to_play"] == "<chance>"
    assert sum(c["probability"] for c in result["chance"]) == pytest.approx(1.0)
    faces = {c["action"]["face"] for c in result["chance"]}
    assert faces == {"rock", "discard", "exchange", "steal", "twice", "return"}
    over = {"game": "jurassik", "format": 1, "players": ["ana", "ben"], "grid": [["D1-1", "ROCK", None]],
            "hands": {"ana": ["D2-1", "D2-2"]}}
    result = ok(capsys, monkeypatch, ["legal", "jurassik", "-"], json.dumps(over))
    assert result["actions"] == [] and result["to_play"] == "<terminal>"
    assert result["outcome"]["winners"] == ["ana"] and result["outcome"]["players"]["ana"]["total"] == 3


@pytest.mark.parametrize("stdin", [
    "",
    '"state"',
    '{"game": "jurassik", "format": 1}',
    '{"game": "jurassik", "format": 1, "players": ["ana", "ben"], "grid": [["D1-1", "D1-1"]]}',
    '{"game": "jurassic-parts", "format": 1}',
])
def test_legal_bad_input_exits_2_with_one_line(capsys: Any, monkeypatch: Any, stdin: str) -> None:
    bad(capsys, monkeypatch, ["legal", "jurassik", "-"], stdin)


@pytest.mark.parametrize(("args", "golden"), [
    (["score", "jurassik", "jurassik-score.json"], "jurassik-score-output.json"),
    (["legal", "jurassik", "jurassik-state.json"], "jurassik-state-legal.json"),
    (["legal", "jurassik-es", "jurassik-es-steal.json"], "jurassik-es-steal-legal.json"),
])
def test_golden_examples(capsys: Any, monkeypatch: Any, args: list[str], golden: str) -> None:
    args = [*args[:2], str(EXAMPLES / args[2])]
    assert ok(capsys, monkeypatch, args) == json.loads((EXAMPLES / golden).read_text(encoding="utf-8"))


def test_the_documented_state_is_the_example_file() -> None:
    text = (EXAMPLES.parent / "jurassik.md").read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(block) == json.loads((EXAMPLES / "jurassik-state.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["jurassik-game-en.json", "jurassik-game-es.json"])
def test_golden_scripted_games(name: str) -> None:
    """Whole games worked out by hand from the rulebooks, replayed action by action."""
    from engines.core import get_game

    script = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    game = get_game("jurassik")
    state = game.state_from_dict(script["start"])
    for step in script["actions"]:
        assert not state.is_terminal()
        state = state.apply(game.action_from_dict(step))
    final, data = script["final"], state.to_dict()
    assert data["grid"] == final["grid"] and data["hands"] == final["hands"]
    assert data["box"]["actions"] == final["box_actions"]
    outcome = state.outcome()
    assert outcome is not None
    assert dict(outcome.scores) == final["scores"] and list(outcome.winners) == final["winners"]
    assert {n: dict(b) for n, b in outcome.breakdown.items()} == final["breakdown"]
    assert outcome.reason == final["end_reason"]
