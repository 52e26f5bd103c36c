"""The engine core on a toy game (Nim with a hidden pile), independent of the real engines."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest

from engines.core import (
    CHANCE,
    TERMINAL,
    Action,
    ActionCodec,
    Correct,
    Game,
    IllegalAction,
    Outcome,
    Rule,
    RuleBook,
    State,
    StateFormatError,
    random_playout,
)


@dataclasses.dataclass(frozen=True)
class Take(Action):
    kind: ClassVar[str] = "take"
    player: str
    count: int


@dataclasses.dataclass(frozen=True)
class RevealPile(Action):
    kind: ClassVar[str] = "reveal"
    size: int


class Nim(Game):
    name = "toy-nim"
    code = "TN"
    title = "Toy Nim"
    min_players = 2
    max_players = 3

    def __init__(self) -> None:
        self.rulebook = RuleBook(
            "toy.txt",
            [
                Rule("NIM-END", "End", "toy.txt", "whoever takes the last stone wins"),
                Rule("NIM-TAKE", "Take", "toy.txt", "take 1 to 3 stones on your turn"),
                Rule("NIM-TURN", "Turn order", "toy.txt", "players take turns clockwise"),
            ],
        )
        self.codec = ActionCodec([Take, RevealPile])

    def new_initial_state(self, players: Sequence[str], rng: random.Random | None = None,
                          options: Mapping[str, Any] | None = None) -> NimState:
        return NimState(self, self.check_players(players), None, 0, [])

    def state_from_dict(self, data: Mapping[str, Any]) -> NimState:
        self.check_format(data)
        pile = data["pile"]
        if pile is not None and (not isinstance(pile, int) or pile < 0):
            raise StateFormatError("pile must be a non-negative integer or null")
        return NimState(self, tuple(data["players"]), pile, int(data["turn"]), list(data["takers"]))


class NimState(State):
    def __init__(self, game: Nim, players: tuple[str, ...], pile: int | None, turn: int,
                 takers: list[str]) -> None:
        self.game = game
        self._players = players
        self.pile = pile
        self.turn = turn
        self.takers = takers

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def current_player(self) -> str:
        if self.pile is None:
            return CHANCE
        if self.pile == 0:
            return TERMINAL
        return self._players[self.turn % len(self._players)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(RevealPile(size), 1 / 3) for size in (5, 6, 7)] if self.pile is None else []

    def legal_actions(self) -> list[Action]:
        if self.pile is None:
            return [a for a, _ in self.chance_outcomes()]
        return [Take(self.current_player(), n) for n in range(1, min(3, self.pile) + 1)]

    def clone(self) -> NimState:
        return NimState(self.game, self._players, self.pile, self.turn, list(self.takers))

    def _apply_in_place(self, action: Action) -> None:
        if isinstance(action, RevealPile):
            self.pile = action.size
            return
        assert isinstance(action, Take) and self.pile is not None
        if action.player != self.current_player():
            raise self.game.illegal("NIM-TURN", f"it is {self.current_player()}'s turn")
        if not 1 <= action.count <= min(3, self.pile):
            raise self.game.illegal("NIM-TAKE", f"cannot take {action.count} of {self.pile}")
        self.pile -= action.count
        self.takers.append(action.player)
        self.turn += 1

    def scores(self) -> Outcome:
        last = self.takers[-1] if self.pile == 0 and self.takers else None
        scores = {p: int(p == last) for p in self._players}
        return Outcome(scores, {p: {"last stone": s} for p, s in scores.items()},
                       (last,) if last else tuple(self._players))

    def view(self, player: str | None = None) -> dict[str, Any]:
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {**self.header(), "players": list(self._players), "pile": self.pile, "turn": self.turn,
                "takers": list(self.takers)}


def test_apply_is_pure_and_refusals_name_the_rule() -> None:
    game = Nim()
    start = game.new_initial_state(["a", "b"])
    assert start.current_player() == CHANCE
    revealed = start.apply(RevealPile(5))
    assert start.pile is None and revealed.pile == 5
    with pytest.raises(IllegalAction) as refusal:
        revealed.apply(Take("b", 1))
    assert refusal.value.rule.rule_id == "NIM-TURN"
    assert "NIM-TURN" in str(refusal.value)
    with pytest.raises(IllegalAction) as refusal:
        revealed.apply(Take("a", 4))
    assert refusal.value.rule.rule_id == "NIM-TAKE"
    assert revealed.pile == 5


def test_explain_cites_the_rule() -> None:
    state = Nim().new_initial_state(["a", "b"]).apply(RevealPile(6))
    explanation = state.explain(Take("a", 9))
    assert not explanation.legal
    assert explanation.rules[0].rule_id == "NIM-TAKE"
    assert explanation.to_dict()["rules"][0]["passage"] == "take 1 to 3 stones on your turn"
    assert state.explain(Take("a", 2)).legal


def test_actions_round_trip_through_json() -> None:
    game = Nim()
    for action in [Take("a", 2), RevealPile(7), Correct({"game": "toy-nim"}, "fix")]:
        assert game.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    for bad in [{"kind": "fly"}, {"kind": "take", "player": "a"}, [], {"kind": "take", "player": "a",
                                                                       "count": 1, "extra": 1}]:
        with pytest.raises(StateFormatError):
            game.action_from_dict(bad)


def test_correction_replaces_state_after_validation() -> None:
    game = Nim()
    state = game.new_initial_state(["a", "b"]).apply(RevealPile(7))
    fixed = state.to_dict() | {"pile": 2}
    corrected = state.apply(Correct(fixed, "a stone fell off the table"))
    assert corrected.pile == 2 and state.pile == 7
    with pytest.raises(StateFormatError):
        state.apply(Correct(state.to_dict() | {"game": "other"}, "wrong game"))


def test_seeded_random_playout_reaches_an_outcome_and_is_reproducible() -> None:
    game = Nim()
    first = random_playout(game, ["a", "b", "c"], random.Random(7))
    second = random_playout(game, ["a", "b", "c"], random.Random(7))
    assert first.is_terminal() and first == second
    outcome = first.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    with pytest.raises(IllegalAction):
        first.apply(Take("a", 1))


def test_options_and_players_are_validated() -> None:
    game = Nim()
    with pytest.raises(StateFormatError):
        game.check_players(["a"])
    with pytest.raises(StateFormatError):
        game.check_players(["a", "a"])
    with pytest.raises(StateFormatError):
        game.resolve_options({"nonsense": 1})
    for bad in (["a", ["b"]], "ab", [None, "b"], ["a", ""], ["a", "\ud800"], ["a", "b\n"]):
        with pytest.raises(StateFormatError):
            game.check_players(bad)  # type: ignore[arg-type]


def test_a_refusal_quoting_what_a_player_sent_is_one_line() -> None:
    """A player name with a line break (from a page or a file) is quoted escaped: a refusal is one line."""
    refusal = IllegalAction(Rule("NIM-TURN", "Turn order", "toy.txt", "players take turns"),
                            "it is ana's turn, not \n\t's")
    assert "\n" not in str(refusal) and "\t" not in refusal.detail
    assert refusal.detail == "it is ana's turn, not \\n\\t's"
