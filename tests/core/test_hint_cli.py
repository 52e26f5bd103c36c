"""`companion hint GAME FILE --player P`: the companion's move for one player as JSON, the same for a
seed, and bad input answered as every ruling answers it (one error line, exit 2)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.bots import bot_game
from companion.cli import main
from engines.core import get_game


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A Jurassic Parts game a third of the way through (concealed tiles held), and who is to play."""
    game = get_game("jurassic-parts")
    states = bot_game(game.new_initial_state(["red", "blue"], random.Random(2)), 2, game.bot_policy())
    later = states[len(states) // 3:]
    state = next(s for s in later if not s.is_chance_node() and len(s.legal_actions()) > 1)
    path = tmp_path_factory.mktemp("hint") / "position.json"
    path.write_text(json.dumps(state.to_dict()))
    waiting = next(p for p in state.players if p != state.current_player())
    return path, state.current_player(), waiting


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("level", ["1", "2", "3"])
def test_a_hint_names_a_legal_move_in_words_and_says_why(position: tuple[Path, str, str], level: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path, player, _ = position
    argv = ["hint", "jurassic-parts", str(path), "--player", player, "--level", level, "--seed", "4",
            "--simulations", "40"]
    status, out, err = run(argv, capsys)
    assert status == 0 and err == ""
    hint = json.loads(out)
    assert hint["player"] == player and hint["level"] == int(level) and hint["seed"] == 4
    state = get_game("jurassic-parts").state_from_dict(json.loads(path.read_text()))
    legal = [a.to_dict() for a in state.legal_actions()]
    assert hint["action"] in legal
    assert hint["words"] and hint["why"] and hint["considered"] == len(legal)
    assert run(argv, capsys)[1] == out  # the same seed, the same hint


@pytest.mark.parametrize("extra, expected", [
    (["--player", "nobody"], "not a player of this game"),
    (["--level", "4"], "--level"),
    (["--simulations", "0"], "--simulations"),
])
def test_bad_arguments_are_one_line_and_exit_2(position: tuple[Path, str, str], extra: list[str],
                                               expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, player, _ = position
    argv = ["hint", "jurassic-parts", str(path), "--player", player, *extra]
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and expected in err


def test_a_player_not_to_play_gets_no_hint(position: tuple[Path, str, str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path, player, waiting = position
    status, out, err = run(["hint", "jurassic-parts", str(path), "--player", waiting], capsys)
    assert status == 2 and out == "" and f"{waiting} is not to play: {player} is" in err


def test_a_state_of_another_game_is_refused(position: tuple[Path, str, str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path, player, _ = position
    status, out, err = run(["hint", "jurassik", str(path), "--player", player], capsys)
    assert status == 2 and out == "" and "not a jurassik state" in err
