"""`companion split FILE` (split_ruling): the input format and answer, the rulebook's share examples, equal
halves, interior rings, and every bad-input case through companion.cli.main."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from engines.core import InputError
from engines.jurassic_parts import split_ruling


def ring(radius: int) -> list[tuple[int, int]]:
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if max(abs(q), abs(r), abs(q + r)) == radius]


def slab(cells: list[tuple[int, int]]) -> tuple[list[dict[str, Any]], dict[tuple[int, int], str]]:
    tiles: list[dict[str, Any]] = [{"id": f"F{i + 1:02d}", "q": q, "r": r} for i, (q, r) in enumerate(cells)]
    return tiles, {(t["q"], t["r"]): t["id"] for t in tiles}


def border_gaps(ids: dict[tuple[int, int], str], inside: set[tuple[int, int]]) -> list[tuple[str, str]]:
    found = []
    for (q, r), tile in ids.items():
        if (q, r) not in inside:
            continue
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            other = (q + dq, r + dr)
            if other in ids and other not in inside:
                found.append((tile, ids[other]))
    return found


def strip_example() -> dict[str, Any]:
    """3 players; a 7x3 strip cut between columns 2 and 3: a 9-tile part and a 12-tile part."""
    cells = [(q, r) for r in range(3) for q in range(7)]
    tiles, ids = slab(cells)
    left = {(q, r) for q, r in cells if q <= 2}
    gaps = border_gaps(ids, left)
    assert len(gaps) == 5
    owners = ["red", "blue", "red", "blue", "green"]
    chisels = [{"a": a, "b": b, "player": who} for (a, b), who in zip(gaps, owners)]
    chisels.append({"a": ids[(0, 0)], "b": ids[(1, 0)], "player": "green"})  # inside the smaller part
    chisels.append({"a": ids[(5, 0)], "b": ids[(6, 0)], "player": "red"})  # inside the larger part
    return {"players": ["red", "blue", "green"], "current": "blue", "tiles": tiles, "chisels": chisels}


def test_rulebook_example_three_players_nine_tiles() -> None:
    ruling = split_ruling(strip_example())
    assert ruling["split"] is True and ruling["equal"] is False
    (option,) = ruling["options"]
    assert option["smaller"] == sorted(f"F{r * 7 + q + 1:02d}" for r in range(3) for q in range(3))
    # red and blue tie on 2 chisels: blue is the current player, so blue ranks first
    assert option["ranking"] == [
        {"player": "blue", "chisels": 2, "takes": 5},
        {"player": "red", "chisels": 2, "takes": 2},
        {"player": "green", "chisels": 1, "takes": 1},
    ]
    assert option["field_leader"] == 1
    assert option["returned_dull"] == {"red": 2, "blue": 2, "green": 1}
    assert option["returned_sharp"] == {"green": 1}
    assert len(option["larger"]) == 12


def test_rulebook_example_five_players_nineteen_tiles_interior_hole() -> None:
    inner = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    outer = ring(3) + ring(4)[:8]
    tiles, ids = slab(inner + outer)
    gaps = border_gaps(ids, set(inner))
    assert len(gaps) == 30
    players = ["red", "blue", "green", "yellow", "purple"]
    owners = ["red"] * 10 + ["blue"] * 8 + ["green"] * 6 + ["yellow"] * 4 + ["purple"] * 2
    data = {"players": players, "current": "green", "tiles": tiles,
            "chisels": [{"a": a, "b": b, "player": who} for (a, b), who in zip(gaps, owners)]}
    (option,) = split_ruling(data)["options"]
    assert len(option["smaller"]) == 19  # the inside is smaller: a hole is cut out of the slab
    assert [(e["player"], e["takes"]) for e in option["ranking"]] == [
        ("red", 6), ("blue", 6), ("green", 4), ("yellow", 2), ("purple", 1)]
    assert option["field_leader"] == 0


def test_interior_ring_with_the_outside_smaller_awards_the_outside() -> None:
    inner = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]  # 19 tiles
    outer = ring(3)  # 18 tiles
    tiles, ids = slab(inner + outer)
    gaps = border_gaps(ids, set(inner))
    owners = ["blue"] * 12 + ["red"] * 12 + ["green"] * 6  # 30 gaps; a player has 12 chisels
    data = {"players": ["red", "blue", "green"], "current": "green", "tiles": tiles,
            "chisels": [{"a": a, "b": b, "player": who} for (a, b), who in zip(gaps, owners)]}
    (option,) = split_ruling(data)["options"]
    assert option["smaller"] == sorted(ids[c] for c in outer)
    # blue and red tie on 12: clockwise from green (the current player, last seat) red comes next
    assert option["ranking"] == [{"player": "red", "chisels": 12, "takes": 6},
                                 {"player": "blue", "chisels": 12, "takes": 6},
                                 {"player": "green", "chisels": 6, "takes": 3}]
    assert option["field_leader"] == 3


def test_equal_halves_give_two_options() -> None:
    tiles, _ = slab([(0, 0), (1, 0), (2, 0), (3, 0)])
    data = {"players": ["red", "blue"], "current": "red", "tiles": tiles,
            "chisels": [{"a": "F02", "b": "F03", "player": "blue"}]}
    ruling = split_ruling(data)
    assert ruling["split"] is True and ruling["equal"] is True
    assert [o["smaller"] for o in ruling["options"]] == [["F01", "F02"], ["F03", "F04"]]
    for option in ruling["options"]:
        assert option["ranking"] == [{"player": "blue", "chisels": 1, "takes": 1}]
        assert option["field_leader"] == 1 and option["returned_dull"] == {"blue": 1}


def test_whole_slab_is_not_split() -> None:
    tiles, _ = slab([(0, 0), (1, 0), (0, 1)])
    data = {"players": ["red", "blue"], "current": "red", "tiles": tiles,
            "chisels": [{"a": "F01", "b": "F02", "player": "red"}]}
    assert split_ruling(data)["split"] is False
    data["chisels"] = []
    assert split_ruling(data)["split"] is False


# -- through the command line ----------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_split_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    data = strip_example()
    path = tmp_path / "slab.json"
    path.write_text(json.dumps(data))
    status, out, err = run_cli(capsys, ["split", str(path)])
    assert status == 0 and err == ""
    assert json.loads(out) == split_ruling(data)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(data)))
    status, out_stdin, err = run_cli(capsys, ["split", "-"])
    assert status == 0 and json.loads(out_stdin) == json.loads(out)


def _bad_cases() -> dict[str, tuple[Any, str]]:
    base = strip_example()

    def variant(**changes: Any) -> dict[str, Any]:
        return {**json.loads(json.dumps(base)), **changes}

    tiles = base["tiles"]
    three_parts_tiles, _ = slab([(0, 0), (1, 0), (2, 0)])
    return {
        "unknown tile": (variant(tiles=[*tiles, {"id": "F99", "q": 9, "r": 9}]), "unknown tile"),
        "unknown chisel tile": (variant(chisels=[{"a": "F01", "b": "F58", "player": "red"}]), "unknown tile"),
        "duplicate tile": (variant(tiles=[*tiles, {"id": "F01", "q": 9, "r": 9}]), "duplicate tile"),
        "two tiles on one cell": (variant(tiles=[*tiles, {"id": "F50", "q": 0, "r": 0}]), "both on cell"),
        "not adjacent": (variant(chisels=[{"a": "F01", "b": "F03", "player": "red"}]), "not adjacent"),
        "two chisels on one gap": (variant(chisels=[
            {"a": "F01", "b": "F02", "player": "red"},
            {"a": "F02", "b": "F01", "player": "blue"}]), "two chisels"),
        "unknown chisel player": (
            variant(chisels=[{"a": "F01", "b": "F02", "player": "pink"}]), "unknown player"),
        "unknown current": (variant(current="pink"), "unknown player"),
        "more than two parts": ({"players": ["red", "blue"], "current": "red", "tiles": three_parts_tiles,
                                 "chisels": [{"a": "F01", "b": "F02", "player": "red"},
                                             {"a": "F02", "b": "F03", "player": "red"}]}, "3 parts"),
        "not an object": ([1, 2], "$: must be an object"),
        "pieces that do not touch": (
            {"players": ["red", "blue"], "current": "red", "chisels": [],
             "tiles": [{"id": "F01", "q": 0, "r": 0}, {"id": "F02", "q": 5, "r": 0}]}, "do not touch"),
        "bad coordinates": (
            variant(tiles=[{"id": "F01", "q": "x", "r": 0}]), "$.tiles[0].q: must be an integer"),
    }


@pytest.mark.parametrize("case", sorted(_bad_cases()))
def test_cli_bad_input_exits_2_with_one_line(case: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    data, fragment = _bad_cases()[case]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    status, out, err = run_cli(capsys, ["split", str(path)])
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err
    with pytest.raises(InputError):
        split_ruling(data)


def test_cli_malformed_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"players": ["red",')
    status, out, err = run_cli(capsys, ["split", str(path)])
    assert status == 2 and out == "" and err.count("\n") == 1 and "malformed JSON" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("not json"))
    status, out, err = run_cli(capsys, ["split", "-"])
    assert status == 2 and out == "" and err.count("\n") == 1
