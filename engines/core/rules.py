"""Rulebook passages as data, so that every ruling can cite the text that decides it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule an engine enforces.

    ``rule_id`` is stable and short (``"JP-CRACK-COST"``); ``source`` names the rulebook file under
    ``shared/rulebooks``; ``passage`` quotes the rulebook; ``note`` quotes the project's reading in
    ``RULES-NOTES.md`` where the rulebook is silent or ambiguous.
    """

    rule_id: str
    title: str
    source: str
    passage: str
    note: str = ""

    def cite(self) -> str:
        text = f'{self.title} ({self.source}): "{self.passage}"'
        if self.note:
            text += f' Reading: "{self.note}"'
        return text

    def to_dict(self) -> dict[str, str]:
        return {
            "id": self.rule_id,
            "title": self.title,
            "source": self.source,
            "passage": self.passage,
            "note": self.note,
        }


class RuleBook(Mapping[str, Rule]):
    """The rules of one game, looked up by id."""

    def __init__(self, source: str, rules: list[Rule]) -> None:
        self.source = source
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.rule_id in self._rules:
                raise ValueError(f"duplicate rule id {rule.rule_id}")
            self._rules[rule.rule_id] = rule

    def __getitem__(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)
