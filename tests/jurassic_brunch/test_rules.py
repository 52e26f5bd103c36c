"""The rules quote the rulebook; every refusal names one of them."""

from __future__ import annotations

import re

from helpers.rulebooks import rulebook_text

from engines.jurassic_brunch import GAME, RULES


def normalise(text: str) -> str:
    text = re.sub(r"^- ", "", text, flags=re.MULTILINE)
    return re.sub(r"[\s:,.]+", " ", text).strip().lower()


def test_every_passage_is_quoted_from_the_rulebook() -> None:
    book = normalise(rulebook_text("jurassic-brunch.txt"))
    for rule in RULES.values():
        assert rule.source == "jurassic-brunch.txt"
        # a passage may join list items or sentences; each piece must be the rulebook's own words
        pieces = re.split(r"(?<=[.!:])\s+|, (?=[A-Za-z]+ (?:Triceratops|Raptor|edge|Grass))", rule.passage)
        for piece in pieces:
            assert normalise(piece) in book, f"{rule.rule_id}: {piece!r} is not in the rulebook"


def test_rule_ids_are_stable_and_cited() -> None:
    assert GAME.rule("JB-CHARGE").cite().startswith("Charging (jurassic-brunch.txt)")
    assert "tokens block a charge" in GAME.rule("JB-CHARGE").note
    assert len(RULES) >= 25
    readings = [rule for rule in RULES.values() if "Engine reading" in rule.note]
    assert readings, "the engine's own readings are marked as such"


def test_house_rules_are_named_options_defaulting_to_the_reading() -> None:
    house = {option.name: option.default for option in GAME.options if option.house_rule}
    names = ("charge_blocked_by_grass", "wake_same_turn", "super_yummy_same_turn")
    assert house == dict.fromkeys(names, False)
