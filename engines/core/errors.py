"""Typed errors shared by every engine."""

from __future__ import annotations

from engines.core.rules import Rule


class EngineError(Exception):
    """Base of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """An action that the rules forbid in this state.

    ``rule`` is the rule that forbids it; ``detail`` says what in this state breaks it. The state the action
    was applied to is untouched (engines are pure).
    """

    def __init__(self, rule: Rule, detail: str) -> None:
        self.rule = rule
        # a detail may quote what a player sent (a name with a line break in it): one line, escaped
        self.detail = "".join(c if c.isprintable() else repr(c)[1:-1] for c in detail)
        super().__init__(f"{rule.rule_id}: {self.detail} [{rule.title}]")

    def to_dict(self) -> dict[str, object]:
        return {"illegal": True, "detail": self.detail, "rule": self.rule.to_dict()}


class StateFormatError(EngineError, ValueError):
    """A serialized state or action that does not validate (corrupt save, hand-edited file)."""


class InputError(EngineError, ValueError):
    """Bad input to a command-line ruling: malformed, unknown or inconsistent data."""
