"""Picture comparison: positions, anonymous backs, interchangeable pieces, pegs of unknown colour."""

from __future__ import annotations

from typing import Any

from companion.infer import Picture, Placed, compare
from vision.places import POSITIONAL, UNORDERED, Places

#: a table read as the games read theirs: the play area where things lie, the rest for what is in it
PLACES = Places({"play": POSITIONAL, "seat:*": UNORDERED, "reveal": UNORDERED})


def picture(**items: Any) -> Picture:
    result = Picture()
    for key, places in items.items():
        what, name = key.split("_", 1)
        for zone, at in places:
            result.add(what, name, Placed(zone, at, PLACES.positional(zone)))
    return result


def test_same_places_within_tolerance_match() -> None:
    a = picture(front_F1=[("play", (10, 10))], back_back=[("play", (50, 10)), ("play", (90, 10))])
    b = picture(front_F1=[("play", (13, 9))], back_back=[("play", (91, 12)), ("play", (49, 10))])
    assert compare(a, b, 10) == []
    assert a.key(10) == b.key(10) or compare(a, b, 10) == []


def test_a_moved_front_is_one_difference_and_seat_zones_ignore_position() -> None:
    a = picture(front_F1=[("play", (10, 10))], front_F2=[("seat:red", (500, 10))])
    b = picture(front_F1=[("seat:blue", (700, 10))], front_F2=[("seat:red", (560, 90))])
    differences = compare(a, b, 10)
    assert len(differences) == 1 and differences[0].change == "moved" and differences[0].item == "F1"
    assert "seat:blue" in differences[0].describe()


def test_backs_count_per_place() -> None:
    a = picture(back_back=[("play", (10, 10)), ("play", (50, 10))])
    b = picture(back_back=[("play", (10, 10)), ("reveal", (300, 300))])
    kinds = sorted((d.what, d.change) for d in compare(a, b, 10))
    assert kinds == [("back", "appeared"), ("back", "vanished")]


def test_an_unnamed_peg_may_stand_for_any_colour_at_its_place() -> None:
    a = picture(peg_red=[("play", (10, 10))], peg_blue=[("play", (100, 10))])
    b = picture(peg_red=[("play", (10, 10))], **{"peg_?": [("play", (101, 11))]})
    assert compare(a, b, 10) == []
    c = picture(peg_red=[("play", (10, 10))], **{"peg_?": [("play", (300, 11))]})
    assert sorted(d.change for d in compare(a, c, 10)) == ["appeared", "vanished"]
