"""The Jurassik diagram: the excavation zone as the shared view has it, rows and columns numbered from 1
as players count them, the tiles the player to act may take ringed in green, and every player's
collected dinosaur parts (open in Jurassik) below: the final holdings once the game is over. A dinosaur
tile shows its dinosaur's number and its piece as dots (the words the page uses: "dinosaur 7, piece 2");
the places the set-up list or an objection names are ringed in orange."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set
from typing import Any

from companion.drawing import attr, colour_of, marked, rgb
from companion.i18n import gettext, pgettext
from companion.kits.jurassik.words import piece_of

CELL, PAD, LABEL = 44, 12, 18
MIN_WIDTH = 350  # the legend's lines fit on a phone however small the grid


def _font(width: float) -> int:
    """The words' size: at least 12 px once the picture is shrunk to a phone's width (about 350 px)."""
    return max(13, math.ceil(12.2 * width / MIN_WIDTH))


def excavation_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                  players: Sequence[Mapping[str, Any]], ringed: Set[tuple[int, int]] = frozenset()) -> str:
    grid = view["grid"]
    rows, cols = len(grid), max(len(row) for row in grid)
    width = max(PAD + LABEL + cols * CELL + PAD, MIN_WIDTH)
    left, top = (width - cols * CELL - PAD + LABEL) / 2, PAD + LABEL
    font = _font(width)
    holdings = _holdings(view, players, width, font)
    legend = _legend(grid, ringed)
    line = font + 9
    height = top + rows * CELL + 12 + line * (len(holdings) + len(legend)) + 4 * line
    last = snapshot.get("last_event") or {}
    last_cell = _cell_of(last.get("action") if isinstance(last, Mapping) else None)
    takeable = {cell for action in snapshot.get("legal") or [] if (cell := _cell_of(action)) is not None}
    label = pgettext("jurassik", "excavation zone and each player's dinosaur parts")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{attr(label)}" '
           'font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width}" height="{height}" rx="10" fill="#e9dcc0"/>']
    for c in range(cols):
        out.append(f'<text x="{left + c * CELL + CELL / 2}" y="{PAD + 12}" font-size="{font}" '
                   f'text-anchor="middle" fill="#7a6a50">{c + 1}</text>')
    for r, row in enumerate(grid):
        out.append(f'<text x="{left - 10}" y="{top + r * CELL + CELL / 2 + 4}" font-size="{font}" '
                   f'text-anchor="middle" fill="#7a6a50">{r + 1}</text>')
        for c, tile in enumerate(row):
            out += _tile(left + c * CELL, top + r * CELL, tile, (r, c) == last_cell, (r, c) in takeable, font)
            if (r, c) in ringed:
                out.append(f'<rect x="{left + c * CELL}" y="{top + r * CELL}" width="{CELL}" height="{CELL}" '
                           f'rx="7" {marked(3)}/>')
    y = top + rows * CELL + 12
    for text in legend:
        out.append(f'<text x="{PAD}" y="{y + font}" font-size="{font}" fill="#2d2416">{attr(text)}</text>')
        y += line
    for name, colour, text in holdings:
        if name:
            out.append(f'<circle cx="{PAD + 7}" cy="{y + 8}" r="6" fill="{rgb(colour)}"/>')
        out.append(f'<text x="{PAD + 18}" y="{y + font}" font-size="{font}" fill="#2d2416">'
                   f'<tspan font-weight="bold">{attr(name)}</tspan> {attr(text)}</text>')
        y += line
    out.append(_footer(snapshot, players, y + 4, font))
    out.append("</svg>")
    return "".join(out)


def _legend(grid: Sequence[Sequence[Any]], ringed: Set[tuple[int, int]]) -> list[str]:
    lines = []
    if any(piece_of(str(tile)) for row in grid for tile in row):
        lines.append(pgettext("jurassik", "7 and ●● on a tile: dinosaur 7, piece 2"))
    if ringed:
        lines.append(gettext("ringed orange: the places the list above names"))
    return lines


def _tile(x: float, y: float, tile: Any, last: bool, takeable: bool, font: int = 13) -> list[str]:
    piece = piece_of(str(tile))
    if tile is None:
        fill, text = "#cdbb94", ""
    elif tile == "?":
        fill, text = "#8a6a43", ""
    elif str(tile).upper().startswith("ROCK"):
        fill, text = "#7d7d7d", pgettext("jurassik", "rock")
    elif piece:
        fill, text = ("#b9d98f" if piece[2] else "#d8b878"), str(piece[0])
    else:
        fill, text = "#d8b878", pgettext("jurassik", "start") if str(tile) == "START" else str(tile).lower()
    stroke = ' stroke="#c62828" stroke-width="3"' if last else (
        ' stroke="#2e7d32" stroke-width="3" class="legal"' if takeable else ' stroke="#5b4a2c"')
    parts = [f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="5" '
             f'fill="{fill}"{stroke}/>']
    if piece:  # the dinosaur's number, its piece as dots
        parts.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 2}" font-size="16" font-weight="bold" '
                     f'text-anchor="middle" fill="#2d2416">{text}</text>')
        count = piece[1]
        for k in range(count):
            cx = x + CELL / 2 + (k - (count - 1) / 2) * 7
            parts.append(f'<circle cx="{cx}" cy="{y + CELL - 10}" r="2.5" fill="#2d2416"/>')
    elif text:
        # a long word ("inicio") is squeezed to the tile's width rather than set smaller than a phone reads
        fit = (f' textLength="{CELL - 6}" lengthAdjust="spacingAndGlyphs"'
               if len(text) * 0.6 * font > CELL - 6 else "")
        parts.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" font-size="{font}" '
                     f'text-anchor="middle" fill="#2d2416"{fit}>{attr(text)}</text>')
    return parts


def _holdings(view: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
              width: float, font: int = 13) -> list[tuple[str, str | None, str]]:
    """Per player one line or more: the dinosaurs collected, as "dinosaur 3 ×2" (two of its pieces)."""
    hands = view.get("hands") or {}
    lines: list[tuple[str, str | None, str]] = []
    per_line = max(12, int((width - 2 * PAD - 70) / (0.62 * font)))
    for name, tiles in hands.items():
        counts: dict[int, int] = {}
        for tile in tiles or []:
            piece = piece_of(str(tile))
            if piece:
                counts[piece[0]] = counts.get(piece[0], 0) + 1
        dinosaur = pgettext("jurassik", "dinosaur %(dinosaur)s")
        words = [f"{dinosaur % {'dinosaur': n}} ×{k}," if k > 1 else f"{dinosaur % {'dinosaur': n}},"
                 for n, k in sorted(counts.items())] or [pgettext("jurassik", "no parts yet")]
        words[-1] = words[-1].rstrip(",")
        text, first = "", True
        for word in words:
            if len(text) + len(word) + 1 > per_line:
                lines.append((name if first else "", colour_of(players, name) if first else None, text))
                text, first = "", False
            text = f"{text} {word}".strip()
        lines.append((name if first else "", colour_of(players, name) if first else None, text))
    return lines


def _footer(snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]], y: float, font: int) -> str:
    current = snapshot.get("current")
    if snapshot.get("over"):
        winners = list((snapshot.get("scores") or {}).get("winners") or [])
        verb = gettext("wins") if len(winners) == 1 else gettext("share the win")
        verdict = f"{', '.join(winners)} {verb}" if winners else ""
        over = attr(gettext("Game over"))
        return (f'<text x="{PAD}" y="{y + 16}" font-size="{font}" fill="#2d2416" font-weight="bold">'
                f'{over}{" · " + attr(verdict) if verdict else ""}</text>')
    if not current:
        return ""
    dot = rgb(colour_of(players, current))
    turn = gettext("%(player)s to play") % {"player": current}
    ringed = pgettext("jurassik", "ringed green: the tiles you may take")
    return (f'<circle cx="{PAD + 7}" cy="{y + 11}" r="7" fill="{dot}"/>'
            f'<text x="{PAD + 20}" y="{y + 16}" font-size="{font}" fill="#2d2416">{attr(turn)}</text>'
            + (f'<text x="{PAD}" y="{y + 16 + font + 9}" font-size="{font}" fill="#2d2416">'
               f'{attr(ringed)}</text>' if snapshot.get("legal") else ""))


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
