"""Expert variants (Individual ratings, The Clients), hidden information, explanations and JSON."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, Correct, IllegalAction, StateFormatError
from engines.isla_nublar.actions import (
    CODEC,
    BuildCamp,
    Buy,
    BuyScoring,
    EndTurn,
    Finish,
    MoveDinosaur,
    PlaceBox,
    PlayCard,
    RemoveCamp,
    RevealScoring,
    Select,
    SwapDinosaurs,
)


def put_in_row(s: Any, card: str, slot: int) -> None:
    if card in s.row:
        i = s.row.index(card)
        s.row[i], s.row[slot] = s.row[slot], s.row[i]
        return
    source = s.scoring_deck if card in s.scoring_deck else s.box
    source[card] -= 1
    if not source[card]:
        del source[card]
    old = s.row[slot]
    s.row[slot] = card
    source[old] = source.get(old, 0) + 1


def test_individual_ratings_rulebook_example(kit: SimpleNamespace) -> None:
    # "red plays these cards and places 1 camp and 2 boxes on the board. With the 2 cards left red buys this
    # scoring card ... There is a camp from a previous turn on the board. Red gets a total of 5 points."
    s = kit.fresh(individual_ratings=True)
    put_in_row(s, "W-ON-PLAIN", 2)
    kit.put_camp(s, "red", "C1R1")  # plain, from a previous turn
    kit.set_hand(s, "red", "S-BOXES2", "S-BOXES2", "S-BOXES2", "S-AMBER1", "S-AMBER1")
    kit.checked(s)
    for _ in range(3):
        s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    s = s.apply(BuildCamp(player="red", field="C2R3"))  # plain
    assert not s.tasks  # no scoring is triggered by the camp in this variant
    s = s.apply(PlaceBox(player="red", field="C4R2"))  # plain
    s = s.apply(PlaceBox(player="red", field="C4R2"))
    for _ in range(2):
        s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber"))
    before = list(s.row)
    s = s.apply(BuyScoring(player="red", slot=2))
    assert s.score["red"]["scoring cards"] == 4 + 1  # both camp fields 2 each, the box field 1
    assert s.zones["red"]["discard"] == {"W-ON-PLAIN": 1}
    s = s.apply(EndTurn(player="red"))
    while s.tasks and s.tasks[0].kind == "draw":
        s = s.apply(s.chance_outcomes()[0][0])
    # "the scoring cards are moved to the right to fill the gap. A new scoring card is placed on the empty
    # left space": right is forward, the direction of the arrows in which the basic game closes its gaps
    # (towards slot 0, the front); left is the back of the row (slot 4), where the basic game's used card goes
    assert s.row[:4] == [before[0], before[1], before[3], before[4]] and s.row[4] is None
    assert s.current_player() == CHANCE
    new_card = next(iter(s.scoring_deck))
    s = s.apply(RevealScoring(slot=4, card=new_card))
    assert s.row[4] == new_card and s.active_player == "blue"
    kit.checked(s)


def test_individual_ratings_scoring_card_replayed_from_hand(kit: SimpleNamespace) -> None:
    s = kit.fresh(individual_ratings=True)
    kit.put_camp(s, "red", "C3R5")
    kit.put_camp(s, "red", "C3R4")
    put_in_row(s, "W-GROUPS", 0)
    s.row[0] = None
    s.zones["red"]["draw"]["W-GROUPS"] = 1
    kit.set_hand(s, "red", "W-GROUPS")
    assert {a.use for a in s.legal_actions() if isinstance(a, PlayCard)} == {"none", "scoring"}
    s = s.apply(PlayCard(player="red", card="W-GROUPS", use="scoring"))
    assert s.score["red"]["scoring cards"] == 6


def test_individual_ratings_empty_scoring_pile_counts_as_a_buy_pile(kit: SimpleNamespace) -> None:
    s = kit.fresh(individual_ratings=True)
    for card, n in s.scoring_deck.items():
        s.box[card] = s.box.get(card, 0) + n
    s.scoring_deck = {}
    pile = s.piles[2]
    for card, n in pile["rest"].items():
        s.box[card] = s.box.get(card, 0) + n
    pile["rest"] = {}
    s.amber = 2
    s = s.apply(Buy(player="red", pile=2))
    assert s.ending == "2 buy piles are empty (2-amber, scoring-card)"


def clients_state(kit: SimpleNamespace, tiles: list[str]) -> Any:
    s = kit.fresh(clients=True)
    s.tracks = {**s.tracks, "lab": [*tiles, "DEV-END-LAB"]}
    kit.park_dinos(s)
    return s


def test_clients_influence_moves_a_box_and_pays_the_reward(kit: SimpleNamespace) -> None:
    s = clients_state(kit, ["DEV-A06", "DEV-A01", "DEV-A04", "DEV-B03", "DEV-B04"])
    kit.set_hand(s, "red", "S-AMBER1", "S-AMBER1", "S-AMBER1", "S-BOXES2", "S-BOXES2", "S-AMBER1-BOXES1")
    kit.put_camp(s, "red", "C3R5")
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))  # lab: 4 amber
    assert s.influence["red"] == {"lab": 1} and s.amber == 4
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))  # We're done here
    s = s.apply(RemoveCamp(player="red", field="C3R5", level=0))
    assert s.score["red"] == {"clients": 6} and s.general["red"]["camps"] == 3 and "C3R5" not in s.camps
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))  # remove exactly 3
    s = s.apply(Select(player="red", card="S-BOXES2"))
    assert Finish(player="red") not in s.legal_actions()
    with pytest.raises(IllegalAction, match="IN-CLIENTS"):
        s.apply(Finish(player="red"))
    s = s.apply(Select(player="red", card="S-BOXES2"))
    s = s.apply(Select(player="red", card="S-AMBER1-BOXES1"))
    assert s.legal_actions() == [Finish(player="red")]
    s = s.apply(Finish(player="red"))
    assert s.score["red"] == {"clients": 12} and s.zones["red"]["hand"] == {}
    assert s.box["S-BOXES2"] == 2 and s.box["S-AMBER1-BOXES1"] == 1
    kit.checked(s)


def test_influence_only_in_the_clients_variant(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-AMBER1")
    with pytest.raises(IllegalAction, match="IN-CLIENTS"):
        s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))


def test_clients_finishing_tile_scores_10_and_returns_the_box(kit: SimpleNamespace) -> None:
    s = clients_state(kit, ["DEV-A06", "DEV-A01", "DEV-A04", "DEV-B03", "DEV-B04"])
    s.influence["red"]["lab"] = 5
    kit.set_hand(s, "red", "S-AMBER1", "S-AMBER1")
    boxes = s.personal["red"]["boxes"]
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))
    assert s.score["red"] == {"clients": 10} and s.personal["red"]["boxes"] == boxes + 1
    assert "influence" not in s.uses("red", "S-AMBER1")  # no more influence with that client
    kit.checked(s)


def test_dinosaur_whisperer_north_and_swap(kit: SimpleNamespace) -> None:
    s = clients_state(kit, ["DEV-B03", "DEV-B04", "DEV-A04", "DEV-A06", "DEV-A01"])
    kit.set_hand(s, "red", "S-AMBER1", "S-AMBER1")
    s.dinos["DINO-2"] = "C2R4"
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))
    moves = {(a.dinosaur, a.steps, a.direction) for a in s.legal_actions() if isinstance(a, MoveDinosaur)}
    assert ("DINO-2", 3, "N") in moves and ("DINO-2", 4, "N") not in moves and ("DINO-2", 1, "S") not in moves
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=3, direction="N"))
    assert s.dinos["DINO-2"] == "C2R1"
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))
    s = s.apply(SwapDinosaurs(player="red", first="DINO-1", second="DINO-2"))
    assert (s.dinos["DINO-1"], s.dinos["DINO-2"]) == ("C2R1", "C1R0")


def test_views_hide_hands_draw_piles_and_face_down_decks(kit: SimpleNamespace) -> None:
    s = kit.fresh(("red", "blue", "green"))
    red = s.view("red")
    assert red["cards"]["red"]["hand"] == s.zones["red"]["hand"]
    assert red["cards"]["blue"]["hand"] == {"count": 5}
    assert red["cards"]["red"]["draw"] == {"count": 5}
    table = s.view(None)
    assert all(table["cards"][p]["hand"] == {"count": 5} for p in s.players)
    assert table["dinosaur_deck"] == {"count": 20}
    assert all(set(pile["rest"]) == {"count"} for pile in table["piles"].values())
    assert "DINO-1" not in json.dumps(table["dinosaur_deck"])


def test_explain_cites_the_rule(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    refused = s.explain(PlaceBox(player="red", field="C2R0"))
    assert not refused.legal and refused.rules[0].rule_id in ("IN-SURPLUS", "IN-BOXES")
    s.box_points = 1
    refused = s.explain(PlaceBox(player="red", field="C2R0"))
    assert refused.rules[0].rule_id == "IN-BOXES" and "volcano" in refused.summary
    assert "Never place it on a volcano" in refused.rules[0].passage
    fine = s.explain(PlaceBox(player="red", field="C3R3"))
    assert fine.legal and fine.rules[0].rule_id == "IN-BOXES"


def test_actions_and_states_round_trip_through_json(kit: SimpleNamespace) -> None:
    s = kit.fresh(("red", "blue", "green", "yellow"), clients=True, individual_ratings=True)
    for action in s.legal_actions():
        assert CODEC.from_dict(json.loads(json.dumps(action.to_dict()))) == action
    back = kit.game.state_from_dict(json.loads(json.dumps(s.to_dict())))
    assert back == s and back.legal_actions() == s.legal_actions()
    corrected = s.apply(Correct(state=s.to_dict(), reason="re-seen"))
    assert corrected == s
    with pytest.raises(StateFormatError, match="options"):
        kit.game.state_from_dict({**s.to_dict(), "options": {"bogus": True}})
    with pytest.raises(StateFormatError, match="not a isla-nublar state"):
        kit.game.state_from_dict({**s.to_dict(), "game": "jurassik"})


@pytest.mark.parametrize("tile", ["inventory", "hideout"])
def test_cards_picked_from_a_hand_stay_hidden_from_the_others_until_they_leave_it(
    kit: SimpleNamespace, tile: str
) -> None:
    # while a player picks cards (inventory, hideout, the Clients' removals) they are still in the hand
    s = kit.fresh(("red", "blue"))
    card = {"inventory": "A4-INVENTORY", "hideout": "A3-HIDEOUT"}[tile]
    kit.give(s, "red", card)
    kit.set_hand(s, "red", card, "EGG", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card=card, use=tile))
    s = s.apply(Select(player="red", card="EGG"))
    for viewer in (None, "blue"):
        shown = s.view(viewer)
        assert shown["tasks"][0]["chosen"] == {"count": 1}
        assert "EGG" not in json.dumps(shown["tasks"]) and "EGG" not in json.dumps(
            shown["cards"]["red"]["hand"]
        )
    assert s.view("red")["tasks"][0]["chosen"] == {"EGG": 1}


@pytest.mark.parametrize(("buried", "red_points"), [(False, 2), (True, 4)])
def test_individual_ratings_buried_camps_house_rule(
    kit: SimpleNamespace, buried: bool, red_points: int
) -> None:
    # by default only the top camp counts with a bought scoring card too; the house rule reads the rulebook's
    # "This rule does not apply in this variant" as the top-camp rule
    s = kit.fresh(individual_ratings=True, individual_buried_camps=buried)
    kit.put_camp(s, "red", "C1R1")  # plain, under blue's camp
    kit.put_camp(s, "blue", "C1R1")
    kit.put_camp(s, "red", "C2R3")  # plain
    assert s.scoring_card_points("W-ON-PLAIN", "red") == red_points
    assert s.scoring_card_points("W-ON-PLAIN", "blue") == 2
    assert s.scoring_card_points("W-STACKS", "red") == 0  # the stacks card is about the top camp
    assert s.scoring_card_points("W-COLUMNS", "red") == 3 * (red_points // 2)
    basic = kit.fresh(individual_buried_camps=True)  # without the variant the option changes nothing
    kit.put_camp(basic, "red", "C1R1")
    kit.put_camp(basic, "blue", "C1R1")
    assert basic.scoring_card_points("W-ON-PLAIN", "red") == 0


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_true_false_options_take_only_true_or_false(kit: SimpleNamespace, value: object) -> None:
    with pytest.raises(StateFormatError, match="clients"):
        kit.game.new_initial_state(("red", "blue"), options={"clients": value})
    data = kit.fresh().to_dict()
    data["options"]["individual_ratings"] = value
    with pytest.raises(StateFormatError, match="individual_ratings"):
        kit.game.state_from_dict(data)


def test_a_typed_state_with_pending_automatic_steps_is_never_stuck(kit: SimpleNamespace) -> None:
    # a state typed by hand may leave a draw from an empty draw pile or a dinosaur hit pending: reading it
    # carries those out as apply would (shuffle the discard pile in; take the pieces, return the figure)
    data = kit.fresh().to_dict()
    red = data["cards"]["red"]
    for card, n in red["draw"].items():
        red["discard"][card] = red["discard"].get(card, 0) + n
    red["draw"] = {}
    data["tasks"] = [{"t": "draw", "player": "red", "n": 1}]
    s = kit.game.state_from_dict(data)
    assert s.is_chance_node() and abs(sum(w for _, w in s.chance_outcomes()) - 1) < 1e-9
    assert s.zones["red"]["discard"] == {}
    data["tasks"] = [{"t": "hit", "player": "red", "field": "C3R3", "dino": "DINO-1"}]
    data["dinosaurs"]["DINO-1"] = "C3R3"
    data["fields"]["C3R3"] = {"boxes": {"blue": 1}}
    data["supply"]["blue"]["personal"]["boxes"] -= 1
    s = kit.game.state_from_dict(data)
    assert "C3R3" not in s.boxes and s.general["blue"]["boxes"] == 1
    assert s.current_player() == "red" and s.legal_actions()  # red returns DINO-1 to a volcano


def test_a_typed_state_in_which_nobody_can_move_is_refused(kit: SimpleNamespace) -> None:
    data = kit.fresh(individual_ratings=True).to_dict()
    for slot in range(3):  # nothing in the active area, yet a scoring choice is pending
        card = data["scoring_row"][slot]
        data["scoring_deck"][card] = data["scoring_deck"].get(card, 0) + 1
        data["scoring_row"][slot] = None
    data["tasks"] = [{"t": "choose-scoring", "player": "red"}]
    with pytest.raises(StateFormatError, match="no move is possible"):
        kit.game.state_from_dict(data)
