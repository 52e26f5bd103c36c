"""Jurassic Brunch at the table: figures and tokens by their tags on the boards' cells and in the seat
zones. Hypotheses are drawn as sketches; the search tries only the moves that touch a cell that changed,
with the token actions and chance as they come."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.infer import Difference, LaidOutModel
from companion.kits.jurassic_brunch import table
from companion.kits.jurassic_brunch.tags import FIGURE_TAG, RAPTOR_TAG, alike
from engines.core import Action, State
from engines.jurassic_brunch.actions import Move, RaptorMove
from vision.scene import Scene

#: the action fields that name a cell of the playing area
CELL_FIELDS = ("origin", "to", "target", "at")


class BrunchModel(LaidOutModel):
    def __init__(self, is_back: Callable[[str], bool], players_by_colour: Mapping[str, str],
                 layout: Any = None) -> None:
        self.layout = layout
        self._layout_for: tuple[Any, table.BrunchLayout] | None = None  # the last area's layout
        super().__init__(is_back, players_by_colour)

    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        layout = self.layout_of(state)
        scene: Scene = table.scene_for(state, layout, ids=ids, sketch=extra.get("sketch", False),
                                       boards_only=extra.get("boards_only", False))
        return scene

    def set_up_stages(self, state: State) -> list[Scene]:
        """The boards joined first (their middle codes in sight), then the figures and the grass."""
        return [self.scene(state, boards_only=True), self.scene(state)]

    def layout_of(self, state: State) -> table.BrunchLayout:
        if isinstance(self.layout, table.BrunchLayout):
            return self.layout
        area = getattr(state, "area")  # noqa: B009  (the engine's state; kits may read it)
        kept = self._layout_for
        if kept is None or kept[0] is not area:  # one area per game: laid out once
            on = self.layout if isinstance(self.layout, table.MarkedArea) else None
            laid = table.BrunchLayout.for_area(area) if on is None else on.layout_for(area)
            kept = self._layout_for = (area, laid)
        return kept[1]

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        """A team's triceratops alike, a kind's tokens alike: which one stands or lies where is the
        group's choice (the set-up's figures on their eggs, the tokens a player ate)."""
        name = super().name_of(component_id, is_back, zone)
        return alike(name) if name is not None and not is_back else name

    def owner(self, component_id: str) -> str | None:
        figure = FIGURE_TAG.match(component_id)
        return figure.group(1).lower() if figure else None

    def actor(self, state: State, differences: Sequence[Difference]) -> str | None:
        if any(action.kind == "expel" for action in state.legal_actions()):
            # the charging player puts the expelled dinosaur down, whoever's it is
            return str(state.current_player())
        return super().actor(state, differences)

    def attempted_actions(
        self, state: State, differences: Sequence[Difference], actor: str | None
    ) -> list[Action]:
        """A dinosaur that left one cell of the pasture for another: the move its player tried, so that an
        objection says which rule it breaks (a triceratops stopped short of where its slide ends)."""
        layout = self.layout_of(state)
        left: dict[str, tuple[int, int]] = {}
        reached: dict[str, tuple[int, int]] = {}
        for difference in differences:
            if difference.what != "front":
                continue
            before, after = difference.expected, difference.seen
            if before is not None and before.zone == "play" and difference.change in ("vanished", "moved"):
                left.setdefault(difference.item, layout.cell_at(before.at))
            if after is not None and after.zone == "play" and difference.change in ("appeared", "moved"):
                reached.setdefault(difference.item, layout.cell_at(after.at))
        attempts: list[Action] = []
        for item, origin in left.items():
            to = reached.get(item)
            if to is None or to == origin:
                continue
            if item == RAPTOR_TAG:
                attempts.append(RaptorMove(origin, to))
            elif FIGURE_TAG.match(item):
                attempts.append(Move(origin, to))
        return attempts

    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        actions = state.legal_actions()
        if state.is_chance_node():
            # an eaten token turned face up: its printed front names its kind (SUPER-YUMMY-01: SUPER_YUMMY)
            seen = {re.sub(r"-\d+$", "", d.item).replace("-", "_") for d in differences
                    if d.what == "front" and d.change in ("appeared", "moved")}
            named = [a for a in actions if getattr(a, "token", None) in seen]
            return named or actions
        layout = self.layout_of(state)
        changed = {layout.cell_at(place.at) for d in differences for place in (d.expected, d.seen)
                   if place is not None and place.zone == "play"}
        chosen = []
        for action in actions:
            cells = [tuple(getattr(action, name)) for name in CELL_FIELDS if getattr(action, name, None)]
            # a charge may leave its target cell looking the same (the expelled piece is in a hand): one
            # changed cell of the move is enough
            if not cells or any(cell in changed for cell in cells):
                chosen.append(action)
        return chosen
