"""Random-playout conformance and hypothesis properties: nothing is created or lost, completes stay whole."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction, get_game, random_playout, sample_chance
from engines.jurassik import (
    ACTION_MIX,
    Decline,
    JurassikGame,
    JurassikState,
    Take,
    all_dino_tiles,
    score_report,
)

PLAYERS = ["ana", "ben", "cy", "dee", "eve"]
SETUPS = [("en", n, False) for n in range(2, 6)] + [("es", n, False) for n in range(2, 6)] + [
    ("en", 2, True), ("en", 3, True), ("en", 4, True)]


def jurassik() -> JurassikGame:
    game = get_game("jurassik")
    assert isinstance(game, JurassikGame)
    return game


def check_conservation(state: JurassikState, set_aside: int | None = None) -> int:
    """Every tile is in exactly one place (zone, a player, the box); returns the unseen set-aside count."""
    placed = [t for t in state.cells if t is not None and t[0] == "D"]
    placed += [t for hand in state.hands.values() for t in hand] + state.box_dinos
    assert Counter(placed) == Counter(all_dino_tiles(state.edition))
    rocks = state.cells.count("ROCK")
    for face, total in ACTION_MIX[state.edition].items():
        in_zone = rocks if face == "rock" else 0
        assert in_zone + state.box_actions[face] + state.unseen[face] == total, face
    hidden = state.cells.count("?")
    aside = sum(state.unseen.values()) - hidden
    assert aside >= 0
    if set_aside is not None:
        assert aside == set_aside, "an action tile left or entered the box unseen"
    assert (state.cells.count("START") == 1) != state.box_start
    assert len(state.cells) == state.rows * state.cols
    return aside


def completes(state: JurassikState) -> dict[str, list[int]]:
    return {name: state.complete_dinosaurs(name) for name in state.players}


def check_step(before: JurassikState, after: JurassikState, set_aside: int) -> None:
    check_conservation(after, set_aside)
    for name, done in completes(before).items():
        assert set(done) <= set(after.complete_dinosaurs(name)), "a complete dinosaur was broken up"
    assert jurassik().state_from_dict(json.loads(json.dumps(after.to_dict()))) == after


def check_end(state: JurassikState) -> None:
    assert state.is_terminal() and state.legal_actions() == []
    if "last accessible dinosaur" in state.end_reason:
        assert not state.accessible_cells(dinosaurs_only=True)
    else:
        assert "none is accessible" in state.end_reason and not state.accessible_cells()
    outcome = state.outcome()
    assert outcome is not None
    report = score_report({"players": [{"name": n, "tiles": state.hands[n]} for n in state.players]})
    assert {n: p["total"] for n, p in report["players"].items()} == dict(outcome.scores)
    assert report["winners"] == list(outcome.winners)
    best = max(outcome.scores.values())
    assert outcome.winners == tuple(n for n in state.players if outcome.scores[n] == best)


@pytest.mark.parametrize(("edition", "players", "long_game"), SETUPS)
def test_random_playouts_reach_a_correct_end(edition: str, players: int, long_game: bool) -> None:
    game = jurassik()
    for seed in range(6):
        start = game.new_initial_state(PLAYERS[:players], random.Random(seed),
                                       {"edition": edition, "long_game": long_game})
        assert isinstance(start, JurassikState)
        set_aside = check_conservation(start)
        steps: list[Any] = []

        def on_step(before: Any, action: Any, after: Any, set_aside: int = set_aside,
                    steps: list[Any] = steps) -> None:
            check_step(before, after, set_aside)
            steps.append(action)

        final = random_playout(game, PLAYERS[:players], random.Random(seed), {"edition": edition,
                               "long_game": long_game}, on_step=on_step)
        assert isinstance(final, JurassikState)
        check_end(final)
        assert 1 < len(steps) < 4 * len(final.cells)


def test_legal_actions_are_exactly_the_takes_that_apply() -> None:
    """At every decision, Take on each cell is accepted exactly when it is listed (and refused by a rule)."""
    game = jurassik()
    for edition, seed in [("en", 1), ("es", 2)]:
        rng = random.Random(seed)
        state = game.new_initial_state(PLAYERS[:3], random.Random(seed), {"edition": edition})
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            player = state.current_player()
            for row in range(state.rows):
                for col in range(state.cols):
                    take = Take(player, row, col)
                    try:
                        state.apply(take)
                    except IllegalAction as refusal:
                        assert take not in legal
                        assert refusal.rule.rule_id in state.rules
                    else:
                        assert take in legal
            other = next(p for p in state.players if p != player)
            with pytest.raises(IllegalAction):
                state.apply(Decline(other))
            state = state.apply(rng.choice(legal))
        check_end(state)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_nothing_is_created_or_lost_and_completes_stay_whole(setup: tuple[str, int, bool], seed: int,
                                                           data: st.DataObject) -> None:
    edition, players, long_game = setup
    game = jurassik()
    state = game.new_initial_state(PLAYERS[:players], random.Random(seed),
                                   {"edition": edition, "long_game": long_game})
    set_aside = check_conservation(state)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            action = outcomes[data.draw(st.integers(0, len(outcomes) - 1))]
        else:
            legal = state.legal_actions()
            assert legal
            action = legal[data.draw(st.integers(0, len(legal) - 1))]
        after = state.apply(action)
        check_step(state, after, set_aside)
        state = after
    check_end(state)


@settings(max_examples=60, deadline=None)
@given(
    hands=st.lists(st.lists(st.sampled_from(all_dino_tiles("en")[:20]), max_size=12), min_size=2, max_size=5),
    face=st.sampled_from(["steal", "exchange", "discard", "return"]),
    choice=st.integers(0, 1000),
)
def test_actions_on_random_hands_keep_completes_whole(hands: list[list[str]], face: str, choice: int) -> None:
    owner: dict[str, int] = {}
    for number, hand in enumerate(hands):
        for tile in hand:
            owner.setdefault(tile, number)  # a tile listed twice stays with its first holder
    unique = [sorted(t for t, n in owner.items() if n == number) for number in range(len(hands))]
    names = PLAYERS[: len(unique)]
    state = jurassik().state_from_dict({
        "game": "jurassik", "format": 1, "players": names, "grid": [[None, "?", "D10-1", "D10-2"]],
        "hands": dict(zip(names, unique)),
    })
    state = state.apply(Take(names[0], 0, 1))
    before = state
    state = state.apply(next(a for a, _ in state.chance_outcomes() if getattr(a, "face", "") == face))
    check_step(before, state, check_conservation(before))
    if state.current_player() == names[0] and not state.is_terminal():
        legal = state.legal_actions()
        after = state.apply(legal[choice % len(legal)])
        check_step(state, after, check_conservation(state))
