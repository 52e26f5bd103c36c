"""What the shared view may show: the one rule for actions that could name a concealed holding.

Legal moves are the active player's, so an action naming a fossil to sell, a card, a hand or a hidden token
would tell the table what that player hides. The loop leaves such actions out of what it shares, and the
web page applies the same rule again to whatever a session gives it (it trusts no session).

A game's kit refines the rule where its rulebook is open (:class:`Privacy`): Jurassik's hands lie face up,
so its tiles name nothing concealed; an Isla Nublar card is laid face up when played, so the move is shown
once made, though the list of cards one could play (the hand) is not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import State

#: Action fields that can name what a player holds concealed.
PRIVATE_ACTION_FIELDS = frozenset({"fossil", "part", "card", "cards", "hand", "token", "tile", "tiles"})


@dataclass(frozen=True)
class Privacy:
    """One game's reading of the rule: ``open_fields`` name nothing concealed in this game;
    ``played_openly`` are the kinds of move shown whole once made (the component is laid face up)."""

    open_fields: frozenset[str] = frozenset()
    played_openly: frozenset[str] = frozenset()
    #: chance outcomes turned face up for everyone (a buy pile's next card): told by a tap on the page
    open_chance: frozenset[str] = frozenset()
    #: kinds of move whose components lie face up already (a card among those played): listed whole
    open_kinds: frozenset[str] = frozenset()

    @property
    def hidden_fields(self) -> frozenset[str]:
        return PRIVATE_ACTION_FIELDS - self.open_fields

    def option_shareable(self, action: Mapping[str, Any]) -> bool:
        """Whether a move may be listed to the table before it is made."""
        kind = action.get("kind")
        return kind in self.open_kinds or kind in self.open_chance or not self.hidden_fields & set(action)

    def done_shareable(self, action: Mapping[str, Any]) -> bool:
        """Whether a move may be shown whole once made."""
        return action.get("kind") in self.played_openly or self.option_shareable(action)


STRICT = Privacy()


def privacy_for(game: str | None) -> Privacy:
    """The game's privacy (its kit's), or the strict rule for an unknown game."""
    from companion.kits import find_kit

    kit = find_kit(game) if game else None
    return getattr(kit, "privacy", STRICT) if kit is not None else STRICT


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
    return {**{k: v for k, v in action.items() if k not in policy.hidden_fields}, "concealed": True}


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
