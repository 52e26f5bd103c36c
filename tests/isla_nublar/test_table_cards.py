"""Cards shuffled and drawn at a real table (``table_cards: "table"``): the engine is told what lies face up
as the table is set up, never what a player draws; a card is known once laid face up."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, IllegalAction
from engines.isla_nublar import GAME
from engines.isla_nublar.actions import (
    Draw,
    EndTurn,
    Finish,
    PlaceDinosaurs,
    PlayCard,
    RevealPile,
    RevealScoring,
    Select,
)
from engines.isla_nublar.codec import check_conservation
from engines.isla_nublar.components import add
from engines.isla_nublar.unseen import (
    UNSEEN,
    Bounds,
    could_hold,
    every_draw,
    hand_size,
    physical_draw,
    unseen_hidden,
    unseen_in_hand,
)

TABLE = {"table_cards": "table"}


def set_up(state: Any) -> Any:
    """Tell the engine the first card of each reveal, as players turning up the real cards would."""
    while state.is_chance_node() and state.tasks[0].kind != "draw":
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def draw_unseen(state: Any) -> Any:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == [Draw(player=state.tasks[0].player, card=UNSEEN)]
        state = state.apply(outcomes[0][0])
    return state


def unseen_hand(state: Any, player: str, n: int) -> None:
    """``n`` cards of the player's draw zone drawn unseen (any ``n`` of them)."""
    state.worlds[player] = every_draw(state.zones[player]["draw"], n)


def round_trip(state: Any) -> Any:
    data = json.loads(json.dumps(state.to_dict()))
    back = GAME.state_from_dict(data)
    assert back.to_dict() == state.to_dict()
    check_conservation(back)
    return back


def test_a_table_game_starts_by_asking_what_lies_face_up(kit: SimpleNamespace) -> None:
    s = kit.fresh(**TABLE)
    assert s.current_player() == CHANCE
    assert s.row == [None] * 5 and all(pile["top"] is None for pile in s.piles.values())
    assert s.zones["red"]["hand"] == {} and hand_size(s, "red") == 5 and physical_draw(s, "red") == 5
    figures = s.chance_outcomes()  # first the figures the players stood on the volcanoes
    assert {type(a) for a, _ in figures} == {PlaceDinosaurs}
    s = s.apply(figures[0][0])
    first = s.chance_outcomes()
    assert {type(a) for a, _ in first} == {RevealPile}
    with pytest.raises(IllegalAction, match="IN-BUY"):
        s.apply(RevealPile(pile=first[0][0].pile, card="S-AMBER1"))  # a starting card is no pile's
    s = set_up(s)
    assert all(pile["top"] is not None for pile in s.piles.values()) and None not in s.row
    # the basic game: the scoring cards not in the row went back in the box
    assert s.scoring_deck == {} and sum(s.box.values()) > 0
    assert s.current_player() == "red"
    round_trip(s)


def test_individual_ratings_keep_the_face_down_scoring_pile(kit: SimpleNamespace) -> None:
    s = set_up(kit.fresh(individual_ratings=True, **TABLE))
    assert sum(s.scoring_deck.values()) > 0 and s.box == {}
    s = kit.fresh(**TABLE)
    while isinstance(s.chance_outcomes()[0][0], RevealPile | PlaceDinosaurs):
        s = s.apply(s.chance_outcomes()[0][0])
    assert all(isinstance(a, RevealScoring) and a.slot == 0 for a, _ in s.chance_outcomes())


def test_an_unseen_card_is_known_once_laid_face_up(kit: SimpleNamespace) -> None:
    s = set_up(kit.fresh(**TABLE))
    plays = {a.card for a in s.legal_actions() if isinstance(a, PlayCard)}
    assert plays == set(s.zones["red"]["draw"])  # any starting card may be in the hand
    with pytest.raises(IllegalAction, match="IN-TURN"):  # an action card is in no starting deck
        s.apply(PlayCard(player="red", card="A3-HIDEOUT", use="hideout"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber"))
    assert s.amber == 1 and s.zones["red"]["played"] == {"S-AMBER1": 1}
    assert hand_size(s, "red") == 4 and physical_draw(s, "red") == 5
    view = s.view(None)
    assert view["cards"]["red"]["hand"] == {"count": 4} and view["cards"]["red"]["draw"] == {"count": 5}
    assert '"pool"' not in json.dumps(view) and "unseen" not in view["cards"]["red"]
    assert s.view("red")["cards"]["red"]["unseen"] == 4
    round_trip(s)


def test_the_hand_is_played_out_face_up_before_the_turn_ends(kit: SimpleNamespace) -> None:
    s = set_up(kit.fresh(**TABLE))
    assert EndTurn(player="red") not in s.legal_actions()
    with pytest.raises(IllegalAction, match="IN-DRAW"):
        s.apply(EndTurn(player="red"))
    kept = set_up(kit.fresh(unplayed_cards="keep", **TABLE))
    assert EndTurn(player="red") in kept.legal_actions()


def test_drawing_through_the_pile_settles_what_the_hand_holds(kit: SimpleNamespace) -> None:
    """Ten unseen cards in hand: the pile is drawn out, so the hand is known by elimination, card by card;
    after a play the discards are shuffled in and the one card drawn from them is known too."""
    s = set_up(kit.fresh(unplayed_cards="keep", **TABLE))
    deck = dict(s.zones["red"]["draw"])
    s = s.apply(PlayCard(player="red", card="EGG", use="egg"))
    while s.tasks:
        s = s.apply(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    deck.pop("EGG")
    assert set(s.worlds["red"]) != {((), ())}  # four unseen: many hands still possible
    s = draw_unseen(s.apply(EndTurn(player="red")))  # red keeps 4 unseen and draws the other 5
    assert hand_size(s, "red") == 9 and physical_draw(s, "red") == 0
    assert s.zones["red"]["hand"] == deck and unseen_in_hand(s, "red") == 0  # every card of the deck
    s = draw_unseen(s.apply(EndTurn(player="blue")))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber"))
    s = s.apply(EndTurn(player="red"))  # the played cards are discarded; the draw finds the pile empty
    s = draw_unseen(s)  # the egg, its dinosaur card and S-AMBER1 shuffled and drawn: known, all three
    dinosaur = next(card for card in s.zones["red"]["hand"] if card.startswith("DINO"))
    assert s.zones["red"]["hand"] == {**deck, "EGG": 1, dinosaur: 1} and unseen_in_hand(s, "red") == 0
    assert physical_draw(s, "red") == 0 and hand_size(s, "red") == 11
    round_trip(s)


def test_hideout_takes_unnamed_cards_face_down_and_gives_them_back(kit: SimpleNamespace) -> None:
    s = kit.fresh(**TABLE)
    s = set_up(s)
    kit.give(s, "red", "A3-HIDEOUT")  # a known card among four unseen ones (one goes back to the pile)
    unseen_hand(s, "red", 4)
    s = round_trip(s)
    s = s.apply(PlayCard(player="red", card="A3-HIDEOUT", use="hideout"))
    picks = {a.card for a in s.legal_actions() if isinstance(a, Select)}
    assert UNSEEN in picks and "EGG" in picks
    s = s.apply(Select(player="red", card=UNSEEN)).apply(Select(player="red", card=UNSEEN))
    s = round_trip(s).apply(Finish(player="red"))
    assert unseen_hidden(s, "red") == 2 and hand_size(s, "red") == 2
    assert s.view(None)["cards"]["red"]["hidden"] == {"count": 2}
    for card in ("S-AMBER1", "S-BOXES2"):
        if PlayCard(player="red", card=card, use="none") in s.legal_actions():
            s = s.apply(PlayCard(player="red", card=card, use="none"))
    while hand_size(s, "red"):
        s = s.apply(next(a for a in s.legal_actions() if isinstance(a, PlayCard)))
        while s.tasks:
            s = s.apply(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    s = draw_unseen(s.apply(EndTurn(player="red")))
    assert hand_size(s, "red") == 7 and unseen_hidden(s, "red") == 0  # 5 drawn, 2 back from the hideout
    round_trip(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_table_games_keep_every_card_and_never_show_the_reckoning(seed: int) -> None:
    rng = random.Random(seed)
    names = ("red", "blue", "green", "yellow")[: 2 + seed % 3]
    options = {**TABLE, "clients": seed % 2 == 1, "individual_ratings": seed % 3 == 2}
    s: Any = GAME.new_initial_state(names, rng=random.Random(seed), options=options)
    for step in range(3000):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s = s.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
        else:
            s = s.apply(rng.choice(s.legal_actions()))
        check_conservation(s)
        if step % 97 == 0:
            round_trip(s)
        shared = json.dumps(s.view(None))
        assert '"pool"' not in shared and '"unseen"' not in shared
    assert s.is_terminal()


def test_removing_exactly_three_counts_only_what_the_unseen_cards_can_be(kit: SimpleNamespace) -> None:
    """Three unseen cards that can only be two dinosaur cards and the egg (which never leaves): exactly
    three cannot be removed, so only declining is offered (counting the egg as removable left no move)."""
    from engines.isla_nublar.components import add, take
    from engines.isla_nublar.tasks import SelectCards

    s = set_up(kit.fresh(clients=True, **TABLE))
    zones = s.zones["red"]
    for card, n in list(zones["draw"].items()):
        if card != "EGG":
            take(zones["draw"], card, n)
            add(zones["discard"], card, n)
    take(s.dino_deck, "DINO-4", 2)
    add(zones["draw"], "DINO-4", 2)
    unseen_hand(s, "red", 3)
    s.tasks.insert(0, SelectCards(player="red", purpose="three"))
    s = round_trip(s)
    assert s.legal_actions() == [Finish(player="red")]


def test_hands_kept_unseen_for_long_fall_back_to_bounds_that_refuse_nothing(kit: SimpleNamespace) -> None:
    """Too many ways for the unseen cards to lie: the reckoning keeps the most of each card instead, still
    accepts every card the hand may hold, round-trips, and turns back into ways once a card settles it."""
    s = set_up(kit.fresh(**TABLE, unplayed_cards="keep"))
    zones = s.zones["red"]
    for pile in s.piles.values():  # bought over many turns: the decks grew by every pile's cards
        for card, n in pile["rest"].items():
            add(zones["draw"], card, n)
        pile["rest"] = {}
    unseen_hand(s, "red", 9)
    assert isinstance(s.worlds["red"], Bounds)
    back = round_trip(s)
    assert isinstance(back.worlds["red"], Bounds) and back.worlds["red"] == s.worlds["red"]
    assert could_hold(s, "red") == set(zones["draw"])
    for card in sorted(zones["draw"]):
        played = s.apply(PlayCard(player="red", card=card, use=s.uses("red", card)[0]))
        assert played.zones["red"]["played"] == {card: 1}
    with pytest.raises(IllegalAction, match="not in red's hand"):
        s.apply(PlayCard(player="red", card="DINO-1", use="none"))


def test_an_older_save_counting_unseen_cards_reads_as_every_hand_they_allow(kit: SimpleNamespace) -> None:
    s = set_up(kit.fresh(**TABLE))
    data = json.loads(json.dumps(s.to_dict()))
    for zones in data["cards"].values():
        worlds = zones.pop("worlds")
        zones["unseen"] = {"hand": sum(worlds[0]["hand"].values())}
    older = GAME.state_from_dict(data)
    assert older.to_dict() == s.to_dict()
