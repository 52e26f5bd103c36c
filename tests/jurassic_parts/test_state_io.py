"""Views hide private information; to_dict / state_from_dict round-trip and validate; explain cites rules;
`companion legal jurassic-parts FILE`."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.cli import main
from engines.core import Correct, StateFormatError
from engines.jurassic_parts import GAME, EndTurn, PlaceChisel, TakeTile


def _table(jp: SimpleNamespace) -> Any:
    tiles = [(q, r, None if (q + r) % 2 else "*") for q, r in jp.hexagon(2)]
    state = jp.build(["red", "blue", "green"], tiles, cards={"red": ["BACKPACK"]})

    def change(data: dict[str, Any]) -> None:
        data["seats"]["red"]["loose"] = {"TREX-4": 1, "PLANT": 2, "PTERO": 1, "BONES": 1}

    return jp.edit(state, change)


def test_views_hide_concealed_tiles_cards_and_face_down_fossils(jp: SimpleNamespace) -> None:
    state = _table(jp)
    full = state.to_dict()
    assert full["seats"]["red"]["loose"] == {"TREX-4": 1, "PLANT": 2, "PTERO": 1, "BONES": 1}
    own = state.view("red")["seats"]["red"]
    assert own["loose"] == full["seats"]["red"]["loose"] and own["cards"] == ["BACKPACK"]
    for viewer in ("blue", None):
        seen = state.view(viewer)
        red = seen["seats"]["red"]
        assert red["loose"] == {"PLANT": 2, "PTERO": 1}  # plants and Pterodactyls are never concealed
        assert red["concealed"] == 2 and red["cards"] == [] and red["hidden_cards"] == 1
        assert "TREX-4" not in json.dumps(red)
        assert seen["viewer"] == viewer
    for tile in state.view(None)["slab"]:
        if not tile["face_up"]:
            assert tile["fossil"] is None and tile["id"] is None


def test_round_trip_in_every_phase(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, None), (2, 0, "PLANT"), (3, 0, "PTERO")])
    seen_phases = set()
    rng = random.Random(3)
    while not state.is_terminal():
        data = json.loads(json.dumps(state.to_dict()))
        again = GAME.state_from_dict(data)
        assert again.to_dict() == state.to_dict()
        assert again.legal_actions() == state.legal_actions()
        seen_phases.add(data["turn"]["phase"])
        if state.is_chance_node():
            action = state.chance_outcomes()[0][0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    assert GAME.state_from_dict(state.to_dict()).is_terminal()
    assert {"main", "keep"} <= seen_phases


CORRUPTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "wrong game": lambda d: d.update(game="jurassik"),
    "wrong format": lambda d: d.update(format=99),
    "duplicate players": lambda d: d.update(players=["red", "red", "green"]),
    "unknown first player": lambda d: d.update(first_player="pink"),
    "chisels lost": lambda d: d["seats"]["red"].update(dull=2),
    "amber created": lambda d: d["seats"]["blue"].update(amber=5),
    "unknown fossil held": lambda d: d["seats"]["red"]["loose"].update(DODO=1),
    "too many plants": lambda d: d["seats"]["red"]["loose"].update(PLANT=11),
    "two tiles on a cell": lambda d: d["slab"][1].update(cell=d["slab"][0]["cell"]),
    "fossil without face": lambda d: d["slab"][0].update(face_up=False),
    "id does not match fossil": lambda d: d["slab"][0].update(id="F58"),
    "duplicate id": lambda d: d["slab"][2].update(id=d["slab"][0]["id"], fossil=d["slab"][0]["fossil"]),
    "chisel not between neighbours": lambda d: d["chisels"].append(
        {"a": [0, 0], "b": [2, 0], "player": "red"}),
    "chisel of a stranger": lambda d: d["chisels"].append({"a": [0, 0], "b": [1, 0], "player": "pink"}),
    "unknown phase": lambda d: d["turn"].update(phase="nap"),
    "unknown active": lambda d: d["turn"].update(active="pink"),
    "seats missing": lambda d: d["seats"].pop("green"),
    "complete without tiles": lambda d: d["seats"]["red"].update(complete={"TREX": 1}),
    "unknown card": lambda d: d["seats"]["red"].update(cards=["JETPACK"]),
    "not an object": lambda d: d.update(slab="nothing"),
    "rotation out of range": lambda d: d["slab"][0].update(rotation=7),
    "pool without a split": lambda d: d["slab"][0].update(where="pool"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_states_are_refused(jp: SimpleNamespace, name: str) -> None:
    data = copy.deepcopy(_table(jp).to_dict())
    GAME.state_from_dict(copy.deepcopy(data))  # the uncorrupted state is fine
    CORRUPTIONS[name](data)
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(data)


def test_a_split_slab_must_be_being_resolved(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "PLANT"), (2, 0, "PLANT")])
    data = state.to_dict()
    data["chisels"] = [{"a": [0, 0], "b": [1, 0], "player": "red"}]
    data["seats"]["red"].update(sharp=2, on_slab=1)
    with pytest.raises(StateFormatError, match="split"):
        GAME.state_from_dict(data)


def test_correction_replaces_the_state(jp: SimpleNamespace) -> None:
    state = _table(jp)
    fixed = state.to_dict()
    fixed["seats"]["red"]["loose"] = {"PLANT": 3}
    corrected = state.apply(Correct(fixed, "a plant was miscounted"))
    assert corrected.to_dict()["seats"]["red"]["loose"] == {"PLANT": 3}
    assert state.to_dict()["seats"]["red"]["loose"]["PLANT"] == 2
    broken = copy.deepcopy(fixed)
    broken["seats"]["red"]["amber"] = 99
    with pytest.raises(StateFormatError):
        state.apply(Correct(broken, "nonsense"))


def test_explain_cites_the_rule(jp: SimpleNamespace) -> None:
    tiles = [(q, r, "*") for q, r in jp.hexagon(1)]
    state = jp.build(["red", "blue"], tiles, rocks={(0, 0): [True] * 6})
    legal = state.explain(PlaceChisel("red", (0, 0), (1, 0)))
    assert legal.legal and legal.details["cost"] == 2 and legal.details["rocky_sides"] == 1
    assert "JP-ROCKS" in [r.rule_id for r in legal.rules]
    poor = jp.play(state, PlaceChisel("red", (1, 0), (1, -1)), PlaceChisel("red", (-1, 0), (-1, 1)))
    refused = poor.explain(PlaceChisel("red", (0, 0), (1, 0)))
    assert not refused.legal and refused.rules[0].rule_id == "JP-ROCKS"
    assert "1, 2, or 3 Chisels" in refused.rules[0].passage
    assert refused.rules[0].cite().startswith("Break Apart Rocks (jurassic-parts.txt)")
    wrong = state.explain(TakeTile("red", (0, 0)))
    assert not wrong.legal and wrong.rules[0].rule_id == "JP-TURN"


def test_legal_report_and_cli(jp: SimpleNamespace, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "PLANT"), (0, 1, "PLANT")])
    report = GAME.legal_report(state.to_dict())
    assert report["player"] == "red" and report["phase"] == "main"
    kinds = sorted(a["kind"] for a in report["actions"])
    assert kinds == ["end-turn", "place-chisel", "place-chisel", "place-chisel"]
    assert GAME.action_from_dict(report["actions"][0]) in state.legal_actions()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state.to_dict()))
    assert main(["legal", "jurassic-parts", str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == report and err == ""
    path.write_text(json.dumps({**state.to_dict(), "format": 7}))
    assert main(["legal", "jurassic-parts", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1


def test_actions_round_trip_through_json(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(q, r, "*") for q, r in jp.hexagon(1)])
    for action in [*state.legal_actions(), EndTurn("blue")]:
        assert GAME.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_serialized_states_share_nothing_mutable_with_the_state(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(q, r, "*") for q, r in jp.hexagon(1)])
    state = jp.play(state, PlaceChisel("red", (1, 0), (0, 0)), PlaceChisel("red", (1, 0), (1, -1)),
                    PlaceChisel("red", (1, 0), (0, 1)))
    data = state.to_dict()
    data["last_split"]["ranking"].clear()
    data["seats"]["red"]["loose"]["PLANT"] = 9
    assert state.last_split is not None and state.last_split["ranking"]
    source = state.to_dict()
    restored = GAME.state_from_dict(source)
    source["last_split"]["field_leader"] = 99
    assert restored.last_split is not None and restored.last_split["field_leader"] == 0
