"""Dinosaur moves: 1-3 fields straight south, the five ways a move ends, defensive measures, volcanoes.

Default board columns used here: column 2 runs C2R0 (volcano) .. C2R8 (area 4, the bottom edge);
column 1 runs C1R0 (volcano) .. C1R6, which ends in area 3 (an upper area's edge).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, IllegalAction
from engines.isla_nublar.actions import (
    Decline,
    Defend,
    EndTurn,
    MoveDinosaur,
    PlaceBox,
    PlayCard,
    ReturnDinosaur,
    RevealDinosaur,
)


def dino_turn(kit: SimpleNamespace, dino: str = "DINO-2", at: str = "C2R0") -> Any:
    """Red to play the card of ``dino`` standing on ``at`` (DINO-1..4 start on C1R0, C2R0, C4R0, C5R0)."""
    s = kit.fresh()
    kit.park_dinos(s)
    s.dinos[dino] = at
    kit.set_hand(s, "red", dino)
    return s


def test_must_move_one_to_three_fields_south(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    with pytest.raises(IllegalAction, match="IN-RED"):
        s.apply(EndTurn(player="red"))
    with pytest.raises(IllegalAction, match="IN-RED"):
        s.apply(PlayCard(player="red", card="DINO-2", use="none"))
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    legal = s.legal_actions()
    assert legal == [MoveDinosaur(player="red", dinosaur="DINO-2", steps=n) for n in (1, 2, 3)]
    with pytest.raises(IllegalAction, match="IN-DINO-MOVE"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=4))
    with pytest.raises(IllegalAction, match="IN-DINO-MOVE"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-1", steps=1))
    with pytest.raises(IllegalAction, match="IN-DINO-MOVE"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=1, direction="SE"))
    # ways 1 and 5: stop voluntarily, or after 3 fields
    assert s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2)).dinos["DINO-2"] == "C2R2"
    after = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=3))
    assert after.dinos["DINO-2"] == "C2R3" and after.current_player() == "red" and not after.tasks


def test_way_2_boxes_are_taken_camp_stays(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    kit.put_camp(s, "blue", "C2R2")
    kit.put_boxes(s, "blue", "C2R2", 2)
    kit.put_boxes(s, "red", "C2R2", 1)
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    # may not skip the occupied field
    assert [a.steps for a in s.legal_actions()] == [1, 2]
    with pytest.raises(IllegalAction, match=r"IN-DINO-END.*skip"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=3))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2))
    # both box owners may defend, in turn order from the active player
    assert s.current_player() == "red" and s.tasks[0].kind == "defence"
    s = s.apply(Decline(player="red"))
    assert s.current_player() == "blue"
    s = s.apply(Decline(player="blue"))
    assert "C2R2" not in s.boxes and s.camps["C2R2"] == ["blue"]
    assert s.general["blue"]["boxes"] == 2 and s.general["red"]["boxes"] == 1
    # back to an empty volcano: C2R0 is the only empty one
    assert s.dinos["DINO-2"] == "C2R0"
    kit.checked(s)


def test_way_2_top_camp_is_taken_and_dinosaur_picks_a_volcano(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    s.dinos["DINO-1"] = "C0R1"  # two volcanoes empty now
    kit.put_camp(s, "blue", "C2R1")
    kit.put_camp(s, "red", "C2R1")
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=1))
    s = s.apply(Decline(player="red"))  # red's own camp is on top
    assert s.camps["C2R1"] == ["blue"] and s.general["red"]["camps"] == 3
    assert s.dinos["DINO-2"] == "C2R1" and s.tasks[0].kind == "return"
    assert {a.volcano for a in s.legal_actions()} == {"C1R0", "C2R0"}
    with pytest.raises(IllegalAction, match="IN-DINO-END"):
        s.apply(ReturnDinosaur(player="red", volcano="C4R0"))
    s = s.apply(ReturnDinosaur(player="red", volcano="C1R0"))
    assert s.dinos["DINO-2"] == "C1R0" and not s.tasks


def test_way_3_edge_of_an_upper_area_ends_the_move(kit: SimpleNamespace) -> None:
    s = dino_turn(kit, "DINO-1", "C1R5")
    s = s.apply(PlayCard(player="red", card="DINO-1", use="dinosaur"))
    assert [a.steps for a in s.legal_actions()] == [1]
    with pytest.raises(IllegalAction, match=r"IN-DINO-END.*edge"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-1", steps=2))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-1", steps=1))
    assert s.dinos["DINO-1"] == "C1R6"
    # at the edge already: the card has no effect
    s2 = dino_turn(kit, "DINO-1", "C1R6")
    s2 = s2.apply(PlayCard(player="red", card="DINO-1", use="dinosaur"))
    assert not s2.tasks and s2.dinos["DINO-1"] == "C1R6"


def test_way_4_leaving_the_island_in_the_bottom_area(kit: SimpleNamespace) -> None:
    s = dino_turn(kit, "DINO-2", "C2R7")
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    assert [a.steps for a in s.legal_actions()] == [1, 2]
    with pytest.raises(IllegalAction, match=r"IN-DINO-END.*leaves"):
        s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=3))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2))
    assert s.dinos["DINO-2"] == "C2R0"  # the only empty volcano


def test_several_dinosaurs_share_a_field(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    s.dinos["DINO-1"] = "C2R2"
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2))
    assert s.dinos["DINO-1"] == s.dinos["DINO-2"] == "C2R2"


def test_defensive_measures_keep_the_pieces_and_the_dinosaur_stays(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    kit.put_boxes(s, "blue", "C2R3", 2)
    kit.set_hand(s, "blue", "S-AMBER1-DEFENCE", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=3))
    assert s.current_player() == "blue"  # out of turn
    assert Defend(player="blue", card="S-AMBER1-DEFENCE") in s.legal_actions()
    with pytest.raises(IllegalAction, match="IN-DEFENCE"):
        s.apply(Defend(player="blue", card="S-AMBER1"))
    s = s.apply(Defend(player="blue", card="S-AMBER1-DEFENCE"))
    assert s.boxes["C2R3"] == {"blue": 2} and s.dinos["DINO-2"] == "C2R3"
    assert s.zones["blue"]["hand"] == {"S-AMBER1": 1}
    assert s.zones["blue"]["discard"] == {"S-AMBER1-DEFENCE": 1}
    assert s.current_player() == "red"
    # nobody may place or move parts on or off that field while the dinosaur stands there
    s.box_points = 2
    with pytest.raises(IllegalAction, match="dinosaur"):
        s.apply(PlaceBox(player="red", field="C2R3"))
    kit.checked(s)


def test_a_defender_without_the_card_can_only_decline(kit: SimpleNamespace) -> None:
    s = dino_turn(kit)
    kit.put_boxes(s, "blue", "C2R1", 1)
    kit.set_hand(s, "blue", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="DINO-2", use="dinosaur"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=1))
    assert s.legal_actions() == [Decline(player="blue")]
    with pytest.raises(IllegalAction, match="IN-TURN"):
        s.apply(Decline(player="red"))


def test_egg_reveals_a_dinosaur_card_that_joins_the_deck(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.park_dinos(s)
    kit.set_hand(s, "red", "EGG")
    s = s.apply(PlayCard(player="red", card="EGG", use="egg"))
    assert s.current_player() == CHANCE
    outcomes = s.chance_outcomes()
    assert {a.card for a, _ in outcomes} == {"DINO-1", "DINO-2", "DINO-3", "DINO-4"}
    assert sum(w for _, w in outcomes) == pytest.approx(1.0)
    s = s.apply(RevealDinosaur(card="DINO-3"))
    assert s.tasks[0].to_dict() == {
        "t": "dino-move",
        "player": "red",
        "dino": "DINO-3",
        "dirs": ["S"],
        "max": 3,
        "optional": False,
    }
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-3", steps=1))
    assert s.zones["red"]["played"] == {"EGG": 1, "DINO-3": 1}
    s = s.apply(EndTurn(player="red"))
    assert sum(s.dino_deck.values()) == 19
    red_cards = {c: n for z in s.zones["red"].values() for c, n in z.items()}
    assert red_cards.get("DINO-3") == 1 and red_cards.get("EGG") == 1
