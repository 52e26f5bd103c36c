"""Typed errors shared by every engine."""

from __future__ import annotations

from collections.abc import Mapping

from engines.core.rules import Rule


class EngineError(Exception):
    """Base of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """An action that the rules forbid in this state.

    ``rule`` is the rule that forbids it; ``detail`` says what in this state breaks it. With ``params`` the
    detail is a message filled by them (``"the Rock at row %(row)d, column %(col)d can never be taken"``),
    kept apart so that a page says it in its reader's language (``said``). The state the action was applied
    to is untouched (engines are pure).
    """

    def __init__(self, rule: Rule, detail: str, params: Mapping[str, object] | None = None) -> None:
        self.rule = rule
        self.message = detail
        self.params = dict(params or {})
        text = detail % self.params if self.params else detail
        # a detail may quote what a player sent (a name with a line break in it): one line, escaped
        self.detail = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
        super().__init__(f"{rule.rule_id}: {self.detail} [{rule.title}]")

    def said(self) -> dict[str, object]:
        """The detail as a message and its values (``{"message", "params"}``), for a reader's language."""
        return {"message": self.message, "params": dict(self.params)}

    def to_dict(self) -> dict[str, object]:
        return {"illegal": True, "detail": self.detail, "rule": self.rule.to_dict(), "said": self.said()}


def refusal(message: str) -> str:
    """``message``, marked as a refusal's detail kept in a table rather than written in the call that
    raises it, so that the pages' catalogues find it (their ``illegal(...)`` calls are found anyway)."""
    return message


class StateFormatError(EngineError, ValueError):
    """A serialized state or action that does not validate (corrupt save, hand-edited file)."""


class InputError(EngineError, ValueError):
    """Bad input to a command-line ruling: malformed, unknown or inconsistent data."""
