"""Board data, card data, setup, and the pieces: boxes, camps, supplies."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from importlib import resources
from types import SimpleNamespace
from typing import Any, cast

import pytest

from engines.core import IllegalAction, StateFormatError
from engines.isla_nublar import board_from_dict, cards_from_dict, default_board, default_cards
from engines.isla_nublar.actions import (
    BuildCamp,
    ChooseScoring,
    EndTurn,
    MoveBox,
    PlaceBox,
    PlayCard,
    StockUp,
)


def _board_json() -> dict[str, Any]:
    return cast(
        dict[str, Any],
        json.loads(resources.files("engines.isla_nublar").joinpath("data/board-default.json").read_text()),
    )


def _cards_json() -> dict[str, Any]:
    return cast(
        dict[str, Any],
        json.loads(resources.files("engines.isla_nublar").joinpath("data/cards.json").read_text()),
    )


# -- board data ---------------------------------------------------------------------------------------------
def test_default_board_is_marked_and_consistent() -> None:
    board = default_board()
    assert board.default and "check it against the printed board" in board.note.lower()
    assert len(board.volcanoes) == 4
    for volcano in board.volcanoes:
        assert board.columns[board.fields[volcano].column][0] == volcano
    assert set(board.camp_points) == {1, 2, 3, 4} and board.camp_points[4] == 0
    assert {f.landscape for f in board.fields.values() if not f.volcano} == {
        "park",
        "mountain",
        "forest",
        "plain",
        "lake",
    }
    for field in board.fields.values():
        for other in field.neighbours:
            assert field.field_id in board.fields[other].neighbours
    # straight towards the southern tip is the next field of the same column
    assert board.next_field("C2R0", "S") == "C2R1"
    assert board.next_field("C2R8", "S") is None


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda b: b["fields"][5]["neighbours"].pop(), "neighbours"),
        (lambda b: b["fields"][0].update(landscape="swamp"), "landscape"),
        (
            lambda b: [f.update(volcano=False, landscape="park") for f in b["fields"] if f["id"] == "C1R0"],
            "4 volcanoes",
        ),
        (lambda b: b.update(fields=[f for f in b["fields"] if f["id"] != "C3R5"]), "C3R"),
        (lambda b: [f.update(area=1) for f in b["fields"] if f["id"] == "C3R9"], "areas must not rise"),
        (lambda b: b["areas"].pop(), "areas"),
        (lambda b: b["fields"].append(dict(b["fields"][0])), "duplicate"),
    ],
)
def test_board_validation_names_the_problem(mutate: Callable[[Any], Any], message: str) -> None:
    data = _board_json()
    mutate(data)
    with pytest.raises(StateFormatError, match=message):
        board_from_dict(data)


def test_volcano_must_top_its_column() -> None:
    data = _board_json()
    for field in data["fields"]:
        if field["id"] == "C1R0":
            field.update(volcano=False, landscape="park")
        if field["id"] == "C1R1":
            field.update(volcano=True, landscape=None)
    with pytest.raises(StateFormatError, match="not at the top"):
        board_from_dict(data)


# -- card data ----------------------------------------------------------------------------------------------
def test_default_cards_totals() -> None:
    cards = default_cards()

    def count(group: str) -> int:
        return sum(c.count for c in cards.of_group(group))

    assert (count("action"), count("dinosaur"), count("scoring"), count("starting")) == (42, 20, 18, 10)
    assert len(cards.piles) == 5 and len(cards.tiles) == 20
    assert cards.default
    kinds = {c.scoring["kind"] for c in cards.of_group("scoring")}
    assert len(kinds) == 9
    every_action = {do for c in cards.cards.values() for do, _ in c.actions}
    assert every_action >= {
        "amber",
        "boxes",
        "defence",
        "hideout",
        "diversion",
        "inventory",
        "wear",
        "replenish",
        "change",
        "improve",
        "move_camp",
        "egg",
    }


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["action_cards"][0].update(count=2), "42 action cards"),
        (lambda d: d["action_cards"][0]["actions"].append({"do": "fly"}), "unknown action"),
        (lambda d: d["scoring_cards"][0].update(kind="beauty"), "scoring kind"),
        (lambda d: d["development_tiles"].pop(), "20 tiles"),
    ],
)
def test_card_validation(mutate: Callable[[Any], Any], message: str) -> None:
    data = _cards_json()
    mutate(data)
    with pytest.raises(StateFormatError, match=message):
        cards_from_dict(data)


def _tile(data: dict[str, Any], tile_id: str) -> dict[str, Any]:
    return next(t for t in data["development_tiles"] if t["id"] == tile_id)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["action_cards"][0].update(actions=3), "A2-AMBER2: actions must be a list"),
        (lambda d: d["action_cards"][0].update(actions=None), "A2-AMBER2: actions must be a list"),
        (lambda d: d["action_cards"][0]["actions"][0].update(do=["amber"]), "A2-AMBER2: unknown action"),
        (lambda d: d["action_cards"][0]["actions"][0].update(do={"x": 1}), "A2-AMBER2: unknown action"),
        (lambda d: d["dinosaur_cards"][0].update(figure=["DINO-1"]), "DINO-1: figure must be"),
        (lambda d: d.update(development_tiles=7), "development_tiles must be a list"),
        (lambda d: _tile(d, "DEV-A06").update(n="4"), "DEV-A06: 'n' must be a whole number"),
        (lambda d: _tile(d, "DEV-A09").pop("n"), "DEV-A09: 'n' must be a whole number"),
        (lambda d: _tile(d, "DEV-B01").update(max=None), "DEV-B01: 'max' must be a whole number"),
        (lambda d: _tile(d, "DEV-A07").update(extra=-1), "DEV-A07: 'extra' must be a whole number"),
        (lambda d: _tile(d, "DEV-END-LAB").update(points="ten"), "DEV-END-LAB: 'points' must be"),
        (lambda d: d["scoring_cards"][0].update(camp=-2), "W-ON-PARK: needs whole-number 'camp'"),
        (lambda d: d["scoring_cards"][0].update(cost=0), "W-ON-PARK: a scoring card has an amber cost"),
    ],
)
def test_card_file_corruptions_are_named(mutate: Callable[[Any], Any], message: str) -> None:
    # every corruption is refused on load with the card or tile named, never later in play
    data = _cards_json()
    mutate(data)
    with pytest.raises(StateFormatError, match=re.escape(message)):
        cards_from_dict(data)


# -- setup --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "general", "personal"), [(2, 2, 6), (3, 1, 7), (4, 0, 8)])
def test_setup_supplies_by_player_count(
    kit: SimpleNamespace, players: int, general: int, personal: int
) -> None:
    state = kit.fresh(("red", "blue", "green", "yellow")[:players])
    for p in state.players:
        assert state.personal[p] == {"boxes": 6, "camps": personal}
        assert state.general[p] == {"boxes": 0, "camps": general}
        assert sum(state.zones[p]["hand"].values()) == 5 and sum(state.zones[p]["draw"].values()) == 5
    assert sorted(state.dinos.values()) == sorted(state.board.volcanoes)
    assert all(slot is not None for slot in state.row)
    assert all(pile["top"] is not None for pile in state.piles.values())
    kit.checked(state)


def test_clients_setup_puts_a_box_on_each_track(kit: SimpleNamespace) -> None:
    state = kit.fresh(clients=True)
    assert state.personal["red"]["boxes"] == 3
    for client, track in state.tracks.items():
        sets = [state.cards.tiles[t].tile_set for t in track]
        assert sets == ["A", "A", "A", "B", "B", "finish"]
        assert state.cards.tiles[track[-1]].client == client
    kit.checked(state)


# -- boxes --------------------------------------------------------------------------------------------------
def test_box_points_place_and_move_boxes(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-BOXES2", "S-AMBER1", "S-AMBER1", "S-AMBER1", "S-BOXES2")
    with pytest.raises(IllegalAction, match="IN-SURPLUS"):
        s.apply(PlaceBox(player="red", field="C3R3"))
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    assert s.box_points == 2
    s = s.apply(PlaceBox(player="red", field="C3R3"))
    s = s.apply(MoveBox(player="red", origin="C3R3", target="C3R4"))
    assert s.boxes == {"C3R4": {"red": 1}} and s.personal["red"]["boxes"] == 5 and s.box_points == 0


def test_never_on_a_volcano_or_a_dinosaur(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-BOXES2", "S-BOXES2", "S-BOXES2")
    for _ in range(3):
        s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    with pytest.raises(IllegalAction, match=r"IN-BOXES.*volcano"):
        s.apply(PlaceBox(player="red", field="C2R0"))
    s.dinos["DINO-1"] = "C3R3"
    with pytest.raises(IllegalAction, match=r"IN-BOXES.*dinosaur"):
        s.apply(PlaceBox(player="red", field="C3R3"))
    with pytest.raises(IllegalAction, match=r"IN-CAMP.*dinosaur"):
        s.apply(BuildCamp(player="red", field="C3R3"))
    assert PlaceBox(player="red", field="C3R3") not in s.legal_actions()


# -- camps --------------------------------------------------------------------------------------------------
def test_camp_costs_four_box_points_and_saved_boxes_reduce_it(kit: SimpleNamespace) -> None:
    # rulebook: red plays two cards with 2 boxes and takes 2 boxes already on the field back: camp paid
    s = kit.fresh()
    kit.put_boxes(s, "red", "C3R4", 2)
    kit.set_hand(s, "red", "S-BOXES2", "S-BOXES2")
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    with pytest.raises(IllegalAction, match="IN-CAMP"):
        s.apply(BuildCamp(player="red", field="C1R1"))
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    assert BuildCamp(player="red", field="C3R4", take_back=2) in s.legal_actions()
    s2 = s.apply(BuildCamp(player="red", field="C3R4", take_back=2))
    assert s2.camps["C3R4"] == ["red"] and "C3R4" not in s2.boxes
    assert s2.personal["red"] == {"boxes": 6, "camps": 5}
    assert s2.box_points == 2  # 4 played, the camp cost 4 - 2
    with pytest.raises(IllegalAction, match="IN-CAMP-SAVE"):
        s.apply(BuildCamp(player="red", field="C3R4", take_back=3))


def test_rulebook_saved_boxes_example_pays_exactly_four(kit: SimpleNamespace) -> None:
    # "red plays two cards with 2 boxes and takes 2 boxes that are already on the field back. Red has now a
    # paid total of 4 boxes and builds a camp": 2 box points from the cards + 2 saved boxes = 4
    s = kit.fresh()
    kit.put_boxes(s, "red", "C3R4", 2)
    kit.set_hand(s, "red", "S-AMBER1-BOXES1", "S-AMBER1-BOXES1")
    for _ in range(2):
        s = s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="boxes"))
    assert s.box_points == 2
    with pytest.raises(IllegalAction, match="IN-CAMP"):
        s.apply(BuildCamp(player="red", field="C3R4", take_back=1))
    s = s.apply(BuildCamp(player="red", field="C3R4", take_back=2))
    assert s.camps["C3R4"] == ["red"] and s.box_points == 0 and s.personal["red"]["boxes"] == 6


def test_a_camp_on_four_saved_boxes_still_needs_a_box_card(kit: SimpleNamespace) -> None:
    # "To build a camp, you play cards with the box symbol": saved boxes reduce the cost, even to 0
    s = kit.fresh()
    kit.put_boxes(s, "red", "C3R4", 4)
    kit.set_hand(s, "red", "S-AMBER1-BOXES1")
    assert not any(isinstance(a, BuildCamp) for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="IN-SURPLUS"):
        s.apply(BuildCamp(player="red", field="C3R4", take_back=4))
    s = s.apply(PlayCard(player="red", card="S-AMBER1-BOXES1", use="boxes"))
    s = s.apply(BuildCamp(player="red", field="C3R4", take_back=4))
    assert s.camps["C3R4"] == ["red"] and s.box_points == 1


def test_camp_area_points_and_scoring_trigger_rotates_the_row(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    s.box_points = 4
    row = list(s.row)
    s = s.apply(BuildCamp(player="red", field="C1R1"))  # area 1: 3 points
    assert s.score["red"] == {"camp areas": 3}
    assert s.current_player() == "red" and s.tasks[0].kind == "choose-scoring"
    assert {a.slot for a in s.legal_actions()} == {0, 1, 2}  # only the 3 active cards
    with pytest.raises(IllegalAction, match="IN-SCORING"):
        s.apply(ChooseScoring(player="red", slot=3))
    expected = s.scoring_card_points(row[1], "red")
    s = s.apply(ChooseScoring(player="red", slot=1))
    assert s.score["red"].get("scoring cards", 0) == expected
    assert s.row == [row[0], row[2], row[3], row[4], row[1]]


@pytest.mark.parametrize(("field", "points"), [("C1R1", 3), ("C1R3", 2), ("C1R5", 1), ("C3R8", 0)])
def test_camp_points_by_area(kit: SimpleNamespace, field: str, points: int) -> None:
    s = kit.fresh(individual_ratings=True)
    s.box_points = 4
    s = s.apply(BuildCamp(player="red", field=field))
    assert s.total("red") == points
    assert not s.tasks  # Individual ratings: no scoring when setting up a camp


def test_stacks_of_at_most_three_top_counts(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.put_camp(s, "blue", "C3R3")
    kit.put_camp(s, "red", "C3R3")
    s.box_points = 8
    s = s.apply(BuildCamp(player="red", field="C3R3"))
    s = s.apply(ChooseScoring(player="red", slot=0))
    assert s.camps["C3R3"] == ["blue", "red", "red"]
    with pytest.raises(IllegalAction, match=r"IN-CAMP.*3 camps"):
        s.apply(BuildCamp(player="red", field="C3R3"))


def test_stock_up_from_the_general_supply(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    s.personal["red"]["boxes"] -= 2
    s.general["red"]["boxes"] += 2
    kit.checked(s)
    s.box_points = 3
    s = s.apply(StockUp(player="red", piece="box"))
    s = s.apply(StockUp(player="red", piece="camp"))  # 2 players: 2 camps start in the general supply
    assert s.personal["red"] == {"boxes": 5, "camps": 7} and s.general["red"] == {"boxes": 1, "camps": 1}
    with pytest.raises(IllegalAction, match="IN-TURN"):
        s.apply(StockUp(player="blue", piece="box"))  # not blue's turn
    s.general["red"]["camps"] = 0
    with pytest.raises(IllegalAction, match="IN-STOCK"):
        s.apply(StockUp(player="red", piece="camp"))


def test_rulebook_stock_up_example_a_three_box_card_brings_back_up_to_three(kit: SimpleNamespace) -> None:
    # "With this card you can get up to 3 boxes from the general supply."
    s = kit.fresh()
    s.personal["red"]["boxes"] -= 4
    s.general["red"]["boxes"] += 4
    kit.give(s, "red", "A4-BOXES3")
    kit.set_hand(s, "red", "A4-BOXES3")
    s = s.apply(PlayCard(player="red", card="A4-BOXES3", use="boxes"))
    for _ in range(3):
        s = s.apply(StockUp(player="red", piece="box"))
    assert s.personal["red"]["boxes"] == 5 and s.general["red"]["boxes"] == 1
    with pytest.raises(IllegalAction, match="IN-SURPLUS"):
        s.apply(StockUp(player="red", piece="box"))
    kit.checked(s)


def test_surplus_expires_at_the_end_of_the_turn(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.set_hand(s, "red", "S-BOXES2", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="S-BOXES2", use="boxes"))
    s = s.apply(PlayCard(player="red", card="S-AMBER1", use="amber"))
    s = s.apply(EndTurn(player="red"))
    while s.is_chance_node():
        s = s.apply(s.chance_outcomes()[0][0])
    assert (s.amber, s.box_points, s.active_player) == (0, 0, "blue")
    assert s.zones["red"]["discard"] == {"S-AMBER1": 1, "S-BOXES2": 1}
    assert sum(s.zones["red"]["hand"].values()) == 5 and sum(s.zones["red"]["draw"].values()) == 3


def test_serialized_position_is_validated(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    data = s.to_dict()
    assert kit.game.state_from_dict(json.loads(json.dumps(data))) == s
    broken = copy.deepcopy(data)
    broken["fields"]["C3R3"] = {"boxes": {"red": 1}}
    with pytest.raises(StateFormatError, match="7 equipment boxes"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    broken["fields"]["C3R3"] = {"camps": ["red", "red", "blue", "blue"]}
    with pytest.raises(StateFormatError, match="at most 3"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    broken["cards"]["red"]["hand"]["A6-AMBER4"] = 1
    with pytest.raises(StateFormatError, match="A6-AMBER4"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    broken["fields"]["C2R0"] = {"boxes": {"red": 1}}
    broken["supply"]["red"]["personal"]["boxes"] = 5
    with pytest.raises(StateFormatError, match="volcano"):
        kit.game.state_from_dict(broken)


def _move_card(zones_from: dict[str, int], zones_to: dict[str, int], card: str) -> None:
    zones_from[card] -= 1
    if not zones_from[card]:
        del zones_from[card]
    zones_to[card] = zones_to.get(card, 0) + 1


def test_each_player_keeps_an_own_deck_and_the_egg(kit: SimpleNamespace) -> None:
    # starting cards carry their player's colour, and the egg never leaves the game
    data = kit.fresh().to_dict()
    red, blue = data["cards"]["red"], data["cards"]["blue"]
    egg_zone = next(z for z in ("hand", "draw") if red[z].get("EGG"))
    broken = copy.deepcopy(data)
    _move_card(broken["cards"]["red"][egg_zone], broken["box"], "EGG")
    with pytest.raises(StateFormatError, match="red has 0 dinosaur egg"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    _move_card(broken["cards"]["red"][egg_zone], broken["cards"]["blue"]["discard"], "EGG")
    with pytest.raises(StateFormatError, match="dinosaur egg"):
        kit.game.state_from_dict(broken)
    zone = next(z for z in ("hand", "draw") if blue[z].get("S-AMBER1"))
    broken = copy.deepcopy(data)
    _move_card(broken["cards"]["blue"][zone], broken["cards"]["red"]["discard"], "S-AMBER1")
    with pytest.raises(StateFormatError, match="red has 4 S-AMBER1"):
        kit.game.state_from_dict(broken)
    assert red  # the untouched state reads back
    kit.game.state_from_dict(data)


def test_client_tracks_end_with_their_finishing_tile(kit: SimpleNamespace) -> None:
    data = kit.fresh(clients=True).to_dict()
    tracks = data["clients"]["tracks"]
    broken = copy.deepcopy(data)
    broken["clients"]["tracks"]["lab"] = [*tracks["lab"][:-1], "DEV-END-INGEN"]
    with pytest.raises(StateFormatError, match="lab"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    broken["clients"]["tracks"]["lab"] = [tracks["ingen"][0], *tracks["lab"][1:]]
    with pytest.raises(StateFormatError, match="twice"):
        kit.game.state_from_dict(broken)
    broken = copy.deepcopy(data)
    broken["clients"]["tracks"]["lab"] = ["DEV-END-DPG", *tracks["lab"][1:]]
    with pytest.raises(StateFormatError, match="finishing"):
        kit.game.state_from_dict(broken)


def test_card_file_marks_what_the_rulebook_does_not_print() -> None:
    data = _cards_json()
    assert data["default"] is True
    for key in ("action_cards", "starting_cards", "dinosaur_cards", "scoring_cards", "development_tiles"):
        assert "own" in data["own"][key]


def test_geometry_helpers_for_vision(kit: SimpleNamespace) -> None:
    board = default_board()
    for fid in board.fields:
        assert board.field_at(*board.centre(fid)) == fid
        for other in board.fields[fid].neighbours:
            (x1, y1), (x2, y2) = board.centre(fid), board.centre(other)
            assert abs(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - 1.0) < 1e-9  # neighbours 1 pitch apart
    assert board.field_at(-3.0, -3.0) is None
    x0, y0, x1, y1 = board.extent()
    assert (x0, y0) == (0.0, 0.0) and y1 == 9.5
    s = kit.fresh()
    kit.put_camp(s, "blue", "C3R3")
    kit.put_camp(s, "red", "C3R3")
    kit.put_boxes(s, "blue", "C3R3", 2)
    seen = s.table_view()
    assert seen["fields"] == {"C3R3": {"top": "red", "height": 2, "boxes": {"blue": 2}}}
    assert set(seen["dinosaurs"].values()) == set(board.volcanoes)


def test_a_state_may_carry_its_own_board(kit: SimpleNamespace) -> None:
    board = _board_json()
    board.update(name="my printed board", default=False)
    for field in board["fields"]:
        if field["id"] == "C3R3":
            field["landscape"] = "plain"
    data = kit.fresh().to_dict()
    data["board"] = board
    state = kit.game.state_from_dict(data)
    assert state.board.name == "my printed board" and state.board.fields["C3R3"].landscape == "plain"
    again = kit.game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and again.to_dict()["board"]["name"] == "my printed board"
    data["board"]["fields"][0]["neighbours"] = []
    with pytest.raises(StateFormatError, match="board"):
        kit.game.state_from_dict(data)


def test_a_corrected_board_keeping_the_default_header_survives_a_round_trip(kit: SimpleNamespace) -> None:
    # someone corrects a landscape in a copy of the default file and leaves "name"/"default" as they were:
    # the state must still carry that board, not fall back to the shipped one
    board = _board_json()
    assert board["default"] is True
    for field in board["fields"]:
        if field["id"] == "C3R3":
            field["landscape"] = "plain"
    data = kit.fresh().to_dict()
    data["board"] = board
    state = kit.game.state_from_dict(data)
    again = kit.game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.board.fields["C3R3"].landscape == "plain"
    # an unchanged copy of the default board is written back as "default"
    data["board"] = _board_json()
    assert kit.game.state_from_dict(data).to_dict()["board"] == "default"
