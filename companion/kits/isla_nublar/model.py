"""Isla Nublar at the table: camps and equipment boxes found by colour on the island's fields, dinosaur
figures by their tags.

Building a camp, placing or moving a box, moving or removing a camp and moving a dinosaur show on the
board; a card laid face up shows in front of its player (its sticker read; copies of a card are alike), and
the played cards picked up at the end of the turn show as gone. The buy piles' tops and the scoring row lie
face up in the market along the south edge: a card taken from there is a purchase, the next one turned up
its reveal, a scoring card moved to the back of the row the one scored. Stocking up does not show, and
comes by the buttons or the web page. The search tries only the board actions whose field(s) lie where
the table changed, the dinosaur actions of a figure that moved, the plays of a card that appeared (a card
with several uses is asked about, one tap per use), a purchase when the market changed and ending the turn
when played cards went.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from companion.infer import Difference, LaidOutModel
from companion.kits.isla_nublar import table as tables
from companion.kits.isla_nublar.tags import card_tags
from engines.core import Action, State
from engines.isla_nublar.actions import Buy, BuyScoring, EndTurn, PlayCard
from engines.isla_nublar.bots import bot_policy
from vision.scene import Scene

FIELD_FIELDS = ("field", "origin", "target", "volcano")
#: a card sticker's id -> the card it is on
CARD_TAGS = card_tags()
DINOSAUR_FIELDS = ("dinosaur", "first", "second")
#: the zones of the buy piles' tops and the scoring row's slots
MARKET = ("pile:", "row:")


class IslaNublarModel(LaidOutModel):
    def __init__(
        self,
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        layout: Any = None,
    ) -> None:
        self.tables = tables
        colours = tuple(players_by_colour)
        self.layout = layout or tables.IslaNublarLayout(seats=len(colours), colours=colours)
        super().__init__(is_back, players_by_colour)
        self._centres: dict[str, Any] = {}

    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        scene: Scene = self.tables.scene_for(state, self.layout, extra.get("sketch", False))
        return scene

    def _centre(self, state: State, field_id: str) -> Any:
        if field_id not in self._centres:
            board = cast(Any, state).board
            # not a field (a card, a pile): no place on the board
            on_board = field_id in board.fields
            self._centres[field_id] = self.layout.field_center(board, field_id) if on_board else None
        return self._centres[field_id]

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        card = CARD_TAGS.get(component_id)
        if card is not None:
            # a card counts where a player lays it face up, in their area, and on the buy piles and the
            # scoring row; a card about the board is not this game's reading
            return f"card:{card}" if zone is not None and zone.startswith(("seat:", *MARKET)) else None
        return super().name_of(component_id, is_back, zone)

    def bot_policy(self) -> Any:
        """The engine's own seeded bot: it sets up camps, stacks them and scores (uniformly random moves
        almost never set up a camp, and play a few hundred actions longer)."""
        return bot_policy

    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        actions = state.legal_actions()
        if state.is_chance_node() or getattr(state, "tasks", None):
            # a pending choice lists a few actions, some with no place of their own (declining a defence
            # lets the dinosaur take the pieces and go back to its volcano): try them all
            return actions
        cards = _card_changes(differences)
        if cards:
            return self._card_actions(actions, cards)
        points = [p.at for d in differences for p in (d.expected, d.seen) if p is not None]
        moved = {d.item for d in differences if d.what == "front"}
        reach = 40.0  # boxes stand on a ring round the field's centre
        chosen = []
        for action in actions:
            fields = [
                getattr(action, name) for name in FIELD_FIELDS if isinstance(getattr(action, name, None), str)
            ]
            figures = [
                getattr(action, name)
                for name in DINOSAUR_FIELDS
                if isinstance(getattr(action, name, None), str)
            ]
            if figures:
                if any(figure in moved for figure in figures):
                    chosen.append(action)
                continue
            centres = [c for c in (self._centre(state, f) for f in fields) if c is not None]
            # actions with no place on the board (cards, purchases, stocking up) change nothing the camera
            # can tell apart: they come by the buttons or the web page and are not guessed; an action with
            # two places (a box moved from one field to another) changed the table at both
            if centres and all(any(math.dist(c, p) <= reach for p in points) for c in centres):
                chosen.append(action)
        return chosen

    def _card_actions(self, actions: Sequence[Action], cards: Sequence[Difference]) -> list[Action]:
        """Plays of each card laid face up (by the player whose area it lies in), and ending the turn when
        played cards were picked up."""
        laid = {(self._player_of(d.seen.zone), d.item.split(":", 1)[1])
                for d in cards if d.change == "appeared" and d.seen is not None}
        gone = any(d.change == "vanished" and not _in_market(d) for d in cards)
        plays = [a for a in actions if isinstance(a, PlayCard) and (a.player, a.card) in laid]
        market = any(map(_in_market, cards))
        bought = [a for a in actions if isinstance(a, Buy | BuyScoring)] if market else []
        return plays + bought + ([a for a in actions if isinstance(a, EndTurn)] if gone else [])

    def _player_of(self, zone: str | None) -> str | None:
        if zone is None or not zone.startswith("seat:"):
            return None
        return self.players_by_colour.get(zone[5:])


def _in_market(difference: Difference) -> bool:
    """Whether a card changed on the buy piles or the scoring row (taken from it: bought)."""
    places = (difference.expected, difference.seen)
    return any(place is not None and (place.zone or "").startswith(MARKET) for place in places)


def _card_changes(differences: Sequence[Difference]) -> list[Difference]:
    return [d for d in differences if d.what == "front" and d.item.startswith("card:")]
