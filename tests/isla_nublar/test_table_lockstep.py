"""Table mode in lockstep with the truth: a game the engine deals (every hand known) is played, and beside
it the same game at a real table, told only what a real table shows: the piles' tops and the scoring row
as they are turned up, every draw as "a card", a card named once laid face up, a hideout pick named only
when the table already knows the card (else "a card, face down").

At every step the table's reckoning must hold the true hands (so no card a player holds is refused), accept
every move the true position allows, and refuse ending the turn exactly where every hand it allows holds a
red card; at the end the public positions and the scores agree. Decks rich in hideout, replenish and
inventory cards come from a policy that buys and plays them whenever it can.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines.core import IllegalAction
from engines.isla_nublar import GAME, unseen
from engines.isla_nublar.actions import (
    Buy,
    Draw,
    EndTurn,
    PlaceDinosaurs,
    PlayCard,
    RevealPile,
    RevealScoring,
    Select,
)
from engines.isla_nublar.components import add, take
from engines.isla_nublar.unseen import UNSEEN, allows, could_hold, counts, every_draw

RICH = ("hideout", "replenish", "inventory")
PUBLIC = ("fields", "supply", "score", "piles", "scoring_row", "dinosaurs", "pools")


def true_world(truth: Any, table: Any, p: str) -> tuple[Any, Any]:
    """What the table does not know, as the truth has it: the hand and hideout beyond the named cards."""
    hand, hidden = dict(truth.zones[p]["hand"]), dict(truth.zones[p]["hidden"])
    for card, n in table.zones[p]["hand"].items():
        take(hand, card, n)
    for card, n in table.zones[p]["hidden"].items():
        take(hidden, card, n)
    return counts(hand), counts(hidden)


def told(truth: Any, table: Any, action: Any) -> list[Any]:
    """The action as a real table tells it: a draw as "a card", a hideout pick named only when the table
    knows it, and the end of a turn whose hand is played out after each card is laid face up."""
    if isinstance(action, Draw):
        return [Draw(player=action.player, card=UNSEEN)]
    task = table.tasks[0] if table.tasks else None
    if isinstance(action, Select) and task is not None and getattr(task, "purpose", "") == "hideout":
        named = table.zones[action.player]["hand"].get(action.card, 0)
        already = task.chosen.get(action.card, 0)
        return [action if named > already else Select(player=action.player, card=UNSEEN)]
    if isinstance(action, EndTurn) and table.unknown_left_in_hand(action.player):
        laid = [PlayCard(player=action.player, card=card, use="none")
                for card, n in sorted(truth.zones[action.player]["hand"].items()) for _ in range(n)]
        return [*laid, action]
    return [action]


def set_up_as_the_truth(truth: Any, table: Any) -> Any:
    """The table's set-up told as the truth dealt it: the figures on the volcanoes, each pile's top, the
    scoring row."""
    while table.is_chance_node() and not (table.tasks and table.tasks[0].kind == "draw"):
        task, outcome = table.tasks[0], table.chance_outcomes()[0][0]
        if isinstance(outcome, PlaceDinosaurs):
            by_volcano = {at: dino for dino, at in truth.dinos.items()}
            outcome = PlaceDinosaurs(figures=" ".join(by_volcano[v] for v in truth.board.volcanoes))
        elif isinstance(outcome, RevealPile):
            outcome = RevealPile(pile=task.pile, card=truth.piles[task.pile]["top"])
        elif isinstance(outcome, RevealScoring):
            outcome = RevealScoring(slot=task.slot, card=truth.row[task.slot])
        table = table.apply(outcome)
    return table


def apply_all(state: Any, actions: list[Any]) -> Any:
    for action in actions:
        state = state.apply(action)
    return state


def rich_choice(state: Any, actions: list[Any], rng: random.Random) -> Any:
    """Buy and play hideout, replenish and inventory cards first; pick many cards for the hideout."""
    def rich(action: Any) -> bool:
        if isinstance(action, Buy):
            pile = state.piles[action.pile]["top"]
            return pile is not None and any(do in RICH for do in _actions_of(state, pile))
        return isinstance(action, PlayCard) and action.use in RICH
    favoured = [a for a in actions if rich(a)]
    if state.tasks and getattr(state.tasks[0], "purpose", "") == "hideout":
        favoured = [a for a in actions if isinstance(a, Select)] or favoured
    return rng.choice(favoured if favoured and rng.random() < 0.8 else actions)


def _actions_of(state: Any, card_id: str) -> list[str]:
    return [str(do) for do, _ in state.card(card_id).actions]


def lockstep(seed: int, players: int, options: dict[str, Any], rich: bool) -> dict[str, int]:
    rng = random.Random(seed)
    names = ("red", "blue", "green", "yellow")[:players]
    truth: Any = GAME.new_initial_state(names, rng=random.Random(seed), options=options)
    table: Any = GAME.new_initial_state(names, rng=random.Random(seed),
                                        options={**options, "table_cards": "table"})
    table.tracks = truth.tracks  # the client tiles lie face up: the table sees how they were laid out
    table = set_up_as_the_truth(truth, table)
    seen = {"steps": 0, "red_refusals": 0, "moves_checked": 0}
    for _ in range(4000):
        if truth.is_terminal():
            break
        for p in names:
            assert allows(table, p, true_world(truth, table, p)), (seed, p)
        if truth.is_chance_node():
            outcomes = truth.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            legal = truth.legal_actions()
            for candidate in legal:  # every true move is one the table accepts
                apply_all(table, told(truth, table, candidate))
                seen["moves_checked"] += 1
            p = truth.current_player()
            if not truth.tasks and EndTurn(player=p) not in legal:
                seen["red_refusals"] += 1
            if not truth.tasks and table.red_in_hand(p):
                assert EndTurn(player=p) not in table.legal_actions()
            action = rich_choice(truth, legal, rng) if rich else rng.choice(legal)
        table = apply_all(table, told(truth, table, action))
        truth = truth.apply(action)
        seen["steps"] += 1
    assert truth.is_terminal() and table.is_terminal()
    truth_public, table_public = truth.view(None), table.view(None)
    for key in PUBLIC:
        assert truth_public.get(key) == table_public.get(key), key
    assert truth.scores().to_dict() == table.scores().to_dict()
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_a_real_table_never_refuses_a_card_a_player_holds(seed: int) -> None:
    options = {"unplayed_cards": "keep" if seed % 2 else "discard", "clients": seed % 3 == 1,
               "individual_ratings": seed % 4 == 3}
    seen = lockstep(seed, 2 + seed % 3, options, rich=seed >= 4)
    assert seen["moves_checked"] > 100


def test_after_a_face_down_pick_every_card_the_hand_may_hold_is_played() -> None:
    """Four cards drawn unseen, one of them laid face down unnamed: the hand may hold exactly the cards of
    some three of the four, counted here by brute force over the deck's copies, and each is accepted."""
    state: Any = GAME.new_initial_state(("red", "blue"), rng=random.Random(4),
                                        options={"table_cards": "table", "unplayed_cards": "keep"})
    while state.is_chance_node() and state.tasks[0].kind != "draw":
        state = state.apply(state.chance_outcomes()[0][0])
    zones = state.zones["red"]
    add(zones["hand"], "A3-HIDEOUT")  # an action card known in hand, bought earlier and returned
    copies = [card for card, n in sorted(zones["draw"].items()) for _ in range(n)]
    state.worlds["red"] = every_draw(zones["draw"], 4)
    state = state.apply(PlayCard(player="red", card="A3-HIDEOUT", use="hideout"))
    state = state.apply(Select(player="red", card=UNSEEN))
    state = state.apply(next(a for a in state.legal_actions() if a.kind == "finish"))
    expected = {card for drawn in itertools.combinations(copies, 4)
                for kept in itertools.combinations(drawn, 3) for card in kept}
    expected |= set(state.zones["red"]["hand"])
    assert could_hold(state, "red") == expected
    for card in sorted(expected):
        played = state.apply(PlayCard(player="red", card=card, use=state.uses("red", card)[0]))
        assert played.zones["red"]["played"].get(card) == 1
    stranger = next(c for c in state.cards.cards if c not in expected and not state.card(c).red)
    with pytest.raises(IllegalAction, match="not in red's hand"):
        state.apply(PlayCard(player="red", card=stranger, use="none"))


@contextlib.contextmanager
def exact_reckoning() -> Iterator[None]:
    """Worlds never fall back to bounds: the exact reckoning the bounded one is measured against."""
    kept = unseen.MAX_WORLDS
    unseen.MAX_WORLDS = 10**6
    try:
        yield
    finally:
        unseen.MAX_WORLDS = kept


@pytest.mark.parametrize("seed", [5, 12, 14])
def test_bounds_across_reshuffles_accept_no_more_than_the_exact_worlds(seed: int) -> None:
    """Hands kept unseen over turns (the ``keep`` house rule, players often ending early) fall back to
    bounds; a reshuffle must keep the drawn-out pile's cards in hand or hideout. At every decision the
    bounded table offers no move, card or end of turn that the exact worlds refuse."""
    rng = random.Random(seed)
    names = ("red", "blue", "green", "yellow")[:2 + seed % 3]
    options = {"unplayed_cards": "keep"}
    truth: Any = GAME.new_initial_state(names, rng=random.Random(seed), options=options)
    tables = []
    for _ in range(2):
        table: Any = GAME.new_initial_state(names, rng=random.Random(seed),
                                            options={**options, "table_cards": "table"})
        table.tracks = truth.tracks
        tables.append(table)
    bounded = set_up_as_the_truth(truth, tables[0])
    with exact_reckoning():
        exact = set_up_as_the_truth(truth, tables[1])
    while not truth.is_terminal():
        if truth.is_chance_node():
            outcomes = truth.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            p = truth.current_player()
            with exact_reckoning():
                exact_cards, exact_legal = could_hold(exact, p), set(exact.legal_actions())
                exact_red = not truth.tasks and exact.red_in_hand(p)
            assert could_hold(bounded, p) <= exact_cards
            if isinstance(bounded.worlds[p], unseen.Bounds):  # a pile's floor survives a save
                saved = json.loads(json.dumps(bounded.to_dict()))
                assert GAME.state_from_dict(saved).to_dict() == saved
            assert set(bounded.legal_actions()) <= exact_legal
            if exact_red:
                assert bounded.red_in_hand(p)
            legal = truth.legal_actions()
            end = EndTurn(player=p)
            action = end if end in legal and rng.random() < 0.3 else rich_choice(truth, legal, rng)
        bounded = apply_all(bounded, told(truth, bounded, action))
        with exact_reckoning():
            exact = apply_all(exact, told(truth, exact, action))
        truth = truth.apply(action)
    assert bounded.scores().to_dict() == truth.scores().to_dict()
