"""The Isla Nublar diagram: the island's fields, camps, boxes and dinosaur figures."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from companion.drawing import attr, colour_of, marked, rgb
from companion.i18n import gettext, pgettext
from companion.kits.isla_nublar.words import field_words, isla_nublar_words, landscape_words, scoring_words
from engines.isla_nublar import GAME
from engines.isla_nublar.board import Board, board_from_dict, default_board

LANDSCAPE_FILL = {"park": "#7fbf5a", "mountain": "#9a8f84", "forest": "#2f7a3a", "plain": "#e3cf7c",
                  "lake": "#6fa8dc"}
VOLCANO_FILL = "#5e4b43"
#: flat-top hex edge towards each direction, as the pair of corner indices (corner k at 60*k degrees, y down)
_EDGE_CORNERS = {"SE": (0, 1), "S": (1, 2), "SW": (2, 3), "NW": (3, 4), "N": (4, 5), "NE": (5, 0)}


class _Island:
    """Where the island's fields are drawn: flat-top hexes in picture pixels."""

    pitch, pad = 52.0, 24.0

    def __init__(self, board: Board) -> None:
        self.board = board
        self.radius = self.pitch / math.sqrt(3)
        self.min_x, self.min_y, max_x, max_y = board.extent()
        self.map_w = (max_x - self.min_x) * self.pitch + 2 * self.radius + 2 * self.pad
        self.map_h = (max_y - self.min_y) * self.pitch + self.pitch + 2 * self.pad + 47  # two lines below

    def at(self, fid: str) -> tuple[float, float]:
        x, y = self.board.centre(fid)
        return (self.pad + self.radius + (x - self.min_x) * self.pitch,
                self.pad + self.pitch / 2 + (y - self.min_y) * self.pitch)

    def corner(self, cx: float, cy: float, k: int) -> tuple[float, float]:
        angle = math.radians(60 * k)
        return cx + self.radius * math.cos(angle), cy + self.radius * math.sin(angle)


def _fields(island: _Island) -> list[str]:
    """Fields by landscape, rivers, area borders (thick towards the sea or another area), camp points."""
    board, out = island.board, []
    for fid, field in board.fields.items():
        cx, cy = island.at(fid)
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (island.corner(cx, cy, k) for k in range(6)))
        fill = VOLCANO_FILL if field.volcano else LANDSCAPE_FILL.get(field.landscape or "", "#cccccc")
        out.append(f'<polygon points="{points}" fill="{fill}" stroke="#5b4a2c" stroke-width="0.8">'
                   f'<title>{attr(field_words(fid) or fid)}, {attr(_area_words(field.area))}'
                   '</title></polygon>')
    tops: dict[int, str] = {}
    for fid, field in board.fields.items():
        if field.column not in tops or field.row < board.fields[tops[field.column]].row:
            tops[field.column] = fid
    for column, fid in sorted(tops.items()):  # the numbers field words count columns by
        cx, cy = island.at(fid)
        out.append(f'<text x="{cx:.1f}" y="{cy - island.radius - 4:.1f}" font-size="14" font-weight="bold" '
                   f'text-anchor="middle" fill="#2d2416">{column + 1}</text>')
    for fid, field in board.fields.items():
        if field.river:  # a wavy stream across the field, under the pieces
            cx, cy = island.at(fid)
            out.append(f'<path d="M{cx - 18:.1f},{cy + 2:.1f} q4.5,-6 9,0 t9,0 t9,0 t9,0" fill="none" '
                       'stroke="#1f5fa8" stroke-width="3" stroke-linecap="round">'
                       f'<title>{_river_words()}</title></path>')
    for fid, field in board.fields.items():
        cx, cy = island.at(fid)
        for direction, (a, b) in _EDGE_CORNERS.items():
            beyond = board.next_field(fid, direction)
            if beyond is None or board.fields[beyond].area != field.area:
                (x1, y1), (x2, y2) = island.corner(cx, cy, a), island.corner(cx, cy, b)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#2d2416" '
                           'stroke-width="2.5" stroke-linecap="round"/>')
    for fid, field in board.fields.items():
        cx, cy = island.at(fid)
        points_here = board.camp_points.get(field.area, 0)
        label_y = cy - island.radius * 0.42
        out.append(f'<text x="{cx:.1f}" y="{label_y:.1f}" font-size="14" text-anchor="middle" '
                   f'fill="#2d2416" opacity="0.75">{points_here}</text>')
        if field.volcano:
            cone = f"{cx - 9:.1f},{cy + 7:.1f} {cx + 9:.1f},{cy + 7:.1f} {cx:.1f},{cy - 9:.1f}"
            out.append(f'<polygon points="{cone}" fill="#e0532c" stroke="#2a0f05">'
                       f'<title>{attr(_volcano_words())}</title></polygon>')
    return out


def _pieces(island: _Island, view: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> list[str]:
    """Camp stacks (the top camp's colour and the height), equipment boxes, and the dinosaur figures."""
    board, out = island.board, []
    for fid, content in (view.get("fields") or {}).items():
        if fid not in board.fields or not isinstance(content, Mapping):
            continue
        cx, cy = island.at(fid)
        stack = list(content.get("camps") or [])
        if stack:
            top = str(stack[-1])
            fill = rgb(colour_of(players, top))
            out.append(f'<circle cx="{cx - 8:.1f}" cy="{cy + 2:.1f}" r="10" fill="{fill}" '
                       f'stroke="#1a1a1a"><title>{attr(_camps_words(stack))}'
                       '</title></circle>'
                       f'<text x="{cx - 8:.1f}" y="{cy + 7:.1f}" font-size="14" text-anchor="middle" '
                       f'fill="#ffffff" stroke="#000" stroke-width="0.3">{len(stack)}</text>')
        n = 0
        for owner, count in sorted((content.get("boxes") or {}).items()):
            for _ in range(int(count)):
                bx, by = cx + 3 + (n % 3) * 7, cy - 8 + (n // 3) * 7
                out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="6" height="6" '
                           f'fill="{rgb(colour_of(players, str(owner)))}" stroke="#1a1a1a" '
                           'stroke-width="0.6">'
                           f'<title>{attr(_box_words(owner))}</title></rect>')
                n += 1
    off_board = []
    for dino, where in sorted((view.get("dinosaurs") or {}).items()):
        name = isla_nublar_words(str(dino)) or str(dino)
        if where in board.fields:
            cx, cy = island.at(str(where))
            short = NICKNAMES.get(name, name)
            half = max(20.0, len(short) * 4.3 + 5)  # DejaVu Sans at 14: about 8.5 px a letter
            out.append(f'<rect x="{cx - half:.1f}" y="{cy + 8:.1f}" width="{2 * half:.1f}" height="17" '
                       'rx="6" fill="#3b2a14"/>'
                       f'<text x="{cx:.1f}" y="{cy + 21:.1f}" font-size="14" text-anchor="middle" '
                       f'fill="#ffe9a8">{attr(short)}<title>{attr(name)}</title></text>')
        else:
            off_board.append(NICKNAMES.get(name, name))
    if off_board:  # wrapped to the map's width (about 8.5 px a letter at 14)
        most = int((island.map_w - 2 * island.pad) / 8.5)
        lines = textwrap.wrap(pgettext("isla-nublar", "off the board: %(figures)s") % {
            "figures": ", ".join(off_board)}, most)[:2]
        for row, line in enumerate(lines):
            out.append(_text(island.pad, island.map_h - 14 - 17 * (len(lines) - 1 - row), line, 14))
    return out


def _area_words(area: Any) -> str:
    return pgettext("isla-nublar", "area %(area)s") % {"area": area}


def _camps_words(stack: Sequence[Any]) -> str:
    return pgettext("isla-nublar", "camps: %(owners)s") % {"owners": ", ".join(map(str, stack))}


def _box_words(owner: Any) -> str:
    return pgettext("isla-nublar", "box: %(owner)s") % {"owner": owner}


def _volcano_words() -> str:
    return pgettext("isla-nublar", "volcano")


def _board_words() -> str:
    return pgettext("isla-nublar", "Isla Nublar board")


def _river_words() -> str:
    return attr(pgettext("isla-nublar", "river"))


#: the dinosaur figures' names as players shorten them, so that a label on the map stays 12 px on a phone
NICKNAMES = {"Tyrannosaurus": "T. rex", "Velociraptor": "Raptor", "Triceratops": "Trike",
             "Brachiosaurus": "Brachio"}

LEGEND_H = 190  # under the board, so that a phone shows its text at a readable size


def _side(island: _Island, view: Mapping[str, Any], snapshot: Mapping[str, Any],
          players: Sequence[Mapping[str, Any]]) -> list[str]:
    """Under the board: the open scoring row and whose turn (left), the areas' camp points and the
    landscapes (right)."""
    left, right, top, out = island.pad, island.map_w / 2 + 8, island.map_h + 4, []
    out.append(_text(left, top + 14, pgettext("isla-nublar", "Scoring row"), 15, bold=True))
    cards = GAME.cards.cards
    line = top + 34
    for slot, card in enumerate(view.get("scoring_row") or [], start=1):
        known = cards.get(card) if card is not None else None
        shown = pgettext("isla-nublar", "(empty)") if card is None else str(card)
        if known is not None:
            shown = scoring_words(known)
        out.append(_text(left, line, f"{slot}. {shown}", 14))
        line += 19
    current = snapshot.get("current")
    if current:
        dot = rgb(colour_of(players, str(current)))
        out.append(f'<circle cx="{left + 6:.1f}" cy="{line + 3:.1f}" r="7" fill="{dot}"/>')
        out.append(_text(left + 20, line + 8, gettext("%(player)s to play") % {"player": current}, 14))
    out.append(_text(right, top + 14, pgettext("isla-nublar", "Camp points"), 15, bold=True))
    areas = [pgettext("isla-nublar", "area %(area)s: %(points)s") % {"area": a, "points": p}
             for a, p in sorted(island.board.camp_points.items())]
    out.append(_text(right, top + 34, ", ".join(areas[:2]), 14))
    out.append(_text(right, top + 53, ", ".join(areas[2:]), 14))
    line = top + 82
    swatches = [*LANDSCAPE_FILL.items(), ("volcano", VOLCANO_FILL)]
    for index, (name, fill) in enumerate(swatches):
        x, y = right + (index % 2) * 88, line + (index // 2) * 19
        out.append(f'<rect x="{x:.1f}" y="{y - 11:.1f}" width="13" height="13" fill="{fill}" '
                   'stroke="#5b4a2c"/>')
        out.append(_text(x + 18, y, pgettext("isla-nublar", "volcano") if name == "volcano"
                         else landscape_words(name), 14))
    return out


def _text(x: float, y: float, text: str, size: int, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{weight} fill="#2d2416">{attr(text)}</text>'


def _rings(island: _Island, fields: frozenset[str]) -> list[str]:
    """The fields the set-up list or an objection names, ringed in orange."""
    out = []
    for fid in sorted(fields):
        if fid in island.board.fields:
            cx, cy = island.at(fid)
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (island.corner(cx, cy, k) for k in range(6)))
            out.append(f'<polygon points="{points}" {marked()}/>')
    return out


def island_svg(
    view: Mapping[str, Any], snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
    ringed: frozenset[str] = frozenset(),
) -> str:
    """Isla Nublar's island from the shared view: fields by landscape, rivers, area borders with their camp
    points, volcanoes, dinosaur figures, camp stacks, equipment boxes and the open scoring row."""
    board_data = view.get("board", "default")
    island = _Island(default_board() if board_data == "default" else board_from_dict(board_data))
    width, height = island.map_w, island.map_h + LEGEND_H
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
           f'aria-label="{attr(_board_words())}">',
           f'<rect width="{width:.0f}" height="{height:.0f}" rx="10" fill="#cfe3ee"/>']
    out += _fields(island)
    out += _pieces(island, view, players)
    out += _rings(island, ringed)
    out += _side(island, view, snapshot, players)
    out.append("</svg>")
    return "".join(out)
