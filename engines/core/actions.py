"""Actions are typed, frozen value objects with a JSON form.

Each engine declares its action classes as frozen dataclasses deriving from :class:`Action` with a class-level
``kind`` string, and builds one :class:`ActionCodec` over them. Field values must be JSON-compatible scalars,
tuples (serialized as lists) or nested tuples; the codec turns lists back into tuples so that actions
round-trip exactly and stay hashable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engines.core.errors import StateFormatError


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action. ``kind`` names the action type in JSON."""

    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            data[field.name] = _to_json(getattr(self, field.name))
        return data


@dataclasses.dataclass(frozen=True)
class Correct(Action):
    """Replace the whole state with a corrected one (a referee's or a player's fix), logged like any move.

    ``state`` is the full serialized state (``State.to_dict()``); the engine validates it before use.
    """

    kind: ClassVar[str] = "correct"
    state: Mapping[str, Any] = dataclasses.field(hash=False, compare=True)
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "state": dict(self.state), "reason": self.reason}


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _to_json(item) for key, item in value.items()}
    return value


def _to_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_to_tuple(item) for item in value)
    return value


class ActionCodec:
    """Turns action dicts back into action objects for one game."""

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self._types: dict[str, type[Action]] = {}
        all_types: list[type[Action]] = [*action_types, Correct]
        for action_type in all_types:
            if action_type.kind in self._types and self._types[action_type.kind] is not action_type:
                raise ValueError(f"two action types share the kind {action_type.kind!r}")
            self._types[action_type.kind] = action_type

    @property
    def kinds(self) -> list[str]:
        return sorted(self._types)

    def from_dict(self, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise StateFormatError(f"an action must be an object, not {type(data).__name__}")
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in self._types:
            raise StateFormatError(f"unknown action kind {kind!r}; known: {', '.join(self.kinds)}")
        action_type = self._types[kind]
        if action_type is Correct:
            state = data.get("state")
            reason = data.get("reason", "")
            if not isinstance(state, Mapping) or not isinstance(reason, str):
                raise StateFormatError("a correction needs a 'state' object and a text 'reason'")
            return Correct(state=dict(state), reason=reason)
        fields = {field.name: field for field in dataclasses.fields(action_type)}
        unknown = set(data) - set(fields) - {"kind"}
        if unknown:
            raise StateFormatError(f"action {kind!r} has unknown fields: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for name, field in fields.items():
            if name in data:
                values[name] = _to_tuple(data[name])
            elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise StateFormatError(f"action {kind!r} lacks the field {name!r}")
        try:
            return action_type(**values)
        except (TypeError, ValueError) as error:
            raise StateFormatError(f"action {kind!r}: {error}") from error
