"""Every Jurassik rule, in both editions: each test builds a position and plays the rule out."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from helpers.rulebooks import rulebook_text

from engines.core import CHANCE, TERMINAL, IllegalAction
from engines.jurassik import (
    Decline,
    Discard,
    Exchange,
    JurassikState,
    RemoveStart,
    ReturnTile,
    Reveal,
    Steal,
    Take,
    all_dino_tiles,
)

Maker = Callable[..., JurassikState]


def refused(state: JurassikState, action: Any) -> IllegalAction:
    before = state.to_dict()
    with pytest.raises(IllegalAction) as refusal:
        state.apply(action)
    assert state.to_dict() == before, "a refused action must leave the state untouched"
    assert refusal.value.rule.rule_id in str(refusal.value)
    return refusal.value


def faces(state: JurassikState) -> dict[str, float]:
    return {a.face: p for a, p in state.chance_outcomes() if isinstance(a, Reveal)}


def cell(state: JurassikState, row: int, col: int) -> str | None:
    return state.tile_at(row, col)


# -- accessibility --
ZONE = ["D1-1 D1-2 D1-3", "? . D2-1", "ROCK D2-2 D2-3"]


def test_accessible_means_an_orthogonal_side_next_to_a_free_space(make: Maker) -> None:
    state = make(ZONE)
    accessible = {state.cell_of(i) for i in state.accessible_cells()}
    # diagonal neighbours of the hole (D1-1, D1-3, ROCK, D2-3) are not accessible; a revealed Rock never is
    assert accessible == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert {type(a).__name__ for a in state.legal_actions()} == {"Take"}
    assert refused(state, Take("ana", 0, 0)).rule.rule_id == "JK-ACCESS"
    assert refused(state, Take("ana", 2, 2)).rule.rule_id == "JK-ACCESS"
    assert refused(state, Take("ana", 1, 1)).rule.rule_id == "JK-ACCESS"  # a free space holds no tile
    assert refused(state, Take("ana", 5, 0)).rule.rule_id == "JK-ACCESS"  # outside the zone
    assert refused(state, Take("ana", "0", 1)).rule.rule_id == "JK-ACCESS"  # type: ignore[arg-type]


def test_the_table_edge_is_not_a_free_space(make: Maker) -> None:
    state = make(["D1-1 D1-2 D1-3", "D2-1 . D2-2", "D2-3 D2-4 D3-1"])
    corners = [(0, 0), (0, 2), (2, 0), (2, 2)]
    accessible = {state.cell_of(i) for i in state.accessible_cells()}
    assert not accessible & set(corners)


def test_a_revealed_rock_is_never_taken_and_never_a_free_space(make: Maker) -> None:
    state = make([". ROCK D1-1", "D1-2 D1-3 D1-4"])
    assert refused(state, Take("ana", 0, 1)).rule.rule_id == "JK-ROCK"
    # D1-1 touches only the Rock and D1-4: not accessible
    assert (0, 2) not in {state.cell_of(i) for i in state.accessible_cells()}


# -- start, turns, taking a dinosaur --
def test_the_first_player_removes_the_start_tile_then_takes_a_tile(make: Maker) -> None:
    state = make(["D1-1 START", "D1-2 D1-3"])
    assert state.phase == "start" and state.accessible_cells() == []
    assert state.legal_actions() == [RemoveStart("ana")]
    assert refused(state, Take("ana", 0, 0)).rule.rule_id == "JK-START"
    assert refused(state, RemoveStart("ben")).rule.rule_id == "JK-TURN"
    after = state.apply(RemoveStart("ana"))
    assert after.current_player() == "ana" and after.box_start and cell(after, 0, 1) is None
    assert {a for a in after.legal_actions()} == {Take("ana", 0, 0), Take("ana", 1, 1)}


def test_one_tile_per_turn_clockwise(make: Maker) -> None:
    state = make([". D1-1 D1-2 D1-3"], players=["ana", "ben", "cy"])
    assert refused(state, Take("ben", 0, 1)).rule.rule_id == "JK-TURN"
    state = state.apply(Take("ana", 0, 1))
    assert state.hands["ana"] == ["D1-1"] and cell(state, 0, 1) is None
    assert state.current_player() == "ben"
    state = state.apply(Take("ben", 0, 2))
    assert state.current_player() == "cy"
    assert refused(state, Take("cy", 0, 2)).rule.rule_id == "JK-ACCESS"


def test_taking_the_fourth_piece_completes_the_dinosaur(make: Maker) -> None:
    state = make([". D1-4 D2-1 D2-2"], hands={"ana": ["D1-1", "D1-2", "D1-3"]})
    state = state.apply(Take("ana", 0, 1))
    assert state.complete_dinosaurs("ana") == [1]
    assert "complete" in state.last_event
    assert state.view()["complete"]["ana"] == ["D1"]


# -- action tiles and chance --
def test_a_face_down_tile_is_a_chance_node_weighted_by_the_unseen_mix(make: Maker) -> None:
    state = make([". ? D1-1 D1-2"], box={"actions": {"steal": 3}})
    state = state.apply(Take("ana", 0, 1))
    assert state.current_player() == CHANCE and state.to_play == "ana"
    outcomes = faces(state)
    assert outcomes == pytest.approx({"rock": 6 / 20, "discard": 3 / 20, "exchange": 4 / 20, "steal": 1 / 20,
                                      "twice": 4 / 20, "return": 2 / 20})
    assert set(state.legal_actions()) == {a for a, _ in state.chance_outcomes()}
    assert refused(state, Take("ana", 0, 2)).rule.rule_id == "JK-REVEAL"


def test_a_face_with_no_unseen_tile_left_cannot_be_revealed(make: Maker) -> None:
    state = make([". ? D1-1 D1-2"], box={"actions": {"steal": 4}})
    state = state.apply(Take("ana", 0, 1))
    assert "steal" not in faces(state)
    assert refused(state, Reveal("steal")).rule.rule_id == "JK-SETUP"
    assert refused(state, Reveal("dance")).rule.rule_id == "JK-SETUP"


def test_reveal_only_after_taking_an_action_tile(make: Maker) -> None:
    state = make([". ? D1-1 D1-2"])
    assert refused(state, Reveal("rock")).rule.rule_id == "JK-REVEAL"


def test_rock_stays_in_place_and_ends_the_turn(make: Maker) -> None:
    state = make([". ? D1-1", "D1-2 D1-3 D1-4"])
    state = state.apply(Take("ana", 0, 1)).apply(Reveal("rock"))
    assert cell(state, 0, 1) == "ROCK" and state.current_player() == "ben"
    assert state.unseen["rock"] == 5 and state.box_actions["rock"] == 0
    assert refused(state, Take("ben", 0, 1)).rule.rule_id == "JK-ROCK"
    assert (0, 2) not in {state.cell_of(i) for i in state.accessible_cells()}


def test_other_action_tiles_leave_the_zone_for_the_box(make: Maker) -> None:
    state = make([". ? D1-1 D1-2"], hands={"ana": ["D2-1"], "ben": ["D3-1"]})
    state = state.apply(Take("ana", 0, 1)).apply(Reveal("steal"))
    assert cell(state, 0, 1) is None and state.box_actions["steal"] == 1 and state.unseen["steal"] == 3
    assert state.phase == "steal" and state.current_player() == "ana"


# -- stealing --
def steal_position(make: Maker, ana: list[str], ben: list[str], **extra: Any) -> JurassikState:
    state = make([". ? D9-1 D9-2"], hands={"ana": ana, "ben": ben}, **extra)
    return state.apply(Take("ana", 0, 1)).apply(Reveal("steal"))


def test_stealing_takes_a_loose_tile_of_another_player_and_may_complete(make: Maker) -> None:
    state = steal_position(make, ["D1-1", "D1-2", "D1-3"], ["D1-4", "D2-1", "D2-2", "D2-3", "D2-4"])
    assert set(state.legal_actions()) == {Steal("ana", "ben", "D1-4"), Decline("ana")}
    assert refused(state, Steal("ana", "ben", "D2-1")).rule.rule_id == "JK-COMPLETE"
    assert refused(state, Steal("ana", "ben", "D7-1")).rule.rule_id == "JK-STEAL"
    assert refused(state, Steal("ana", "ana", "D1-1")).rule.rule_id == "JK-STEAL"
    assert refused(state, Take("ana", 0, 2)).rule.rule_id == "JK-STEAL"
    after = state.apply(Steal("ana", "ben", "D1-4"))
    assert after.complete_dinosaurs("ana") == [1] and after.current_player() == "ben"
    assert after.hands["ben"] == ["D2-1", "D2-2", "D2-3", "D2-4"]


def test_stealing_is_optional(make: Maker) -> None:
    state = steal_position(make, [], ["D1-4"])
    after = state.apply(Decline("ana"))
    assert after.hands["ben"] == ["D1-4"] and after.current_player() == "ben"


def test_stealing_with_nothing_to_steal_has_no_effect(make: Maker) -> None:
    state = steal_position(make, ["D1-1"], ["D2-1", "D2-2", "D2-3", "D2-4"])
    assert state.current_player() == "ben" and "no effect" in state.last_event
    before = make([". ? D9-1 D9-2"], hands={"ana": ["D1-1"], "ben": ["D2-1", "D2-2", "D2-3", "D2-4"]})
    cited = {r.rule_id for r in before.apply(Take("ana", 0, 1)).explain(Reveal("steal")).rules}
    assert cited == {"JK-REVEAL", "JK-STEAL", "JK-NO-EFFECT"}
    assert state.box_actions["steal"] == 1 and cell(state, 0, 1) is None


# -- exchanging --
def exchange_position(make: Maker, ana: list[str], ben: list[str]) -> JurassikState:
    state = make([". ? D9-1 D9-2"], hands={"ana": ana, "ben": ben})
    return state.apply(Take("ana", 0, 1)).apply(Reveal("exchange"))


def test_exchanging_swaps_two_loose_tiles_and_may_complete_both(make: Maker) -> None:
    state = exchange_position(make, ["D1-1", "D1-2", "D1-3", "D2-4"], ["D2-1", "D2-2", "D2-3", "D1-4"])
    assert Exchange("ana", "D2-4", "ben", "D1-4") in state.legal_actions()
    assert Decline("ana") in state.legal_actions()
    after = state.apply(Exchange("ana", "D2-4", "ben", "D1-4"))
    assert after.complete_dinosaurs("ana") == [1] and after.complete_dinosaurs("ben") == [2]


def test_exchanging_never_separates_a_complete_dinosaur(make: Maker) -> None:
    state = exchange_position(make, ["D1-1", "D1-2", "D1-3", "D1-4", "D3-1"], ["D2-1", "D2-2", "D2-3", "D2-4",
                                                                                 "D4-1"])
    assert set(state.legal_actions()) == {Exchange("ana", "D3-1", "ben", "D4-1"), Decline("ana")}
    assert refused(state, Exchange("ana", "D1-1", "ben", "D4-1")).rule.rule_id == "JK-COMPLETE"
    assert refused(state, Exchange("ana", "D3-1", "ben", "D2-1")).rule.rule_id == "JK-COMPLETE"
    assert refused(state, Exchange("ana", "D3-1", "ben", "D5-1")).rule.rule_id == "JK-EXCHANGE"
    assert refused(state, Exchange("ana", "D3-1", "zed", "D4-1")).rule.rule_id == "JK-EXCHANGE"


@pytest.mark.parametrize(("ana", "ben"), [([], ["D1-1"]), (["D1-1"], []),
                                          (["D1-1"], ["D2-1", "D2-2", "D2-3", "D2-4"])])
def test_exchanging_without_two_loose_tiles_does_nothing(make: Maker, ana: list[str], ben: list[str]) -> None:
    state = exchange_position(make, ana, ben)
    assert state.current_player() == "ben" and "cannot be carried out" in state.last_event
    assert state.hands == {"ana": ana, "ben": ben}


# -- discarding --
def discard_position(make: Maker, ana: list[str], **extra: Any) -> JurassikState:
    state = make([". ? D9-1 D9-2"], hands={"ana": ana, "ben": ["D5-1"]}, **extra)
    return state.apply(Take("ana", 0, 1)).apply(Reveal("discard"))


def test_discarding_puts_a_loose_tile_in_the_box_and_is_compulsory(make: Maker) -> None:
    state = discard_position(make, ["D1-1", "D1-2", "D1-3", "D1-4", "D3-1"])
    assert state.legal_actions() == [Discard("ana", "D3-1")]
    assert refused(state, Decline("ana")).rule.rule_id == "JK-DISCARD"
    assert refused(state, Discard("ana", "D1-1")).rule.rule_id == "JK-COMPLETE"
    assert refused(state, Discard("ana", "D5-1")).rule.rule_id == "JK-DISCARD"
    after = state.apply(Discard("ana", "D3-1"))
    assert "D3-1" in after.box_dinos and "D3-1" not in after.hands["ana"]


def test_discarding_with_only_complete_dinosaurs_has_no_effect(make: Maker) -> None:
    state = discard_position(make, ["D1-1", "D1-2", "D1-3", "D1-4"])
    assert state.current_player() == "ben" and state.complete_dinosaurs("ana") == [1]


# -- returning (English only) --
def test_returning_takes_a_left_out_or_discarded_tile_from_the_box(make: Maker) -> None:
    state = make([". ? D9-1 D9-2"], hands={"ana": ["D1-1", "D1-2", "D1-3"]})
    assert "D1-4" in state.box_dinos  # a tile left out at setup lies in the box
    state = state.apply(Take("ana", 0, 1)).apply(Reveal("return"))
    assert ReturnTile("ana", "D1-4") in state.legal_actions() and Decline("ana") in state.legal_actions()
    assert refused(state, ReturnTile("ana", "D9-1")).rule.rule_id == "JK-RETURN"
    after = state.apply(ReturnTile("ana", "D1-4"))
    assert after.complete_dinosaurs("ana") == [1] and "D1-4" not in after.box_dinos


def test_returning_with_an_empty_box_has_no_effect(make: Maker) -> None:
    zone = {"D9-1", "D9-2"}
    others = [t for t in all_dino_tiles("en") if t not in zone]
    state = make([". ? D9-1 D9-2"], hands={"ben": others})
    assert state.box_dinos == []
    after = state.apply(Take("ana", 0, 1)).apply(Reveal("return"))
    assert after.current_player() == "ben" and "box holds no dinosaur" in after.last_event


def test_the_spanish_edition_has_no_returning(make: Maker) -> None:
    state = make([". ? D8-1 D8-2", "D7-1 D7-2 D7-3 D7-4"], edition="es")
    assert "return" not in state.unseen
    state = state.apply(Take("ana", 0, 1))
    refusal = refused(state, Reveal("return"))
    assert refusal.rule.rule_id == "JK-RETURN" and refusal.rule.source == "jurassik-es.txt"
    after = state.apply(Reveal("rock"))
    assert refused(after, ReturnTile("ben", "D8-1")).rule.rule_id == "JK-RETURN"


# -- playing twice --
TWICE_ZONE = [". ? D1-1 D1-2", "D2-1 ? D2-3 D2-4"]


def test_playing_twice_takes_two_dinosaurs_and_the_first_may_open_the_second(make: Maker) -> None:
    state = make(TWICE_ZONE).apply(Take("ana", 0, 1)).apply(Reveal("twice"))
    assert state.phase == "twice" and state.twice_left == 2
    assert Take("ana", 0, 3) not in state.legal_actions()
    state = state.apply(Take("ana", 0, 2))
    assert state.current_player() == "ana" and state.twice_left == 1
    assert Take("ana", 0, 3) in state.legal_actions()  # opened by the first take
    state = state.apply(Take("ana", 0, 3))
    assert state.hands["ana"] == ["D1-1", "D1-2"] and state.current_player() == "ben"


def test_playing_twice_takes_no_action_tile_and_may_stop_early(make: Maker) -> None:
    state = make(TWICE_ZONE).apply(Take("ana", 0, 1)).apply(Reveal("twice"))
    assert Take("ana", 1, 1) not in state.legal_actions()
    assert refused(state, Take("ana", 1, 1)).rule.rule_id == "JK-TWICE"  # an accessible face-down action tile
    state = state.apply(Take("ana", 1, 0))
    assert refused(state, Take("ana", 1, 1)).rule.rule_id == "JK-TWICE"
    assert state.apply(Decline("ana")).current_player() == "ben"


def test_playing_twice_with_no_accessible_dinosaur_has_no_effect(make: Maker) -> None:
    state = make([". ? ? D1-1"]).apply(Take("ana", 0, 1)).apply(Reveal("twice"))
    assert state.current_player() == "ben" and "no dinosaur tile is accessible" in state.last_event


def test_the_game_can_end_in_the_middle_of_playing_twice(make: Maker) -> None:
    state = make([". ? D1-1 ?"]).apply(Take("ana", 0, 1)).apply(Reveal("twice")).apply(Take("ana", 0, 2))
    assert state.current_player() == TERMINAL and "last accessible dinosaur" in state.end_reason


# -- the end and the scores --
def test_the_game_ends_at_the_last_accessible_dinosaur_though_action_tiles_remain(make: Maker) -> None:
    state = make(["D1-1 . ? D1-2"]).apply(Take("ana", 0, 0))
    assert state.is_terminal() and state.tile_at(0, 2) == "?"
    assert refused(state, Take("ben", 0, 2)).rule.rule_id == "JK-END"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("ana",)


def test_the_game_ends_when_the_player_to_move_has_no_accessible_tile(make: Maker) -> None:
    state = make([". ? D1-1"]).apply(Take("ana", 0, 1)).apply(Reveal("rock"))
    assert state.is_terminal() and "ben must take a tile and none is accessible" in state.end_reason
    assert state.legal_actions() == []
    loaded = make(["D1-1 ROCK ."])
    assert loaded.is_terminal()


def test_scores_follow_1_3_6_10_and_ties_share_the_win(make: Maker) -> None:
    hands = {"ana": ["D1-1", "D2-1", "D2-2", "D3-1", "D3-2", "D3-3"],  # 1 + 3 + 6
             "ben": ["D4-1", "D4-2", "D4-3", "D4-4"],  # 10
             "cy": ["D5-1", "D5-2"]}
    state = make([". D9-1"], players=["ana", "ben", "cy"], hands=hands)
    outcome = state.scores()
    assert outcome.scores == {"ana": 10, "ben": 10, "cy": 3}
    assert outcome.breakdown["ana"] == {"D1": 1, "D2": 3, "D3": 6}
    assert outcome.winners == ("ana", "ben")


# -- citations --
def test_explain_cites_the_rulebook_of_the_edition(make: Maker) -> None:
    english = make([". D1-1 D1-2"])
    yes = english.explain(Take("ana", 0, 1))
    assert yes.legal and {r.rule_id for r in yes.rules} >= {"JK-ACCESS", "JK-DINO"}
    no = english.explain(Take("ana", 0, 2))
    assert not no.legal and no.rules[0].rule_id == "JK-ACCESS"
    assert "one of its sides is next to a free space" in no.rules[0].passage
    spanish = make([". D1-1 D1-2"], edition="es")
    no = spanish.explain(Take("ana", 0, 2))
    assert no.rules[0].source == "jurassik-es.txt" and "accesible" in no.rules[0].passage
    assert "orthogonal" in no.rules[0].note
    last = english.apply(Take("ana", 0, 1)).explain(Take("ben", 0, 2))
    assert "JK-END" in {r.rule_id for r in last.rules}


def test_every_rule_quotes_both_rulebooks(game: Any) -> None:
    from engines.jurassik import RULEBOOKS

    english, spanish = RULEBOOKS["en"], RULEBOOKS["es"]
    assert list(english) == list(spanish) and len(english) >= 15
    for rule_id in english:
        assert english[rule_id].passage and spanish[rule_id].passage
        assert english[rule_id].source == "jurassik-en.txt" and spanish[rule_id].source == "jurassik-es.txt"


@pytest.mark.parametrize("edition", ["en", "es"])
def test_passages_are_quoted_from_the_rulebook(edition: str) -> None:
    from engines.jurassik import RULEBOOKS

    text = " ".join(rulebook_text(f"jurassik-{edition}.txt").split())
    for rule in RULEBOOKS[edition].values():
        if (rule.rule_id in ("JK-SETUP", "JK-RETURN") and edition == "en") or rule.rule_id == "JK-RETURN":
            continue  # a table and a contents list, restated in one line
        for fragment in re.split(r"\[\.\.\.\]|; ", rule.passage):
            assert " ".join(fragment.split()).strip(" -") in text, (rule.rule_id, fragment)


# -- house rule and the simulator's deal --
def test_house_rule_compulsory_actions_removes_declining_but_not_stopping_twice(game: Any) -> None:
    state = game.new_initial_state(["ana", "ben"], options={"compulsory_actions": True})
    assert state.to_dict()["compulsory_actions"] is True
    data = {"game": "jurassik", "format": 1, "players": ["ana", "ben"], "compulsory_actions": True,
            "grid": [[None, "?", "D9-1", "D9-2"], ["D8-1", "?", "D8-2", "D8-3"]],
            "hands": {"ben": ["D1-1"]}}
    stealing = game.state_from_dict(data).apply(Take("ana", 0, 1)).apply(Reveal("steal"))
    assert stealing.legal_actions() == [Steal("ana", "ben", "D1-1")]
    assert refused(stealing, Decline("ana")).rule.rule_id == "JK-STEAL"
    twice = game.state_from_dict(data).apply(Take("ana", 0, 1)).apply(Reveal("twice"))
    assert Decline("ana") in twice.legal_actions()
    assert twice.apply(Decline("ana")).current_player() == "ben"


@pytest.mark.parametrize(("edition", "source"), [("en", "jurassik-en.txt"), ("es", "jurassik-es.txt")])
def test_each_action_in_each_edition_cites_that_edition(make: Maker, edition: str, source: str) -> None:
    zone = [". ? D8-1 D8-2", "D7-1 ? D7-2 D7-3"]
    hands = {"ana": ["D1-1", "D1-2", "D1-3", "D1-4", "D2-1"], "ben": ["D3-1", "D3-2", "D3-3", "D3-4", "D4-1"]}

    def after(face: str) -> JurassikState:
        return make(zone, edition=edition, hands=hands).apply(Take("ana", 0, 1)).apply(Reveal(face))

    refusals = [
        refused(after("steal"), Steal("ana", "ben", "D3-1")),
        refused(after("exchange"), Exchange("ana", "D1-1", "ben", "D4-1")),
        refused(after("discard"), Decline("ana")),
        refused(after("twice"), Take("ana", 1, 1)),
        refused(after("rock"), Take("ben", 0, 1)),
        refused(make(zone, edition=edition), Take("ben", 0, 1)),
    ]
    assert [r.rule.rule_id for r in refusals] == ["JK-COMPLETE", "JK-COMPLETE", "JK-DISCARD", "JK-TWICE",
                                                  "JK-ROCK", "JK-TURN"]
    assert all(r.rule.source == source for r in refusals)
    assert after("steal").apply(Steal("ana", "ben", "D4-1")).hands["ana"][-1] == "D4-1"
    assert after("discard").apply(Discard("ana", "D2-1")).box_dinos[-1] == "D2-1"


def test_returning_can_bring_back_a_discarded_tile(make: Maker) -> None:
    zone = [". ? D9-1 D9-2", "? D9-3 D8-1 D8-2"]
    placed = {"D9-1", "D9-2", "D9-3", "D8-1", "D8-2", "D1-1"}
    others = [t for t in all_dino_tiles("en") if t not in placed]  # the box starts empty
    state = make(zone, hands={"ana": ["D1-1"], "ben": others})
    state = state.apply(Take("ana", 0, 1)).apply(Reveal("discard")).apply(Discard("ana", "D1-1"))
    assert state.box_dinos == ["D1-1"]
    state = state.apply(Take("ben", 1, 0)).apply(Reveal("return"))
    assert state.legal_actions() == [ReturnTile("ben", "D1-1"), Decline("ben")]
    state = state.apply(ReturnTile("ben", "D1-1"))
    assert "D1-1" in state.hands["ben"] and state.box_dinos == []
