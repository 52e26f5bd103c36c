"""The Jurassic Parts diagram: the hex slab, chisels, rocks, and a split with its cut line and shares."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.web.svg import attr, cell_of_value, hex_corner, hex_points, rgb
from engines.jurassic_parts.board import DIRECTIONS

# -- Jurassic Parts: the hex slab, chisels, rocks, and a split with its cut line and shares ---------------
SQRT3 = math.sqrt(3.0)
FOSSIL_FILLS = {
    "BONES": "#d9cfb4", "PLANT": "#9cc97a", "PTERO": "#a9cdea", "BRACHIO": "#e6bb72", "TREX": "#e6977a",
    "TRICERA": "#cfaee0", "RAPTOR": "#f0d77a",
}
FACE_DOWN = "#7b5a3a"


class _Slab:
    """Where the shared view's slab is drawn: hex centres in picture pixels, and what the split marks."""

    pitch = 58.0

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.radius = self.pitch / SQRT3
        self.tiles = [t for t in view.get("slab", []) if t.get("where") in ("slab", "pool")]
        split = view.get("split") or {}
        self.split = split
        self.pool = {c for c in (cell_of_value(v) for v in split.get("pool", [])) if c}
        parts = split.get("options", [])
        self.options = [[c for c in (cell_of_value(v) for v in part) if c] for part in parts]
        self.on_slab = {
            c for c in (cell_of_value(t.get("cell")) for t in self.tiles if t.get("where") == "slab") if c
        }
        cells = [c for c in (cell_of_value(t.get("cell")) for t in self.tiles) if c]
        xs = [self.centre(c)[0] for c in cells] or [0.0]
        ys = [self.centre(c)[1] for c in cells] or [0.0]
        margin = self.radius + 14
        self.origin = (margin - min(xs), margin - min(ys))
        self.width = max(xs) - min(xs) + 2 * margin
        self.height = max(ys) - min(ys) + 2 * margin

    def centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        q, r = cell
        return self.pitch * (q + r / 2), self.pitch * (SQRT3 / 2) * r

    def at(self, cell: tuple[int, int]) -> tuple[float, float]:
        x, y = self.centre(cell)
        return x + self.origin[0], y + self.origin[1]

    def gap_middle(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.at(a), self.at(b)
        return (ax + bx) / 2, (ay + by) / 2


OPTION_FILLS = ("#fbe7a1", "#cfe3f6")


def _tile(slab: _Slab, tile: Mapping[str, Any], last_cell: tuple[int, int] | None) -> list[str]:
    cell = cell_of_value(tile.get("cell"))
    if cell is None:
        return []
    radius = slab.radius
    cx, cy = slab.at(cell)
    out: list[str] = []
    fossil = tile.get("fossil") if tile.get("face_up") else None
    fill = FOSSIL_FILLS.get(str(fossil).split("-")[0], "#e8dcc0") if fossil else FACE_DOWN
    stroke, width_px = "#5b4a2c", 1.5
    if cell in slab.pool:
        stroke, width_px = "#d08c00", 4
        out.append(f'<polygon points="{hex_points(cx, cy, radius * 1.02)}" fill="#ffd54f" '
                   'fill-opacity="0.55"/>')
    option_of = {c: i for i, part in enumerate(slab.options[:2]) for c in part}
    if cell in option_of:
        out.append(f'<polygon points="{hex_points(cx, cy, radius)}" fill="{OPTION_FILLS[option_of[cell]]}"/>')
    awarded = ' data-awarded="1"' if cell in slab.pool else ""
    out.append(f'<polygon points="{hex_points(cx, cy, radius * 0.9)}" fill="{fill}" stroke="{stroke}" '
               f'stroke-width="{width_px}" class="tile" data-cell="{cell[0]},{cell[1]}"{awarded}/>')
    rotation = int(tile.get("rotation", 0) or 0)
    rocks = tile.get("rocks") or []
    for k in range(6):
        if len(rocks) == 6 and rocks[(k - rotation) % 6]:
            x1, y1 = hex_corner(cx, cy, radius * 0.9, 60 * k - 30)
            x2, y2 = hex_corner(cx, cy, radius * 0.9, 60 * k + 30)
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#6b6b6b" '
                       'stroke-width="5" stroke-linecap="round"/>')
    if fossil:
        species, _, part = str(fossil).partition("-")
        out.append(f'<text x="{cx:.1f}" y="{cy + (0 if part else 4):.1f}" font-size="9.5" '
                   f'text-anchor="middle" fill="#2d2416">{attr(species)}</text>')
        if part:
            out.append(f'<text x="{cx:.1f}" y="{cy + 13:.1f}" font-size="11" font-weight="bold" '
                       f'text-anchor="middle" fill="#2d2416">{attr(part)}</text>')
    else:
        out.append(f'<text x="{cx:.1f}" y="{cy + 6:.1f}" font-size="16" text-anchor="middle" '
                   'fill="#f3e6cc">?</text>')
    if cell == last_cell:
        out.append(f'<polygon points="{hex_points(cx, cy, radius * 0.98)}" fill="none" stroke="#c62828" '
                   'stroke-width="3" stroke-dasharray="6 3"/>')
    return out


def _cut_line(slab: _Slab) -> list[str]:
    """Every edge between the awarded part (or the first of two equal halves) and the rest of the slab."""
    out = []
    options = slab.options
    for cell in slab.pool or set(options[0] if options else []):
        cx, cy = slab.at(cell)
        for k, (dq, dr) in enumerate(DIRECTIONS):
            other = (cell[0] + dq, cell[1] + dr)
            if other in slab.on_slab and other not in slab.pool and (not options or other not in options[0]):
                x1, y1 = hex_corner(cx, cy, slab.radius, 60 * k - 30)
                x2, y2 = hex_corner(cx, cy, slab.radius, 60 * k + 30)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#d32f2f" '
                           'stroke-width="4" stroke-dasharray="7 4" class="cut"/>')
    return out


def _chisels(slab: _Slab, view: Mapping[str, Any], snapshot: Mapping[str, Any],
             colour_by_player: Mapping[str, str], last_action: Any) -> list[str]:
    """The chisels on their gaps, the last one placed ringed, the legal placements marked."""
    out = []
    for chisel in view.get("chisels", []):
        a, b = cell_of_value(chisel.get("a")), cell_of_value(chisel.get("b"))
        if a is None or b is None:
            continue
        mx, my = slab.gap_middle(a, b)
        player = str(chisel.get("player"))
        out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="7" fill="{rgb(colour_by_player.get(player))}" '
                   f'stroke="#fff" stroke-width="2" class="chisel"><title>{attr(player)}</title></circle>')
    last_a = cell_of_value(last_action.get("a")) if isinstance(last_action, Mapping) else None
    last_b = cell_of_value(last_action.get("b")) if isinstance(last_action, Mapping) else None
    if last_a is not None and last_b is not None:
        mx, my = slab.gap_middle(last_a, last_b)
        out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="12" fill="none" stroke="#c62828" '
                   'stroke-width="2.5"/>')
    for action in snapshot.get("legal") or []:
        a = cell_of_value(action.get("a")) if isinstance(action, Mapping) else None
        b = cell_of_value(action.get("b")) if isinstance(action, Mapping) else None
        if a is not None and b is not None:
            mx, my = slab.gap_middle(a, b)
            out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="5" fill="none" stroke="#2e7d32" '
                       'stroke-width="1.5" class="legal"/>')
    return out


def _shares(slab: _Slab, view: Mapping[str, Any], colour_by_player: Mapping[str, str]) -> list[str]:
    """The split's shares in rank order beside the slab (or the two equal halves to choose from)."""
    out: list[str] = []
    x0, y = slab.width + 6, 30.0
    ranking = slab.split.get("ranking") or []
    if ranking:
        out.append(f'<text x="{x0}" y="{y}" font-size="15" font-weight="bold" fill="#2d2416">Split: '
                   f'{len(slab.pool)} tiles awarded</text>')
        y += 24
        for rank, entry in enumerate(ranking, start=1):
            player = str(entry.get("player"))
            takes = int(entry.get("takes", 0))
            chisels = int(entry.get("chisels", 0))
            fill = rgb(colour_by_player.get(player))
            out.append(f'<circle cx="{x0 + 8}" cy="{y - 4}" r="7" fill="{fill}"/>'
                       f'<text x="{x0 + 22}" y="{y}" font-size="13" fill="#2d2416" class="share">{rank}. '
                       f'{attr(player)}: {takes} tile{"s" if takes != 1 else ""}</text>')
            y += 16
            out.append(f'<text x="{x0 + 22}" y="{y}" font-size="11" fill="#7a6a50">{chisels} chisel'
                       f'{"s" if chisels != 1 else ""} on the cut</text>')
            for i in range(takes):
                px, py = x0 + 28 + i * 16, y + 12
                out.append(f'<polygon points="{px},{py - 6} {px + 6},{py} {px},{py + 6} {px - 6},{py}" '
                           f'fill="{fill}" stroke="#5b4a2c" stroke-width="0.8"/>')
            y += 30
        taken = slab.split.get("taken")
        leftover = (view.get("last_split") or {}).get("field_leader")
        if isinstance(leftover, int):
            out.append(f'<text x="{x0}" y="{y}" font-size="13" fill="#2d2416">Field Leader: '
                       f'{leftover}</text>')
            y += 18
        if isinstance(taken, int):
            out.append(f'<text x="{x0}" y="{y}" font-size="11" fill="#7a6a50">{taken} taken so far</text>')
    elif slab.options:
        out.append(f'<text x="{x0}" y="{y}" font-size="15" font-weight="bold" fill="#2d2416">'
                   'Equal halves</text>')
        for i, half in enumerate(slab.options[:2]):
            y += 24
            out.append(f'<rect x="{x0}" y="{y - 12}" width="16" height="16" fill="{OPTION_FILLS[i]}" '
                       f'stroke="#5b4a2c"/><text x="{x0 + 22}" y="{y}" font-size="13" fill="#2d2416">part '
                       f'{"AB"[i]}: {len(half)} tiles</text>')
        out.append(f'<text x="{x0}" y="{y + 24}" font-size="11" fill="#7a6a50">the active player picks '
                   'which part is awarded</text>')
    return out


def _seats(
    seats: Mapping[str, Any], top: float, current: Any, colour_by_player: Mapping[str, str]
) -> list[str]:
    """The players: chisels, amber, tiles (concealed ones only as a count)."""
    out = []
    y = top
    for name, seat in seats.items():
        if not isinstance(seat, Mapping):
            continue
        fill = rgb(colour_by_player.get(str(name)))
        weight = ' font-weight="bold"' if name == current else ""
        shown = ", ".join(f"{k} {v}" for k, v in (seat.get("loose") or {}).items())
        complete = ", ".join(str(k) for k in (seat.get("complete") or {}))
        text = (f'{attr(name)}: chisels {seat.get("sharp", 0)} sharp, {seat.get("dull", 0)} dull, '
                f'{seat.get("on_slab", 0)} on the slab · amber {seat.get("amber", 0)} · '
                f'{seat.get("concealed", 0)} concealed{"; " + attr(shown) if shown else ""}'
                f'{"; complete: " + attr(complete) if complete else ""}')
        out.append(f'<circle cx="16" cy="{y + 8}" r="7" fill="{fill}"/>'
                   f'<text x="30" y="{y + 12}" font-size="12" fill="#2d2416"{weight}>{text}</text>')
        y += 26
    return out


def slab_svg(
    view: Mapping[str, Any], snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]]
) -> str:
    """The slab as the shared view has it. During a split the awarded part is lifted out in gold, the cut
    line is drawn in red along the cracked gaps, and each contributor's share is drawn as one diamond per
    tile in the seat colour, in rank order, with the Field Leader's leftover."""
    slab = _Slab(view)
    legend_w = 250 if (slab.split.get("ranking") or slab.options) else 0
    seats = view.get("seats") or {}
    width, height = slab.width + legend_w, max(slab.height, 200) + 26 * len(seats) + 20
    colour_by_player = {str(p.get("name")): str(p.get("colour", "")) for p in players}
    last = snapshot.get("last_event") or {}
    last_action = last.get("action") if isinstance(last, Mapping) else None
    last_cell = cell_of_value(last_action.get("cell")) if isinstance(last_action, Mapping) else None
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
           'aria-label="the slab" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" rx="10" fill="#efe4c8"/>']
    for tile in slab.tiles:
        out += _tile(slab, tile, last_cell)
    out += _cut_line(slab)
    out += _chisels(slab, view, snapshot, colour_by_player, last_action)
    out += _shares(slab, view, colour_by_player)
    out += _seats(seats, max(slab.height, 200) + 8, snapshot.get("current"), colour_by_player)
    out.append("</svg>")
    return "".join(out)
