"""The deck-building turn: every card action, red cards, the egg, buying, drawing, the end and ties."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, TERMINAL, IllegalAction
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    ChooseScoring,
    Divert,
    Draw,
    EndTurn,
    Finish,
    Improve,
    MoveBox,
    MoveCamp,
    PlaceBox,
    PlayCard,
    RevealPile,
    Select,
    StockUp,
)


def draw_all(s: Any, card_order: list[str] | None = None) -> Any:
    """Resolve pending draws, taking the first listed outcome (or the cards in ``card_order``)."""
    order = list(card_order or [])
    while s.is_chance_node():
        outcomes = [a for a, _ in s.chance_outcomes()]
        pick = next((a for a in outcomes if order and getattr(a, "card", None) == order[0]), outcomes[0])
        if order and getattr(pick, "card", None) == order[0]:
            order.pop(0)
        s = s.apply(pick)
    return s


def test_one_action_per_card_and_blue_cards_may_be_played_for_nothing(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-AMBER1-BOXES1")
    uses = {a.use for a in s.legal_actions() if isinstance(a, PlayCard)}
    assert uses == {"none", "amber", "boxes"}
    s2 = s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="amber"))
    assert (s2.amber, s2.box_points) == (1, 0)
    with pytest.raises(IllegalAction, match="IN-ONE-ACTION"):
        s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="hideout"))
    s3 = s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="none"))
    assert (s3.amber, s3.box_points) == (0, 0) and s3.zones["red"]["played"] == {"S-AMBER1-BOXES1": 1}


def test_buy_top_card_with_amber_surplus_buys_more(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-AMBER1", "S-AMBER1", "S-AMBER1", "S-AMBER1-BOXES1", "S-AMBER1-DEFENCE")
    for card in ("S-AMBER1", "S-AMBER1", "S-AMBER1", "S-AMBER1-BOXES1"):
        s = s.apply(PlayCard(player="red", card=card, use="amber"))
    assert s.amber == 4
    with pytest.raises(IllegalAction, match="IN-SURPLUS"):
        s.apply(Buy(player="red", pile=5))
    top = s.piles[2]["top"]
    s = s.apply(Buy(player="red", pile=2))
    assert s.zones["red"]["discard"] == {top: 1} and s.amber == 2
    assert s.current_player() == CHANCE  # the next card of the pile is turned up
    assert all(isinstance(a, RevealPile) and a.pile == 2 for a, _ in s.chance_outcomes())
    s = draw_all(s)
    assert s.piles[2]["top"] is not None
    s = s.apply(Buy(player="red", pile=2))  # the surplus buys another
    assert s.amber == 0


def test_red_cards_must_be_played_and_hideout_may_hide_them(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A3-HIDEOUT")
    kit.set_hand(s, "red", "A3-HIDEOUT", "EGG", "S-BOXES2")
    assert EndTurn(player="red") not in s.legal_actions()
    s = s.apply(PlayCard(player="red", card="A3-HIDEOUT", use="hideout"))
    assert set(s.legal_actions()) == {
        Finish(player="red"),
        Select(player="red", card="EGG"),
        Select(player="red", card="S-BOXES2"),
    }
    s = s.apply(Select(player="red", card="EGG"))
    s = s.apply(Select(player="red", card="S-BOXES2"))
    with pytest.raises(IllegalAction, match="IN-HIDEOUT"):
        s.apply(Select(player="red", card="S-BOXES2"))
    s = s.apply(Finish(player="red"))
    assert s.zones["red"]["hidden"] == {"EGG": 1, "S-BOXES2": 1} and s.zones["red"]["hand"] == {}
    s = draw_all(s.apply(EndTurn(player="red")))
    # after drawing 5, the hidden cards come back: 7 cards for the next turn
    assert sum(s.zones["red"]["hand"].values()) == 7 and s.zones["red"]["hidden"] == {}
    assert s.view("blue")["cards"]["red"]["hand"] == {"count": 7}


def test_inventory_discards_and_draws_one_more(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A4-INVENTORY")
    kit.set_hand(s, "red", "A4-INVENTORY", "EGG", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="A4-INVENTORY", use="inventory"))
    s = s.apply(Select(player="red", card="EGG"))  # a red card may be discarded this way
    s = s.apply(Select(player="red", card="S-AMBER1"))
    s = s.apply(Finish(player="red"))
    assert s.current_player() == CHANCE and s.tasks[0].to_dict() == {"t": "draw", "player": "red", "n": 3}
    s = draw_all(s)
    assert sum(s.zones["red"]["hand"].values()) == 3
    assert s.zones["red"]["discard"] == {"EGG": 1, "S-AMBER1": 1}


def test_wear_and_tear_removes_a_card_but_never_the_egg(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A3-WEAR")
    kit.set_hand(s, "red", "A3-WEAR", "EGG", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="A3-WEAR", use="wear"))
    assert Select(player="red", card="EGG") not in s.legal_actions()
    with pytest.raises(IllegalAction, match="IN-EGG"):
        s.apply(Select(player="red", card="EGG"))
    with pytest.raises(IllegalAction, match="IN-WEAR"):
        s.apply(Select(player="red", card="S-BOXES2"))
    s = s.apply(Select(player="red", card="S-AMBER1"))
    assert s.box == {**s.box, "S-AMBER1": 1} and s.zones["red"]["hand"] == {"EGG": 1}
    kit.checked(s)


def test_replenishment_draws_and_the_discard_is_reshuffled_when_needed(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A2-REPLENISH")
    kit.set_hand(s, "red", "A2-REPLENISH")
    zones = s.zones["red"]
    zones["discard"], zones["draw"] = zones["draw"], {}  # draw pile empty, discard full
    s = s.apply(PlayCard(player="red", card="A2-REPLENISH", use="replenish"))
    assert s.current_player() == CHANCE and s.zones["red"]["discard"] == {}
    assert sum(s.zones["red"]["draw"].values()) == 10
    first = s.chance_outcomes()[0][0]
    assert isinstance(first, Draw)
    s = s.apply(first)
    assert sum(s.zones["red"]["hand"].values()) == 1
    with pytest.raises(IllegalAction):
        s.apply(Draw(player="red", card="A6-AMBER4"))


def test_the_necessary_change_turns_amber_into_box_points(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A5-CHANGE")
    kit.set_hand(s, "red", "A5-CHANGE", "S-AMBER1", "S-AMBER1-BOXES1")
    with pytest.raises(IllegalAction, match="IN-CHANGE"):
        s.apply(PlayCard(player="red", card="S-AMBER1", use="amber-as-boxes"))
    s = s.apply(PlayCard(player="red", card="A5-CHANGE", use="change"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber-as-boxes"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="amber-as-boxes"))
    assert (s.amber, s.box_points) == (0, 2)
    s = draw_all(s.apply(EndTurn(player="red")))
    assert s.change is False


def test_amber_turned_into_boxes_only_brings_boxes_or_camps_to_the_board(kit: SimpleNamespace) -> None:
    # "use the amber action ... to bring equipment boxes or camps to the game board": not to move boxes
    # already there, nor to stock up from the general supply
    s = kit.fresh()
    kit.give(s, "red", "A5-CHANGE")
    kit.set_hand(s, "red", "A5-CHANGE", "S-AMBER1", "S-AMBER1", "S-BOXES2")
    kit.put_boxes(s, "red", "C3R3")
    s.personal["red"]["boxes"] -= 1
    s.general["red"]["boxes"] += 1
    s = s.apply(PlayCard(player="red", card="A5-CHANGE", use="change"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber-as-boxes"))
    legal = s.legal_actions()
    assert PlaceBox(player="red", field="C3R4") in legal
    assert not any(isinstance(a, MoveBox | StockUp) for a in legal)
    with pytest.raises(IllegalAction, match="IN-CHANGE"):
        s.apply(StockUp(player="red", piece="box"))
    with pytest.raises(IllegalAction, match="IN-CHANGE"):
        s.apply(MoveBox(player="red", origin="C3R3", target="C3R4"))
    # box points from a box card may do anything; placing spends the amber-made points first
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    s = s.apply(PlaceBox(player="red", field="C3R4"))
    assert s.box_points == 2
    s = s.apply(StockUp(player="red", piece="box"))
    s = s.apply(MoveBox(player="red", origin="C3R3", target="C3R5"))
    assert s.box_points == 0
    kit.checked(kit.game.state_from_dict(s.to_dict()))


def test_house_rule_amber_turned_into_boxes_serves_every_box_use(kit: SimpleNamespace) -> None:
    s = kit.fresh(necessary_change="any")
    kit.give(s, "red", "A5-CHANGE")
    kit.set_hand(s, "red", "A5-CHANGE", "S-AMBER1")
    s.personal["red"]["boxes"] -= 1
    s.general["red"]["boxes"] += 1
    s = s.apply(PlayCard(player="red", card="A5-CHANGE", use="change"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber-as-boxes"))
    s = s.apply(StockUp(player="red", piece="box"))
    assert s.personal["red"]["boxes"] == 6


def test_improvement_swaps_a_played_card_for_one_up_to_2_amber_dearer(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A5-IMPROVE")
    kit.give(s, "red", "A3-HIDEOUT")
    kit.set_hand(s, "red", "A5-IMPROVE", "A3-HIDEOUT", "EGG")
    s = s.apply(PlayCard(player="red", card="A3-HIDEOUT", use="none"))
    s = s.apply(PlayCard(player="red", card="EGG", use="egg"))
    s = draw_all(s)
    s = s.apply(s.legal_actions()[0])  # the revealed dinosaur moves 1
    s = s.apply(PlayCard(player="red", card="A5-IMPROVE", use="improve"))
    options = {(a.card, a.pile) for a in s.legal_actions() if isinstance(a, Improve)}
    assert ("A3-HIDEOUT", 5) in options and ("A3-HIDEOUT", 6) not in options
    assert not any(card == "EGG" for card, _ in options)
    assert not any(card == "A5-IMPROVE" for card, _ in options)  # not the improvement card itself
    with pytest.raises(IllegalAction, match="IN-EGG"):
        s.apply(Improve(player="red", card="EGG", pile=2))
    with pytest.raises(IllegalAction, match="IN-IMPROVE"):
        s.apply(Improve(player="red", card="A3-HIDEOUT", pile=6))
    top = s.piles[5]["top"]
    s = s.apply(Improve(player="red", card="A3-HIDEOUT", pile=5))
    assert s.box.get("A3-HIDEOUT") == 1 and s.zones["red"]["discard"] == {top: 1}
    kit.checked(draw_all(s))


def test_house_rule_the_improvement_card_may_remove_itself(kit: SimpleNamespace) -> None:
    # "Remove 1 of your played cards from the Game": the reading keeps the improvement card out of it,
    # option improve_itself lets it go (the new card may then cost up to its price + 2)
    for allowed in (False, True):
        s = kit.fresh(improve_itself=allowed)
        kit.give(s, "red", "A5-IMPROVE")
        kit.set_hand(s, "red", "A5-IMPROVE")
        s = s.apply(PlayCard(player="red", card="A5-IMPROVE", use="improve"))
        own = Improve(player="red", card="A5-IMPROVE", pile=6)
        assert (own in s.legal_actions()) is allowed
        if allowed:
            s = s.apply(own)
            assert s.box.get("A5-IMPROVE") == 1 and s.zones["red"]["played"] == {}
            kit.checked(draw_all(s))
        else:
            with pytest.raises(IllegalAction, match="IN-IMPROVE"):
                s.apply(own)


def test_move_camp_even_from_under_a_stack_or_to_the_top(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A4-MOVE-CAMP")
    kit.set_hand(s, "red", "A4-MOVE-CAMP")
    kit.put_camp(s, "red", "C3R3")
    kit.put_camp(s, "blue", "C3R3")
    s = s.apply(PlayCard(player="red", card="A4-MOVE-CAMP", use="move_camp"))
    assert MoveCamp(player="red", origin="C3R3", level=0, target="C3R3") in s.legal_actions()
    with pytest.raises(IllegalAction, match="IN-MOVE-CAMP"):
        s.apply(MoveCamp(player="red", origin="C3R3", level=1, target="C3R4"))
    on_top = s.apply(MoveCamp(player="red", origin="C3R3", level=0, target="C3R3"))
    assert on_top.camps["C3R3"] == ["blue", "red"]
    moved = s.apply(MoveCamp(player="red", origin="C3R3", level=0, target="C1R1"))
    assert moved.camps == {"C3R3": ["blue"], "C1R1": ["red"]}
    assert moved.score["red"] == {}  # moving is not setting up: no area points, no scoring
    with pytest.raises(IllegalAction, match="IN-CAMP"):
        s.apply(MoveCamp(player="red", origin="C3R3", level=0, target="C2R0"))


def test_diversion_puts_any_dinosaur_on_an_empty_volcano(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.park_dinos(s)
    s.dinos["DINO-4"] = "C3R5"
    kit.give(s, "red", "A3-DIVERSION")
    kit.set_hand(s, "red", "A3-DIVERSION")
    s = s.apply(PlayCard(player="red", card="A3-DIVERSION", use="diversion"))
    assert {a.volcano for a in s.legal_actions() if isinstance(a, Divert)} == {"C5R0"}
    with pytest.raises(IllegalAction, match="IN-DIVERSION"):
        s.apply(Divert(player="red", dinosaur="DINO-4", volcano="C1R0"))
    s = s.apply(Divert(player="red", dinosaur="DINO-4", volcano="C5R0"))
    assert s.dinos["DINO-4"] == "C5R0"


def _finish_turns(s: Any, until_player: str | None = None) -> Any:
    while not s.is_terminal() and (until_player is None or s.current_player() != until_player):
        if s.is_chance_node():
            s = s.apply(s.chance_outcomes()[0][0])
            continue
        player = s.current_player()
        red = [a for a in s.legal_actions() if isinstance(a, PlayCard) and a.use in ("egg", "dinosaur")]
        if red:
            s = s.apply(red[0])
            continue
        moves = [a for a in s.legal_actions() if not isinstance(a, PlayCard)]
        s = s.apply(next((a for a in moves if isinstance(a, EndTurn)), moves[0]))
        if until_player is None and s.active_player != player and s.active == 0:
            break
    return s


def test_last_camp_ends_the_game_after_the_round(kit: SimpleNamespace) -> None:
    s = kit.fresh(("red", "blue", "green"))
    s.personal["red"]["camps"] = 1
    s.general["red"]["camps"] += 6
    s.active = 1  # blue sets up its last camp; green still plays, then the round is over
    s.personal["blue"]["camps"] = 1
    s.general["blue"]["camps"] += 6
    kit.checked(s)
    s.box_points = 4
    s = s.apply(BuildCamp(player="blue", field="C3R8"))
    s = s.apply(ChooseScoring(player="blue", slot=0))
    assert s.ending == "blue set up the last camp of the personal supply" and not s.is_terminal()
    kit.set_hand(s, "blue")
    s = draw_all(s.apply(EndTurn(player="blue")))
    assert s.active_player == "green" and not s.is_terminal()
    kit.set_hand(s, "green")
    s = draw_all(s.apply(EndTurn(player="green")))
    assert s.is_terminal() and s.current_player() == TERMINAL
    outcome = s.outcome()
    assert outcome is not None and "last camp" in outcome.reason
    with pytest.raises(IllegalAction, match="IN-END"):
        s.apply(EndTurn(player="red"))


def test_empty_dinosaur_deck_ends_the_game(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.park_dinos(s)
    for card in list(s.dino_deck):
        s.box[card] = s.box.get(card, 0) + s.dino_deck.pop(card)
    s.box["DINO-1"] -= 1
    s.dino_deck["DINO-1"] = 1
    kit.set_hand(s, "red", "EGG")
    s = s.apply(PlayCard(player="red", card="EGG", use="egg"))
    s = s.apply(RevealDinosaurCard("DINO-1"))
    assert s.ending == "the dinosaur deck is empty"


def RevealDinosaurCard(card: str) -> Any:
    from engines.isla_nublar.actions import RevealDinosaur

    return RevealDinosaur(card=card)


def test_two_empty_buy_piles_end_the_game(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    for price in (2, 3):
        pile = s.piles[price]
        for card, n in pile["rest"].items():
            s.box[card] = s.box.get(card, 0) + n
        pile["rest"] = {}
    s.amber = 5
    s = s.apply(Buy(player="red", pile=2))
    assert not s.ending
    s = s.apply(Buy(player="red", pile=3))
    assert s.ending == "2 buy piles are empty (2-amber, 3-amber)"


def test_ties_share_the_win(kit: SimpleNamespace) -> None:
    s = kit.fresh(("red", "blue", "green"))
    s.score = {"red": {"camp areas": 7}, "blue": {"scoring cards": 7}, "green": {"camp areas": 3}}
    outcome = s.scores()
    assert outcome.winners == ("red", "blue") and outcome.tiebreak


def test_place_box_needs_a_box_in_the_personal_supply(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    s.general["red"]["boxes"] = s.personal["red"]["boxes"]
    s.personal["red"]["boxes"] = 0
    s.box_points = 1
    with pytest.raises(IllegalAction, match="IN-BOXES"):
        s.apply(PlaceBox(player="red", field="C3R3"))


def test_the_hand_is_played_out_unplayed_blue_cards_are_discarded(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-BOXES2", "S-AMBER1", "S-AMBER1-DEFENCE")
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    s = draw_all(s.apply(EndTurn(player="red")))
    assert s.zones["red"]["discard"] == {"S-AMBER1": 1, "S-AMBER1-DEFENCE": 1, "S-BOXES2": 1}
    assert sum(s.zones["red"]["hand"].values()) == 5


def test_house_rule_keep_unplayed_cards(kit: SimpleNamespace) -> None:
    s = kit.fresh(unplayed_cards="keep")
    kit.set_hand(s, "red", "S-BOXES2", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    s = draw_all(s.apply(EndTurn(player="red")))
    assert s.zones["red"]["discard"] == {"S-BOXES2": 1}
    assert sum(s.zones["red"]["hand"].values()) == 6
    assert [o.name for o in kit.game.options if o.house_rule] == [
        "unplayed_cards",
        "necessary_change",
        "individual_buried_camps",
        "improve_itself",
        "river_own_field",
    ]
