"""The Jurassik diagram: the excavation zone as the shared view has it, rows and columns numbered from 1
as players count them, the tiles the player to act may take ringed in green, and every player's
collected dinosaur parts (open in Jurassik) below: the final holdings once the game is over."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.drawing import attr, colour_of, rgb

CELL, PAD, LABEL = 44, 12, 18
_PART = re.compile(r"^D(\d+)-\d+L?$")


def excavation_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                  players: Sequence[Mapping[str, Any]]) -> str:
    grid = view["grid"]
    rows, cols = len(grid), max(len(row) for row in grid)
    left, top = PAD + LABEL, PAD + LABEL
    width = left + cols * CELL + PAD
    holdings = _holdings(view, players, width)
    height = top + rows * CELL + 12 + 22 * len(holdings) + 34
    last = snapshot.get("last_event") or {}
    last_cell = _cell_of(last.get("action") if isinstance(last, Mapping) else None)
    takeable = {cell for action in snapshot.get("legal") or [] if (cell := _cell_of(action)) is not None}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           'aria-label="excavation zone and each player\'s dinosaur parts" '
           'font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width}" height="{height}" rx="10" fill="#e9dcc0"/>']
    for c in range(cols):
        out.append(f'<text x="{left + c * CELL + CELL / 2}" y="{PAD + 12}" font-size="12" '
                   f'text-anchor="middle" fill="#7a6a50">{c + 1}</text>')
    for r, row in enumerate(grid):
        out.append(f'<text x="{PAD + 8}" y="{top + r * CELL + CELL / 2 + 4}" font-size="12" '
                   f'text-anchor="middle" fill="#7a6a50">{r + 1}</text>')
        for c, tile in enumerate(row):
            out += _tile(left + c * CELL, top + r * CELL, tile, (r, c) == last_cell, (r, c) in takeable)
    y = top + rows * CELL + 12
    for name, colour, text in holdings:
        if name:
            out.append(f'<circle cx="{PAD + 7}" cy="{y + 8}" r="6" fill="{rgb(colour)}"/>')
        out.append(f'<text x="{PAD + 18}" y="{y + 13}" font-size="13" fill="#2d2416">'
                   f'<tspan font-weight="bold">{attr(name)}</tspan> {attr(text)}</text>')
        y += 22
    out.append(_footer(snapshot, players, view, y + 4))
    out.append("</svg>")
    return "".join(out)


def _tile(x: float, y: float, tile: Any, last: bool, takeable: bool) -> list[str]:
    if tile is None:
        fill, text = "#cdbb94", ""
    elif tile == "?":
        fill, text = "#8a6a43", ""
    elif str(tile).upper().startswith("ROCK"):
        fill, text = "#7d7d7d", "rock"
    else:
        fill, text = "#d8b878", str(tile)
    stroke = ' stroke="#c62828" stroke-width="3"' if last else (
        ' stroke="#2e7d32" stroke-width="3" class="legal"' if takeable else ' stroke="#5b4a2c"')
    parts = [f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="5" '
             f'fill="{fill}"{stroke}/>']
    if text:
        parts.append(f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" font-size="12" text-anchor="middle" '
                     f'fill="#2d2416">{attr(text)}</text>')
    return parts


def _holdings(view: Mapping[str, Any], players: Sequence[Mapping[str, Any]],
              width: float) -> list[tuple[str, str | None, str]]:
    """Per player one line or more: the dinosaurs collected, as "dinosaur number x parts"."""
    hands = view.get("hands") or {}
    lines: list[tuple[str, str | None, str]] = []
    per_line = max(12, int((width - 2 * PAD - 60) / 7.5))
    for name, tiles in hands.items():
        counts: dict[int, int] = {}
        for tile in tiles or []:
            match = _PART.match(str(tile))
            if match:
                counts[int(match.group(1))] = counts.get(int(match.group(1)), 0) + 1
        words = [f"D{n}×{k}" if k > 1 else f"D{n}" for n, k in sorted(counts.items())] or ["no parts yet"]
        text, first = "", True
        for word in words:
            if len(text) + len(word) + 1 > per_line:
                lines.append((name if first else "", colour_of(players, name) if first else None, text))
                text, first = "", False
            text = f"{text} {word}".strip()
        lines.append((name if first else "", colour_of(players, name) if first else None, text))
    return lines


def _footer(snapshot: Mapping[str, Any], players: Sequence[Mapping[str, Any]], view: Mapping[str, Any],
            y: float) -> str:
    current = snapshot.get("current")
    if snapshot.get("over"):
        winners = list((snapshot.get("scores") or {}).get("winners") or [])
        verb = "wins" if len(winners) == 1 else "share the win"
        verdict = f"{', '.join(winners)} {verb}" if winners else ""
        return (f'<text x="{PAD}" y="{y + 16}" font-size="13" fill="#2d2416" font-weight="bold">Game over'
                f'{" · " + attr(verdict) if verdict else ""}</text>')
    if not current:
        return ""
    dot = rgb(colour_of(players, current))
    return (f'<circle cx="{PAD + 7}" cy="{y + 11}" r="7" fill="{dot}"/>'
            f'<text x="{PAD + 20}" y="{y + 16}" font-size="13" fill="#2d2416">{attr(current)} to play'
            f'{" · green: the tiles you may take" if snapshot.get("legal") else ""}</text>')


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
