"""`companion explain GAME FILE` for every game: a legal move is legal, a refused one names its rule, and
bad input names the key that is wrong."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engines.core import IllegalAction, InputError, State, available_games, get_game, sample_chance

GAMES = available_games()  # every registered game


def mid_game(name: str, seed: int = 3, moves: int = 12) -> State:
    game = get_game(name)
    players = ["blue", "orange"] if name == "jurassic-brunch" else ["red", "blue"]
    rng = random.Random(seed)
    state = game.new_initial_state(players, rng=rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        state = state.apply(sample_chance(state, rng) if state.is_chance_node()
                            else rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state = state.apply(sample_chance(state, rng))
    return state


def refused(state: State) -> dict[str, object] | None:
    """A legal move made illegal: by the other player (out of turn), or from a cell off the board."""
    player = state.current_player()
    for action in state.legal_actions():
        data = action.to_dict()
        variants = []
        if data.get("player") == player:
            other = next(p for p in state.to_dict().get("players", []) if p != player)
            variants.append({**data, "player": other})
        variants += [{**data, key: [40, 40]} for key, value in data.items() if isinstance(value, list)]
        for variant in variants:
            try:
                state.apply(state.game.action_from_dict(variant))
            except IllegalAction:
                return variant
    return None


@pytest.mark.parametrize("name", GAMES)
def test_explain_a_legal_and_a_refused_move(name: str) -> None:
    game = get_game(name)
    state = mid_game(name)
    legal = state.legal_actions()[0].to_dict()
    report = game.explain_report({"state": state.to_dict(), "action": legal})
    assert report["legal"] is True and report["to_play"] == state.current_player()
    bad = refused(state)
    rng = random.Random(1)
    while bad is None and not state.is_terminal():  # a position with a move to misplay
        state = state.apply(sample_chance(state, rng) if state.is_chance_node()
                            else rng.choice(state.legal_actions()))
        bad = None if state.is_chance_node() else refused(state)
    assert bad is not None
    report = game.explain_report({"state": state.to_dict(), "action": bad})
    assert report["legal"] is False and report["rules"] and report["rules_cited"]


@pytest.mark.parametrize("name", GAMES)
def test_bad_input_names_the_key(name: str) -> None:
    game = get_game(name)
    state = mid_game(name).to_dict()
    cases = [({"action": {"kind": "x"}}, r"\$\.state: missing"), ({"state": state}, r"\$\.action: missing"),
             ({"state": state, "action": {"kind": "no-such-move"}}, r"\$\.action"),
             ({"state": state, "action": {}, "extra": 1}, r"\$\.extra"), ([], r"\$: expected")]
    for data, message in cases:
        with pytest.raises(InputError, match=message):
            game.explain_report(data)


def test_the_command_line(tmp_path: Path) -> None:
    state = mid_game("jurassik")
    path = tmp_path / "explain.json"
    path.write_text(json.dumps({"state": state.to_dict(), "action": state.legal_actions()[0].to_dict()}))
    run = subprocess.run([sys.executable, "-m", "companion", "explain", "jurassik", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and json.loads(run.stdout)["legal"] is True
    run = subprocess.run([sys.executable, "-m", "companion", "explain", "jurassik", "-"], input="{}",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == "" and run.stderr.startswith("error: $.state: missing")


@pytest.mark.parametrize(("name", "words"), [
    ("jurassic-parts", r"between row \d+, tile \d+ \(.+\) and row \d+, tile \d+"),
    ("isla-nublar", r"Velociraptor"),
    ("jurassik", r"dinosaur \d+, piece \d+"),
])
def test_the_command_line_says_the_move_as_the_page_does(name: str, words: str) -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / f"{name}-explain.json"
    run = subprocess.run([sys.executable, "-m", "companion", "explain", name, str(example)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    move = report["move"]
    assert re.search(words, move), move
    assert not re.search(r"\(-?\d+, -?\d+\)|DINO-\d|\bD\d+-\d\b", move), move
    if name == "isla-nublar":  # the engine's reason too, as the page says it
        assert report["why"].startswith("Velociraptor may not skip the occupied field column 3")
