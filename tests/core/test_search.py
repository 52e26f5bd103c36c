"""The companion's decisions never peek: everything a seat cannot see is dealt again by the engine
(``resample_from_view``) without the seat noticing, and every level decides the same on any such redeal.
Games come from the registry; players from each game's kit."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bots import bot_game
from companion.kits import find_kit
from engines.core import State, available_games, get_game
from engines.core.search import Budget, NotToPlay, decide

GAMES = available_games()
SMALL = Budget(simulations=24, depth=12, samples=2)
_GAMES_PLAYED: dict[tuple[str, int], list[State]] = {}


def players_of(name: str) -> list[str]:
    """Two players as the game names them: its kit's demo colours, else two colours (a test game)."""
    kit = find_kit(name)
    colours = list(kit.demo_colours) if kit is not None else []
    players = colours[:2] if len(colours) >= 2 else ["red", "blue"]
    game = get_game(name)
    return players[: max(2, game.min_players)] if game.min_players <= 2 else [*players, "green"]


def game_states(name: str, seed: int) -> list[State]:
    """Every state of a seeded two-player bot game (the game's own bots, so hands and hideouts fill)."""
    if (name, seed) not in _GAMES_PLAYED:
        game = get_game(name)
        start = game.new_initial_state(players_of(name), random.Random(seed))
        _GAMES_PLAYED[name, seed] = bot_game(start, seed, game.bot_policy())
    return _GAMES_PLAYED[name, seed]


def decision_states(name: str, seed: int) -> list[State]:
    return [s for s in game_states(name, seed) if not s.is_terminal() and not s.is_chance_node()]


def redeals_something(state: State) -> bool:
    return type(state).resample_from_view is not State.resample_from_view


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), where=st.floats(0, 1), deal=st.integers(0, 2**32))
def test_a_redeal_is_invisible_to_its_seat_and_depends_on_nothing_hidden(name: str, seed: int, where: float,
                                                                        deal: int) -> None:
    states = game_states(name, seed)
    state = states[int(where * (len(states) - 1))]
    for player in state.players:
        redealt = state.resample_from_view(player, random.Random(deal))
        assert redealt.view(player) == state.view(player)
        assert get_game(name).state_from_dict(redealt.to_dict()) == redealt  # a state the engine accepts
        again = redealt.resample_from_view(player, random.Random(deal + 1))
        # dealt from the same seat's view with the same generator: the same deal, whatever lay hidden
        first, second = (s.resample_from_view(player, random.Random(7)) for s in (state, again))
        assert [first.view(p) for p in state.players] == [second.view(p) for p in state.players]


@pytest.mark.parametrize("name", GAMES)
def test_a_redealt_game_plays_on_to_its_end(name: str) -> None:
    states = decision_states(name, 1)
    for state in states[:: max(1, len(states) // 6)]:
        player = state.players[-1]
        world = state.resample_from_view(player, random.Random(3))
        assert bot_game(world, 5, get_game(name).bot_policy())[-1].is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_what_a_seat_cannot_see_is_really_dealt_again(name: str) -> None:
    if not redeals_something(decision_states(name, 0)[0]):
        pytest.skip(f"{name} hides nothing from a player")
    changed = 0
    for state in decision_states(name, 0)[::5]:
        for player in state.players:
            others = [p for p in state.players if p != player]
            redealt = state.resample_from_view(player, random.Random(11))
            changed += any(redealt.view(p) != state.view(p) for p in others)
    assert changed > 0


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", GAMES)
def test_a_decision_is_the_same_whatever_the_others_hold(name: str, level: int) -> None:
    states = decision_states(name, 2)
    for state in states[:: max(1, len(states) // 5)][:5]:
        player = state.current_player()
        decision = decide(state, player, level, seed=9, budget=SMALL)
        assert state.is_legal(decision.action)
        for deal in (1, 2):
            redealt = state.resample_from_view(player, random.Random(deal))
            assert decide(redealt, player, level, seed=9, budget=SMALL) == decision
        assert decide(state, player, level, seed=9, budget=SMALL) == decision  # repeatable for a seed


@pytest.mark.parametrize("name", GAMES)
def test_only_the_player_to_move_is_advised(name: str) -> None:
    state = decision_states(name, 0)[3]
    waiting = next(p for p in state.players if p != state.current_player())
    with pytest.raises(NotToPlay, match="is not to play"):
        decide(state, waiting, 1)
    with pytest.raises(NotToPlay, match="over"):
        decide(game_states(name, 0)[-1], state.players[0], 1)
    with pytest.raises(ValueError, match="level"):
        decide(state, state.current_player(), 4)
    with pytest.raises(ValueError, match="not a player"):
        decide(state, "nobody", 1)


def test_the_greedy_level_takes_the_points_a_move_gives_at_once() -> None:
    """Jurassik: a take that completes nothing is worth less than one that scores now, and the greedy
    level sees it; the bots' level does not look."""
    for state in decision_states("jurassik", 3):
        player = state.current_player()
        decision = decide(state, player, 2, seed=1, budget=SMALL)
        best_now = max(_lead_after(state, a, player) for a in state.legal_actions())
        if best_now > _lead_after(state, state.legal_actions()[0], player):
            assert decision.value is not None and decision.value >= best_now - 1e-9
            return
    pytest.fail("no position in the game had a move scoring more than another")


def _lead_after(state: State, action: object, player: str) -> float:
    from engines.core.search import lead

    after = state.apply(action)  # type: ignore[arg-type]
    return lead(after, player) if not after.is_chance_node() else float("-inf")
