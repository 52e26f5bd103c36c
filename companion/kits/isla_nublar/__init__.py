"""Isla Nublar at the table: the island board between the seats, camps and boxes found by colour on its
fields, the dinosaur figures by their tags."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from companion.i18n import gettext, lazy_pgettext, pgettext
from companion.infer import TableModel
from companion.kits import register_kit
from companion.kits.isla_nublar import table
from companion.kits.isla_nublar.diagram import island_svg
from companion.kits.isla_nublar.faces import card_face_svg
from companion.kits.isla_nublar.model import IslaNublarModel
from companion.kits.isla_nublar.reading import READING
from companion.kits.isla_nublar.tags import CORNER_TAGS, INFO, INVENTORY
from companion.kits.isla_nublar.words import (
    CORNERS,
    chance_words,
    field_words,
    hand_cards,
    hand_moves,
    isla_nublar_words,
    market_words,
)
from companion.kits.kit import Kit
from companion.kits.tabletop import narrowest_fit, recentred
from companion.privacy import Privacy
from engines.core import State
from engines.isla_nublar.board import Board, default_board
from vision.boards import FramedBoard
from vision.detect import GeometryHints
from vision.scene import Scene, Zone
from vision.tags import TagInventory


def island_hints(board: Board, layout: table.IslaNublarLayout) -> GeometryHints:
    """The corner tags' span and every field's centre in the board frame (mm from the NW corner tag, x
    along the board's east), from the engine's board and the table layout's pitch."""
    x0, y0, x1, y1 = board.extent()
    margin = layout.corner_margin
    pitch = float(layout.pitch)
    fields = {
        (int(field.column), int(field.row)): (
            (board.centre(field_id)[0] - (x0 - margin)) * pitch,
            (board.centre(field_id)[1] - (y0 - margin)) * pitch,
        )
        for field_id, field in board.fields.items()
    }
    ring = 0.30 * pitch
    box_ring = tuple(
        (ring * math.cos(math.radians(30 + 60 * i)), -ring * math.sin(math.radians(30 + 60 * i)))
        for i in range(6)
    )
    frame = FramedBoard(
        corners=CORNER_TAGS,
        fields=fields,
        size=((x1 - x0 + 2 * margin) * pitch, (y1 - y0 + 2 * margin) * pitch),
        figure_kind="figure",
        camp_radius_mm=float(layout.camp_radius),
        box_radius_mm=float(layout.box_radius),
        box_ring=box_ring,
    )
    return GeometryHints(board=frame, table_size=(float(layout.width), float(layout.height)))


class IslaNublarKit(Kit):
    info = INFO
    language = "de"  # a German game: its box, cards and rulebook
    # a card is laid face up when played; a buy pile's next card, the scoring row and a dinosaur card are
    # turned face up for everyone; a played or discarded card lies face up already (improved, retrieved)
    privacy = Privacy(public_fields=frozenset({"dinosaur", "direction", "field", "figures", "first", "level",
                                               "origin",
                                               "piece", "pile", "second", "slot", "steps", "take_back",
                                               "target", "use", "volcano"}),  # not the card itself
                      face_up_fields=frozenset({"card"}),
                      played_openly=frozenset({"play"}),
                      open_kinds=frozenset({"improve", "retrieve"}))
    reading = READING
    real_table_options: ClassVar[Mapping[str, Any]] = MappingProxyType({"table_cards": "table",
                                                                        "dealt_seats": ()})

    def companion_aside(self, move: Mapping[str, Any], options: Mapping[str, Any]) -> str | None:
        """A card the companion buys or takes from a pile at a real table is its own, dealt by the engine:
        nobody keeps it in front of its seat (the camera would see a card there it does not expect)."""
        if options.get("dealt_seats") and move.get("kind") in ("buy", "buy-scoring", "improve"):
            return pgettext("isla-nublar", "its cards are its own: put the card it takes in the box")
        return None

    def table_options(self, companion_seats: Sequence[str]) -> dict[str, Any]:
        """The companion's cards are its own, dealt and shuffled unseen by the engine (nobody handles its
        deck); the others' are shuffled and drawn at the table."""
        return {**self.real_table_options, "dealt_seats": sorted(companion_seats)}
    move_words = MappingProxyType({
        "build-camp": lazy_pgettext("isla-nublar", "built a camp on {field}"),
        "buy": lazy_pgettext("isla-nublar", "bought the top card of the {pile}-amber pile"),
        "choose-scoring": lazy_pgettext("isla-nublar", "chose the scoring card in place {slot}"),
        "end-turn": lazy_pgettext("isla-nublar", "ended the turn"),
        "move-box": lazy_pgettext("isla-nublar", "moved an equipment box from {origin} to {target}"),
        "move-dinosaur": lazy_pgettext("isla-nublar", "moved the {dinosaur} {steps} fields {direction}"),
        "place-box": lazy_pgettext("isla-nublar", "placed an equipment box on {field}"),
        "play": lazy_pgettext("isla-nublar", "played {card}"),
        "place-dinosaurs": lazy_pgettext("isla-nublar", "stood the dinosaur figures on the red "
            "volcanoes, west to east: {figures}"),
        "return-dinosaur": lazy_pgettext("isla-nublar", "sent a dinosaur back to {volcano}"),
        "reveal-dinosaur": lazy_pgettext("isla-nublar", "turned up {card}"),
        "reveal-pile": lazy_pgettext("isla-nublar", "turned up {card} on the {pile}-amber pile"),
        "stock-up": lazy_pgettext("isla-nublar", "took a {piece} from the supply"),
    })
    end_reasons = (
        (re.compile(r"(?P<ending>.+); the round was played to its end"),
         lazy_pgettext("isla-nublar", "%(ending)s; the round was played to its end")),
        (re.compile(r"ending: (?P<ending>.+); the round is being finished"),
         lazy_pgettext("isla-nublar", "ending: %(ending)s; the round is being finished")),
        (re.compile(r"(?P<player>\S+) set up the last camp of the personal supply"),
         lazy_pgettext("isla-nublar", "%(player)s set up the last camp of the personal supply")),
        (re.compile(r"the dinosaur deck is empty"),
         lazy_pgettext("isla-nublar", "the dinosaur deck is empty")),
        (re.compile(r"2 buy piles are empty \((?P<piles>.+)\)"),
         lazy_pgettext("isla-nublar", "2 buy piles are empty (%(piles)s)")),
    )
    kind_words = MappingProxyType({
        "build-camp": lazy_pgettext("isla-nublar", "build a camp"),
        "buy": lazy_pgettext("isla-nublar", "buy"),
        "choose-scoring": lazy_pgettext("isla-nublar", "choose scoring card"),
        "decline": lazy_pgettext("isla-nublar", "decline"), "defend": lazy_pgettext("isla-nublar", "defend"),
        "divert": lazy_pgettext("isla-nublar", "divert"), "draw": lazy_pgettext("isla-nublar", "draw"),
        "end-turn": lazy_pgettext("isla-nublar", "end turn"),
        "finish": lazy_pgettext("isla-nublar", "finish"),
        "move-box": lazy_pgettext("isla-nublar", "move a box"),
        "move-dinosaur": lazy_pgettext("isla-nublar", "move a dinosaur"),
        "place-box": lazy_pgettext("isla-nublar", "place a box"),
        "play": lazy_pgettext("isla-nublar", "play"),
        "return-dinosaur": lazy_pgettext("isla-nublar", "send a dinosaur back"),
        "reveal-dinosaur": lazy_pgettext("isla-nublar", "turn up a dinosaur card"),
        "reveal-pile": lazy_pgettext("isla-nublar", "turn up a pile's card"),
        "select": lazy_pgettext("isla-nublar", "pick"), "stock-up": lazy_pgettext("isla-nublar", "stock up"),
    })

    def inventory(self) -> TagInventory:
        return INVENTORY

    def layout(self, colours: Sequence[str]) -> table.IslaNublarLayout:
        return table.IslaNublarLayout(seats=len(colours), colours=tuple(colours))

    def scene(self, state: State, layout: Any = None) -> Scene:
        return table.scene_for(state, layout)

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        board = getattr(state, "board", None) or default_board()
        seats = len(state.players) if state is not None else 2
        return island_hints(board, layout or table.IslaNublarLayout(seats=seats))

    def layout_for_area(self, colours: Sequence[str], width: float, height: float) -> Any:
        layout = recentred(self.layout(colours), width, height, ("board_center",))
        return narrowest_fit(layout, lambda candidate: candidate.zones(default_board()), width, height,
                             self.game.title)

    def layout_zones(self, layout: Any) -> list[Zone]:
        return list(layout.zones(default_board()))

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        return IslaNublarModel(self.is_back, players_by_colour, layout)

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        players = snapshot.get("players") or []
        marked: frozenset[str] = frozenset()
        if view.get("board", "default") == "default":  # the fields the page's list names, ringed
            layout = self.layout([str(p.get("colour", "")) for p in players])
            found = (layout.field_near(default_board(), at) for at in self.places_to_mark(snapshot))
            marked = frozenset(field for field in found if field)
        return island_svg(view, snapshot, players, marked)

    def component_words(self, name: str) -> str | None:
        return isla_nublar_words(name)

    def catalogue_moves(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        return hand_moves(view, player)

    def hand_cards(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        return hand_cards(view, player)

    def face_svg(self, component: str) -> str:
        return card_face_svg(component)

    def chance_words(self, view: Mapping[str, Any], setting_up: bool = False) -> str | None:
        return chance_words(view, setting_up)

    def place_words(self, view: Mapping[str, Any], layout: Any, zone: str | None,
                    at: Sequence[float]) -> str | None:
        if zone and zone.startswith(("pile:", "row:")):
            return market_words(zone)
        if view.get("board", "default") != "default":
            return None
        point = (float(at[0]), float(at[1]))
        corner = layout.corner_at(default_board(), point)
        if corner is not None:  # a corner sticker's place: the corner, and the field it lies beside
            beside = field_words(layout.field_near(default_board(), point) or "")
            said = {"corner": CORNERS[corner], "field": beside}
            if beside:
                return pgettext("isla-nublar", "on the board's %(corner)s corner, beside %(field)s") % said
            return pgettext("isla-nublar", "on the board's %(corner)s corner") % said
        found = layout.field_at(default_board(), point)
        words = field_words(found) if found else None
        return gettext("on %(place)s") % {"place": words} if words else None


KIT = register_kit(IslaNublarKit())
