"""What the shared view may show: the one rule for actions that could name a concealed holding.

Legal moves are the active player's, so an action naming a fossil to sell, a card, a hand or a hidden token
would tell the table what that player hides. The loop leaves such actions out of what it shares, and the
web page applies the same rule again to whatever a session gives it (it trusts no session).

Each game's kit declares what is open (:class:`Privacy`, an allow-list: a field it does not name is
hidden): Jurassik's hands lie face up, so its tiles name nothing concealed; an Isla Nublar card is laid face
up when played, so the move is shown once made, though the list of cards one could play (the hand) is not.
A game without a kit shows every move by its kind and player only (:data:`STRICT`). Which game's rule
applies to a move is looked up in :mod:`companion.shared_view`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

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
    #: kit's reading declares them (``tapped_chance``), :meth:`with_tapped_chance` brings them here
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

    def with_tapped_chance(self, tapped: frozenset[str]) -> Privacy:
        """This rule with chance outcomes a person taps (turned face up for everyone) listed openly."""
        return self if tapped <= self.open_chance else replace(self, open_chance=self.open_chance | tapped)

    def done_shareable(self, action: Mapping[str, Any]) -> bool:
        """Whether a move may be shown whole once made."""
        played = action.get("kind") in self.played_openly and self._face_up(action)
        return played or self.option_shareable(action)


STRICT = Privacy()
