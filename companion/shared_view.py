"""What the shared view may show of a game's moves: its kit's :class:`~companion.privacy.Privacy` applied to
actions, move options and chance outcomes (the loop, the records, the page and the café's messages all ask
here, so one rule decides)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.kits import find_kit
from companion.privacy import STRICT, Privacy
from engines.core import State


def privacy_for(game: str | None) -> Privacy:
    """The game's privacy (its kit's, with the chance its reading says a person taps), or the strict rule
    for an unknown game."""
    try:
        kit = find_kit(game) if game else None
    except KeyError:  # a game this table does not know: nothing but the kind and the player
        return STRICT
    return STRICT if kit is None else kit.table_privacy


def is_shareable(action: Mapping[str, Any], game: str | None = None) -> bool:
    """Whether a made move names nothing concealed (in ``game``'s reading, else the strict one)."""
    return privacy_for(game).done_shareable(action)


def shared_action(action: Mapping[str, Any] | None, game: str | None = None) -> dict[str, Any] | None:
    """An action as the shared view may show it: whole when it names nothing concealed; else its kind and
    open fields, marked ``concealed``; a correction by its reason only (it carries a whole position)."""
    if action is None:
        return None
    if action.get("kind") == "correct":
        return {"kind": "correct", "reason": action.get("reason", "")}
    policy = privacy_for(game)
    if policy.done_shareable(action):
        return dict(action)
    hidden = policy.hidden(action)
    return {**{k: v for k, v in action.items() if k not in hidden}, "concealed": True}


def shareable(actions: Iterable[Any], game: str | None = None) -> list[dict[str, Any]]:
    """The move options among ``actions`` that name nothing concealed (anything else is dropped)."""
    policy = privacy_for(game)
    return [action for action in actions if isinstance(action, dict) and policy.option_shareable(action)]


def shared_legal_actions(state: State) -> list[dict[str, Any]]:
    """The legal actions of the player to act as action dicts, leaving out any that names a concealed
    holding; at a chance node only the outcomes the game turns face up for everyone (the rest are what is
    hidden); none once the game is over."""
    if state.is_terminal():
        return []
    if state.is_chance_node():  # only what everyone sees turned face up may be told on the page
        open_chance = privacy_for(state.game.name).open_chance
        return [data for action in state.legal_actions() if (data := action.to_dict())["kind"] in open_chance]
    return shareable((action.to_dict() for action in state.legal_actions()), state.game.name)
