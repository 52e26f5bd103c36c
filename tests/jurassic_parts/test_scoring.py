"""Final scoring, Piles of Bones, completing dinosaurs, the tie-break chain, and `companion score`."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.cli import main
from engines.core import IllegalAction, InputError
from engines.jurassic_parts import GAME, CommitBones, EndTurn
from engines.jurassic_parts.components import KIND_OF


def report(*players: tuple[str, list[str], int]) -> dict[str, Any]:
    return GAME.score_report({"players": [{"name": n, "tiles": t, "amber": a} for n, t, a in players]})


def test_the_issue_example_scores() -> None:
    result = report(("red", ["TREX-1", "PLANT", "PTERO", "BONES", "BONES:RAPTOR-2"], 3))
    red = result["players"]["red"]
    # no real Velociraptor: the committed Pile of Bones cannot make one, it scores as a loose tile
    assert red["breakdown"] == {"dinosaurs": 0, "pterodactyls": 1, "plants": 1, "loose": 3, "amber": 3}
    assert red["total"] == 8 and result["winners"] == ["red"]


def test_golden_full_holding() -> None:
    tiles = [f"BRACHIO-{i}" for i in range(1, 6)] + ["TREX-1", "TREX-2", "TREX-3", "BONES"]
    tiles += ["PLANT"] * 4 + ["PTERO"] * 2 + ["RAPTOR-1"]
    blue = report(("blue", tiles, 2))["players"]["blue"]
    assert blue["breakdown"] == {"dinosaurs": 25, "pterodactyls": 2, "plants": 8, "loose": 1, "amber": 2}
    assert blue["total"] == 38
    assert blue["bones_placed"] == ["BONES:TREX-4"]
    assert blue["complete"] == {"BRACHIO": 1, "TREX": 1, "TRICERA": 0, "RAPTOR": 0}


@pytest.mark.parametrize(
    ("tiles", "total"),
    [
        (["BONES", "BRACHIO-1", "BRACHIO-2", "BRACHIO-3", "BRACHIO-4", "TRICERA-1", "TRICERA-2"], 17),
        (["BONES", "BONES", "RAPTOR-1", "RAPTOR-1"], 8),
        (["BONES"], 1),
        (["BONES", "BONES", "BONES", "PTERO"], 4),  # no real tile of any dinosaur: Bones stay loose
        (["PLANT"] * 10, 35),
        (["PLANT"] * 3, 5),
        (["TRICERA-1", "TRICERA-2", "TRICERA-3", "TRICERA-1", "TRICERA-2"], 9),
        (["TREX-1", "TREX-2", "TREX-3", "BONES:TREX-4", "TREX-1"], 11),
        (["BONES:TREX-4", "BONES:TREX-3", "TREX-1", "TREX-2", "BONES"], 11),  # the spare Bones: 1
    ],
)
def test_golden_totals(tiles: list[str], total: int) -> None:
    assert report(("p", tiles, 0))["players"]["p"]["total"] == total


def test_tie_break_chain() -> None:
    result = report(("a", ["TRICERA-1", "TRICERA-2", "TRICERA-3"], 0), ("b", ["PLANT"] * 3, 2))
    assert result["players"]["a"]["total"] == result["players"]["b"]["total"] == 7
    assert result["winners"] == ["a"]  # a complete 3-tile dinosaur beats none
    result = report(("a", ["RAPTOR-1", "RAPTOR-2", "PLANT"], 0), ("b", ["PTERO"] * 5, 0))
    assert result["winners"] == ["a"]
    result = report(("a", ["PTERO", "PTERO", "PLANT"], 1), ("b", ["PTERO", "PLANT", "PLANT"], 1))
    assert result["players"]["a"]["total"] == 4 and result["players"]["b"]["total"] == 5
    assert result["winners"] == ["b"]
    result = report(("a", ["PTERO", "PLANT"], 1), ("b", ["PLANT", "PTERO"], 1))
    assert result["winners"] == ["a", "b"]  # truly tied


def _bad_score_inputs() -> dict[str, Any]:
    return {
        "not an object": [1],
        "no players": {"players": []},
        "no name": {"players": [{"tiles": []}]},
        "duplicate": {"players": [{"name": "a", "tiles": []}, {"name": "a", "tiles": []}]},
        "tiles not a list": {"players": [{"name": "a", "tiles": "PLANT"}]},
        "unknown tile": {"players": [{"name": "a", "tiles": ["DODO"]}]},
        "bad amber": {"players": [{"name": "a", "tiles": [], "amber": -1}]},
        "too many plants": {"players": [{"name": "a", "tiles": ["PLANT"] * 6},
                                        {"name": "b", "tiles": ["PLANT"] * 5}]},
        "too many bones": {"players": [{"name": "a", "tiles": ["BONES", "BONES", "BONES:TREX-1", "BONES"]}]},
        "too much amber": {"players": [{"name": "a", "tiles": [], "amber": 21}]},
    }


@pytest.mark.parametrize("case", sorted(_bad_score_inputs()))
def test_bad_score_input(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _bad_score_inputs()[case]
    with pytest.raises(InputError):
        GAME.score_report(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["score", "jurassic-parts", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1


def test_score_cli_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"players": [{"name": "red", "tiles": ["TREX-1", "PLANT", "PTERO", "BONES", "BONES:RAPTOR-2"],
                         "amber": 3}, {"name": "blue", "tiles": ["PLANT", "PLANT"], "amber": 0}]}
    path = tmp_path / "score.json"
    path.write_text(json.dumps(data))
    assert main(["score", "jurassic-parts", str(path)]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert err == "" and result["winners"] == ["red"]
    assert set(result["players"]) == {"red", "blue"} and result["players"]["blue"]["total"] == 3
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(data)))
    assert main(["score", "jp", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == result
    path.write_text("{")
    assert main(["score", "jurassic-parts", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "malformed JSON" in err


# -- in play ---------------------------------------------------------------------------------------------


def _holding(jp: SimpleNamespace, loose: dict[str, int], amber: int = 0) -> Any:
    state = jp.build(["red", "blue"], [(q, r, "PLANT") for q, r in jp.hexagon(1)])

    def change(data: dict[str, Any]) -> None:
        data["seats"]["red"]["loose"] = loose
        data["seats"]["red"]["amber"] = amber
        data["field_leader"]["amber"] -= amber

    return jp.edit(state, change)


def test_committing_a_pile_of_bones_completes_and_earns_amber(jp: SimpleNamespace) -> None:
    state = _holding(jp, {"TREX-1": 1, "TREX-2": 1, "TREX-3": 1, "BONES": 2, "RAPTOR-1": 2, "RAPTOR-2": 1})
    commits = {a.part for a in state.legal_actions() if isinstance(a, CommitBones)}
    assert commits == {"TREX-4", "RAPTOR-2"}
    for part in ("TRICERA-1", "TREX-1", "PTERO", "PLANT"):
        with pytest.raises(IllegalAction) as refusal:
            state.apply(CommitBones("red", part))
        assert refusal.value.rule.rule_id == "JP-BONES"
    state = state.apply(CommitBones("red", "TREX-4"))
    assert state.complete[0][1] == 1 and state.amber[0] == 1
    assert state.to_dict()["seats"]["red"]["in_complete"] == {
        "TREX-1": 1, "TREX-2": 1, "TREX-3": 1, "BONES:TREX-4": 1}
    # a committed Pile of Bones cannot be sold or moved
    assert state.loose[0][KIND_OF["BONES"]] == 1


def test_uncommitted_bones_are_placed_at_the_end(jp: SimpleNamespace) -> None:
    state = _holding(jp, {"BONES": 1, "TRICERA-1": 1, "TRICERA-2": 1}, amber=2)
    scores = state.scores()
    assert scores.scores["red"] == 7 + 2
    assert scores.breakdown["red"]["dinosaurs"] == 7
    assert scores.tiebreak["red"]["TRICERA"] == 1


def test_completing_earns_amber_only_while_the_supply_lasts(jp: SimpleNamespace) -> None:
    state = _holding(jp, {"TRICERA-1": 1, "TRICERA-2": 1, "BONES": 1})

    def empty(data: dict[str, Any]) -> None:
        data["seats"]["blue"]["amber"] += data["field_leader"]["amber"]
        data["field_leader"]["amber"] = 0

    state = jp.edit(state, empty).apply(CommitBones("red", "TRICERA-3"))
    assert state.complete[0][2] == 1 and state.amber[0] == 0 and state.supply == 0
    state = state.apply(EndTurn("red"))
    assert state.current_player() == "blue"


def test_house_rule_bones_left_loose_at_the_end(jp: SimpleNamespace) -> None:
    tiles = [(q, r, "PLANT") for q, r in jp.hexagon(1)]
    state = jp.game.state_from_layout(
        ["red", "blue"],
        [{"cell": [q, r], "id": jp.ids_of(f)[i], "rocks": jp.NO_ROCKS} for i, (q, r, f) in enumerate(tiles)],
        options={"end_bones": "loose"},
    )

    def change(data: dict[str, Any]) -> None:
        data["seats"]["red"]["loose"] = {"BONES": 1, "TRICERA-1": 1, "TRICERA-2": 1}

    state = jp.edit(state, change)
    assert state.scores().scores["red"] == 3
    assert state.to_dict()["options"]["end_bones"] == "loose"


def test_score_report_takes_a_full_state(jp: SimpleNamespace) -> None:
    state = _holding(jp, {"TRICERA-1": 1, "TRICERA-2": 1, "TRICERA-3": 1, "PLANT": 2}, amber=1)
    result = GAME.score_report(state.to_dict())
    assert result["players"]["red"]["total"] == 7 + 3 + 1 and result["winners"] == ["red"]
    with pytest.raises(InputError):
        GAME.score_report({**state.to_dict(), "format": 9})


def test_bones_may_be_committed_while_taking_a_share(jp: SimpleNamespace) -> None:
    from engines.jurassic_parts import PlaceChisel, TakeTile

    state = _holding(jp, {"BONES": 1, "TREX-1": 1})
    state = state.apply(PlaceChisel("red", (1, 0), (0, 0)))
    state = jp.play(state, PlaceChisel("red", (1, 0), (1, -1)), PlaceChisel("red", (1, 0), (0, 1)))
    assert state.to_dict()["turn"]["phase"] == "take" and state.current_player() == "red"
    legal = state.legal_actions()
    assert TakeTile("red", (1, 0)) in legal and CommitBones("red", "TREX-2") in legal
    state = state.apply(CommitBones("red", "TREX-2"))
    assert state.to_dict()["turn"]["phase"] == "take" and state.loose[0][KIND_OF["BONES:TREX-2"]] == 1
    state = state.apply(TakeTile("red", (1, 0)))
    assert state.to_dict()["turn"]["phase"] == "main"
