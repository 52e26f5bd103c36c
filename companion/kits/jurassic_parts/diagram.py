"""The Jurassic Parts diagram: the hex slab, chisels, rocks, and a split with its cut line and shares. Rows
are numbered on the left and tiles within their row as the page's words count them ("row 5, tile 4": tiles
counted from the left of their row, the empty places of tiles already taken too, drawn as outlines); each
fossil is a short name the legend spells out, at sizes that stay 12 px or more on a phone."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.drawing import DiagramSpots, Spot, attr, cell_of_value, hex_corner, hex_points, marked, rgb
from companion.i18n import gettext, npgettext, pgettext
from companion.kits.jurassic_parts.words import fossil_words, species_words
from engines.jurassic_parts.board import DIRECTIONS

# -- Jurassic Parts: the hex slab, chisels, rocks, and a split with its cut line and shares ---------------
SQRT3 = math.sqrt(3.0)
FOSSIL_FILLS = {
    "BONES": "#d9cfb4", "PLANT": "#9cc97a", "PTERO": "#a9cdea", "BRACHIO": "#e6bb72", "TREX": "#e6977a",
    "TRICERA": "#cfaee0", "RAPTOR": "#f0d77a",
}
FACE_DOWN = "#7b5a3a"
#: a fossil's short name on its tile (the legend spells each out)
SHORT = {"BRACHIO": "Bra", "TREX": "Rex", "TRICERA": "Tri", "RAPTOR": "Vel", "PTERO": "Pte", "PLANT": "Pla",
         "BONES": "Bon"}
TILE_TEXT = 21  # the slab is drawn about 590 wide and shown about 340 px wide on a phone: 12 px
ROW_GUTTER = 30.0


class _Slab:
    """Where the shared view's slab is drawn: hex centres in picture pixels, and what the split marks."""

    pitch = 58.0

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.radius = self.pitch / SQRT3
        every = [t for t in view.get("slab", []) if cell_of_value(t.get("cell"))]
        self.tiles = [t for t in every if t.get("where") in ("slab", "pool")]
        self.taken = [c for c in (cell_of_value(t.get("cell")) for t in every
                                  if t.get("where") not in ("slab", "pool")) if c]
        self.rows = sorted({c[1] for c in (cell_of_value(t.get("cell")) for t in every) if c})
        cells_now = [c for c in (cell_of_value(t.get("cell")) for t in every) if c]
        self.row_starts = {r: min(c for c in cells_now if c[1] == r) for r in self.rows}
        #: each place's number within its row, counted as the words count it (every place the slab began with)
        self.numbers = {c: n for r in self.rows
                        for n, c in enumerate(sorted(c for c in cells_now if c[1] == r), start=1)}
        split = view.get("split") or {}
        self.split = split
        self.pool = {c for c in (cell_of_value(v) for v in split.get("pool", [])) if c}
        parts = split.get("options", [])
        self.options = [[c for c in (cell_of_value(v) for v in part) if c] for part in parts]
        self.on_slab = {
            c for c in (cell_of_value(t.get("cell")) for t in self.tiles if t.get("where") == "slab") if c
        }
        cells = [c for c in (cell_of_value(t.get("cell")) for t in every) if c]
        xs = [self.centre(c)[0] for c in cells] or [0.0]
        ys = [self.centre(c)[1] for c in cells] or [0.0]
        margin = self.radius + 14
        self.origin = (margin + ROW_GUTTER - min(xs), margin - min(ys))
        self.width = max(xs) - min(xs) + 2 * margin + ROW_GUTTER
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


@dataclass(frozen=True)
class Marks:
    """The tiles and the gaps (two cells each) the page's list names: ringed in the picture."""

    tiles: frozenset[tuple[int, int]] = frozenset()
    gaps: frozenset[tuple[tuple[int, int], tuple[int, int]]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.tiles or self.gaps)


def _rings(slab: _Slab, marks: Marks) -> list[str]:
    out = [f'<polygon points="{hex_points(*slab.at(cell), slab.radius * 0.98)}" {marked(4, "7 4")}/>'
           for cell in sorted(marks.tiles)]
    for a, b in sorted(marks.gaps):
        mx, my = slab.gap_middle(a, b)
        out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="14" {marked()}/>')
    return out


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
    # the fossil above (its part in bold), the tile's number within its row below, as the words count it
    if fossil:
        species, _, part = str(fossil).partition("-")
        short = SHORT.get(species, species[:3].title())
        bold = f'<tspan font-weight="bold">{attr(part)}</tspan>' if part else ""
        out.append(f'<text x="{cx:.1f}" y="{cy - 2:.1f}" font-size="{TILE_TEXT}" text-anchor="middle" '
                   f'fill="#2d2416">{attr(short)}{bold}</text>')
    else:
        out.append(f'<text x="{cx:.1f}" y="{cy - 2:.1f}" font-size="{TILE_TEXT}" text-anchor="middle" '
                   'fill="#f3e6cc">?</text>')
    number = slab.numbers.get(cell, "")
    ink = "#f3e6cc" if fossil is None else "#6b5a3c"
    out.append(f'<text x="{cx:.1f}" y="{cy + 20:.1f}" font-size="{TILE_TEXT}" text-anchor="middle" '
               f'fill="{ink}" class="tile-number">{number}</text>')
    if cell == last_cell:
        out.append(f'<polygon points="{hex_points(cx, cy, radius * 0.98)}" fill="none" stroke="#c62828" '
                   'stroke-width="3" stroke-dasharray="6 3"/>')
    return out


def _rows_and_places(slab: _Slab) -> list[str]:
    """Row numbers left of each row, and an outline where each taken tile lay (it still counts)."""
    out = []
    for cell in slab.taken:
        cx, cy = slab.at(cell)
        out.append(f'<polygon points="{hex_points(cx, cy, slab.radius * 0.9)}" fill="none" stroke="#b9a47c" '
                   'stroke-width="1.5" stroke-dasharray="4 3" class="taken"/>')
    for number, row in enumerate(slab.rows, start=1):
        cx, cy = slab.at(slab.row_starts[row])
        out.append(f'<text x="{cx - slab.radius - 8:.1f}" y="{cy + 7:.1f}" font-size="{TILE_TEXT}" '
                   f'text-anchor="end" fill="#7a6a50" class="row-number">{number}</text>')
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


#: the smallest picture width, and the legend's type: drawn under the slab at sizes that stay 12 px or more
#: when the picture is scaled down to a phone's width
MIN_WIDTH, BIG, SMALL, LINE = 560.0, 24, 22, 32.0


#: a legend line: the player whose swatch leads it ("" to indent, None for none), its text, font size,
#: bold, and how many share diamonds follow it in the player's colour
Line = tuple[str | None, str, int, bool, int]


def _wrap(text: str, width: float, size: int) -> list[str]:
    """Lines of ``text`` that fit ``width`` at font ``size`` (DejaVu Sans: about 0.56 em per character)."""
    most = max(16, int(width / (size * 0.56)))
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _legend_lines(slab: _Slab, view: Mapping[str, Any], seats: Mapping[str, Any], current: Any,
                  width: float) -> list[Line]:
    """The legend under the slab as (player or None, text, size, bold) lines: the split's shares in rank
    order (or the equal halves to choose from), then each player's chisels, amber and tiles."""
    lines: list[Line] = []
    pips: dict[int, str] = {}  # a diamonds line -> whose colour
    ranking = slab.split.get("ranking") or []
    if ranking:
        awarded = len(slab.pool)
        heading = npgettext("jurassic-parts", "Split: %(num)d tile awarded (gold), the cut dashed red",
                            "Split: %(num)d tiles awarded (gold), the cut dashed red", awarded) % {
            "num": awarded}
        lines += [(None, line, BIG, True, 0) for line in _wrap(heading, width - 24, BIG)]
        for rank, entry in enumerate(ranking, start=1):
            takes, chisels = int(entry.get("takes", 0)), int(entry.get("chisels", 0))
            takes_words = npgettext("jurassic-parts", "takes %(num)d tile", "takes %(num)d tiles", takes) % {
                "num": takes}
            on_cut = npgettext("jurassic-parts", "%(num)d chisel on the cut", "%(num)d chisels on the cut",
                               chisels) % {"num": chisels}
            text = f"{rank}. {entry.get('player')} {takes_words} ({on_cut})"
            wrapped = _wrap(text, width - 40, SMALL)
            lines += [(str(entry.get("player")) if i == 0 else "", line, SMALL, False, 0)
                      for i, line in enumerate(wrapped)]
            if takes:
                lines.append(("", "", SMALL, False, takes))
                pips[len(lines) - 1] = str(entry.get("player"))
        leftover = (view.get("last_split") or {}).get("field_leader")
        if isinstance(leftover, int):
            lines.append((None, pgettext("jurassic-parts", "Field Leader: %(tiles)s") % {"tiles": leftover},
                          SMALL, False, 0))
    elif slab.options:
        halves = pgettext("jurassic-parts", "Equal halves: the player to act picks part A or B")
        lines += [(None, line, BIG, True, 0) for line in _wrap(halves, width - 24, BIG)]
        for i, half in enumerate(slab.options[:2]):
            part = npgettext("jurassic-parts", "part %(part)s: %(num)d tile", "part %(part)s: %(num)d tiles",
                             len(half)) % {"part": "AB"[i], "num": len(half)}
            lines.append((None, part, SMALL, False, 0))
    if not slab.tiles:
        empty = pgettext("jurassic-parts", "The slab is empty: every tile has been taken")
        lines += [(None, line, BIG, True, 0) for line in _wrap(empty, width - 24, BIG)]
    if slab.tiles:
        shown = sorted({str(t.get("fossil")).split("-")[0] for t in slab.tiles if t.get("face_up")})
        # each short name beside its meaning on one line (a no-break space between them)
        names = " · ".join(f"{SHORT.get(k, k[:3].title())}\u00a0{species_words(k) or k.title()}"
                           for k in shown)
        numbered = pgettext("jurassic-parts", "Rows numbered on the left, tiles within each row from the "
                            "left; %(names)s") % {"names": names}
        for line in _wrap(numbered, width - 24, SMALL):
            lines.append((None, line, SMALL, False, 0))
    for name, seat in seats.items():
        if isinstance(seat, Mapping):
            lines += [(str(name) if index == 0 else "", line, SMALL, name == current and index == 0, 0)
                      for index, line in enumerate(_wrap(_holding_words(name, seat), width - 40, SMALL))]
    return [(pips.get(i, player), text, size, bold, count) for i, (player, text, size, bold, count)
            in enumerate(lines)]


def _holding_words(name: str, seat: Mapping[str, Any]) -> str:
    """A player's chisels, amber and tiles: "red: 3 sharp chisels, 9 dull, none on the slab · 2 amber ·
    2 tiles face down · Pterodactyl ×1 · complete: T-Rex"."""
    loose = [f"{fossil_words(str(k)) or k} ×{v}" for k, v in (seat.get("loose") or {}).items()]
    complete = ", ".join(fossil_words(str(k)) or str(k) for k in (seat.get("complete") or {}))
    concealed = int(seat.get("concealed", 0) or 0)
    parts = [pgettext("jurassic-parts", "%(player)s: chisels %(sharp)s sharp, %(dull)s dull, %(on_slab)s on "
                      "the slab") % {"player": name, "sharp": seat.get("sharp", 0),
                                     "dull": seat.get("dull", 0),
                                     "on_slab": seat.get("on_slab", 0)},
             pgettext("jurassic-parts", "%(amber)s amber") % {"amber": seat.get("amber", 0)},
             npgettext("jurassic-parts", "%(num)d tile face down", "%(num)d tiles face down", concealed)
             % {"num": concealed}, *loose]
    if complete:
        parts.append(pgettext("jurassic-parts", "complete: %(fossils)s") % {"fossils": complete})
    return " · ".join(parts)




def _legend(lines: Sequence[Line], top: float,
            colour_by_player: Mapping[str, str]) -> list[str]:
    out, y = [], top
    for player, text, size, bold, count in lines:
        if count:
            fill = rgb(colour_by_player.get(player or ""))
            for i in range(count):
                px, py = 44 + i * 22, y - size * 0.35
                out.append(f'<polygon points="{px},{py - 8} {px + 8},{py} {px},{py + 8} {px - 8},{py}" '
                           f'fill="{fill}" stroke="#5b4a2c" stroke-width="0.8" class="share-pip"/>')
            y += LINE
            continue
        if player:
            out.append(f'<circle cx="20" cy="{y - size * 0.35:.1f}" r="9" '
                       f'fill="{rgb(colour_by_player.get(player))}"/>')
        weight = ' font-weight="bold"' if bold else ""
        x = 36 if player is not None else 12
        out.append(f'<text x="{x}" y="{y:.1f}" font-size="{size}" fill="#2d2416"{weight} class="legend">'
                   f'{attr(text)}</text>')
        y += LINE
    return out


def _picture(view: Mapping[str, Any], snapshot: Mapping[str, Any],
             marks: Marks) -> tuple[_Slab, float, float, list[Line]]:
    """The slab centred in the picture, the picture's width and height, and the legend's lines."""
    slab = _Slab(view)
    width = max(slab.width, MIN_WIDTH)
    slab.origin = (slab.origin[0] + (width - slab.width) / 2, slab.origin[1])  # centred
    lines = _legend_lines(slab, view, view.get("seats") or {}, snapshot.get("current"), width)
    if marks:
        lines.insert(0, (None, gettext("Ringed orange: the places the list above names"), SMALL, False, 0))
    slab_height = slab.height if slab.tiles else 40.0
    return slab, width, slab_height + 20 + LINE * len(lines) + 10, lines


#: how far from a gap's middle (a tile's centre) a tap on the picture makes the move there: less than half
#: the distance between two neighbouring places, so no tap is ever two moves
GAP_TAP, TILE_TAP = 13.0, 15.0
#: the moves a tap on a tile makes (one each per tile)
TILE_TAPS = frozenset({"take-tile", "keep-tile", "award-part"})


def slab_spots(view: Mapping[str, Any], snapshot: Mapping[str, Any], marks: Marks = Marks()) -> DiagramSpots:
    """The places on the slab's picture a tap makes a legal move at: each gap a chisel may be placed in or
    picked up from; a tile's place only when no chisel move is legal and its move is a split's tile taken,
    kept or awarded (never a purchase)."""
    slab, width, height, _ = _picture(view, snapshot, marks)
    legal = [a for a in snapshot.get("legal") or [] if isinstance(a, Mapping)]
    gaps = [(a, cell_of_value(a.get("a")), cell_of_value(a.get("b"))) for a in legal]
    spots = [Spot(*slab.gap_middle(one, two), GAP_TAP, action) for action, one, two in gaps
             if one is not None and two is not None]
    if not spots:  # a split's tile to take, keep or award (a purchase is never one tap away)
        cells = [(a, cell_of_value(a.get("cell"))) for a in legal if a.get("kind") in TILE_TAPS]
        spots = [Spot(*slab.at(cell), TILE_TAP, action) for action, cell in cells if cell is not None]
    return DiagramSpots(float(round(width)), float(round(height)), tuple(spots))  # as the viewBox says


def slab_svg(
    view: Mapping[str, Any], snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
    marks: Marks = Marks(),
) -> str:
    """The slab as the shared view has it. During a split the awarded part is lifted out in gold, the cut
    line is drawn in red along the cracked gaps, and the shares are listed in rank order under the slab,
    with the Field Leader's leftover; then every player's chisels, amber and tiles (the final holdings
    once the game is over)."""
    slab, width, height, lines = _picture(view, snapshot, marks)
    slab_height = slab.height if slab.tiles else 40.0
    colour_by_player = {str(p.get("name")): str(p.get("colour", "")) for p in players}
    last = snapshot.get("last_event") or {}
    last_action = last.get("action") if isinstance(last, Mapping) else None
    last_cell = cell_of_value(last_action.get("cell")) if isinstance(last_action, Mapping) else None
    label = attr(pgettext("jurassic-parts", "the slab"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
           f'aria-label="{label}" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" rx="10" fill="#efe4c8"/>']
    out += _rows_and_places(slab)
    for tile in slab.tiles:
        out += _tile(slab, tile, last_cell)
    out += _cut_line(slab)
    out += _chisels(slab, view, snapshot, colour_by_player, last_action)
    out += _rings(slab, marks)
    out += _legend(lines, slab_height + 20 + LINE * 0.6, colour_by_player)
    out.append("</svg>")
    return "".join(out)
