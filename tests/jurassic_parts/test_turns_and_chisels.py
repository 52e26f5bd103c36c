"""Setup bonuses, sharpening, picking chisels up, crack costs with rocks, saving chisels, the Backpack."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import IllegalAction
from engines.jurassic_parts import EndTurn, PickUpChisel, PlaceChisel

EAST_ROCK = [True, False, False, False, False, False]


def test_start_bonuses_by_seat_from_the_first_player(jp: SimpleNamespace) -> None:
    players = ["red", "blue", "green", "yellow", "purple", "orange"]
    tiles = [(q, r, "PLANT" if (q, r) != (0, 0) else "BONES") for q, r in jp.hexagon(1)]
    state = jp.build(players[:6], [*tiles[:7], (2, 0, "PTERO")], first="green")
    seat = {name: players.index(name) for name in players}
    # green is first: it has sharpened 3 for its turn; then clockwise yellow (2nd), purple (3rd), ...
    assert state.current_player() == "green"
    assert (state.sharp[seat["green"]], state.dull[seat["green"]], state.amber[seat["green"]]) == (3, 9, 0)
    assert (state.sharp[seat["yellow"]], state.amber[seat["yellow"]]) == (1, 0)
    assert (state.sharp[seat["purple"]], state.amber[seat["purple"]]) == (0, 1)
    for name in ("orange", "red", "blue"):
        assert (state.sharp[seat[name]], state.dull[seat[name]], state.amber[seat[name]]) == (1, 11, 1)
    assert state.supply == 20 - 4


def test_crack_cost_counts_rocky_sides_and_turns_with_rotation(jp: SimpleNamespace) -> None:
    # (0,0) has a rock on its east edge; (1,0) is east of it. (1,0) is turned so that its rock faces west.
    tiles = [(q, r, "PLANT", 3 if (q, r) == (1, 0) else 0) for q, r in jp.hexagon(1)]
    state = jp.build(["red", "blue"], tiles, rocks={(0, 0): EAST_ROCK, (1, 0): EAST_ROCK})
    assert state.sharp[0] == 3 and state.dull[0] == 9
    after = state.apply(PlaceChisel("red", (0, 0), (1, 0)))
    assert (after.sharp[0], after.dull[0], after.on_board[0]) == (0, 11, 1)  # 2 dulled, 1 on the slab
    with pytest.raises(IllegalAction) as refusal:
        jp.play(state, PlaceChisel("red", (0, 0), (0, 1)), PlaceChisel("red", (0, 0), (1, 0)))
    assert refusal.value.rule.rule_id == "JP-ROCKS"
    plain = state.apply(PlaceChisel("red", (0, 0), (0, 1)))
    assert (plain.sharp[0], plain.dull[0]) == (2, 9)
    one_rock = state.apply(PlaceChisel("red", (0, 0), (1, -1)))  # (0,0)'s NE edge is plain; (1,-1) no rock
    assert one_rock.sharp[0] == 2


def test_cracks_only_on_empty_gaps_between_neighbours(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(q, r, "PLANT") for q, r in jp.hexagon(1)])
    once = state.apply(PlaceChisel("red", (0, 0), (1, 0)))
    for bad in (PlaceChisel("red", (0, 0), (1, 0)), PlaceChisel("red", (1, 0), (0, 0)),
                PlaceChisel("red", (1, 0), (-1, 0)), PlaceChisel("red", (1, 0), (2, 0)),
                PlaceChisel("red", (5, 5), (5, 6))):
        with pytest.raises(IllegalAction) as refusal:
            once.apply(bad)
        assert refusal.value.rule.rule_id == "JP-CRACK"
    with pytest.raises(IllegalAction) as refusal:
        state.apply(PlaceChisel("blue", (0, 0), (0, 1)))
    assert refusal.value.rule.rule_id == "JP-TURN"


def test_saving_one_sharp_chisel_and_the_backpack(jp: SimpleNamespace) -> None:
    tiles = [(q, r, "PLANT") for q, r in jp.hexagon(1)]
    state = jp.build(["red", "blue"], tiles)
    ended = state.apply(EndTurn("red"))
    assert (ended.sharp[0], ended.dull[0]) == (1, 11)
    assert ended.current_player() == "blue" and (ended.sharp[1], ended.dull[1]) == (4, 8)
    packed = jp.build(["red", "blue"], tiles, cards={"red": ["BACKPACK"], "blue": []})
    assert packed.view("blue")["seats"]["red"]["cards"] == []  # hidden until used
    ended = packed.apply(EndTurn("red"))
    assert (ended.sharp[0], ended.dull[0]) == (2, 10)
    assert ended.revealed_cards[0] == ("BACKPACK",)
    assert ended.view("blue")["seats"]["red"]["cards"] == ["BACKPACK"]
    assert [r.rule_id for r in state.explain(EndTurn("red")).rules][:2] == ["JP-SAVE", "JP-BACKPACK"]


def _short_of_dull(jp: SimpleNamespace, rocky: bool) -> Any:
    """Blue to end its turn; red then has 1 dull chisel and 11 on the slab (one on a rocky gap)."""
    cells = jp.hexagon(3)
    state = jp.build(["red", "blue"], [(q, r, "*") for q, r in cells],
                     rocks={(0, 0): EAST_ROCK} if rocky else None)
    # red's chisels on the spokes around the middle: never a split
    spokes = [((0, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 0), (-1, 1)), ((1, 0), (1, 1)), ((0, 1), (1, 1)),
              ((-1, 0), (-1, 1)), ((0, -1), (1, -1)), ((2, 0), (2, -1)), ((-2, 0), (-2, 1)), ((0, 2), (1, 2)),
              ((0, -2), (-1, -1))]

    def change(data: dict[str, Any]) -> None:
        data["chisels"] = [{"a": list(a), "b": list(b), "player": "red"} for a, b in spokes]
        data["seats"]["red"].update(dull=1, sharp=0, on_slab=len(spokes))
        data["turn"]["active"] = "blue"

    state = jp.edit(state, change)
    assert state.current_player() == "blue" and state.slab_count == 37
    return state


def test_short_of_dull_chisels_the_player_picks_up_from_the_slab(jp: SimpleNamespace) -> None:
    state = _short_of_dull(jp, rocky=True).apply(EndTurn("blue"))
    assert state.current_player() == "red" and state.to_dict()["turn"]["phase"] == "pick-up"
    assert (state.sharp[0], state.dull[0], state.need) == (1, 0, 2)
    choices = state.legal_actions()
    assert len(choices) == 11 and all(isinstance(a, PickUpChisel) for a in choices)
    with pytest.raises(IllegalAction):
        state.apply(PlaceChisel("red", (2, 0), (3, 0)))
    with pytest.raises(IllegalAction):
        state.apply(PickUpChisel("red", (2, 0), (3, 0)))  # no chisel of red's there
    state = jp.play(state, PickUpChisel("red", (0, 0), (1, 0)), PickUpChisel("red", (0, 0), (0, 1)))
    assert state.to_dict()["turn"]["phase"] == "main"
    assert (state.sharp[0], state.dull[0], state.on_board[0]) == (3, 0, 9)
    # the rocks came back with the chisel: re-creating the crack costs 2 again
    again = state.apply(PlaceChisel("red", (0, 0), (1, 0)))
    assert (again.sharp[0], again.dull[0]) == (1, 1)


def test_pick_up_only_what_is_missing(jp: SimpleNamespace) -> None:
    state = _short_of_dull(jp, rocky=False)

    def three_dull(data: dict[str, Any]) -> None:
        data["chisels"] = data["chisels"][:9]
        data["seats"]["red"].update(dull=3, sharp=0, on_slab=9)

    state = jp.edit(state, three_dull).apply(EndTurn("blue"))
    assert state.to_dict()["turn"]["phase"] == "main" and state.sharp[0] == 3


def test_observed_face_down_tiles_take_the_rocks_printed_on_their_back(jp: SimpleNamespace) -> None:
    from engines.jurassic_parts import COMPONENTS

    rocky = next(c for c in COMPONENTS if any(c.rocks) and not c.rocks[0])
    state = jp.game.state_from_layout(["red", "blue"], [
        {"cell": [0, 0], "id": "F46", "rocks": [False] * 6},
        {"cell": [1, 0], "face_up": False, "back": rocky.back, "rotation": 0},
    ])
    assert state.layout.base_rocks[1] == rocky.back_rocks
    assert state.fossil[1] == -1 and state.tile_id[1] is None  # the identity stays unknown
    gap = state.layout.gap_between((0, 0), (1, 0))
    assert gap is not None and state.layout.rocky_sides[gap] == int(rocky.back_rocks[3])
