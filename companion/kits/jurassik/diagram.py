"""The Jurassik diagram: the excavation zone as the shared view has it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.web.svg import attr, colour_of, rgb


def excavation_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
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
