"""Jurassic Parts at the table: the hex slab between the seats, chisels found by colour on its gaps."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from companion.drawing import DiagramSpots
from companion.i18n import gettext, lazy_pgettext, pgettext
from companion.infer import TableModel
from companion.kits import register_kit
from companion.kits.jurassic_parts import table
from companion.kits.jurassic_parts.diagram import Marks, slab_spots, slab_svg
from companion.kits.jurassic_parts.laid import read_slab
from companion.kits.jurassic_parts.model import JurassicPartsModel
from companion.kits.jurassic_parts.reading import READING
from companion.kits.jurassic_parts.tags import INFO, INVENTORY
from companion.kits.jurassic_parts.words import (
    fossil_words,
    hand_moves,
    slab_cell_words,
    slab_place,
    slab_place_words,
)
from companion.kits.kit import Kit, TableAsLaid
from companion.kits.tabletop import check_fit, moved_to
from companion.privacy import Privacy
from engines.core import State
from vision.boards import TileLattice
from vision.detect import GeometryHints
from vision.observation import LatticeFit, Observation
from vision.scene import Scene, Zone
from vision.tags import TagInventory


class JurassicPartsKit(Kit):
    info = INFO
    # a sold tile goes face up to the Field Leader, a bought one comes from there, a completed dinosaur is
    # shown: made, these moves name nothing hidden (the list of what one could sell would)
    # a chisel's gap and a slab cell are open; a fossil, a part or a tile may name what a hand conceals
    privacy = Privacy(public_fields=frozenset({"a", "b", "cell"}),
                      face_up_fields=frozenset({"fossil", "part"}),
                      played_openly=frozenset({"sell", "buy-leader-tile", "commit-bones"}))
    reading = READING

    def inventory(self) -> TagInventory:
        return INVENTORY

    def layout(self, colours: Sequence[str]) -> table.JurassicPartsLayout:
        return table.JurassicPartsLayout(seats=len(colours), colours=tuple(colours))

    def scene(self, state: State, layout: Any = None) -> Scene:
        return table.scene_for(state, layout)

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        jp = layout or table.JurassicPartsLayout()
        slab = LatticeFit("hex", jp.slab_origin, jp.pitch, 0.0)
        board = TileLattice("hex", tile_kinds=("tile",), prior=slab, pitch=jp.pitch, pegs_on_gaps=True,
                            peg_radius_mm=jp.chisel_radius, peg_height_mm=jp.chisel_height)
        return GeometryHints(board=board, tile_turn=60.0, table_size=(jp.width, jp.height),
                             card_mm=jp.card_mm)

    def zones(self, seats: int) -> list[Zone]:
        return list(table.JurassicPartsLayout(seats=seats).zones())

    def layout_for_area(self, colours: Sequence[str], width: float, height: float) -> Any:
        layout = table.JurassicPartsLayout.for_table(len(colours), width, height, colours=tuple(colours))
        check_fit(layout.zones(), width, height, self.game.title)
        return layout

    def layout_zones(self, layout: Any) -> list[Zone]:
        return list(layout.zones())

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        return JurassicPartsModel(self.is_back, players_by_colour, layout)

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        players = snapshot.get("players") or []
        return slab_svg(view, snapshot, players, self._marks(snapshot, players))

    def diagram_spots(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> DiagramSpots:
        return slab_spots(view, snapshot, self._marks(snapshot, snapshot.get("players") or []))

    def _marks(self, snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> Marks:
        """The tiles and gaps the set-up list or an objection names (where a piece must go or come off)."""
        layout = self.table_layout(snapshot)
        places = [slab_place(layout, at) for at in self.places_to_mark(snapshot)]
        return Marks(frozenset(p[0] for p in places if len(p) == 1),
                     frozenset((min(p[0], p[1]), max(p[0], p[1])) for p in places if len(p) == 2))

    def cell_words(self, view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
        return slab_cell_words(view, cell)

    def component_words(self, name: str) -> str | None:
        return fossil_words(name)

    def catalogue_moves(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        return hand_moves(view, player)

    def chance_words(self, view: Mapping[str, Any], setting_up: bool = False) -> str | None:
        split = view.get("split") or {}
        cells = [c for c in split.get("reveal") or [] if isinstance(c, list | tuple)] if isinstance(
            split, Mapping) else []
        if not cells:
            return None
        places = ", ".join((slab_cell_words(view, c) or "").split(" (")[0] for c in cells[:4])
        if len(cells) > 4:
            places = gettext("%(places)s and %(num)d more") % {"places": places, "num": len(cells) - 4}
        who = (view.get("turn") or {}).get("active") or gettext("the active player")
        return pgettext("jurassic-parts", "%(player)s: turn face up the face-down tiles of the part taken "
                        "(%(places)s)") % {"player": who, "places": places}

    # -- the group's own slab (a kits.kit.ReadsSetup) --------------------------------------------------
    def read_setup(self, observation: Observation, layout: Any) -> TableAsLaid:
        return read_slab(observation, layout or table.JurassicPartsLayout())

    def laid_layout(self, layout: Any, placement: Mapping[str, Any]) -> Any:
        return moved_to(layout or table.JurassicPartsLayout(), placement, "slab_origin")

    move_words = MappingProxyType({
        "place-chisel": lazy_pgettext("jurassic-parts", "placed a chisel between {a} and {b}"),
        "pick-up-chisel": lazy_pgettext("jurassic-parts", "picked up a chisel from between {a} and {b}"),
        "end-turn": lazy_pgettext("jurassic-parts", "ended the turn"),
        "sell": lazy_pgettext("jurassic-parts", "sold {fossil} to the Field Leader"),
        "buy-leader-tile": lazy_pgettext("jurassic-parts", "bought {fossil} from the Field Leader"),
        "buy-slab-tile": lazy_pgettext("jurassic-parts", "bought the tile at {cell}"),
        "buy-sharpen": lazy_pgettext("jurassic-parts", "bought two more sharpened chisels"),
        "buy-ignore-rocks": lazy_pgettext("jurassic-parts", "bought leave to ignore rocks with the "
            "next two chisels"),
        "take-tile": lazy_pgettext("jurassic-parts", "took the tile at {cell}"),
        "keep-tile": lazy_pgettext("jurassic-parts", "kept the tile at {cell}"),
        "award-part": lazy_pgettext("jurassic-parts", "chose the part with the tile at {cell} to be awarded"),
        "commit-bones": lazy_pgettext("jurassic-parts", "committed a Pile of Bones as {part}"),
        "reveal": lazy_pgettext("jurassic-parts", "turned up the tile at {cell}: {fossil}"),
    })
    peg_words = lazy_pgettext("jurassic-parts", "chisel")
    back_words = lazy_pgettext("jurassic-parts", "a face-down tile")
    end_reasons = ((re.compile(r"all tiles have been claimed from the slab"),
                    lazy_pgettext("jurassic-parts", "all tiles have been claimed from the slab")),)
    kind_words = MappingProxyType({
        "place-chisel": lazy_pgettext("jurassic-parts", "place chisel"),
        "pick-up-chisel": lazy_pgettext("jurassic-parts", "pick up chisel"),
        "end-turn": lazy_pgettext("jurassic-parts", "end turn"),
        "sell": lazy_pgettext("jurassic-parts", "sell"),
        "buy-leader-tile": lazy_pgettext("jurassic-parts", "buy from the Field Leader"),
        "buy-slab-tile": lazy_pgettext("jurassic-parts", "buy a slab tile"),
        "buy-sharpen": lazy_pgettext("jurassic-parts", "buy sharpening"),
        "buy-ignore-rocks": lazy_pgettext("jurassic-parts", "buy ignoring rocks"),
        "take-tile": lazy_pgettext("jurassic-parts", "take tile"),
        "keep-tile": lazy_pgettext("jurassic-parts", "keep tile"),
        "award-part": lazy_pgettext("jurassic-parts", "award part"),
        "commit-bones": lazy_pgettext("jurassic-parts", "commit Pile of Bones"),
        "reveal": lazy_pgettext("jurassic-parts", "turn up"),
    })

    def place_words(self, view: Mapping[str, Any], layout: Any, zone: str | None,
                    at: Sequence[float]) -> str | None:
        return slab_place_words(view, layout, at) if zone == "play" else None


KIT = register_kit(JurassicPartsKit())
