"""Every ruling cites its rule: refusals name the rule that forbids, explanations the rules that govern."""

from __future__ import annotations

import pathlib
from types import SimpleNamespace

import pytest
from helpers.rulebooks import rulebook_text

from engines.isla_nublar import RULEBOOK, default_cards
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    BuyScoring,
    ChooseScoring,
    Draw,
    PlayCard,
    Select,
)
from engines.isla_nublar.scoring import RULE_OF_KIND
from engines.isla_nublar.tasks import DrawCards


def test_refusals_name_their_rule(kit: SimpleNamespace) -> None:
    s = kit.fresh(individual_ratings=True)
    emptied = s.piles[2]
    for card, n in [(emptied["top"], 1), *emptied["rest"].items()]:
        s.box[card] = s.box.get(card, 0) + n
    s.piles[2] = {"top": None, "rest": {}}
    sold = s.row[4]
    s.row[4] = None
    s.zones["blue"]["discard"][sold] = 1  # bought earlier by blue
    kit.checked(s)
    s.amber = 9
    assert s.explain(Buy(player="red", pile=2)).rules[0].rule_id == "IN-BUY"
    assert s.explain(BuyScoring(player="red", slot=4)).rules[0].rule_id == "IN-INDIVIDUAL"
    assert s.explain(BuyScoring(player="red", slot=3)).legal


def test_choice_refusals_name_their_rule(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    kit.give(s, "red", "A4-INVENTORY")
    kit.set_hand(s, "red", "A4-INVENTORY", "S-AMBER1")
    s = s.apply(PlayCard(player="red", card="A4-INVENTORY", use="inventory"))
    assert s.explain(Select(player="red", card="S-BOXES2")).rules[0].rule_id == "IN-INVENTORY"
    kit.give(s, "red", "A2-REPLENISH")
    s.tasks = [DrawCards(player="red", n=1)]
    assert s.explain(Draw(player="red", card="A6-AMBER4")).rules[0].rule_id == "IN-DRAW"


def test_legal_moves_cite_the_rules_that_govern_them(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    s.box_points = 4
    ids = {r.rule_id for r in s.explain(BuildCamp(player="red", field="C1R1")).rules}
    assert {"IN-CAMP", "IN-AREA", "IN-SCORING"} <= ids
    after = s.apply(BuildCamp(player="red", field="C1R1"))
    assert "IN-TOP-CAMP" in {r.rule_id for r in after.explain(ChooseScoring(player="red", slot=0)).rules}
    kit.give(s, "red", "A2-REPLENISH")
    ids = {r.rule_id for r in s.explain(PlayCard(player="red", card="A2-REPLENISH", use="replenish")).rules}
    assert "IN-REPLENISH" in ids
    s.amber = 2
    assert "IN-BUY" in {r.rule_id for r in s.explain(Buy(player="red", pile=2)).rules}


def test_scoring_kinds_cite_their_cards_rules() -> None:
    assert set(RULE_OF_KIND.values()) == {r for r in RULEBOOK if r.startswith("IN-W-")}
    assert {c.scoring["kind"] for c in default_cards().of_group("scoring")} == set(RULE_OF_KIND)


def test_ties_cite_the_rule(kit: SimpleNamespace) -> None:
    s = kit.fresh()
    assert s.scores().tiebreak == {"rule": "IN-TIE", "shared": ["red", "blue"]}


def test_every_rule_quotes_the_rulebook_and_is_exercised_by_a_test() -> None:
    text = (pathlib.Path(__file__).parents[2] / "docs" / "isla-nublar.md").read_text()
    tests = "".join(p.read_text() for p in pathlib.Path(__file__).parent.glob("test_*.py"))
    for rule_id, rule in RULEBOOK.items():
        assert rule.source == "isla-nublar.txt" and rule.passage
        assert rule_id in tests or any(rule_id == r for r in RULE_OF_KIND.values()), rule_id
    assert "isla-nublar" in text


def test_every_passage_is_quoted_from_the_rulebook() -> None:
    lines = [line.strip().removeprefix("- ") for line in rulebook_text("isla-nublar.txt").splitlines()]
    book = " ".join(" ".join(lines).split())
    for rule in RULEBOOK.values():
        for fragment in rule.passage.split(" ... "):
            start = fragment.strip().removeprefix("... ")[:30]
            assert start in book, (rule.rule_id, start)


@pytest.mark.parametrize("rule_id", sorted(RULEBOOK))
def test_rule_ids_are_stable_and_titled(rule_id: str) -> None:
    assert rule_id.startswith("IN-") and RULEBOOK[rule_id].title
