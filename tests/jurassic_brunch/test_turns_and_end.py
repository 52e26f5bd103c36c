"""JB-TURN / JB-TURN-END / JB-PENDING, the three end conditions and JB-SCORING."""

from __future__ import annotations

import pytest

from engines.core import TERMINAL, IllegalAction
from engines.jurassic_brunch import GAME, Charge, EndTurn, Expel, Look, Move, RaptorMove, Reveal, Wake
from engines.jurassic_brunch.scoring import rank

from .conftest import Builder


def test_blue_plays_first_with_one_action_then_two_each() -> None:
    state = GAME.new_initial_state(["blue", "orange"])
    assert state.current_player() == "blue" and state.actions_left == 1
    first = next(a for a in state.legal_actions() if isinstance(a, Move))
    after = state.apply(first)
    if after.pending is not None:
        after = after.apply(Reveal("YUMMY"))
    assert after.actions_left == 0
    assert not any(isinstance(a, Move) for a in after.legal_actions())
    with pytest.raises(IllegalAction) as refusal:
        after.apply(next(a for a in state.legal_actions() if isinstance(a, Move) and a != first))
    assert refusal.value.rule.rule_id == "JB-TURN"
    orange = after.apply(EndTurn())
    assert orange.current_player() == "orange" and orange.actions_left == 2 and orange.turn == 2
    with pytest.raises(IllegalAction) as refusal:  # orange has moves, so it cannot end its turn early
        orange.apply(EndTurn())
    assert refusal.value.rule.rule_id == "JB-TURN-END"


def test_end_turn_early_only_without_board_actions(build: Builder) -> None:
    state = build("B.g\nO..")
    with pytest.raises(IllegalAction) as refusal:
        state.apply(EndTurn())
    assert refusal.value.rule.rule_id == "JB-TURN-END"
    stuck = build("bOg\nO.g")
    assert stuck.legal_actions() == [Wake((0, 0))]  # waking is an action: no early end
    boxed = build("B#g\nO#.", current="blue")
    boxed = boxed.clone()
    boxed.triceratops[(0, 0)] = ("blue", 3)  # fell asleep this turn: cannot be woken yet
    boxed.triceratops.pop((0, 1))
    boxed.triceratops[(2, 1)] = ("orange", None)
    assert boxed.legal_actions() == [EndTurn()]
    assert boxed.apply(EndTurn()).current_player() == "orange"


def test_turn_passing_resets_actions_raptor_and_counts_quiet_turns(build: Builder) -> None:
    state = build(
        """
        R.....
        B....O
        g.....
        """
    )
    quiet = state.apply(RaptorMove((0, 0), (5, 0), False)).apply(Move((0, 1), (4, 1))).apply(EndTurn())
    assert quiet.quiet_turns == 1 and quiet.current_player() == "orange"
    assert quiet.actions_left == 2 and not quiet.raptor_moved and not quiet.progress
    second = quiet.apply(Move((5, 1), (5, 2))).apply(Move((5, 2), (5, 1)))
    over = second.apply(EndTurn())
    assert over.is_terminal() and over.current_player() == TERMINAL
    assert over.result is not None and over.result["rule"] == "JB-END-QUIET"
    with pytest.raises(IllegalAction) as refusal:
        over.apply(EndTurn())
    assert refusal.value.rule.rule_id == "JB-END"


def test_eating_breaks_the_quiet_count(build: Builder) -> None:
    state = build("B.g.g\n.....\nO....", bag={"YUMMY": 2})
    state = state.clone()
    state.quiet_turns = 1
    ate = state.apply(Move((0, 0), (2, 0), True)).apply(Reveal("YUMMY")).apply(Move((2, 0), (2, 2)))
    after = ate.apply(EndTurn())
    assert after.quiet_turns == 0 and not after.is_terminal()


def test_scaring_the_opponent_breaks_the_quiet_count(build: Builder) -> None:
    state = build("R.O.g\nB...O", actions_left=1)
    state = state.clone()
    state.quiet_turns = 1
    after = state.apply(RaptorMove((0, 0), (2, 0), True)).apply(EndTurn())
    assert after.quiet_turns == 0 and not after.is_terminal()


def test_no_grass_left_ends_the_game_after_the_effect(build: Builder) -> None:
    state = build("B.g\nO..", bag={"YUMMY": 1}, tokens={"orange": {"YUMMY": 1}})
    eaten = state.apply(Move((0, 0), (2, 0), True))
    assert not eaten.is_terminal()  # the reveal comes first
    over = eaten.apply(Reveal("YUMMY"))
    assert over.is_terminal() and over.result is not None and over.result["rule"] == "JB-END-NO-GRASS"
    outcome = over.outcome()
    assert outcome is not None and outcome.winners == ("blue", "orange")  # 2-2, 1 token each: shared


def test_no_triceratops_left_loses_outright_whatever_the_points(build: Builder) -> None:
    state = build("R.O.g\nB....", tokens={"orange": {"STODGY": 3}})
    over = state.apply(RaptorMove((0, 0), (2, 0), True))
    outcome = over.outcome()
    assert outcome is not None and outcome.winners == ("blue",)
    assert outcome.scores["orange"] == 9 and outcome.tiebreak == {"outright_losers": ["orange"]}


def test_scoring_and_tie_break_on_fewer_tokens() -> None:
    def held(**counts: int) -> dict[str, int]:
        return {kind: counts.get(kind, 0) for kind in
                ("BIRTH", "HIDEOUT", "FLOWER", "STODGY", "TRAP", "SUPER_YUMMY", "YUMMY")}

    points = rank({"blue": held(YUMMY=2, STODGY=1, TRAP=1), "orange": held(BIRTH=1, HIDEOUT=1, FLOWER=1,
                                                                            SUPER_YUMMY=1)}, [])
    assert points.scores == {"blue": 10, "orange": 4}
    assert points.breakdown["blue"] == {"STODGY": 3, "TRAP": 3, "YUMMY": 4}
    tie = rank({"blue": held(STODGY=2), "orange": held(YUMMY=3)}, [])
    assert tie.scores == {"blue": 6, "orange": 6} and tie.winners == ("blue",)
    assert tie.tiebreak == {"tokens": {"blue": 2, "orange": 3}}
    shared = rank({"blue": held(STODGY=1, BIRTH=1), "orange": held(YUMMY=2)}, [])
    assert shared.winners == ("blue", "orange")


def test_hidden_tokens_score_and_count_for_the_tie_break(build: Builder) -> None:
    state = build("B.g\nO..", tokens={"blue": {"HIDEOUT": 1, "YUMMY": 1}, "orange": {"YUMMY": 2}},
                  hidden={"blue": {"BIRTH": 1}})
    scores = state.scores()
    assert scores.scores == {"blue": 4, "orange": 4}
    assert scores.winners == ("orange",)  # 2 tokens against blue's 3


def test_pending_steps_come_first_and_belong_to_the_current_player(build: Builder) -> None:
    state = build("B.g.g\nO....", bag={"YUMMY": 2})
    eaten = state.apply(Move((0, 0), (2, 0), True))
    for premature in (Move((2, 0), (3, 0)), EndTurn(), Wake((0, 1))):
        with pytest.raises(IllegalAction) as refusal:
            eaten.apply(premature)
        assert refusal.value.rule.rule_id == "JB-PENDING"


def test_explain_cites_the_rulebook(build: Builder) -> None:
    state = build("B.g\nO..")
    legal = state.explain(Move((0, 0), (2, 0)))
    assert legal.legal and [rule.rule_id for rule in legal.rules] == ["JB-MOVE", "JB-EAT"]
    assert legal.summary == "the triceratops on [0, 0] slides to [2, 0] and eats the grass token there"
    assert legal.details == {"actions_left": 1,
                             "next": "the grass token eaten on [2, 0] must first be revealed"}
    charge = state.explain(Charge((0, 0), (0, 1)))
    assert charge.summary == "the triceratops on [0, 0] charges the triceratops on [0, 1]"
    refused = state.explain(RaptorMove((1, 1), (2, 1)))
    assert not refused.legal and refused.rules[0].rule_id == "JB-RAPTOR"
    assert "Raptor" in refused.to_dict()["rules"][0]["passage"]


def test_every_pending_step_is_named_in_the_refusal(build: Builder) -> None:
    charged = build("B.O.g").apply(Charge((0, 0), (2, 0)))
    with pytest.raises(IllegalAction, match="must first place the expelled triceratops"):
        charged.apply(EndTurn())
    field = "B.g.g\n.....\nO...."
    birth = build(field, bag={"BIRTH": 2}).apply(Move((0, 0), (2, 0), True)).apply(Reveal("BIRTH"))
    with pytest.raises(IllegalAction, match="newborn"):
        birth.apply(EndTurn())
    look = build(field, bag={"BIRTH": 2}, pool={"blue": 0})
    look = look.apply(Move((0, 0), (2, 0), True)).apply(Reveal("BIRTH"))
    with pytest.raises(IllegalAction, match="must first look at two grass tokens"):
        look.apply(Move((2, 0), (2, 2)))
    steal = build(field, bag={"FLOWER": 2}, tokens={"orange": {"YUMMY": 1}})
    steal = steal.apply(Move((0, 0), (2, 0), True)).apply(Reveal("FLOWER"))
    with pytest.raises(IllegalAction, match="taken at random from orange"):
        steal.apply(Look(((4, 0), (2, 2))))
    reveal = build(field, bag={"YUMMY": 2}).apply(Move((0, 0), (2, 0), True))
    with pytest.raises(IllegalAction, match=r"the grass token eaten on .* must first be revealed"):
        reveal.apply(Expel((1, 1)))


def test_explain_a_raptor_scare(build: Builder) -> None:
    state = build("R.O.g\nB....")
    explanation = state.explain(RaptorMove((0, 0), (2, 0)))
    assert explanation.summary == "the raptor goes to [2, 0] and scares the orange triceratops there"
    assert explanation.details["next"] == "<terminal>"  # orange has none left on the area
