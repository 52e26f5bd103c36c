"""A scripted opening turn, as a camera would report it: boxes, a camp on saved boxes, a scoring, a purchase,
the dinosaur egg, a dinosaur stopped by defensive measures, the draw, and the defender's smaller hand."""

from __future__ import annotations

from types import SimpleNamespace

from engines.core import CHANCE
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    ChooseScoring,
    Defend,
    Draw,
    EndTurn,
    MoveDinosaur,
    PlaceBox,
    PlayCard,
    RevealDinosaur,
    RevealPile,
)


def test_opening_turn(kit: SimpleNamespace) -> None:
    s = kit.fresh(("red", "blue"), seed=11)
    kit.park_dinos(s)  # DINO-2 on the volcano C2R0
    kit.set_hand(s, "red", "S-BOXES2", "S-BOXES2", "S-AMBER1", "S-AMBER1", "EGG")
    kit.set_hand(s, "blue", "S-AMBER1-DEFENCE", "S-AMBER1", "S-AMBER1", "S-BOXES2", "S-BOXES2")
    kit.put_boxes(s, "blue", "C2R2", 1)  # from an earlier turn
    s = kit.checked(s)
    row = list(s.row)

    for card in ("S-BOXES2", "S-BOXES2"):
        s = s.apply(PlayCard(player="red", card=card, use="boxes"))
    s = s.apply(PlaceBox(player="red", field="C3R3"))
    s = s.apply(PlaceBox(player="red", field="C3R3"))
    s = s.apply(BuildCamp(player="red", field="C3R3", take_back=2))  # 2 saved boxes + 2 box points
    assert s.camps == {"C3R3": ["red"]} and s.personal["red"] == {"boxes": 6, "camps": 5}
    assert s.score["red"] == {"camp areas": 2}
    gained = s.scoring_card_points(row[2], "red")
    s = s.apply(ChooseScoring(player="red", slot=2))
    assert s.total("red") == 2 + gained and s.row[-1] == row[2]

    for card in ("S-AMBER1", "S-AMBER1"):
        s = s.apply(PlayCard(player="red", card=card, use="amber"))
    bought = s.piles[2]["top"]
    s = s.apply(Buy(player="red", pile=2))
    assert s.current_player() == CHANCE
    s = s.apply(RevealPile(pile=2, card=next(iter(sorted(s.piles[2]["rest"])))))

    s = s.apply(PlayCard(player="red", card="EGG", use="egg"))
    s = s.apply(RevealDinosaur(card="DINO-2"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2))
    assert s.current_player() == "blue"
    s = s.apply(Defend(player="blue", card="S-AMBER1-DEFENCE"))
    assert s.dinos["DINO-2"] == "C2R2" and s.boxes["C2R2"] == {"blue": 1}

    s = s.apply(EndTurn(player="red"))
    for _ in range(5):
        assert s.current_player() == CHANCE
        s = s.apply(Draw(player="red", card=sorted(s.zones["red"]["draw"])[0]))
    assert s.active_player == "blue" and s.current_player() == "blue"
    assert sum(s.zones["blue"]["hand"].values()) == 4  # no card drawn for the defence
    red = s.zones["red"]
    assert red["discard"] == {bought: 1, "DINO-2": 1, "EGG": 1, "S-AMBER1": 2, "S-BOXES2": 2}
    assert sum(red["hand"].values()) == 5 and sum(red["draw"].values()) == 0
    kit.checked(s)
    report = kit.game.legal_report(s.to_dict())
    assert report["to_move"] == "blue" and report["pending"] == "main"
