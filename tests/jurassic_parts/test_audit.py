"""Audit findings (QA pass after the engine was finished): each test here failed before its fix.

Contract gaps in `companion split` / `companion score jurassic-parts`, Bones placement and the tie-break
chain, and a leak of concealed tiles through the views."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_score_refuses_seven_players_and_unprintable_names() -> None:
    seven: list[dict[str, Any]] = [{"name": n, "tiles": [], "amber": 0}
             for n in ("red", "blue", "green", "yellow", "purple", "orange", "pink")]
    with pytest.raises(InputError):
        GAME.score_report({"players": seven})
    with pytest.raises(InputError):
        GAME.score_report({"players": [{"name": "\ud800", "tiles": [], "amber": 0}]})
    import random

    from engines.core import StateFormatError

    state = GAME.new_initial_state(["red", "blue"], rng=random.Random(1)).to_dict()
    state["players"][1] = "\ud800"
    state["seats"]["\ud800"] = state["seats"].pop("blue")
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(state)
    assert GAME.score_report({"players": seven[:6]})["winners"] == [p["name"] for p in seven[:6]]


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


# -- engine-core contract over random playouts ------------------------------------------------------------


def _playout_checks(seed: int, n_players: int, steps: int) -> None:
    import random

    from engines.core import Correct
    from engines.jurassic_parts import JurassicPartsState

    rng = random.Random(seed)
    options = {"resource_cards": rng.randint(0, 2), "slab_purchase": rng.choice(["any", "face-up"]),
               "end_bones": rng.choice(["optimal", "loose"]),
               "sell_pterodactyls": rng.choice(["never", "unpaid"])}
    names = ["red", "blue", "green", "yellow", "purple", "orange"][:n_players]
    state: Any = GAME.new_initial_state(names, rng=rng, options=options)
    for _ in range(steps):
        if state.is_terminal():
            assert state.outcome() is not None and state.legal_actions() == []
            break
        before = json.dumps(state.to_dict(), sort_keys=True)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(w for _, w in outcomes) - 1.0) < 1e-9 and all(w > 0 for _, w in outcomes)
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            explanation = state.explain(action)
            assert explanation.legal and explanation.rules
            assert all(rule.source == "jurassic-parts.txt" and rule.passage for rule in explanation.rules)
        new = state.apply(action)
        assert json.dumps(state.to_dict(), sort_keys=True) == before  # apply never changes its input
        assert isinstance(new, JurassicPartsState)
        data = json.loads(json.dumps(new.to_dict()))
        assert GAME.state_from_dict(data).to_dict() == new.to_dict()
        assert new.apply(Correct(data, "round trip")).to_dict() == new.to_dict()
        _check_views(new)
        assert all(0 <= u <= held[KIND_OF["PTERO"]] for u, held in zip(new.unpaid_ptero, new.loose))
        state = new


def _check_views(state: Any) -> None:
    from engines.jurassic_parts.components import KIND_NAMES, PLANT, PTERO

    public = {KIND_NAMES[PLANT], KIND_NAMES[PTERO]}
    full = state.to_dict()
    for viewer in (None, *state.players):
        view = state.view(viewer)
        for tile in view["slab"]:
            if not tile["face_up"] or tile["where"] == "gone":
                assert tile["fossil"] is None and tile["id"] is None
        for name, seat in view["seats"].items():
            if name == viewer:
                assert seat["loose"] == full["seats"][name]["loose"]
                continue
            assert set(seat["loose"]) <= public and seat["cards"] == seat["revealed_cards"]
            hidden = {k: n for k, n in full["seats"][name]["loose"].items() if k not in public}
            assert seat["concealed"] == sum(hidden.values())


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 6), steps=st.integers(1, 90))
def test_playouts_keep_the_engine_contract(seed: int, n_players: int, steps: int) -> None:
    _playout_checks(seed, n_players, steps)


# -- selling a Pterodactyl no amber was collected for: a named house rule --------------------------------


def test_selling_pterodactyls_is_a_named_option(jp: SimpleNamespace) -> None:
    """JP-SELL forbids selling "a Tile from a complete dinosaur set after amber is collected for it"; a
    Pterodactyl bought from the Field Leader earned no amber. The engine's reading (never sell a
    Pterodactyl) stays the default; ``sell_pterodactyls: "unpaid"`` lets such a one be sold."""
    from engines.core import IllegalAction
    from engines.jurassic_parts import BuyLeaderTile, EndTurn, Sell

    option = next(o for o in GAME.options if o.name == "sell_pterodactyls")
    assert option.default == "never" and set(option.choices) == {"never", "unpaid"} and option.house_rule
    tiles = [(0, 0, "PLANT"), (1, 0, "PTERO"), (2, 0, "PLANT"), (3, 0, "PLANT"), (4, 0, "PLANT")]
    for rule in ("never", "unpaid"):
        state = jp.build(["red", "blue"], tiles, options={"sell_pterodactyls": rule})

        def rich(data: dict[str, Any]) -> None:
            data["seats"]["red"]["amber"] = 5
            data["field_leader"]["amber"] = 20 - 5 - data["seats"]["blue"]["amber"]
            data["field_leader"]["tiles"] = {"PTERO": 1}

        state = jp.edit(state, rich)
        state = state.apply(BuyLeaderTile("red", "PTERO"))  # no amber for a bought Pterodactyl
        assert state.amber[0] == 4
        sells = [a for a in state.legal_actions() if isinstance(a, Sell)]
        if rule == "never":
            assert sells == []
            with pytest.raises(IllegalAction):
                state.apply(Sell("red", "PTERO"))
            continue
        assert sells == [Sell("red", "PTERO")]
        assert state.to_dict()["seats"]["red"]["unpaid_pterodactyls"] == 1
        again = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert again.to_dict() == state.to_dict()
        sold = state.apply(Sell("red", "PTERO"))
        assert sold.amber[0] == 5 and sold.to_dict()["seats"]["red"]["unpaid_pterodactyls"] == 0
        # a Pterodactyl taken in a split earned its amber: never for sale
        state = jp.play(sold, EndTurn("red"), EndTurn("blue"), PlaceChisel("red", (1, 0), (2, 0)))
        state = jp.play(state, TakeTile("red", (1, 0)))
        assert state.loose[0][KIND_OF["PTERO"]] == 1 and state.amber[0] == 6
        assert [a for a in state.legal_actions() if isinstance(a, Sell)] == []
        with pytest.raises(IllegalAction):
            state.apply(Sell("red", "PTERO"))


# -- the split command fuzzed through the command line ----------------------------------------------------

_JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=False), st.text(max_size=5),
    st.sampled_from(["F01", "F05", "F09", "F58", "red", "blue", "green", "q"]))
_JSON_VALUES = st.recursive(_JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)), max_leaves=6)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _strip() -> dict[str, Any]:
    """4 x 3 tiles plus F13 above F04, cut between columns 1 and 2: 6 tiles awarded, 7 stay."""
    cells = [(q, r) for r in range(3) for q in range(4)] + [(3, -1)]
    return {"players": ["red", "blue", "green"], "current": "blue",
            "tiles": [{"id": f"F{i + 1:02d}", "q": q, "r": r} for i, (q, r) in enumerate(cells)],
            "chisels": [{"a": a, "b": b, "player": who} for a, b, who in (
                ("F02", "F03", "red"), ("F06", "F07", "blue"), ("F10", "F11", "green"), ("F03", "F06", "red"),
                ("F07", "F10", "blue"), ("F01", "F02", "green"))]}


def _mutate(data: st.DataObject, document: Any) -> Any:
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        value = data.draw(_JSON_VALUES)
        if not path:
            return value
        holder = document
        for step in path[:-1]:
            holder = holder[step]
        if data.draw(st.booleans()) and isinstance(holder, dict):
            holder.pop(path[-1], None)
        else:
            holder[path[-1]] = value
    return document


def _cli(argv: list[str], text: str) -> tuple[int, str, str]:
    import contextlib
    import io
    import sys

    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([*argv, "-"])
    finally:
        sys.stdin = stdin
    if status == 2:
        assert out.getvalue() == "" and err.getvalue().count("\n") == 1 and "Traceback" not in err.getvalue()
    else:
        assert status == 0 and err.getvalue() == ""
    return status, out.getvalue(), err.getvalue()


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_split_cli_fuzz_answers_or_refuses_in_one_line(data: st.DataObject) -> None:
    assert split_ruling(_strip())["options"][0]["ranking"] == [
        {"player": "blue", "chisels": 2, "takes": 3}, {"player": "red", "chisels": 2, "takes": 2},
        {"player": "green", "chisels": 1, "takes": 1}]
    status, out, _ = _cli(["split"], json.dumps(_mutate(data, _strip())))
    if status == 2:
        return
    ruling = json.loads(out)
    if not ruling["split"]:
        return
    assert len(ruling["options"]) == (2 if ruling["equal"] else 1)
    for option in ruling["options"]:
        assert option["smaller"] == sorted(option["smaller"])
        ranking = option["ranking"]
        assert [e["chisels"] for e in ranking] == sorted((e["chisels"] for e in ranking), reverse=True)
        assert sum(e["takes"] for e in ranking) + option["field_leader"] == len(option["smaller"])
        assert {e["player"]: e["chisels"] for e in ranking} == option["returned_dull"]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_score_cli_fuzz_answers_or_refuses_in_one_line(data: st.DataObject) -> None:
    holdings = {"players": [
        {"name": "red", "tiles": ["TREX-1", "PLANT", "PTERO", "BONES", "BONES:RAPTOR-2"], "amber": 3},
        {"name": "blue", "tiles": ["RAPTOR-1", "RAPTOR-2", "PLANT"], "amber": 1}]}
    status, out, _ = _cli(["score", "jurassic-parts"], json.dumps(_mutate(data, holdings)))
    if status == 0:
        result = json.loads(out)
        assert set(result["winners"]) <= set(result["players"])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_legal_cli_fuzz_answers_or_refuses_in_one_line(data: st.DataObject) -> None:
    import random

    state = GAME.new_initial_state(["red", "blue", "green"], rng=random.Random(data.draw(st.integers(0, 9))))
    status, out, _ = _cli(["legal", "jurassic-parts"], json.dumps(_mutate(data, state.to_dict())))
    if status == 0:
        assert "actions" in json.loads(out)


# -- the installed console script, as a referee runs it -------------------------------------------------


def test_installed_companion_split_and_score(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = Path(sys.executable).parent / "companion"
    if not script.exists():
        pytest.skip("the companion console script is not installed next to this Python")
    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    done = subprocess.run([str(script), "split", str(examples / "jurassic-parts-split.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    option = json.loads(done.stdout)["options"][0]
    assert [(e["player"], e["takes"]) for e in option["ranking"]] == [("blue", 5), ("red", 2), ("green", 1)]
    assert option["field_leader"] == 1
    text = (examples / "jurassic-parts-score.json").read_text(encoding="utf-8")
    done = subprocess.run([str(script), "score", "jurassic-parts", "-"], input=text,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout) == json.loads(
        (examples / "jurassic-parts-score-output.json").read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"players": ["red", "blue"], "current": "red", "tiles": [\xff]}')
    done = subprocess.run([str(script), "split", str(bad)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr.count("\n")) == (2, "", 1)


# -- state files that cannot come from play ---------------------------------------------------------------


@pytest.mark.parametrize("turn", [
    {"phase": "over"},                      # the game over with 58 tiles still on the slab
    {"phase": "over", "final": True},
    {"final": True},                        # the last tiles kept, yet the slab is full
    {"pickups_needed": 3},                  # chisels to pick up outside the pick-up phase
])
def test_legal_refuses_an_ended_game_with_tiles_on_the_slab(turn: dict[str, Any], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from engines.core import StateFormatError

    data = GAME.new_initial_state(["red", "blue", "green"], rng=random.Random(2)).to_dict()
    data["turn"].update(turn)
    with pytest.raises(StateFormatError):
        GAME.state_from_dict(data)
    status, out, err = _run(tmp_path, capsys, ["legal", "jurassic-parts"], json.dumps(data))
    assert (status, out, err.count("\n")) == (2, "", 1)


# -- face-down tiles: a referee can only read their back ids -----------------------------------------------


def test_split_accepts_face_down_tiles_by_their_back_id() -> None:
    from engines.jurassic_parts import COMPONENTS

    # the rulebook's 3-player, 9-tile example with every other tile face down (named by its back's tag)
    base = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" /
                       "jurassic-parts-split.json").read_text(encoding="utf-8"))
    back_of = {c.tile_id: c.back for c in COMPONENTS}
    rename = {tile["id"]: (back_of[tile["id"]] if i % 2 else tile["id"])
              for i, tile in enumerate(base["tiles"])}
    data = json.loads(json.dumps(base))
    for tile in data["tiles"]:
        tile["id"] = rename[tile["id"]]
    for chisel in data["chisels"]:
        chisel["a"], chisel["b"] = rename[chisel["a"]], rename[chisel["b"]]
    expected = split_ruling(base)["options"][0]
    (option,) = split_ruling(data)["options"]
    assert option["smaller"] == sorted(rename[t] for t in expected["smaller"])
    assert option["ranking"] == expected["ranking"] and option["field_leader"] == expected["field_leader"]
    # the same physical tile by its front and by its back is listed twice
    twice = json.loads(json.dumps(base))
    twice["tiles"].append({"id": back_of["F01"], "q": 40, "r": 40})
    with pytest.raises(InputError) as refusal:
        split_ruling(twice)
    assert "twice" in str(refusal.value) and "F01" not in str(refusal.value)


@pytest.mark.parametrize("field", ["current", "tile", "chisel tile", "chisel player"])
def test_split_errors_quote_long_values_briefly(field: str) -> None:
    long = "Z" * 100_000
    data = _pair()
    if field == "current":
        data["current"] = long
    elif field == "tile":
        data["tiles"][0]["id"] = long
    elif field == "chisel tile":
        data["chisels"][0]["a"] = long
    else:
        data["chisels"][0]["player"] = long
    with pytest.raises(InputError) as refusal:
        split_ruling(data)
    assert len(str(refusal.value)) < 200


def test_score_errors_quote_long_values_briefly() -> None:
    for entry in ({"name": "red", "tiles": ["Z" * 100_000], "amber": 0},
                  {"name": "Y" * 100_000, "tiles": ["DODO"], "amber": 0}):
        with pytest.raises(InputError) as refusal:
            GAME.score_report({"players": [entry]})
        assert len(str(refusal.value)) < 200
