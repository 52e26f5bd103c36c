"""Jurassic Brunch at the table: four pasture boards laid freely, figures and grass tokens on their cells."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from companion.i18n import gettext, lazy_pgettext, pgettext
from companion.infer import TableModel
from companion.kits import register_kit
from companion.kits.jurassic_brunch import table
from companion.kits.jurassic_brunch.diagram import (
    pasture_cell_words,
    pasture_layout,
    pasture_svg,
    piece_words,
)
from companion.kits.jurassic_brunch.laid import joined_layout, read_pasture
from companion.kits.jurassic_brunch.reading import READING
from companion.kits.jurassic_brunch.tags import INFO, INVENTORY
from companion.kits.kit import Kit, TableAsLaid
from companion.kits.tabletop import TableAreaError
from companion.privacy import Privacy
from engines.core import State
from engines.jurassic_brunch.components import TOKEN_TITLES
from vision.boards import CellBoards
from vision.detect import GeometryHints
from vision.observation import LatticeFit, Observation
from vision.scene import Scene
from vision.tags import TagInventory


class JurassicBrunchKit(Kit):
    info = INFO
    demo_colours = ("blue", "orange")
    group_choices: ClassVar[Mapping[str, Any]] = MappingProxyType({"arrangement": "random"})
    # the pasture's cells are open; an eaten token is turned face up for everyone (and one a Flower takes
    # lies face up already), but which token goes under a Hideout is its owner's secret
    privacy = Privacy(public_fields=frozenset({"at", "cells", "eats", "from", "scares", "target", "to"}),
                      face_up_fields=frozenset({"token"}), played_openly=frozenset({"reveal", "steal"}))
    reading = READING

    def inventory(self) -> TagInventory:
        return INVENTORY

    def layout(self, colours: Sequence[str]) -> table.BrunchLayout:
        return table.BrunchLayout()

    def scene(self, state: State, layout: Any = None) -> Scene:
        return table.scene_for(state, layout)

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        area = getattr(state, "area", None)
        jb = layout or (table.BrunchLayout.for_area(area) if area is not None else table.BrunchLayout())
        board = CellBoards("board", pitch=jb.pitch, prior=LatticeFit("square", jb.origin, jb.pitch, 0.0))
        return GeometryHints(board=board, table_size=(jb.width, jb.height))

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        from companion.kits.jurassic_brunch.model import BrunchModel

        return BrunchModel(self.is_back, players_by_colour, layout)

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        layout = pasture_layout(view)
        ringed = {layout.cell_at(at) for at in self.places_to_mark(snapshot)} if layout else set()
        return pasture_svg(view, snapshot, snapshot.get("players") or [], ringed)

    def place_words(self, view: Mapping[str, Any], table_layout: Any, zone: str | None,
                    at: Sequence[float]) -> str | None:
        layout = pasture_layout(view)
        if zone != "play" or layout is None:
            return None
        words = pasture_cell_words(view, layout.cell_at((float(at[0]), float(at[1]))))
        return gettext("on %(place)s") % {"place": words} if words else None

    def layout_for_area(self, colours: Sequence[str], width: float, height: float) -> Any:
        """The playing area follows the boards' arrangement, dealt at setup: each game's is laid out in
        the middle of this area (it must hold a 6 x 6 area between the two seat strips)."""
        need_w = 6 * 62.0 + 2 * table.SEAT_STRIP + 60.0
        need_h = 6 * 62.0 + 80.0
        if width < need_w or height < need_h:
            raise TableAreaError(f"the Jurassic Brunch playing area and seats need {need_w:.0f} x "
                                 f"{need_h:.0f} mm: they do not fit on {width:.0f} x {height:.0f} mm")
        return table.MarkedArea(width, height)

    # -- the group's own pasture (a kits.kit.ReadsSetup) ------------------------------------------------
    def read_setup(self, observation: Observation, layout: Any) -> TableAsLaid:
        return read_pasture(observation, layout)

    def laid_layout(self, layout: Any, placement: Mapping[str, Any]) -> Any:
        return joined_layout(layout, placement)

    def cell_words(self, view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
        return pasture_cell_words(view, cell)

    move_words = MappingProxyType({
        "move": lazy_pgettext("jurassic-brunch", "moved a triceratops from {from} to {to}"),
        "charge": lazy_pgettext("jurassic-brunch", "charged from {from} to {target}"),
        "expel": lazy_pgettext("jurassic-brunch", "put the triceratops sent off on {to}"),
        "birth": lazy_pgettext("jurassic-brunch", "hatched a triceratops on {to}"),
        "wake": lazy_pgettext("jurassic-brunch", "woke the triceratops on {at}"),
        "raptor": lazy_pgettext("jurassic-brunch", "moved the raptor from {from} to {to}"),
        "reveal": lazy_pgettext("jurassic-brunch", "turned up the grass token eaten: {token}"),
        "steal": lazy_pgettext("jurassic-brunch", "the Flower took the token {token}"),
        "hide": lazy_pgettext("jurassic-brunch", "hid a token under a Hideout"),
        "end_turn": lazy_pgettext("jurassic-brunch", "ended the turn"),
    })
    peg_words = lazy_pgettext("jurassic-brunch", "figure")
    back_words = lazy_pgettext("jurassic-brunch", "a face-down grass token")
    end_reasons = (
        (re.compile(r"two turns in a row without eating or scaring"),
         lazy_pgettext("jurassic-brunch", "two turns in a row without eating or scaring")),
        (re.compile(r"(?P<players>.+) has no triceratops left on the playing area"),
         lazy_pgettext("jurassic-brunch", "%(players)s has no triceratops left on the playing area")),
        (re.compile(r"no grass token is left on the playing area"),
         lazy_pgettext("jurassic-brunch", "no grass token is left on the playing area")),
        (re.compile(r"the position is over by an end condition"),
         lazy_pgettext("jurassic-brunch", "the position is over by an end condition")),
    )
    kind_words = MappingProxyType({
        "move": lazy_pgettext("jurassic-brunch", "move"),
        "charge": lazy_pgettext("jurassic-brunch", "charge"),
        "expel": lazy_pgettext("jurassic-brunch", "place the triceratops sent off"),
        "birth": lazy_pgettext("jurassic-brunch", "hatch"), "wake": lazy_pgettext("jurassic-brunch", "wake"),
        "raptor": lazy_pgettext("jurassic-brunch", "move the raptor"),
        "reveal": lazy_pgettext("jurassic-brunch", "turn up"),
        "steal": lazy_pgettext("jurassic-brunch", "the Flower takes a token"),
        "hide": lazy_pgettext("jurassic-brunch", "hide a token"),
        "super_yummy": lazy_pgettext("jurassic-brunch", "super yummy"),
        "end_turn": lazy_pgettext("jurassic-brunch", "end turn"),
    })

    def chance_words(self, view: Mapping[str, Any], setting_up: bool = False) -> str | None:
        pending = view.get("pending") or {}
        if pending.get("kind") == "reveal" and isinstance(pending.get("at"), list):
            where = pasture_cell_words(view, pending["at"])
            if not where:
                return None
            return pgettext("jurassic-brunch", "the grass token on %(place)s is being turned face up") % {
                "place": where}
        if pending.get("kind") == "steal" and pending.get("from"):
            return pgettext("jurassic-brunch", "a token is being taken from %(player)s") % {
                "player": pending["from"]}
        return None

    def component_words(self, name: str) -> str | None:
        return TOKEN_TITLES.get(name) or piece_words(name)

    def catalogue_moves(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        """Hiding a token under a Hideout names it: every kind is offered to whoever has a Hideout."""
        holdings = (view.get("holdings") or {}).get(player) or {}
        if (view.get("turn") or {}).get("current") != player or not holdings.get("hideouts"):
            return []
        return [{"kind": "hide", "token": kind} for kind in TOKEN_TITLES if kind != "HIDEOUT"]


KIT = register_kit(JurassicBrunchKit())
