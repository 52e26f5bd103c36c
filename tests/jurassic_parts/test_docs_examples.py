"""The example files in docs/examples are live: the engine still produces the documented outputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.jurassic_parts import GAME, split_ruling

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def load(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_split_examples() -> None:
    assert split_ruling(load("jurassic-parts-split.json")) == load("jurassic-parts-split-output.json")
    ruling = load("jurassic-parts-split-output.json")
    assert [e["takes"] for e in ruling["options"][0]["ranking"]] == [5, 2, 1]
    assert ruling["options"][0]["field_leader"] == 1
    equal = split_ruling(load("jurassic-parts-split-equal.json"))
    assert equal == load("jurassic-parts-split-equal-output.json")


def test_score_example() -> None:
    assert GAME.score_report(load("jurassic-parts-score.json")) == load("jurassic-parts-score-output.json")


def test_state_and_legal_examples() -> None:
    data = load("jurassic-parts-state.json")
    state = GAME.state_from_dict(data)
    assert state.to_dict() == data
    assert GAME.legal_report(data) == load("jurassic-parts-state-legal.json")


def test_layout_example_starts_a_game() -> None:
    data = load("jurassic-parts-layout.json")
    state = GAME.state_from_layout(data["players"], data["tiles"], first_player=data["first_player"])
    assert state.slab_count == 58 and state.current_player() == "red"
    face_down = sum(1 for tile in data["tiles"] if not tile["face_up"])
    assert 28 <= face_down <= 29
