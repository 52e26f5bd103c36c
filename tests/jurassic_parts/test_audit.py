"""Audit findings (QA pass after the engine was finished): each test here failed before its fix.

Contract gaps in `companion split` / `companion score jurassic-parts`, Bones placement and the tie-break
chain, and a leak of concealed tiles through the views."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.cli import main
from engines.core import InputError
from engines.jurassic_parts import GAME, PlaceChisel, TakeTile, split_ruling
from engines.jurassic_parts.components import KIND_OF, N_KINDS, SPECIES
from engines.jurassic_parts.scoring import score_holding


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
         text: str) -> tuple[int, str, str]:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    status = main([*argv, str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def _pair(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": ["red", "blue"], "current": "red",
        "tiles": [{"id": f"F0{i + 1}", "q": i, "r": 0} for i in range(3)],
        "chisels": [{"a": "F01", "b": "F02", "player": "blue"}],
    }
    data.update(changes)
    return data


# -- companion split: inputs that used to get a confident ruling ------------------------------------------


def _hostile_split_inputs() -> dict[str, dict[str, Any]]:
    missing_chisels = _pair()
    del missing_chisels["chisels"]
    misspelt = _pair()
    misspelt["chisel"] = misspelt.pop("chisels")
    many = ["red", "blue", "green", "yellow", "purple", "orange", "pink"]
    row = [{"id": f"F{i + 1:02d}", "q": i, "r": 0} for i in range(15)]
    hexagon = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    ring = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if max(abs(q), abs(r), abs(q + r)) == 3]
    cells = hexagon + ring
    ids = {c: f"F{i + 1:02d}" for i, c in enumerate(cells)}
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    border = [(ids[c], ids[(c[0] + dq, c[1] + dr)]) for c in hexagon for dq, dr in steps
              if (c[0] + dq, c[1] + dr) in ids and (c[0] + dq, c[1] + dr) not in hexagon]
    return {
        # a whole slab was reported for a file without chisels, or with the key misspelt
        "no chisels key": missing_chisels,
        "misspelt chisels key": misspelt,
        "huge coordinates": _pair(tiles=[{"id": f"F0{i + 1}", "q": 10**30 + i, "r": 0} for i in range(3)]),
        "one player": _pair(players=["red"], chisels=[{"a": "F01", "b": "F02", "player": "red"}]),
        "seven players": _pair(players=many),
        "unencodable name": _pair(players=["red", "\ud800"],
                                  chisels=[{"a": "F01", "b": "F02", "player": "\ud800"}]),
        # a colour has 12 chisels: 13 of them on the slab is a misread colour, not a ruling
        "thirteen chisels of one colour": {
            "players": ["red", "blue"], "current": "red",
            "tiles": row + [{"id": f"F{i + 21:02d}", "q": i, "r": 1} for i in range(15)],
            "chisels": [{"a": f"F{i + 1:02d}", "b": f"F{i + 21:02d}", "player": "red"} for i in range(13)]},
        "thirty chisels of one colour around a hole": {
            "players": ["red", "blue"], "current": "red",
            "tiles": [{"id": ids[c], "q": c[0], "r": c[1]} for c in cells],
            "chisels": [{"a": a, "b": b, "player": "blue"} for a, b in border]},
    }


@pytest.mark.parametrize("case", sorted(_hostile_split_inputs()))
def test_split_refuses_inputs_it_used_to_rule_on(case: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = _hostile_split_inputs()[case]
    with pytest.raises(InputError):
        split_ruling(data)
    status, out, err = _run(tmp_path, capsys, ["split"], json.dumps(data))
    assert (status, out, err.count("\n")) == (2, "", 1) and "Traceback" not in err


# -- companion score: a typo in a key scored the player as holding nothing -------------------------------


@pytest.mark.parametrize("entry", [
    {"name": "red", "amber": 3},
    {"name": "red", "tile": ["PLANT"], "amber": 3},
    {"name": "red", "tiles": ["PLANT"]},
    {"name": "red", "tiles": ["PLANT"], "ambers": 3},
])
def test_score_refuses_a_player_without_tiles_or_amber(entry: dict[str, Any], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    data = {"players": [entry]}
    with pytest.raises(InputError):
        GAME.score_report(data)
    status, out, err = _run(tmp_path, capsys, ["score", "jurassic-parts"], json.dumps(data))
    assert (status, out, err.count("\n")) == (2, "", 1)


# -- Piles of Bones are placed for the tie-break chain too ------------------------------------------------


def _holding(*names: str, bones: int = 0) -> list[int]:
    loose = [0] * N_KINDS
    for name in names:
        loose[KIND_OF[name]] += 1
    loose[KIND_OF["BONES"]] += bones
    return loose


def test_bones_placed_for_the_tie_break_when_points_are_equal() -> None:
    # 3 Bones: a Brachiosaurus (3 Bones) or a T-Rex + Triceratops (2 Bones, 1 loose) both make 21 points;
    # the rulebook's tie-break counts 5-tile dinosaurs first, so the Brachiosaurus is the better placement
    loose = _holding("BRACHIO-3", "BRACHIO-5", "TREX-1", "TREX-2", "TREX-4", "TRICERA-1", "TRICERA-1",
                     "TRICERA-2", bones=3)
    held = score_holding(loose, (0,) * len(SPECIES), 0)
    assert held.total == 21
    assert held.complete["BRACHIO"] == 1
    red = ["BRACHIO-3", "BRACHIO-5", "TREX-1", "TREX-2", "TREX-4", "TRICERA-1", "TRICERA-1", "TRICERA-2",
           "BONES", "BONES", "BONES"]
    blue = ["TREX-1", "TREX-2", "TREX-3", "TREX-4", "TRICERA-1", "TRICERA-2", "TRICERA-3", "PLANT", "PLANT",
            "RAPTOR-1"]
    result = GAME.score_report({"players": [{"name": "red", "tiles": red, "amber": 0},
                                            {"name": "blue", "tiles": blue, "amber": 0}]})
    assert result["players"]["red"]["total"] == result["players"]["blue"]["total"] == 21
    assert result["winners"] == ["red"]


# -- views: tiles taken off the slab must not name their fossils -----------------------------------------


def test_views_do_not_reveal_taken_tiles_through_the_slab_list(jp: SimpleNamespace) -> None:
    # 2 players: whatever left the slab and is not with red, the Field Leader or in blue's public tiles is
    # blue's concealed holding, so the slab list must not name the fossils of tiles taken off it
    state = jp.build(["red", "blue"], [(0, 0, "TREX-1"), (1, 0, "PLANT"), (2, 0, "PLANT"), (3, 0, "PLANT"),
                                       (4, 0, "PLANT")], first="blue")
    state = jp.play(state, PlaceChisel("blue", (0, 0), (1, 0)), TakeTile("blue", (0, 0)))
    assert state.to_dict()["seats"]["blue"]["loose"] == {"TREX-1": 1}
    for viewer in ("red", None):
        view = state.view(viewer)
        assert "TREX-1" not in json.dumps(view), viewer
        assert view["seats"]["blue"]["concealed"] == 1
    assert "TREX-1" in json.dumps(state.view("blue"))
