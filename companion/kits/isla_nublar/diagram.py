"""The Isla Nublar diagram: the island's fields, camps, boxes and dinosaur figures."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.web.svg import attr, colour_of, rgb
from engines.isla_nublar import GAME
from engines.isla_nublar.board import board_from_dict, default_board

LANDSCAPE_FILL = {"park": "#7fbf5a", "mountain": "#9a8f84", "forest": "#2f7a3a", "plain": "#e3cf7c",
                  "lake": "#6fa8dc"}
VOLCANO_FILL = "#5e4b43"
#: flat-top hex edge towards each direction, as the pair of corner indices (corner k at 60*k degrees, y down)
_EDGE_CORNERS = {"SE": (0, 1), "S": (1, 2), "SW": (2, 3), "NW": (3, 4), "N": (4, 5), "NE": (5, 0)}


def island_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                     players: Sequence[Mapping[str, Any]]) -> str:
    """Isla Nublar's island from the shared view: fields by landscape, rivers, area borders with their camp
    points, volcanoes, dinosaur figures, camp stacks, equipment boxes and the open scoring row."""
    board_data = view.get("board", "default")
    board = default_board() if board_data == "default" else board_from_dict(board_data)
    pitch, pad, side = 52.0, 24.0, 230
    radius = pitch / math.sqrt(3)
    min_x, min_y, max_x, max_y = board.extent()
    map_w = (max_x - min_x) * pitch + 2 * radius + 2 * pad
    map_h = (max_y - min_y) * pitch + pitch + 2 * pad + 30
    width, height = map_w + side, map_h

    def at(fid: str) -> tuple[float, float]:
        x, y = board.centre(fid)
        return pad + radius + (x - min_x) * pitch, pad + pitch / 2 + (y - min_y) * pitch

    def corner(cx: float, cy: float, k: int) -> tuple[float, float]:
        angle = math.radians(60 * k)
        return cx + radius * math.cos(angle), cy + radius * math.sin(angle)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
           'aria-label="Isla Nublar board">',
           f'<rect width="{width:.0f}" height="{height:.0f}" rx="10" fill="#cfe3ee"/>']
    for fid, field in board.fields.items():
        cx, cy = at(fid)
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner(cx, cy, k) for k in range(6)))
        fill = VOLCANO_FILL if field.volcano else LANDSCAPE_FILL.get(field.landscape or "", "#cccccc")
        out.append(f'<polygon points="{points}" fill="{fill}" stroke="#5b4a2c" stroke-width="0.8">'
                   f'<title>{attr(fid)}: {attr(field.landscape)}, area {field.area}</title></polygon>')
    # rivers: a wavy stream across each river field (drawn under the pieces)
    for fid, field in board.fields.items():
        if field.river:
            cx, cy = at(fid)
            out.append(f'<path d="M{cx - 18:.1f},{cy + 2:.1f} q4.5,-6 9,0 t9,0 t9,0 t9,0" fill="none" '
                       'stroke="#1f5fa8" stroke-width="3" stroke-linecap="round"><title>river</title></path>')
    # area borders: an edge towards the sea or another area is drawn thick
    for fid, field in board.fields.items():
        cx, cy = at(fid)
        for direction, (a, b) in _EDGE_CORNERS.items():
            beyond = board.next_field(fid, direction)
            if beyond is None or board.fields[beyond].area != field.area:
                (x1, y1), (x2, y2) = corner(cx, cy, a), corner(cx, cy, b)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#2d2416" '
                           'stroke-width="2.5" stroke-linecap="round"/>')
    for fid, field in board.fields.items():
        cx, cy = at(fid)
        points_here = board.camp_points.get(field.area, 0)
        out.append(f'<text x="{cx:.1f}" y="{cy - radius * 0.55:.1f}" font-size="8" text-anchor="middle" '
                   f'fill="#2d2416" opacity="0.75">{points_here}</text>')
        if field.volcano:
            cone = f"{cx - 9:.1f},{cy + 7:.1f} {cx + 9:.1f},{cy + 7:.1f} {cx:.1f},{cy - 9:.1f}"
            out.append(f'<polygon points="{cone}" fill="#e0532c" stroke="#2a0f05">'
                       '<title>volcano</title></polygon>')
    fields = view.get("fields") or {}
    for fid, content in fields.items():
        if fid not in board.fields or not isinstance(content, Mapping):
            continue
        cx, cy = at(fid)
        stack = list(content.get("camps") or [])
        if stack:
            top = str(stack[-1])
            out.append(f'<circle cx="{cx - 8:.1f}" cy="{cy:.1f}" r="8" fill="{rgb(colour_of(players, top))}" '
                       f'stroke="#1a1a1a"><title>camps: {attr(", ".join(map(str, stack)))}</title></circle>'
                       f'<text x="{cx - 8:.1f}" y="{cy + 3.5:.1f}" font-size="10" text-anchor="middle" '
                       f'fill="#ffffff" stroke="#000" stroke-width="0.3">{len(stack)}</text>')
        boxes = content.get("boxes") or {}
        n = 0
        for owner, count in sorted(boxes.items()):
            for _ in range(int(count)):
                bx, by = cx + 3 + (n % 3) * 7, cy - 8 + (n // 3) * 7
                out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="6" height="6" '
                           f'fill="{rgb(colour_of(players, str(owner)))}" stroke="#1a1a1a" '
                           'stroke-width="0.6">'
                           f'<title>box: {attr(owner)}</title></rect>')
                n += 1
    off_board = []
    for dino, where in sorted((view.get("dinosaurs") or {}).items()):
        if where in board.fields:
            cx, cy = at(str(where))
            out.append(f'<rect x="{cx - 20:.1f}" y="{cy + 9:.1f}" width="40" height="11" rx="5" '
                       'fill="#3b2a14"/>'
                       f'<text x="{cx:.1f}" y="{cy + 17.5:.1f}" font-size="8.5" text-anchor="middle" '
                       f'fill="#ffe9a8">{attr(dino)}</text>')
        else:
            off_board.append(str(dino))
    y = map_h - 14
    if off_board:
        out.append(f'<text x="{pad}" y="{y:.1f}" font-size="11" fill="#2d2416">off the board: '
                   f'{attr(", ".join(off_board))}</text>')
    # beside the board: the open scoring row, the areas' camp points, whose turn
    x0 = map_w + 4
    out.append(f'<text x="{x0:.1f}" y="{pad + 10:.1f}" font-size="14" font-weight="bold" fill="#2d2416">'
               'Scoring row</text>')
    try:
        cards = GAME.cards.cards
    except (KeyError, AttributeError):
        cards = {}
    line = pad + 30
    for slot, card in enumerate(view.get("scoring_row") or [], start=1):
        shown = "(empty)"
        if card is not None:
            known = cards.get(card)
            shown = f"{getattr(known, 'name', '') or card}"
        out.append(f'<text x="{x0:.1f}" y="{line:.1f}" font-size="12" fill="#2d2416">'
                   f'{slot}. {attr(shown)}</text>')
        line += 18
    line += 12
    out.append(f'<text x="{x0:.1f}" y="{line:.1f}" font-size="14" font-weight="bold" fill="#2d2416">'
               'Camp points</text>')
    for area, camp_points in sorted(board.camp_points.items()):
        line += 18
        out.append(f'<text x="{x0:.1f}" y="{line:.1f}" font-size="12" fill="#2d2416">'
                   f'area {area}: {camp_points}</text>')
    line += 30
    for name, fill in [*LANDSCAPE_FILL.items(), ("volcano", VOLCANO_FILL)]:
        out.append(f'<rect x="{x0:.1f}" y="{line - 10:.1f}" width="12" height="12" fill="{fill}" '
                   'stroke="#5b4a2c"/>'
                   f'<text x="{x0 + 18:.1f}" y="{line:.1f}" font-size="12" fill="#2d2416">{name}</text>')
        line += 17
    current = snapshot.get("current")
    if current:
        dot = rgb(colour_of(players, str(current)))
        out.append(f'<circle cx="{x0 + 6:.1f}" cy="{line + 10:.1f}" r="7" fill="{dot}"/>'
                   f'<text x="{x0 + 20:.1f}" y="{line + 15:.1f}" font-size="13" fill="#2d2416">'
                   f'{attr(current)} to play</text>')
    out.append("</svg>")
    return "".join(out)
