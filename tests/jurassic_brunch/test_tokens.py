"""The seven token effects, each "cannot be applied" case (JB-CANNOT-APPLY), and Hideouts."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, IllegalAction
from engines.jurassic_brunch import (
    Birth,
    EndTurn,
    Hide,
    Look,
    Move,
    Reveal,
    Steal,
    UseSuperYummy,
    Wake,
)
from engines.jurassic_brunch.components import TOKEN_COUNTS, TOKEN_POINTS, kind_from_tag, normalise_kind
from engines.jurassic_brunch.state import BrunchState

from .conftest import Builder

ALL_KINDS = {"YUMMY": 12, "SUPER_YUMMY": 3, "BIRTH": 3, "HIDEOUT": 2, "FLOWER": 4, "STODGY": 3, "TRAP": 1}


def eat(state: BrunchState, origin: tuple[int, int], to: tuple[int, int], token: str) -> BrunchState:
    moved = state.apply(Move(origin, to, True))
    assert moved.current_player() == CHANCE
    return moved.apply(Reveal(token))


FIELD = """
B.g.g
.....
O.g.g
"""


def test_reveal_is_a_chance_node_weighted_by_the_unrevealed_mix(build: Builder) -> None:
    state = build(FIELD, bag={"YUMMY": 3, "TRAP": 1}).apply(Move((0, 0), (2, 0), True))
    outcomes = {a.token: p for a, p in state.chance_outcomes() if isinstance(a, Reveal)}
    assert outcomes == {"YUMMY": 0.75, "TRAP": 0.25}
    assert {a.token for a in state.legal_actions()} == {"YUMMY", "TRAP"}
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Reveal("BIRTH"))
    assert refusal.value.rule.rule_id == "JB-SETUP-GRASS"
    with pytest.raises(IllegalAction) as refusal:
        state.apply(EndTurn())
    assert refusal.value.rule.rule_id == "JB-PENDING"


def test_token_names_and_tags() -> None:
    assert normalise_kind("super-yummy") == "SUPER_YUMMY" and normalise_kind(" Trap ") == "TRAP"
    with pytest.raises(ValueError):
        normalise_kind("CAKE")
    assert kind_from_tag("SUPER-YUMMY-01") == "SUPER_YUMMY" and kind_from_tag("BIRTH-03") == "BIRTH"
    assert kind_from_tag("TRI-BLUE-1") is None and kind_from_tag("YUMMY") is None
    assert sum(TOKEN_COUNTS.values()) == 28
    assert TOKEN_POINTS == {"BIRTH": 1, "HIDEOUT": 1, "FLOWER": 1, "STODGY": 3, "TRAP": 3, "SUPER_YUMMY": 1,
                            "YUMMY": 2}


def test_yummy_has_no_effect_and_scores_2(build: Builder) -> None:
    after = eat(build(FIELD, bag={"YUMMY": 4}), (0, 0), (2, 0), "YUMMY")
    assert after.tokens["blue"]["YUMMY"] == 1 and after.pending is None
    assert after.current_player() == "blue" and after.scores().breakdown["blue"] == {"YUMMY": 2}


def test_stodgy_lays_the_eater_down_until_woken_in_a_later_turn(build: Builder) -> None:
    after = eat(build(FIELD, bag={"STODGY": 1, "YUMMY": 3}), (0, 0), (2, 0), "STODGY")
    assert after.triceratops[(2, 0)] == ("blue", after.turn)
    assert not any(isinstance(a, Move | Wake) and getattr(a, "origin", None) == (2, 0)
                   for a in after.legal_actions())
    with pytest.raises(IllegalAction) as refusal:
        after.apply(Wake((2, 0)))
    assert refusal.value.rule.rule_id == "JB-WAKE"
    with pytest.raises(IllegalAction) as refusal:
        after.apply(Move((2, 0), (3, 0)))
    assert refusal.value.rule.rule_id == "JB-ASLEEP"
    assert after.scores().breakdown["blue"] == {"STODGY": 3}
    # blue has nothing left to do (its only triceratops sleeps), orange plays, then blue may wake it
    assert after.legal_actions() == [EndTurn()]
    orange = after.apply(EndTurn())
    orange = orange.apply(Move((0, 2), (0, 0))).apply(Move((0, 0), (0, 2)))
    blue_again = orange.apply(EndTurn())
    assert blue_again.current_player() == "blue" and blue_again.turn == after.turn + 2
    assert Wake((2, 0)) in blue_again.legal_actions()
    woken = blue_again.apply(Wake((2, 0)))
    assert woken.triceratops[(2, 0)] == ("blue", None) and woken.actions_left == 1


def test_wake_same_turn_house_rule(build: Builder) -> None:
    state = build(FIELD, bag={"STODGY": 1, "YUMMY": 3}, options={"wake_same_turn": True})
    after = eat(state, (0, 0), (2, 0), "STODGY")
    assert after.apply(Wake((2, 0))).triceratops[(2, 0)] == ("blue", None)


def test_wake_costs_an_action_and_needs_a_sleeper(build: Builder) -> None:
    state = build("b.B.g\nO....", actions_left=2)
    assert state.apply(Wake((0, 0))).actions_left == 1
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Wake((2, 0)))
    assert refusal.value.rule.rule_id == "JB-WAKE"
    spent = build("b.B.g\nO....", actions_left=0)
    with pytest.raises(IllegalAction) as refusal:
        spent.apply(Wake((0, 0)))
    assert refusal.value.rule.rule_id == "JB-TURN"


def test_trap_puts_the_raptor_from_off_the_area_on_the_eater(build: Builder) -> None:
    state = build("B.g.g\nB....\nO....", bag={"TRAP": 1, "YUMMY": 1})
    after = eat(state, (0, 0), (2, 0), "TRAP")
    assert after.raptor == (2, 0) and (2, 0) not in after.triceratops
    assert after.pool["blue"] == state.pool["blue"] + 1
    assert after.scores().breakdown["blue"] == {"TRAP": 3} and after.result is None


def test_trap_moves_the_raptor_from_where_it_stands(build: Builder) -> None:
    state = build("B.g.g\nB...R\nO....", bag={"TRAP": 1, "YUMMY": 1})
    after = eat(state, (0, 0), (2, 0), "TRAP")
    assert after.raptor == (2, 0) and (4, 1) not in after.triceratops


def test_trap_on_the_last_triceratops_loses_outright(build: Builder) -> None:
    state = build("B.g.g\nO....", bag={"TRAP": 1, "YUMMY": 1}, tokens={"blue": {"YUMMY": 5}})
    after = eat(state, (0, 0), (2, 0), "TRAP")
    outcome = after.outcome()
    assert after.is_terminal() and outcome is not None
    assert outcome.winners == ("orange",) and after.result is not None
    assert after.result["rule"] == "JB-END-NO-TRICERATOPS"
    assert outcome.scores["blue"] > outcome.scores["orange"]  # points do not count


def test_birth_places_a_triceratops_from_the_pool_on_an_empty_space(build: Builder) -> None:
    state = build(FIELD, bag={"BIRTH": 1, "YUMMY": 3})
    after = eat(state, (0, 0), (2, 0), "BIRTH")
    assert after.pending == ("birth", None) and after.current_player() == "blue"
    choices = {a.to for a in after.legal_actions() if isinstance(a, Birth)}
    assert choices == set(after.empty_cells()) and (0, 0) in choices and (4, 0) not in choices
    with pytest.raises(IllegalAction) as refusal:
        after.apply(Birth((4, 0)))
    assert refusal.value.rule.rule_id == "JB-BIRTH"
    born = after.apply(Birth((1, 1)))
    assert born.triceratops[(1, 1)] == ("blue", None) and born.pool["blue"] == after.pool["blue"] - 1


def test_birth_with_an_empty_pool_cannot_apply_look_at_two(build: Builder) -> None:
    state = build(FIELD, bag={"BIRTH": 1, "YUMMY": 3}, pool={"blue": 0})
    after = eat(state, (0, 0), (2, 0), "BIRTH")
    assert after.pending == ("look", "BIRTH") and after.tokens["blue"]["BIRTH"] == 1
    looks = after.legal_actions()
    assert len(looks) == 3 and all(isinstance(a, Look) and len(a.cells) == 2 for a in looks)
    before = after.to_dict()
    seen = after.apply(Look(((4, 0), (2, 2))))
    assert after.to_dict() == before
    assert seen.looks == [{"player": "blue", "turn": 3, "token": "BIRTH", "cells": [(2, 2), (4, 0)]}]
    unchanged = seen.to_dict()
    del unchanged["looks"]
    del before["looks"]
    before["pending"] = None
    assert unchanged == before  # looking changes nothing but the record
    for bad in (((4, 0),), ((4, 0), (4, 0)), ((4, 0), (1, 1)))[:3]:
        with pytest.raises(IllegalAction) as refusal:
            after.apply(Look(bad))
        assert refusal.value.rule.rule_id == "JB-CANNOT-APPLY"


def test_birth_with_no_empty_space_cannot_apply(build: Builder) -> None:
    # in play the cell the eater left is always empty; a position entered by hand may have none
    packed = build("Bg\nOO", bag={"BIRTH": 1, "YUMMY": 1})
    moved = packed.apply(Move((0, 0), (1, 0), True))
    assert moved.empty_cells() == [(0, 0)]
    assert moved.apply(Reveal("BIRTH")).pending == ("birth", None)
    no_room = moved.clone()
    no_room.raptor = (0, 0)  # the vacated cell is taken: no empty space left
    after = no_room.apply(Reveal("BIRTH"))
    assert after.empty_cells() == [] and after.pending is None  # no grass left to look at either
    assert after.tokens["blue"]["BIRTH"] == 1 and after.is_terminal()
    with_grass = build("Bgg\nOOO", bag={"BIRTH": 1, "YUMMY": 1}).apply(Move((0, 0), (1, 0), True))
    with_grass.raptor = (0, 0)
    looked = with_grass.apply(Reveal("BIRTH"))
    assert looked.pending == ("look", "BIRTH") and looked.legal_actions() == [Look(((2, 0),))]


def test_look_at_the_only_token_left(build: Builder) -> None:
    state = build("B.g.g\nO....", bag={"BIRTH": 1, "YUMMY": 1}, pool={"blue": 0})
    after = eat(state, (0, 0), (2, 0), "BIRTH")
    assert after.legal_actions() == [Look(((4, 0),))]


def test_cannot_apply_on_the_last_token_ends_the_game_without_a_look(build: Builder) -> None:
    state = build("B.g\nO..", bag={"BIRTH": 1}, pool={"blue": 0})
    after = eat(state, (0, 0), (2, 0), "BIRTH")
    assert after.pending is None and after.is_terminal()
    assert after.result is not None and after.result["rule"] == "JB-END-NO-GRASS"


def test_flower_goes_to_the_opponent_and_a_random_token_comes_back(build: Builder) -> None:
    state = build(FIELD, bag={"FLOWER": 1, "YUMMY": 3},
                  tokens={"orange": {"YUMMY": 3, "STODGY": 1, "HIDEOUT": 1}},
                  hidden={"orange": {"BIRTH": 1}})
    after = eat(state, (0, 0), (2, 0), "FLOWER")
    assert after.current_player() == CHANCE and after.tokens["orange"]["FLOWER"] == 1
    outcomes = {a.token: p for a, p in after.chance_outcomes() if isinstance(a, Steal)}
    # the Flower just offered, the face-up Hideout and the hidden Birth are not available
    assert outcomes == {"YUMMY": 0.75, "STODGY": 0.25}
    stolen = after.apply(Steal("STODGY"))
    assert stolen.tokens["blue"]["STODGY"] == 1 and stolen.tokens["orange"]["STODGY"] == 0
    assert stolen.triceratops[(2, 0)] == ("blue", None)  # the stolen token's effect is not applied
    assert stolen.tokens["blue"]["FLOWER"] == 0 and stolen.tokens["orange"]["FLOWER"] == 1
    with pytest.raises(IllegalAction) as refusal:
        after.apply(Steal("BIRTH"))
    assert refusal.value.rule.rule_id == "JB-FLOWER"


def test_flower_with_nothing_to_take_is_kept_and_the_player_looks(build: Builder) -> None:
    state = build(FIELD, bag={"FLOWER": 1, "YUMMY": 3},
                  tokens={"orange": {"HIDEOUT": 1}}, hidden={"orange": {"YUMMY": 2}})
    after = eat(state, (0, 0), (2, 0), "FLOWER")
    assert after.tokens["blue"]["FLOWER"] == 1 and after.tokens["orange"]["FLOWER"] == 0
    assert after.pending == ("look", "FLOWER") and after.current_player() == "blue"
    assert after.apply(Look(((4, 0), (2, 2)))).looks[0]["token"] == "FLOWER"


def test_stolen_birth_places_nothing(build: Builder) -> None:
    state = build(FIELD, bag={"FLOWER": 1, "YUMMY": 3}, tokens={"orange": {"BIRTH": 1}})
    after = eat(state, (0, 0), (2, 0), "FLOWER").apply(Steal("BIRTH"))
    assert after.pending is None and after.tokens["blue"]["BIRTH"] == 1
    assert after.on_area("blue") == 1


def test_super_yummy_gives_extra_actions_from_the_next_turn(build: Builder) -> None:
    state = build(FIELD, bag={"SUPER_YUMMY": 1, "YUMMY": 3})
    after = eat(state, (0, 0), (2, 0), "SUPER_YUMMY")
    assert UseSuperYummy() not in after.legal_actions()
    with pytest.raises(IllegalAction) as refusal:
        after.apply(UseSuperYummy())
    assert refusal.value.rule.rule_id == "JB-SUPER-YUMMY"
    assert after.scores().breakdown["blue"] == {"SUPER_YUMMY": 1}
    later = after.clone()
    later.fresh_super_yummy["blue"] = 0  # as on a later turn
    boosted = later.apply(UseSuperYummy())
    assert boosted.actions_left == after.actions_left + 1
    assert boosted.tokens["blue"]["SUPER_YUMMY"] == 0 and boosted.discarded["SUPER_YUMMY"] == 1
    assert boosted.scores().breakdown["blue"] == {}  # a used one no longer scores


def test_super_yummy_after_the_last_action_and_same_turn_house_rule(build: Builder) -> None:
    state = build(FIELD, actions_left=0, tokens={"blue": {"SUPER_YUMMY": 2}})
    legal = state.legal_actions()
    assert UseSuperYummy() in legal and EndTurn() in legal
    assert not any(isinstance(a, Move) for a in legal)
    two = state.apply(UseSuperYummy()).apply(UseSuperYummy())
    assert two.actions_left == 2
    house = build(FIELD, bag={"SUPER_YUMMY": 1, "YUMMY": 3}, options={"super_yummy_same_turn": True})
    assert eat(house, (0, 0), (2, 0), "SUPER_YUMMY").apply(UseSuperYummy()).actions_left == 2


def test_hideout_protects_up_to_three_tokens_now_or_later(build: Builder) -> None:
    state = build(FIELD, bag={"HIDEOUT": 1, "YUMMY": 3},
                  tokens={"blue": {"YUMMY": 3, "STODGY": 1, "SUPER_YUMMY": 1}})
    assert not any(isinstance(a, Hide) for a in state.legal_actions())
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Hide("YUMMY"))
    assert refusal.value.rule.rule_id == "JB-HIDEOUT"
    after = eat(state, (0, 0), (2, 0), "HIDEOUT")
    assert after.pending is None and after.tokens["blue"]["HIDEOUT"] == 1
    assert {a.token for a in after.legal_actions() if isinstance(a, Hide)} == {
        "YUMMY", "STODGY", "SUPER_YUMMY"
    }
    hidden = after.apply(Hide("STODGY")).apply(Hide("YUMMY")).apply(Hide("SUPER_YUMMY"))
    assert hidden.actions_left == after.actions_left  # free steps
    assert hidden.hidden["blue"] == {**dict.fromkeys(ALL_KINDS, 0), "STODGY": 1, "YUMMY": 1,
                                     "SUPER_YUMMY": 1}
    assert hidden.usable_super_yummies("blue") == 0  # a hidden token cannot be used
    with pytest.raises(IllegalAction) as refusal:
        hidden.apply(Hide("YUMMY"))
    assert refusal.value.rule.rule_id == "JB-HIDEOUT" and "room" in refusal.value.detail
    with pytest.raises(IllegalAction):
        after.apply(Hide("HIDEOUT"))
    with pytest.raises(IllegalAction):
        after.apply(Hide("TRAP"))
    assert hidden.scores().scores["blue"] == after.scores().scores["blue"]  # hidden tokens still score


def test_two_hideouts_hold_six(build: Builder) -> None:
    state = build(FIELD, tokens={"blue": {"HIDEOUT": 2, "YUMMY": 7}})
    for _ in range(6):
        state = state.apply(Hide("YUMMY"))
    assert state.hideout_room("blue") == 0 and state.tokens["blue"]["YUMMY"] == 1
    assert not any(isinstance(a, Hide) for a in state.legal_actions())


def test_hide_only_in_your_own_turn(build: Builder) -> None:
    state = build(FIELD, current="orange", tokens={"blue": {"HIDEOUT": 1, "YUMMY": 1}})
    with pytest.raises(IllegalAction):
        state.apply(Hide("YUMMY"))


@pytest.mark.parametrize("kind", ["YUMMY", "SUPER_YUMMY", "HIDEOUT", "STODGY", "TRAP"])
def test_effects_that_always_apply_never_ask_for_a_look(build: Builder, kind: str) -> None:
    state = build("B.g.g\nB....\nO....", bag={kind: 1, "YUMMY": 1}, pool={"blue": 0},
                  tokens={"orange": {}})
    after = eat(state, (0, 0), (2, 0), kind)
    assert after.pending is None and not after.looks


@pytest.mark.parametrize(
    ("kind", "rule_id"),
    [("YUMMY", "JB-YUMMY"), ("SUPER_YUMMY", "JB-SUPER-YUMMY"), ("HIDEOUT", "JB-HIDEOUT"),
     ("BIRTH", "JB-BIRTH"), ("FLOWER", "JB-FLOWER"), ("STODGY", "JB-STODGY"), ("TRAP", "JB-TRAP")],
)
def test_a_reveal_is_explained_by_its_effect_rule(build: Builder, kind: str, rule_id: str) -> None:
    state = build(FIELD, bag={kind: 1, "YUMMY": 3}, pool={"blue": 0}).apply(Move((0, 0), (2, 0), True))
    explanation = state.explain(Reveal(kind))
    assert explanation.legal and [rule.rule_id for rule in explanation.rules] == ["JB-EAT", rule_id]
    assert explanation.summary.startswith("the eaten token is ")
    cannot = kind in ("BIRTH", "FLOWER")  # an empty pool, an opponent with nothing to take
    assert ("cannot be applied" in explanation.summary) == cannot


def test_a_hidden_token_counts_for_the_table_only_when_the_game_ends(build: Builder) -> None:
    """The shared scores leave out what lies under a Hideout (its kind is the owner's secret); the scores
    themselves, and the final ones, count it."""
    state = build(FIELD, tokens={"blue": {"HIDEOUT": 1, "YUMMY": 1}}, bag={"YUMMY": 3, "STODGY": 1})
    hidden = state.apply(Hide("YUMMY"))
    full, shared = hidden.scores(), hidden.shared_scores()
    assert full.scores["blue"] == shared.scores["blue"] + 2
    assert "YUMMY" in full.breakdown["blue"] and "YUMMY" not in shared.breakdown["blue"]
