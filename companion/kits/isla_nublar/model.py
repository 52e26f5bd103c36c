"""Isla Nublar at the table: camps and equipment boxes found by colour on the island's fields, dinosaur
figures by their tags.

Building a camp, placing or moving a box, moving or removing a camp and moving a dinosaur show on the
board; playing and buying cards, stocking up and ending the turn do not and come by the buttons or the web
page. The search tries only the board actions whose field(s) lie where the table changed, and the dinosaur
actions of a figure that moved (the slab of legal actions is long: every card use is one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from companion.infer import Difference, LaidOutModel
from companion.kits.isla_nublar import table as tables
from engines.core import Action, State
from engines.isla_nublar.bots import bot_policy
from vision.scene import Scene

FIELD_FIELDS = ("field", "origin", "target", "volcano")
DINOSAUR_FIELDS = ("dinosaur", "first", "second")


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
        super().__init__(is_back, players_by_colour, tolerance=14.0)
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
