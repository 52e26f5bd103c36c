"""Jurassik at the table: the excavation grid between the seats, the reveal spot and the box."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from companion.i18n import gettext, lazy_pgettext
from companion.infer import TableModel
from companion.kits import register_kit
from companion.kits.jurassik import table
from companion.kits.jurassik.diagram import excavation_svg
from companion.kits.jurassik.laid import read_square
from companion.kits.jurassik.model import JurassikModel
from companion.kits.jurassik.reading import READING
from companion.kits.jurassik.tags import INFO, INVENTORY
from companion.kits.jurassik.words import jurassik_words
from companion.kits.kit import Kit, TableAsLaid
from companion.kits.tabletop import moved_to, narrowest_fit, recentred
from companion.privacy import Privacy
from companion.words import grid_place
from engines.core import State
from engines.jurassik import JurassikState
from vision.boards import TileLattice
from vision.detect import GeometryHints
from vision.observation import LatticeFit, Observation
from vision.scene import Scene, Zone
from vision.tags import TagInventory


class JurassikKit(Kit):
    info = INFO
    # the players' tiles lie face up before them: every field names something open
    privacy = Privacy(public_fields=frozenset({"row", "col", "face", "tile", "give", "take", "other",
                                               "victim"}))
    reading = READING

    back_words = lazy_pgettext("jurassik", "a face-down tile")
    move_words = MappingProxyType({
        "remove_start": lazy_pgettext("jurassik", "lifted the beginning of excavation tile"),
        "take": lazy_pgettext("jurassik", "took the tile at {place}"),
        "reveal": lazy_pgettext("jurassik", "turned up {face}"),
        "steal": lazy_pgettext("jurassik", "stole {tile} from {victim}"),
        "exchange": lazy_pgettext("jurassik", "gave {give} to {other} for {take}"),
        "discard": lazy_pgettext("jurassik", "discarded {tile} into the box"),
        "return": lazy_pgettext("jurassik", "took {tile} back from the box"),
        "decline": lazy_pgettext("jurassik", "let the action go"),
    })
    end_reasons = (
        (re.compile(r"no tile is accessible"), lazy_pgettext("jurassik", "no tile is accessible")),
        (re.compile(r"(?P<tile>.+) was the last accessible dinosaur tile"),
         lazy_pgettext("jurassik", "%(tile)s was the last accessible dinosaur tile")),
        (re.compile(r"(?P<player>.+) must take a tile and none is accessible"),
         lazy_pgettext("jurassik", "%(player)s must take a tile and none is accessible")),
    )
    kind_words = MappingProxyType({
        "remove_start": lazy_pgettext("jurassik", "lift the start tile"),
        "take": lazy_pgettext("jurassik", "take"), "reveal": lazy_pgettext("jurassik", "turn up"),
        "steal": lazy_pgettext("jurassik", "steal"), "exchange": lazy_pgettext("jurassik", "exchange"),
        "discard": lazy_pgettext("jurassik", "discard"), "return": lazy_pgettext("jurassik", "return"),
        "decline": lazy_pgettext("jurassik", "let the action go"),
    })

    def inventory(self) -> TagInventory:
        return INVENTORY

    def layout(self, colours: Sequence[str]) -> table.JurassikLayout:
        return table.JurassikLayout(seats=len(colours), colours=tuple(colours))

    def scene(self, state: State, layout: Any = None) -> Scene:
        return table.scene_for(state, layout)

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        jk = layout or table.JurassikLayout()
        grid: LatticeFit | None = None
        if isinstance(state, JurassikState):  # the grid's size places cell (0, 0)
            rows, cols = state.rows, state.cols
            grid = LatticeFit("square", jk.cell_center(0, 0, rows, cols), jk.pitch, 0.0)
        board = TileLattice("square", tile_kinds=("tile", "action"), prior=grid, pitch=jk.pitch)
        return GeometryHints(board=board, table_size=(jk.width, jk.height))

    def zones(self, seats: int) -> list[Zone]:
        return list(table.JurassikLayout(seats=seats).zones())

    def layout_for_area(self, colours: Sequence[str], width: float, height: float) -> Any:
        layout = recentred(self.layout(colours), width, height, ("grid_center",), ("reveal_spot", "box"))
        # the largest grid, 8 x 8, must fit
        return narrowest_fit(layout, lambda candidate: candidate.zones(), width, height, self.game.title)

    def layout_zones(self, layout: Any) -> list[Zone]:
        return list(layout.zones())

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        return JurassikModel(self.is_back, players_by_colour, layout)

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        players = snapshot.get("players") or []
        return excavation_svg(view, snapshot, players, self._marked_cells(view, snapshot, players))

    def _marked_cells(self, view: Mapping[str, Any], snapshot: Mapping[str, Any],
                      players: Sequence[Mapping[str, Any]]) -> set[tuple[int, int]]:
        """The grid cells the set-up list or an objection names (where a piece must go or come off)."""
        grid = view.get("grid") or []
        if not grid:
            return set()
        layout = self.table_layout(snapshot)
        cells = (layout.cell_at(at, len(grid), len(grid[0])) for at in self.places_to_mark(snapshot))
        return {cell for cell in cells if cell is not None}

    def component_words(self, name: str) -> str | None:
        return jurassik_words(name)

    def chance_words(self, view: Mapping[str, Any], setting_up: bool = False) -> str | None:
        cell = view.get("reveal_cell")
        if view.get("phase") != "reveal" or not isinstance(cell, list | tuple) or len(cell) != 2:
            return None
        return (f"{view.get('to_play')}: turn up the action tile taken from row {int(cell[0]) + 1}, "
                f"column {int(cell[1]) + 1}, on the reveal spot")

    # -- the group's own square (a kits.kit.ReadsSetup) -------------------------------------------------
    def read_setup(self, observation: Observation, layout: Any) -> TableAsLaid:
        return read_square(observation, layout or table.JurassikLayout())

    def laid_layout(self, layout: Any, placement: Mapping[str, Any]) -> Any:
        return moved_to(layout or table.JurassikLayout(), placement, "grid_center")

    def place_words(self, view: Mapping[str, Any], layout: Any, zone: str | None,
                    at: Sequence[float]) -> str | None:
        grid = view.get("grid") or []
        if zone != "play" or not grid:
            return None
        cell = layout.cell_at((float(at[0]), float(at[1])), len(grid), len(grid[0]))
        return None if cell is None else gettext("at %(place)s") % {"place": grid_place(cell[0], cell[1])}


KIT = register_kit(JurassikKit())
