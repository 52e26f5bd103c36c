"""Server-drawn pictures (SVG): the score-over-time chart and the table as a diagram.

Pictures are built from the shared view only (``state.view(None)``), so nothing private can leak into
them. Every text that comes from data is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from vision.scene import SEAT_RGB

#: seat colour name -> RGB: the one definition (vision.scene, CONVENTIONS.md)
SEAT_COLOURS: Mapping[str, tuple[int, int, int]] = SEAT_RGB
NEUTRAL = (120, 120, 120)


def rgb(colour: str | None) -> str:
    r, g, b = SEAT_COLOURS.get(colour or "", NEUTRAL)
    return f"rgb({r},{g},{b})"


def attr(value: Any) -> str:
    return escape(str(value), {'"': "&quot;"})


def totals_of(scores: Any) -> dict[str, int]:
    """Player totals from either ``Outcome.to_dict()`` or a plain {player: total} mapping."""
    if not isinstance(scores, Mapping):
        return {}
    players = scores.get("players")
    if isinstance(players, Mapping):
        return {
            str(name): int(entry.get("total", 0))
            for name, entry in players.items()
            if isinstance(entry, Mapping) and isinstance(entry.get("total", 0), int | float)
        }
    return {
        str(k): int(v) for k, v in scores.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }


def colour_of(players: Sequence[Mapping[str, Any]], name: str) -> str:
    for player in players:
        if player.get("name") == name:
            return str(player.get("colour", ""))
    return name if name in SEAT_COLOURS else ""


def score_chart_svg(history: Sequence[Mapping[str, Any]], players: Sequence[Mapping[str, Any]],
                    width: int = 720, height: int = 280) -> str:
    """Each player's total after every committed event, one line per player in the seat colour."""
    names = [str(p.get("name")) for p in players if p.get("name") is not None]
    series: dict[str, list[tuple[int, int]]] = {name: [(0, 0)] for name in names}
    last: dict[str, int] = dict.fromkeys(names, 0)
    for index, event in enumerate(history, start=1):
        totals = totals_of(event.get("scores"))
        for name in names:
            if name in totals:
                last[name] = totals[name]
            series[name].append((index, last[name]))
    steps = max(1, len(history))
    top = max([1, *[v for points in series.values() for _, v in points]])
    top = _nice_ceiling(top)
    left, right, upper, lower = 44, 110, 16, 30
    plot_w, plot_h = width - left - right, height - upper - lower

    def x(step: int) -> float:
        return left + plot_w * step / steps

    def y(value: int) -> float:
        return upper + plot_h * (1 - value / top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" '
        f'role="img" aria-label="scores over time">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf7"/>',
    ]
    for tick in range(0, top + 1, max(1, top // 5)):
        ty = y(tick)
        out.append(f'<line x1="{left}" y1="{ty:.1f}" x2="{left + plot_w}" y2="{ty:.1f}" stroke="#e4dccb"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" font-size="11" text-anchor="end" '
                   f'fill="#6b5d45">{tick}</text>')
    out.append(f'<line x1="{left}" y1="{upper + plot_h}" x2="{left + plot_w}" y2="{upper + plot_h}" '
               'stroke="#6b5d45"/>')
    out.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 8}" font-size="11" text-anchor="middle" '
               f'fill="#6b5d45">committed moves ({len(history)})</text>')
    ranked = sorted(names, key=lambda n: -last[n])
    for rank, name in enumerate(ranked):
        colour = rgb(colour_of(players, name))
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in series[name])
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
                   f'stroke-linejoin="round" data-player="{attr(name)}"/>')
        end_x, end_y = x(series[name][-1][0]), y(series[name][-1][1])
        out.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="4" fill="{colour}"/>')
        ly = upper + 14 + rank * 18
        out.append(f'<rect x="{width - right + 12}" y="{ly - 9}" width="12" height="12" rx="2" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{width - right + 30}" y="{ly + 1}" font-size="12" fill="#2d2416">'
                   f'{attr(name)} {last[name]}</text>')
    out.append("</svg>")
    return "".join(out)


def _nice_ceiling(value: int) -> int:
    if value <= 5:
        return 5
    magnitude = 10 ** int(math.log10(value))
    for factor in (1, 2, 2.5, 5, 10):
        if value <= factor * magnitude:
            return int(factor * magnitude)
    return value


def board_svg(snapshot: Mapping[str, Any]) -> str:
    """The table as a diagram, from the shared view: the game's own drawing where there is one."""
    view = snapshot.get("view")
    players = snapshot.get("players") or []
    if isinstance(view, Mapping):
        drawer = BOARD_DRAWERS.get(str(snapshot.get("game", "")))
        if drawer is not None:
            try:
                picture: str = drawer(view, snapshot, players)
                return picture
            except (KeyError, TypeError, ValueError, IndexError):
                pass  # an unexpected view shape: fall back to the summary rather than fail the page
    return _summary_svg(snapshot)


def _summary_svg(snapshot: Mapping[str, Any]) -> str:
    title = attr(snapshot.get("title") or "No game")
    current = snapshot.get("current")
    line = "game over" if snapshot.get("over") else (f"{attr(current)} to play" if current else "")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 200" role="img">'
        '<rect width="480" height="200" rx="10" fill="#fbf6ea"/>'
        f'<text x="240" y="90" font-size="22" text-anchor="middle" fill="#2d2416">{title}</text>'
        f'<text x="240" y="124" font-size="15" text-anchor="middle" fill="#7a6a50">{line}</text></svg>'
    )


def _jurassik_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                  players: Sequence[Mapping[str, Any]]) -> str:
    """Jurassik's excavation zone: a grid of face-down tiles, free spaces and revealed rocks."""
    grid = view["grid"]
    rows, cols = len(grid), max(len(row) for row in grid)
    cell, pad = 44, 16
    width, height = cols * cell + 2 * pad, rows * cell + 2 * pad + 30
    last = snapshot.get("last_event") or {}
    last_action = last.get("action") if isinstance(last, Mapping) else None
    last_cell = _cell_of(last_action)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           'aria-label="excavation zone">',
           f'<rect width="{width}" height="{height}" rx="10" fill="#e9dcc0"/>']
    for r, row in enumerate(grid):
        for c, tile in enumerate(row):
            x, y = pad + c * cell, pad + r * cell
            if tile is None:
                fill, text = "#cdbb94", ""
            elif tile == "?":
                fill, text = "#8a6a43", ""
            elif str(tile).upper().startswith("ROCK"):
                fill, text = "#7d7d7d", "rock"
            else:
                fill, text = "#d8b878", str(tile)
            stroke = ' stroke="#c62828" stroke-width="3"' if last_cell == (r, c) else ' stroke="#5b4a2c"'
            out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" rx="5" '
                       f'fill="{fill}"{stroke}/>')
            if text:
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" font-size="10" '
                           f'text-anchor="middle" fill="#2d2416">{attr(text)}</text>')
    current = snapshot.get("current")
    if current:
        dot = rgb(colour_of(players, current))
        out.append(f'<circle cx="{pad + 8}" cy="{height - 16}" r="7" fill="{dot}"/>'
                   f'<text x="{pad + 22}" y="{height - 11}" font-size="13" fill="#2d2416">'
                   f'{attr(current)} to play</text>')
    out.append("</svg>")
    return "".join(out)


def _cell_of(action: Any) -> tuple[int, int] | None:
    if not isinstance(action, Mapping):
        return None
    row, col = action.get("row"), action.get("col")
    if isinstance(row, int) and isinstance(col, int):
        return row, col
    for key in ("cell", "position", "at"):
        value = action.get(key)
        if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
            return int(value[0]), int(value[1])
    return None


# -- Jurassic Parts: the hex slab, chisels, rocks, and a split with its cut line and shares ---------------
SQRT3 = math.sqrt(3.0)
FOSSIL_FILLS = {
    "BONES": "#d9cfb4", "PLANT": "#9cc97a", "PTERO": "#a9cdea", "BRACHIO": "#e6bb72", "TREX": "#e6977a",
    "TRICERA": "#cfaee0", "RAPTOR": "#f0d77a",
}
FACE_DOWN = "#7b5a3a"
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _hex_corner(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return cx + radius * math.cos(angle), cy - radius * math.sin(angle)


def _hex_points(cx: float, cy: float, radius: float) -> str:
    corners = (_hex_corner(cx, cy, radius, 30 + 60 * i) for i in range(6))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _cell(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return int(value[0]), int(value[1])
    return None


def _jurassic_parts_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                        players: Sequence[Mapping[str, Any]]) -> str:
    """The slab as the shared view has it. During a split the awarded part is lifted out in gold, the cut
    line is drawn in red along the cracked gaps, and each contributor's share is drawn as one diamond per
    tile in the seat colour, in rank order, with the Field Leader's leftover."""
    pitch = 58.0
    radius = pitch / SQRT3
    tiles = [t for t in view.get("slab", []) if t.get("where") in ("slab", "pool")]
    split = view.get("split") or {}
    pool = {c for c in (_cell(v) for v in split.get("pool", [])) if c}
    options = [[c for c in (_cell(v) for v in part) if c] for part in split.get("options", [])]
    on_slab = {c for c in (_cell(t.get("cell")) for t in tiles if t.get("where") == "slab") if c}

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        q, r = cell
        return pitch * (q + r / 2), pitch * (SQRT3 / 2) * r

    cells = [c for c in (_cell(t.get("cell")) for t in tiles) if c]
    xs = [centre(c)[0] for c in cells] or [0.0]
    ys = [centre(c)[1] for c in cells] or [0.0]
    margin = radius + 14
    min_x, min_y = min(xs) - margin, min(ys) - margin
    slab_w, slab_h = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    ranking = split.get("ranking") or []
    legend_w = 250 if (ranking or options) else 0
    seats = view.get("seats") or {}
    seat_h = 26 * len(seats) + 20
    width, height = slab_w + legend_w, max(slab_h, 200) + seat_h
    ox, oy = -min_x, -min_y

    def at(cell: tuple[int, int]) -> tuple[float, float]:
        x, y = centre(cell)
        return x + ox, y + oy

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
           'aria-label="the slab" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width:.0f}" height="{height:.0f}" rx="10" fill="#efe4c8"/>']
    option_fills = ("#fbe7a1", "#cfe3f6")
    option_of = {cell: i for i, part in enumerate(options[:2]) for cell in part}
    last = snapshot.get("last_event") or {}
    last_action = last.get("action") if isinstance(last, Mapping) else None
    last_cell = _cell(last_action.get("cell")) if isinstance(last_action, Mapping) else None
    for tile in tiles:
        cell = _cell(tile.get("cell"))
        if cell is None:
            continue
        cx, cy = at(cell)
        fossil = tile.get("fossil") if tile.get("face_up") else None
        fill = FOSSIL_FILLS.get(str(fossil).split("-")[0], "#e8dcc0") if fossil else FACE_DOWN
        stroke, width_px = "#5b4a2c", 1.5
        if cell in pool:
            stroke, width_px = "#d08c00", 4
            out.append(f'<polygon points="{_hex_points(cx, cy, radius * 1.02)}" fill="#ffd54f" '
                       'fill-opacity="0.55"/>')
        if cell in option_of:
            tint = option_fills[option_of[cell]]
            out.append(f'<polygon points="{_hex_points(cx, cy, radius)}" fill="{tint}"/>')
        awarded = ' data-awarded="1"' if cell in pool else ""
        out.append(f'<polygon points="{_hex_points(cx, cy, radius * 0.9)}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{width_px}" class="tile" data-cell="{cell[0]},{cell[1]}"{awarded}/>')
        rotation = int(tile.get("rotation", 0) or 0)
        rocks = tile.get("rocks") or []
        for k in range(6):
            if len(rocks) == 6 and rocks[(k - rotation) % 6]:
                x1, y1 = _hex_corner(cx, cy, radius * 0.9, 60 * k - 30)
                x2, y2 = _hex_corner(cx, cy, radius * 0.9, 60 * k + 30)
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
            out.append(f'<polygon points="{_hex_points(cx, cy, radius * 0.98)}" fill="none" stroke="#c62828" '
                       'stroke-width="3" stroke-dasharray="6 3"/>')
    # the cut line: every edge between the awarded part and the rest of the slab
    for cell in pool or set(options[0] if options else []):
        cx, cy = at(cell)
        for k, (dq, dr) in enumerate(DIRECTIONS):
            other = (cell[0] + dq, cell[1] + dr)
            if other in on_slab and other not in pool and (not options or other not in options[0]):
                x1, y1 = _hex_corner(cx, cy, radius, 60 * k - 30)
                x2, y2 = _hex_corner(cx, cy, radius, 60 * k + 30)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#d32f2f" '
                           'stroke-width="4" stroke-dasharray="7 4" class="cut"/>')
    colour_by_player = {str(p.get("name")): str(p.get("colour", "")) for p in players}
    for chisel in view.get("chisels", []):
        a, b = _cell(chisel.get("a")), _cell(chisel.get("b"))
        if a is None or b is None:
            continue
        (ax, ay), (bx, by) = at(a), at(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        player = str(chisel.get("player"))
        out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="7" fill="{rgb(colour_by_player.get(player))}" '
                   f'stroke="#fff" stroke-width="2" class="chisel"><title>{attr(player)}</title></circle>')
    if isinstance(last_action, Mapping) and _cell(last_action.get("a")) and _cell(last_action.get("b")):
        (ax, ay), (bx, by) = at(_cell(last_action["a"])), at(_cell(last_action["b"]))  # type: ignore[arg-type]
        out.append(f'<circle cx="{(ax + bx) / 2:.1f}" cy="{(ay + by) / 2:.1f}" r="12" fill="none" '
                   'stroke="#c62828" stroke-width="2.5"/>')
    for action in snapshot.get("legal") or []:
        if isinstance(action, Mapping) and _cell(action.get("a")) and _cell(action.get("b")):
            (ax, ay), (bx, by) = at(_cell(action["a"])), at(_cell(action["b"]))  # type: ignore[arg-type]
            out.append(f'<circle cx="{(ax + bx) / 2:.1f}" cy="{(ay + by) / 2:.1f}" r="5" fill="none" '
                       'stroke="#2e7d32" stroke-width="1.5" class="legal"/>')
    # the shares, in rank order
    x0 = slab_w + 6
    y = 30.0
    if ranking:
        out.append(f'<text x="{x0}" y="{y}" font-size="15" font-weight="bold" fill="#2d2416">Split: '
                   f'{len(pool)} tiles awarded</text>')
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
        taken = split.get("taken")
        leftover = (view.get("last_split") or {}).get("field_leader")
        if isinstance(leftover, int):
            out.append(f'<text x="{x0}" y="{y}" font-size="13" fill="#2d2416">Field Leader: '
                       f'{leftover}</text>')
            y += 18
        if isinstance(taken, int):
            out.append(f'<text x="{x0}" y="{y}" font-size="11" fill="#7a6a50">{taken} taken so far</text>')
    elif options:
        out.append(f'<text x="{x0}" y="{y}" font-size="15" font-weight="bold" fill="#2d2416">'
                   'Equal halves</text>')
        for i, half in enumerate(options[:2]):
            y += 24
            out.append(f'<rect x="{x0}" y="{y - 12}" width="16" height="16" fill="{option_fills[i]}" '
                       f'stroke="#5b4a2c"/><text x="{x0 + 22}" y="{y}" font-size="13" fill="#2d2416">part '
                       f'{"AB"[i]}: {len(half)} tiles</text>')
        out.append(f'<text x="{x0}" y="{y + 24}" font-size="11" fill="#7a6a50">the active player picks '
                   'which part is awarded</text>')
    # the players: chisels, amber, tiles (concealed ones only as a count)
    y = max(slab_h, 200) + 8
    current = snapshot.get("current")
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
    out.append("</svg>")
    return "".join(out)


def _jurassic_brunch_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                         players: Sequence[Mapping[str, Any]]) -> str:
    """The pasture: four 3x3 boards, face-down grass tokens, triceratops in their owners' colours (a "z"
    when asleep), the raptor, and the cell of the last move ringed."""
    cell, pad = 56, 18
    centres = [c for c in (_cell(b.get("centre")) for b in view["area"]["boards"]) if c]
    cells = {(x + dx, y + dy) for x, y in centres for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    min_x, min_y = min(x for x, _ in cells), min(y for _, y in cells)
    max_x, max_y = max(x for x, _ in cells), max(y for _, y in cells)
    width = (max_x - min_x + 1) * cell + 2 * pad
    height = (max_y - min_y + 1) * cell + 2 * pad + 34

    def at(c: tuple[int, int]) -> tuple[float, float]:
        return pad + (c[0] - min_x) * cell, pad + (c[1] - min_y) * cell

    colour_by_player = {str(p.get("name")): str(p.get("colour", "")) for p in players}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           'aria-label="the pasture" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width}" height="{height}" rx="10" fill="#e6efd2"/>']
    for square in sorted(cells):
        x, y = at(square)
        out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="#b9d48f" '
                   'stroke="#8aa865"/>')
    for cx, cy in centres:
        x, y = at((cx - 1, cy - 1))
        out.append(f'<rect x="{x}" y="{y}" width="{3 * cell}" height="{3 * cell}" fill="none" '
                   'stroke="#4d6b2f" stroke-width="3" rx="4"/>')
    for grass in (_cell(g) for g in view.get("grass", [])):
        if grass:
            x, y = at(grass)
            out.append(f'<rect x="{x + 12}" y="{y + 12}" width="{cell - 24}" height="{cell - 24}" rx="6" '
                       'fill="#6f9a3e" stroke="#3f5f20" class="grass"/>')
    for dino in view.get("triceratops", []):
        where = _cell(dino.get("at"))
        if where is None:
            continue
        x, y = at(where)
        fill = rgb(colour_by_player.get(str(dino.get("owner")), str(dino.get("owner"))))
        out.append(f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="{cell * 0.32:.1f}" fill="{fill}" '
                   'stroke="#fff" stroke-width="2"/>')
        if dino.get("asleep"):
            out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 5}" font-size="15" text-anchor="middle" '
                       'fill="#fff">z</text>')
    raptor = view.get("raptor")
    raptor_at = _cell(raptor.get("at") if isinstance(raptor, Mapping) else raptor)
    if raptor_at:
        x, y = at(raptor_at)
        corners = f"{x + cell / 2},{y + 8} {x + cell - 8},{y + cell - 8} {x + 8},{y + cell - 8}"
        out.append(f'<polygon points="{corners}" fill="#3b2f2f" stroke="#fff" stroke-width="2" '
                   'class="raptor"/>')
    last = snapshot.get("last_event") or {}
    action = last.get("action") if isinstance(last, Mapping) else None
    if isinstance(action, Mapping):
        for key in ("to", "at", "cell"):
            moved = _cell(action.get(key))
            if moved:
                x, y = at(moved)
                out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" '
                           'fill="none" stroke="#c62828" stroke-width="3" stroke-dasharray="6 3"/>')
                break
    current = snapshot.get("current")
    holdings = view.get("holdings") or {}
    line = " · ".join(
        f"{attr(name)}: {h.get('tokens', 0)} tokens" for name, h in holdings.items() if isinstance(h, Mapping)
    )
    if current:
        line = f"{attr(current)} to play · {line}"
    out.append(f'<text x="{pad}" y="{height - 12}" font-size="13" fill="#2d2416">{line}</text>')
    out.append("</svg>")
    return "".join(out)


LANDSCAPE_FILL = {"park": "#7fbf5a", "mountain": "#9a8f84", "forest": "#2f7a3a", "plain": "#e3cf7c",
                  "lake": "#6fa8dc"}
VOLCANO_FILL = "#5e4b43"
#: flat-top hex edge towards each direction, as the pair of corner indices (corner k at 60*k degrees, y down)
_EDGE_CORNERS = {"SE": (0, 1), "S": (1, 2), "SW": (2, 3), "NW": (3, 4), "N": (4, 5), "NE": (5, 0)}


def _isla_nublar_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                     players: Sequence[Mapping[str, Any]]) -> str:
    """Isla Nublar's island from the shared view: fields by landscape, rivers, area borders with their camp
    points, volcanoes, dinosaur figures, camp stacks, equipment boxes and the open scoring row."""
    from engines.core import get_game
    from engines.isla_nublar.board import board_from_dict, default_board

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
        cards = get_game("isla-nublar").cards.cards  # type: ignore[attr-defined]
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


BOARD_DRAWERS: dict[str, Any] = {
    "jurassik": _jurassik_svg,
    "jurassic-parts": _jurassic_parts_svg,
    "jurassic-brunch": _jurassic_brunch_svg,
    "isla-nublar": _isla_nublar_svg,
}
