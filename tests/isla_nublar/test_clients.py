"""The Clients: every development-tile reward, and pending choices blocking other moves (IN-PHASE)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, IllegalAction
from engines.isla_nublar.actions import (
    Divert,
    EndTurn,
    Finish,
    Improve,
    MoveDinosaur,
    PlaceBox,
    PlayCard,
    Retrieve,
    Select,
)


def lab_track(kit: SimpleNamespace, first_tile: str, *hand: str) -> Any:
    """Red to play; the lab track starts with ``first_tile``; red holds ``hand`` (S-AMBER1 is a lab card)."""
    s = kit.fresh(clients=True)
    others = [t for t in ("DEV-A06", "DEV-A09", "DEV-B06", "DEV-B07") if t != first_tile]
    s.tracks = {**s.tracks, "lab": [first_tile, *others, "DEV-END-LAB"]}
    kit.park_dinos(s)
    kit.set_hand(s, "red", "S-AMBER1", *hand)
    return s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))


def draw_all(s: Any) -> Any:
    while s.is_chance_node():
        s = s.apply(s.chance_outcomes()[0][0])
    return s


def test_pending_choice_blocks_other_moves(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-A02", "S-BOXES2")
    assert s.tasks[0].kind == "retrieve"
    with pytest.raises(IllegalAction, match="IN-PHASE"):
        s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    with pytest.raises(IllegalAction, match="IN-PHASE"):
        s.apply(EndTurn(player="red"))


def test_not_rubbish_takes_back_a_played_or_discarded_card(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-A02")
    assert Retrieve(player="red", card="S-AMBER1", origin="played") in s.legal_actions()
    s = s.apply(Retrieve(player="red", card="S-AMBER1", origin="played"))
    assert s.zones["red"]["hand"] == {"S-AMBER1": 1} and s.zones["red"]["played"] == {}
    with pytest.raises(IllegalAction, match="IN-PHASE"):
        s.apply(Retrieve(player="red", card="S-AMBER1", origin="played"))


def test_remove_one_card_for_its_cost(kit: SimpleNamespace) -> None:
    s = kit.fresh(clients=True)
    kit.give(s, "red", "A5-IMPROVE")
    s = lab_track(kit, "DEV-A03")
    kit.give(s, "red", "A5-IMPROVE")
    assert s.tasks[0].to_dict() == {"t": "remove-one", "player": "red", "purpose": "for-cost"}
    s = s.apply(Select(player="red", card="A5-IMPROVE"))
    assert s.score["red"] == {"clients": 5} and s.box["A5-IMPROVE"] == 1


def test_draw_two_then_remove_any(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-A05", "EGG")
    assert s.current_player() == CHANCE
    s = draw_all(s)
    hand = dict(s.zones["red"]["hand"])
    assert sum(hand.values()) == 3
    assert Select(player="red", card="EGG") not in s.legal_actions()  # never the egg
    other = next(c for c in sorted(hand) if c != "EGG")
    s = s.apply(Select(player="red", card=other))
    s = s.apply(Finish(player="red"))
    assert sum(s.zones["red"]["hand"].values()) == 2 and s.box.get(other, 0) >= 1


def test_inventory_draws_two_more(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-A07", "S-BOXES2")
    s = s.apply(Select(player="red", card="S-BOXES2"))
    s = s.apply(Finish(player="red"))
    assert s.tasks[0].to_dict() == {"t": "draw", "player": "red", "n": 3}


def test_improve_up_to_three_amber_dearer(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-A08", "A3-WEAR")
    s.zones["red"]["hand"].pop("A3-WEAR", None)
    s.zones["red"]["played"]["A3-WEAR"] = 1
    kit.checked(s)
    piles = {a.pile for a in s.legal_actions() if isinstance(a, Improve) and a.card == "A3-WEAR"}
    assert piles == {0, 2, 3, 4, 5, 6}
    piles_from_start = {a.pile for a in s.legal_actions() if isinstance(a, Improve) and a.card == "S-AMBER1"}
    assert piles_from_start == {0, 2, 3}  # a starting card is worth 0 amber


def test_amber_and_boxes_rewards(kit: SimpleNamespace) -> None:
    assert lab_track(kit, "DEV-A06").amber == 4
    assert lab_track(kit, "DEV-A09").box_points == 3
    s = lab_track(kit, "DEV-B06")
    assert s.box_points == 4
    s = s.apply(PlaceBox(player="red", field="C3R3"))
    assert s.boxes == {"C3R3": {"red": 1}}


@pytest.mark.parametrize(
    ("tile", "dirs", "most"),
    [("DEV-A10", ["S"], 3), ("DEV-B01", ["S"], 4), ("DEV-B02", ["N", "NE", "SE", "S", "SW", "NW"], 2)],
)
def test_whisperer_moves(kit: SimpleNamespace, tile: str, dirs: list[str], most: int) -> None:
    s = lab_track(kit, tile)
    task = s.tasks[0].to_dict()
    assert task["dirs"] == dirs and task["max"] == most and task["dino"] is None
    moves = [a for a in s.legal_actions() if isinstance(a, MoveDinosaur)]
    assert {a.dinosaur for a in moves} == {"DINO-1", "DINO-2", "DINO-3", "DINO-4"}  # any figure
    assert max(a.steps for a in moves) == most
    assert Finish(player="red") in s.legal_actions()  # a reward may be left unused


def test_whisperer_in_any_direction_goes_straight(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-B02")
    s.dinos["DINO-2"] = "C3R4"
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2, direction="NE"))
    assert s.dinos["DINO-2"] == "C5R3"  # C3R4 -> C4R4 -> C5R3 on the hex grid


def test_whisperer_return_to_a_volcano_and_draw(kit: SimpleNamespace) -> None:
    s = lab_track(kit, "DEV-B05")
    s.dinos["DINO-3"] = "C3R6"
    s = s.apply(Divert(player="red", dinosaur="DINO-3", volcano="C4R0"))
    assert s.dinos["DINO-3"] == "C4R0"
    assert s.tasks[0].to_dict() == {"t": "draw", "player": "red", "n": 1}


def test_done_here_not_from_under_a_dinosaur(kit: SimpleNamespace) -> None:
    from engines.isla_nublar.actions import RemoveCamp

    s = lab_track(kit, "DEV-A01")
    kit.put_camp(s, "red", "C3R3")
    kit.put_camp(s, "red", "C3R5")
    s.dinos["DINO-1"] = "C3R3"  # stayed there after a defence
    assert {a.field for a in s.legal_actions() if isinstance(a, RemoveCamp)} == {"C3R5"}
    with pytest.raises(IllegalAction, match="IN-DEFENCE"):
        s.apply(RemoveCamp(player="red", field="C3R3", level=0))


def test_whisperer_north_may_end_on_a_volcano_another_figure_holds(kit: SimpleNamespace) -> None:
    # "Multiple dinosaur figures are allowed to stand on one field": a move towards the volcanoes can end on
    # a volcano where another figure already stands (e.g. one returned there after a hit); the state stays
    # readable and a later return still finds an empty volcano.
    s = kit.fresh(clients=True)
    tracks = {client: list(tiles) for client, tiles in s.tracks.items()}
    for tiles in tracks.values():  # DEV-B03 (north whisperer) first on the lab track, each tile dealt once
        if "DEV-B03" in tiles:
            tiles[tiles.index("DEV-B03")] = tracks["lab"][0]
    tracks["lab"][0] = "DEV-B03"
    s.tracks = tracks
    kit.park_dinos(s)
    s.dinos["DINO-2"], s.dinos["DINO-3"] = "C2R2", "C2R0"  # C4R0 is the empty volcano
    kit.set_hand(s, "red", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="influence"))
    s = s.apply(MoveDinosaur(player="red", dinosaur="DINO-2", steps=2, direction="N"))
    assert s.dinos["DINO-2"] == s.dinos["DINO-3"] == "C2R0"
    back = kit.game.state_from_dict(s.to_dict())
    assert back.to_dict() == s.to_dict()
    assert back.empty_volcanoes() == ["C4R0"]
