"""The nine scoring-card kinds with worked examples on the default board.

Default board (see docs/isla-nublar.md): C3R3, C3R4 and C4R4 touch each other pairwise; rivers run through
column 3 (rows 1-3, 6-7), C4R3-C4R5 and C2R7-C2R8; plains include C1R1, C2R3, C4R2, C3R5, C0R4.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.isla_nublar import default_board, default_cards, score_card

BOARD = default_board()


def pts(
    card: dict[str, Any], camps: dict[str, list[str]], boxes: dict[str, dict[str, int]], player: str = "red"
) -> int:
    return score_card(BOARD, card, camps, boxes, player)


CONNECTIONS = {"kind": "connections", "points": 2}


def test_red_gets_6_points_for_three_connections() -> None:
    # rulebook: "between these 3 fields there are a total of 3 connections. Red gets 6 points."
    camps = {"C3R3": ["red"]}
    boxes = {"C3R4": {"red": 2}, "C4R4": {"red": 1}}
    assert all(BOARD.adjacent(a, b) for a, b in (("C3R3", "C3R4"), ("C3R3", "C4R4"), ("C3R4", "C4R4")))
    assert pts(CONNECTIONS, camps, boxes) == 6
    assert pts(CONNECTIONS, camps, boxes, "blue") == 0


def test_connections_count_borders_not_pieces_and_only_top_camps() -> None:
    # a chain of 3 fields has 2 borders; many boxes on one field change nothing
    assert pts(CONNECTIONS, {}, {"C3R1": {"red": 3}, "C3R2": {"red": 1}, "C3R3": {"red": 1}}) == 4
    # red's camp under blue's camp is no longer a red piece
    assert pts(CONNECTIONS, {"C3R3": ["red", "blue"]}, {"C3R4": {"red": 1}}) == 0
    assert pts(CONNECTIONS, {"C3R3": ["blue", "red"]}, {"C3R4": {"red": 1}}) == 2


def test_landscape_camp_two_boxes_one_camp_beats_boxes() -> None:
    card = {"kind": "landscape", "landscape": "plain", "camp": 2, "boxes": 1}
    camps = {"C1R1": ["red"], "C2R3": ["blue", "red"], "C4R2": ["red", "blue"]}
    boxes = {"C1R1": {"red": 2}, "C3R5": {"red": 3}, "C0R4": {"blue": 1}, "C4R2": {"red": 1}}
    # C1R1 camp 2 (boxes ignored), C2R3 top camp 2, C3R5 boxes 1, C4R2 blue on top but red boxes: 1
    assert pts(card, camps, boxes) == 6
    # blue: C4R2 top camp 2, C0R4 boxes 1
    assert pts(card, camps, boxes, "blue") == 3


def test_adjacent_landscape_counts_each_neighbouring_field_once() -> None:
    card = {"kind": "adjacent", "landscape": "lake", "camp": 2, "boxes": 1}
    # C3R4 and C3R2 border the lake C3R3; C4R4 borders the lakes C3R3 and C4R5 (still counted once)
    assert "C3R3" in BOARD.fields["C3R4"].neighbours
    camps = {"C3R4": ["red"], "C3R2": ["red"]}
    boxes = {"C4R4": {"red": 1}}  # C4R4 is next to C3R3 (lake) and C4R5 (lake)
    assert pts(card, camps, boxes) == 2 + 2 + 1
    # a lake field only counts when it touches a lake: C2R1 (lake) has none around it
    assert pts(card, {"C2R1": ["red"]}, {}) == 0


def test_variety_three_per_landscape_with_a_camp() -> None:
    card = {"kind": "variety", "points": 3}
    camps = {"C1R1": ["red"], "C2R3": ["red"], "C1R2": ["red"], "C3R3": ["red", "blue"]}
    # plain, plain, park; the lake camp is covered by blue; boxes mean nothing
    assert pts(card, camps, {"C0R1": {"red": 2}}) == 6


def test_stacks_count_own_camps_on_top_of_two_or_three() -> None:
    card = {"kind": "stacks", "points": 3}
    camps = {
        "C1R1": ["red"],
        "C2R3": ["blue", "red"],
        "C4R2": ["blue", "green", "red"],
        "C3R5": ["red", "blue"],
    }
    assert pts(card, camps, {}) == 6
    assert pts(card, camps, {}, "blue") == 3


def test_columns_three_per_column_with_a_top_camp() -> None:
    card = {"kind": "columns", "points": 3}
    camps = {"C1R1": ["red"], "C1R4": ["red"], "C3R5": ["red"], "C4R2": ["red", "blue"]}
    assert pts(card, camps, {"C6R2": {"red": 1}}) == 6


def test_groups_of_two_or_more_touching_camps() -> None:
    card = {"kind": "groups", "points": 6}
    camps = {
        "C3R3": ["red"],
        "C3R4": ["red"],
        "C4R4": ["red"],  # one group of 3
        "C0R1": ["red"],
        "C0R2": ["red"],  # a second group
        "C6R5": ["red"],  # alone: no group
    }
    assert pts(card, camps, {}) == 12
    # joining the two groups makes them one
    camps2 = {"C1R1": ["red"], "C1R2": ["red"], "C2R2": ["red"], "C2R3": ["red"]}
    assert pts(card, camps2, {}) == 6


def test_river_two_per_camp_next_to_a_river_field() -> None:
    card = {"kind": "river", "points": 2}
    # C2R3 touches C3R3 (river); C0R1 touches no river; C3R4 touches C3R3 and C4R4
    assert pts(card, {"C2R3": ["red"], "C0R1": ["red"], "C3R4": ["red"]}, {"C2R2": {"red": 4}}) == 4


def test_forefront_first_occupied_field_of_each_column() -> None:
    card = {"kind": "forefront", "camp": 3, "boxes": 2}
    camps = {"C1R2": ["red"], "C3R4": ["red"], "C4R3": ["blue", "red"]}
    boxes = {
        "C1R4": {"blue": 1},  # behind red's camp in column 1
        "C3R2": {"blue": 1, "red": 1},  # in front of red's camp in column 3: red's boxes there count 2
        "C5R3": {"red": 2},
    }
    # column 1: camp 3; column 3: boxes 2; column 4: camp 3; column 5: boxes 2
    assert pts(card, camps, boxes) == 10
    # blue: column 3 boxes 2 (shares the front field); column 1's box is not at the front
    assert pts(card, camps, boxes, "blue") == 2


@pytest.mark.parametrize(
    "kind",
    ["landscape", "adjacent", "variety", "stacks", "connections", "columns", "groups", "river", "forefront"],
)
def test_every_kind_scores_zero_on_an_empty_board(kind: str) -> None:
    card = {"kind": kind, "landscape": "park", "camp": 2, "boxes": 1, "points": 3}
    assert pts(card, {}, {}) == 0


def test_river_house_rule_counts_a_camp_on_an_isolated_river_field() -> None:
    from engines.isla_nublar import board_from_dict

    data = BOARD.to_dict()
    for field in data["fields"]:
        field["river"] = field["id"] == "C0R5"  # one lonely river field
    board = board_from_dict(data)
    card = {"kind": "river", "points": 2}
    camps = {"C0R5": ["red"], "C1R5": ["red"]}  # on the river / next to it
    assert score_card(board, card, camps, {}, "red") == 2
    assert score_card(board, card, camps, {}, "red", river_own_field=True) == 4


BUILDABLE = sorted(f for f, field in BOARD.fields.items() if not field.volcano)
PLAYERS3 = ("red", "blue", "green")


@settings(max_examples=60, deadline=None)
@given(
    camps=st.dictionaries(
        st.sampled_from(BUILDABLE), st.lists(st.sampled_from(PLAYERS3), min_size=1, max_size=3)
    ),
    boxes=st.dictionaries(
        st.sampled_from(BUILDABLE), st.dictionaries(st.sampled_from(PLAYERS3), st.integers(1, 3), min_size=1)
    ),
)
def test_scoring_invariants(camps: dict[str, list[str]], boxes: dict[str, dict[str, int]]) -> None:
    cards = [card.scoring for card in default_cards().of_group("scoring")]
    more_boxes = {f: {p: n + 2 for p, n in held.items()} for f, held in boxes.items()}
    for player in PLAYERS3:
        points = [score_card(BOARD, card, camps, boxes, player) for card in cards]
        # how many boxes lie on a field never matters, only whether there are any
        assert points == [score_card(BOARD, card, camps, more_boxes, player) for card in cards]
        # every field has one landscape: the five landscape cards together count each field once
        mine = {f for f, stack in camps.items() if stack[-1] == player}
        box_only = {f for f, held in boxes.items() if player in held} - mine
        total = sum(
            score_card(
                BOARD, {"kind": "landscape", "landscape": land, "camp": 2, "boxes": 1}, camps, boxes, player
            )
            for land in ("park", "mountain", "forest", "plain", "lake")
        )
        assert total == 2 * len(mine) + len(box_only)
        # burying: a camp under another player's camp scores nothing for camps-only kinds
        for kind in ("variety", "stacks", "columns", "groups", "river"):
            card = {"kind": kind, "points": 1}
            covered = {f: [*stack, "other"] for f, stack in camps.items()}
            assert score_card(BOARD, card, covered, boxes, player) == 0
