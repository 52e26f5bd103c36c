"""What the shared view may show: the one rule for actions that could name a concealed holding.

Legal moves are the active player's, so an action naming a fossil to sell, a card, a hand or a hidden token
would tell the table what that player hides. The loop leaves such actions out of what it shares, and the
web page applies the same rule again to whatever a session gives it (it trusts no session).

Each game's kit declares what is open (:class:`Privacy`, an allow-list: a field it does not name is
hidden): Jurassik's hands lie face up, so its tiles name nothing concealed; an Isla Nublar card is laid face
up when played, so the move is shown once made, though the list of cards one could play (the hand) is not.
A game without a kit shows every move by its kind and player only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engines.core import State

#: fields every action may show: what kind of move it is, whose, and the mark that some of it is hidden
ALWAYS_PUBLIC = frozenset({"kind", "player", "concealed"})


@dataclass(frozen=True)
class Privacy:
    """One game's reading of the rule, as an allow-list: ``public_fields`` are the action fields that
    never name anything concealed in this game (a board cell, a chisel's gap, a face-up tile); any other
    field is hidden, so a new field under a new name is shared with nobody until the kit says it may be.
    ``played_openly`` are the kinds of move shown once made (the component is laid face up), with their
    ``face_up_fields`` (the component's name) then shown too; nothing undeclared is shown even then."""

    public_fields: frozenset[str] = frozenset()
    #: fields naming a component that lies face up in the open kinds of move below (a card laid, a pile's
    #: next card turned up): shown in those moves only
    face_up_fields: frozenset[str] = frozenset()
    played_openly: frozenset[str] = frozenset()
    #: chance outcomes turned face up for everyone (a buy pile's next card), told by a tap on the page: the
    #: kit's reading declares them (``tapped_chance``), :func:`privacy_for` brings them here
    open_chance: frozenset[str] = frozenset()
    #: kinds of move whose components lie face up already (a card among those played): listed whole
    open_kinds: frozenset[str] = frozenset()

    def hidden(self, action: Mapping[str, Any]) -> frozenset[str]:
        """The fields of ``action`` this game does not declare public."""
        return frozenset(action) - ALWAYS_PUBLIC - self.public_fields

    def _face_up(self, action: Mapping[str, Any]) -> bool:
        return not self.hidden(action) - self.face_up_fields

    def option_shareable(self, action: Mapping[str, Any]) -> bool:
        """Whether a move may be listed to the table before it is made."""
        kind = action.get("kind")
        open_kind = kind in self.open_kinds or kind in self.open_chance
        return not self.hidden(action) or (open_kind and self._face_up(action))

    def done_shareable(self, action: Mapping[str, Any]) -> bool:
        """Whether a move may be shown whole once made."""
        played = action.get("kind") in self.played_openly and self._face_up(action)
        return played or self.option_shareable(action)


STRICT = Privacy()


def privacy_for(game: str | None) -> Privacy:
    """The game's privacy (its kit's, with the chance its reading says a person taps), or the strict rule
    for an unknown game."""
    from companion.kits import find_kit

    try:
        kit = find_kit(game) if game else None
    except KeyError:  # a game this table does not know: nothing but the kind and the player
        return STRICT
    return STRICT if kit is None else _kit_privacy(kit.privacy, kit.reading.tapped_chance)


@lru_cache(maxsize=64)
def _kit_privacy(privacy: Privacy, tapped_chance: frozenset[str]) -> Privacy:
    return replace(privacy, open_chance=privacy.open_chance | tapped_chance)


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
