"""What the shared view may show: the one rule for actions that could name a concealed holding.

Legal moves are the active player's, so an action naming a fossil to sell, a card, a hand or a hidden token
would tell the table what that player hides. The loop leaves such actions out of what it shares, and the
web page applies the same rule again to whatever a session gives it (it trusts no session).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.core import State

#: Action fields that can name what a player holds concealed.
PRIVATE_ACTION_FIELDS = frozenset({"fossil", "part", "card", "cards", "hand", "token", "tile", "tiles"})


def is_shareable(action: Mapping[str, Any]) -> bool:
    """Whether an action dict names nothing concealed."""
    return not PRIVATE_ACTION_FIELDS & set(action)


def shared_action(action: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An action as the shared view may show it: whole when it names nothing concealed; else its kind and
    open fields, marked ``concealed``; a correction by its reason only (it carries a whole position)."""
    if action is None:
        return None
    if action.get("kind") == "correct":
        return {"kind": "correct", "reason": action.get("reason", "")}
    if is_shareable(action):
        return dict(action)
    return {**{k: v for k, v in action.items() if k not in PRIVATE_ACTION_FIELDS}, "concealed": True}


def shareable(actions: Iterable[Any]) -> list[dict[str, Any]]:
    """The action dicts among ``actions`` that name nothing concealed (anything else is dropped)."""
    return [action for action in actions if isinstance(action, dict) and is_shareable(action)]


def shared_legal_actions(state: State) -> list[dict[str, Any]]:
    """The legal actions of the player to act as action dicts, leaving out any that names a concealed
    holding; none at a chance node (its outcomes are what is hidden) or once the game is over."""
    if state.is_terminal() or state.is_chance_node():
        return []
    return shareable(action.to_dict() for action in state.legal_actions())
