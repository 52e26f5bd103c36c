"""Jurassik at the table: what the camera sees and which engine actions explain it.

- Taking a tile: a dinosaur tile leaves the grid for the taker's seat zone (its id is printed on it); an
  action tile leaves the grid face down for the reveal spot.
- The reveal (a chance action): the tile on the reveal spot is turned up; its printed kind (``STEAL-2`` ->
  steal) selects the engine's outcome. A Rock goes back into its cell face up, which also tells it.
- Stealing, exchanging, discarding (to the box, out of play) and returning (from the box) move dinosaur
  tiles between seat zones; "decline" and the end of "playing twice" change nothing visible and come by
  the Next button or the web page.

Action tiles of one kind are interchangeable (``STEAL-1`` and ``STEAL-3`` mean the same), so they are
compared by kind; whatever lies face up on the reveal spot is only read for the reveal, never compared
(it stays there while the player resolves it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.infer import Difference, LaidOutModel, default_namer
from companion.kits.jurassik import table as tables
from companion.kits.jurassik.tags import action_prefix
from engines.core import Action, State
from engines.jurassik.actions import Take
from engines.jurassik.components import FACE_BY_TAG
from vision.observation import Observation
from vision.scene import Scene

#: the action fields that name a dinosaur tile
TILE_FIELDS = ("tile", "give", "take")


def action_kind(component_id: str) -> str | None:
    prefix = component_id.split("-", 1)[0]
    return FACE_BY_TAG.get(prefix) if "-" in component_id else None


class JurassikModel(LaidOutModel):

    def __init__(
        self,
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        layout: Any = None,
    ) -> None:
        self.tables = tables
        colours = tuple(players_by_colour)
        self.layout = layout or tables.JurassikLayout(seats=len(colours), colours=colours)
        super().__init__(is_back, players_by_colour, tables.JurassikIds())
        self.revealed_kinds: set[str] = set()

    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        """``reveal``: the printed id lying face up on the reveal spot."""
        scene: Scene = self.tables.scene_for(state, self.layout, ids=ids, reveal=extra.get("reveal"))
        return scene

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        if zone == "reveal" and not is_back:
            return None  # read for the reveal only
        kind = action_kind(component_id)
        if kind is not None and not is_back:
            return component_id.split("-", 1)[0]
        return default_namer(component_id, is_back, zone)

    def seen(self, observation: Observation) -> Any:
        self.revealed_kinds = {
            kind
            for component_id, reading in observation.tags.items()
            if reading.face == "front" and reading.zone == "reveal"
            for kind in [action_kind(component_id)]
            if kind is not None
        }
        return super().seen(observation)

    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        actions = state.legal_actions()
        if not state.is_chance_node():
            return self._near_changes(state, actions, differences)
        kinds = set(self.revealed_kinds)
        for difference in differences:  # a Rock put back into its cell face up
            if difference.what == "front" and difference.change in ("appeared", "moved"):
                kind = FACE_BY_TAG.get(difference.item)
                if kind is not None:
                    kinds.add(kind)
        return [action for action in actions if getattr(action, "face", None) in kinds]

    def _near_changes(
        self, state: State, actions: list[Action], differences: Sequence[Difference]
    ) -> list[Action]:
        """Takes only of cells where the grid changed (the other actions have no place and all stay)."""
        rows, cols = int(getattr(state, "rows", 0)), int(getattr(state, "cols", 0))
        changed = set()
        for difference in differences:
            for place in (difference.expected, difference.seen):
                if place is not None and place.zone == "play":
                    cell = self.layout.cell_at(place.at, rows, cols)
                    if cell is not None:
                        changed.add(cell)
        moved = {d.item.removesuffix("L") for d in differences if d.what == "front"}
        chosen = []
        for action in actions:
            row, col = getattr(action, "row", None), getattr(action, "col", None)
            if row is not None and col is not None and (row, col) not in changed:
                continue
            # a steal, exchange, discard or return names the tiles that move: each must be among those seen
            # moving (an exchange of any two loose tiles is hundreds of actions)
            tiles = [getattr(action, f) for f in TILE_FIELDS if isinstance(getattr(action, f, None), str)]
            if tiles and not all(tile in moved for tile in tiles):
                continue
            chosen.append(action)
        return chosen

    def display_scene(self, before: State, action: Action, after: State) -> Scene:
        face = getattr(action, "face", None)
        if action.kind != "reveal" or face is None or face == "rock":
            return self.scene(after)
        prefix = action_prefix(face)
        shown = {tag.payload.rsplit(":", 1)[-1] for tag in self.scene(before).tags}
        number = next(n for n in range(1, 20) if f"{prefix}-{n}" not in shown)
        return self.scene(before, reveal=f"{prefix}-{number}")

    def attempted_actions(
        self, state: State, differences: Sequence[Difference], actor: str | None
    ) -> list[Action]:
        """A tile gone from the grid: the Take the player tried (the engine names the rule it breaks)."""
        rows, cols = int(getattr(state, "rows", 0)), int(getattr(state, "cols", 0))
        player = actor or state.current_player()
        attempts: list[Action] = []
        for difference in differences:
            place = difference.expected
            if place is None or place.zone != "play" or difference.change not in ("vanished", "moved"):
                continue
            cell = self.layout.cell_at(place.at, rows, cols)
            if cell is not None:
                attempts.append(Take(player, cell[0], cell[1]))
        return attempts

