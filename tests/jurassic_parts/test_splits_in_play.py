"""Splits during play: detection after every chisel, the award, flipping (chance), shares taken in rank
order, the Field Leader's rest, chisels returned, equal halves, and the 2-tiles-left end."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import CHANCE, TERMINAL, IllegalAction
from engines.jurassic_parts import AwardPart, EndTurn, KeepTile, PlaceChisel, Reveal, TakeTile


def test_isolating_a_tile_splits_and_the_contributor_takes_it(jp: SimpleNamespace) -> None:
    tiles = [(q, r, "PLANT") for q, r in jp.hexagon(1)]
    state = jp.build(["red", "blue"], tiles)
    state = jp.play(state, PlaceChisel("red", (1, 0), (0, 0)), PlaceChisel("red", (1, 0), (1, -1)))
    assert state.slab_count == 7 and state.last_split is None
    state = state.apply(PlaceChisel("red", (1, 0), (0, 1)))
    assert state.slab_count == 6 and state.current_player() == "red"
    assert state.last_split is not None
    assert state.last_split["awarded"] == [[1, 0]]
    assert state.last_split["ranking"] == [{"player": "red", "chisels": 3, "takes": 1}]
    assert state.legal_actions() == [TakeTile("red", (1, 0))]
    state = state.apply(TakeTile("red", (1, 0)))
    assert state.loose[0][15] == 1  # a plant
    assert (state.dull[0], state.sharp[0], state.on_board[0]) == (12, 0, 0)  # border chisels back dull
    assert state.to_dict()["turn"]["phase"] == "main" and state.current_player() == "red"


def _ring_split_state(jp: SimpleNamespace) -> Any:
    """3 players on a 19-tile hexagon, set up so that red's next chisel cuts off the rim pair
    {(2,-1), (2,-2)} with border chisels blue 2, green 2, red 1; (2,-2) is face down."""
    tiles = [(q, r, None if (q, r) == (2, -2) else "*") for q, r in jp.hexagon(2)]
    state = jp.build(["red", "blue", "green"], tiles)

    def change(data: dict[str, Any]) -> None:
        data["chisels"] = [
            {"a": [2, -1], "b": [1, -1], "player": "blue"},
            {"a": [2, -1], "b": [1, 0], "player": "blue"},
            {"a": [2, -1], "b": [2, 0], "player": "green"},
            {"a": [2, -2], "b": [1, -1], "player": "green"},
            {"a": [0, 0], "b": [1, 0], "player": "red"},  # stays in the larger part
        ]
        data["seats"]["blue"].update(dull=9, sharp=1, on_slab=2)
        data["seats"]["green"].update(dull=10, sharp=0, on_slab=2)
        data["seats"]["red"].update(dull=9, sharp=2, on_slab=1)

    return jp.edit(state, change)


def test_split_ranking_shares_and_flip_by_chance(jp: SimpleNamespace) -> None:
    state = _ring_split_state(jp)
    state = state.apply(PlaceChisel("red", (2, -2), (1, -2)))
    # the pair is cut off: blue and green 2 each (blue is nearer clockwise from red, the active player),
    # then red 1; 2 tiles: blue takes 1, green 1, red none
    assert state.last_split is not None
    ranking = state.last_split["ranking"]
    assert [e["player"] for e in ranking] == ["blue", "green", "red"]
    assert [e["chisels"] for e in ranking] == [2, 2, 1]
    assert [e["takes"] for e in ranking] == [1, 1, 0]
    assert state.last_split["field_leader"] == 0
    # the face-down tile must be turned up first: a chance node over the unseen fossils
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    unseen = state.unseen()
    assert sum(unseen) == 58 - 18
    weights = {a.fossil: p for a, p in outcomes if isinstance(a, Reveal)}
    assert weights["BONES"] == pytest.approx(unseen[16] / sum(unseen))
    with pytest.raises(IllegalAction):
        state.apply(TakeTile("blue", (2, -1)))
    state = state.apply(Reveal((2, -2), "PTERO"))
    assert state.current_player() == "blue"
    with pytest.raises(IllegalAction) as refusal:
        state.apply(TakeTile("red", (2, -1)))
    assert refusal.value.rule.rule_id == "JP-TURN"
    amber_before = state.amber[1]
    state = state.apply(TakeTile("blue", (2, -2)))  # a Pterodactyl taken in a split earns 1 amber
    assert state.amber[1] == amber_before + 1
    assert state.current_player() == "green"
    state = state.apply(TakeTile("green", (2, -1)))
    assert state.current_player() == "red" and state.to_dict()["turn"]["phase"] == "main"
    # border chisels back dull; red's chisel in the larger part stays
    assert (state.dull[1], state.on_board[1]) == (11, 0)
    assert (state.dull[2], state.on_board[2]) == (12, 0)
    assert state.on_board[0] == 1 and state.dull[0] == 10


def test_chisels_inside_the_awarded_part_come_back_sharp_leader_gets_the_rest(jp: SimpleNamespace) -> None:
    tiles = [(q, 0, "*") for q in range(6)] + [(q, 1, "*") for q in range(6)]
    state = jp.build(["red", "blue"], tiles)

    def change(data: dict[str, Any]) -> None:
        data["chisels"] = [
            {"a": [0, 0], "b": [1, 0], "player": "blue"},  # inside the left part
            {"a": [1, 0], "b": [2, 0], "player": "red"},  # border
            {"a": [1, 1], "b": [2, 0], "player": "red"},  # border
        ]
        data["seats"]["red"].update(dull=9, sharp=1, on_slab=2)
        data["seats"]["blue"].update(dull=10, sharp=1, on_slab=1)

    state = jp.edit(state, change).apply(PlaceChisel("red", (1, 1), (2, 1)))
    assert state.last_split is not None
    assert sorted(map(tuple, state.last_split["awarded"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert state.last_split["ranking"] == [{"player": "red", "chisels": 3, "takes": 2}]
    assert state.last_split["field_leader"] == 2
    assert state.last_split["returned_sharp"] == {"blue": 1}
    assert (state.sharp[1], state.on_board[1]) == (2, 0)
    state = jp.play(state, TakeTile("red", (0, 0)), TakeTile("red", (1, 1)))
    assert sum(state.leader) == 2 and state.slab_count == 8


def test_equal_halves_the_active_player_chooses(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "PLANT"), (2, 0, "PTERO"), (3, 0, "PTERO"),
                                       (4, 0, "PLANT"), (5, 0, "PLANT")])
    state = state.apply(PlaceChisel("red", (2, 0), (3, 0)))
    assert state.to_dict()["turn"]["phase"] == "award"
    assert set(state.legal_actions()) == {AwardPart("red", (0, 0)), AwardPart("red", (3, 0))}
    with pytest.raises(IllegalAction):
        state.apply(PlaceChisel("red", (0, 0), (1, 0)))
    state = state.apply(AwardPart("red", (4, 0)))
    assert state.last_split is not None and sorted(map(tuple, state.last_split["awarded"])) == [
        (3, 0), (4, 0), (5, 0)]
    assert state.last_split["ranking"] == [{"player": "red", "chisels": 1, "takes": 2}]
    state = jp.play(state, TakeTile("red", (3, 0)), TakeTile("red", (4, 0)))
    assert state.amber[0] == 1 and state.leader[15] == 1


def test_two_tiles_left_the_active_player_keeps_one_and_the_game_ends(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "PTERO"), (2, 0, None)])
    state = state.apply(PlaceChisel("red", (0, 0), (1, 0)))
    state = state.apply(TakeTile("red", (0, 0)))
    # two tiles remain: the face-down one is turned up, then red keeps one
    assert state.current_player() == CHANCE
    state = state.apply(Reveal((2, 0), "TREX-2", tile="F12"))
    assert state.tile_id[2] == "F12"
    assert state.to_dict()["turn"]["phase"] == "keep"
    assert set(state.legal_actions()) == {KeepTile("red", (1, 0)), KeepTile("red", (2, 0))}
    state = state.apply(KeepTile("red", (1, 0)))
    assert state.amber[0] == 1  # the Pterodactyl was split off the slab, not bought
    assert state.leader[6] == 1 and state.slab_count == 0
    assert state.current_player() == "red" and not state.is_terminal()
    state = state.apply(EndTurn("red"))
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("red",)
    assert outcome.scores == {"red": 1 + 1 + 1, "blue": 0}  # plant 1, pterodactyl 1, amber 1
    with pytest.raises(IllegalAction) as refusal:
        state.apply(EndTurn("blue"))
    assert refusal.value.rule.rule_id == "JP-END"


def test_reveal_validation(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, None), (2, 0, "PLANT"), (3, 0, "PLANT")])
    state = state.apply(PlaceChisel("red", (1, 0), (2, 0)))
    state = state.apply(AwardPart("red", (0, 0)))
    assert state.current_player() == CHANCE
    for bad in (Reveal((0, 0), "PLANT"), Reveal((1, 0), "DODO"), Reveal((1, 0), "PLANT", tile="F01"),
                Reveal((1, 0), "PLANT", tile="F47")):  # F47 is a plant already on the slab
        with pytest.raises(IllegalAction):
            state.apply(bad)


def test_the_bot_takes_the_tile_that_scores_most(jp: SimpleNamespace) -> None:
    import random

    from engines.jurassic_parts import bot_policy

    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "RAPTOR-2"), (2, 0, "PLANT"), (3, 0, "PLANT"),
                                       (4, 0, "PLANT")])

    def holding(data: dict[str, Any]) -> None:
        data["seats"]["red"]["loose"] = {"RAPTOR-1": 1}

    state = jp.edit(state, holding).apply(PlaceChisel("red", (1, 0), (2, 0)))
    assert state.current_player() == "red" and len(state.legal_actions()) == 2
    assert bot_policy(state, state.legal_actions(), random.Random(0)) == TakeTile("red", (1, 0))


def test_interior_ring_in_play_awards_the_smaller_outside(jp: SimpleNamespace) -> None:
    cells = jp.hexagon(3)
    inner = set(jp.hexagon(2))
    state = jp.build(["red", "blue", "green"], [(q, r, "*") for q, r in cells])
    ring_gaps = []
    for q, r in sorted(inner):
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            other = (q + dq, r + dr)
            if other in cells and other not in inner:
                ring_gaps.append(((q, r), other))
    assert len(ring_gaps) == 30
    owners = ["red"] * 10 + ["blue"] * 10 + ["green"] * 9

    def change(data: dict[str, Any]) -> None:
        data["chisels"] = [{"a": list(a), "b": list(b), "player": who}
                           for (a, b), who in zip(ring_gaps[:29], owners)]
        data["seats"]["red"].update(dull=0, sharp=2, on_slab=10)
        data["seats"]["blue"].update(dull=2, sharp=0, on_slab=10)
        data["seats"]["green"].update(dull=3, sharp=0, on_slab=9)

    state = jp.edit(state, change)
    last_a, last_b = ring_gaps[29]
    state = state.apply(PlaceChisel("red", last_a, last_b))
    assert state.last_split is not None
    awarded = {tuple(c) for c in state.last_split["awarded"]}
    assert awarded == set(cells) - inner  # the outside ring (18 tiles) is smaller than the inside (19)
    assert [(e["player"], e["chisels"], e["takes"]) for e in state.last_split["ranking"]] == [
        ("red", 11, 6), ("blue", 10, 6), ("green", 9, 3)]
    assert state.last_split["field_leader"] == 3
    assert state.slab_count == 19 and state.on_board == [0, 0, 0]
    assert (state.dull[0], state.dull[1], state.dull[2]) == (11, 12, 12)
    for _ in range(15):
        state = state.apply(state.legal_actions()[0])
    assert sum(state.leader) == 3 and state.to_dict()["turn"]["phase"] == "main"
    assert [sum(h) + sum(s) for h, s in zip(state.loose, state.in_sets)] == [6, 6, 3]


def test_explain_a_splitting_chisel_and_a_wrong_half(jp: SimpleNamespace) -> None:
    state = jp.build(["red", "blue"], [(0, 0, "PLANT"), (1, 0, "PLANT"), (2, 0, "PLANT"), (3, 0, "PTERO"),
                                       (4, 0, "PLANT")])
    explained = state.explain(PlaceChisel("red", (0, 0), (1, 0)))
    assert explained.legal and explained.details["split"]["awarded"] == [[0, 0]]
    assert "JP-SPLIT" in [r.rule_id for r in explained.rules]
    halves = jp.build(["red", "blue"], [(q, 0, "PLANT") for q in range(4)]).apply(
        PlaceChisel("red", (1, 0), (2, 0)))
    assert halves.explain(PlaceChisel("red", (1, 0), (2, 0))).rules[0].rule_id == "JP-SPLIT-EQUAL"
    with pytest.raises(IllegalAction) as refusal:
        halves.apply(AwardPart("red", (7, 7)))
    assert refusal.value.rule.rule_id == "JP-SPLIT-EQUAL"
    with pytest.raises(IllegalAction):
        halves.apply(AwardPart("blue", (0, 0)))
