"""The Jurassic Brunch diagram: the four pasture boards, figures and grass tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Any

from companion.drawing import attr, cell_of_value, marked, rgb
from companion.i18n import gettext, npgettext, pgettext
from companion.kits.jurassic_brunch.table import BrunchLayout
from companion.kits.jurassic_brunch.tags import FIGURE_TAG
from companion.words import colour_name
from engines.jurassic_brunch.components import TOKEN_TITLES


def _area_cells(view: Mapping[str, Any]) -> set[tuple[int, int]]:
    centres = [c for c in (cell_of_value(b.get("centre")) for b in view["area"]["boards"]) if c]
    return {(x + dx, y + dy) for x, y in centres for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def piece_words(name: str) -> str | None:
    """``TRI-BLUE-2`` -> "blue triceratops 2" (``TRI-BLUE``: "a blue triceratops"), ``RAPTOR`` -> "the
    raptor", ``BOARD-3`` -> "pasture board 3", a grass token's printed id (``SUPER-YUMMY-04``) or kind
    (``SUPER-YUMMY``) -> its kind's title; None for anything else."""
    figure = FIGURE_TAG.match(name)
    if figure:
        colour, number = figure.group(1).lower(), figure.group(2)
        said = {"colour": colour_name(colour), "number": number}
        if number:
            return pgettext("jurassic-brunch", "%(colour)s triceratops %(number)s") % said
        return pgettext("jurassic-brunch", "a %(colour)s triceratops") % said
    if name == "RAPTOR":
        return pgettext("jurassic-brunch", "the raptor")
    if name.startswith("BOARD-") and name[6:].isdigit():
        return pgettext("jurassic-brunch", "pasture board %(number)s") % {"number": name[6:]}
    kind, _, number = name.rpartition("-")
    kind = kind if number.isdigit() else name  # a token by its kind alone (``SUPER-YUMMY``) too
    title = TOKEN_TITLES.get(kind.replace("-", "_"))
    if not title:
        return None
    return f"{'an' if title[0] in 'AEIOU' else 'a'} {title} token"


def pasture_layout(view: Mapping[str, Any]) -> BrunchLayout | None:
    """The default table layout of the view's pasture (where its cells lie in table millimetres)."""
    try:
        cells = _area_cells(view)
    except (KeyError, TypeError, AttributeError):
        return None
    return BrunchLayout.for_cells(cells) if cells else None


def pasture_cell_words(view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
    """A pasture cell as the diagram numbers it: row and column from 1, from the top left."""
    try:
        cells = _area_cells(view)
    except (KeyError, TypeError, AttributeError):
        return None
    if not cells or len(cell) != 2:
        return None
    min_x, min_y = min(x for x, _ in cells), min(y for _, y in cells)
    return gettext("row %(row)d, column %(col)d") % {"row": int(cell[1]) - min_y + 1,
                                                       "col": int(cell[0]) - min_x + 1}


def pasture_svg(view: Mapping[str, Any], snapshot: Mapping[str, Any],
                players: Sequence[Mapping[str, Any]], ringed: Set[tuple[int, int]] = frozenset()) -> str:
    """The pasture: four 3x3 boards, face-down grass tokens, triceratops in their owners' colours (a "z"
    when asleep), the raptor, and the cell of the last move ringed."""
    cell, pad = 56, 30
    centres = [c for c in (cell_of_value(b.get("centre")) for b in view["area"]["boards"]) if c]
    cells = _area_cells(view)
    min_x, min_y = min(x for x, _ in cells), min(y for _, y in cells)
    max_x, max_y = max(x for x, _ in cells), max(y for _, y in cells)
    width = (max_x - min_x + 1) * cell + pad + 18
    rings = sorted(ringed & cells)  # the places the page's list names
    height = (max_y - min_y + 1) * cell + pad + 18 + 56 + (22 if rings else 0)

    def at(c: tuple[int, int]) -> tuple[float, float]:
        return pad + (c[0] - min_x) * cell, pad + (c[1] - min_y) * cell

    colour_by_player = {str(p.get("name")): str(p.get("colour", "")) for p in players}
    label = attr(pgettext("jurassic-brunch", "the pasture"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{label}" font-family="DejaVu Sans, sans-serif">',
           f'<rect width="{width}" height="{height}" rx="10" fill="#e6efd2"/>']
    for column in range(max_x - min_x + 1):  # numbered from 1 as players count (see pasture_cell_words)
        out.append(f'<text x="{pad + column * cell + cell / 2}" y="{pad - 10}" font-size="14" '
                   f'text-anchor="middle" fill="#4d6b2f">{column + 1}</text>')
    for row in range(max_y - min_y + 1):
        out.append(f'<text x="{pad - 14}" y="{pad + row * cell + cell / 2 + 4}" font-size="14" '
                   f'text-anchor="middle" fill="#4d6b2f">{row + 1}</text>')
    for square in sorted(cells):
        x, y = at(square)
        out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="#b9d48f" '
                   'stroke="#8aa865"/>')
    for cx, cy in centres:
        x, y = at((cx - 1, cy - 1))
        out.append(f'<rect x="{x}" y="{y}" width="{3 * cell}" height="{3 * cell}" fill="none" '
                   'stroke="#4d6b2f" stroke-width="3" rx="4"/>')
    for grass in (cell_of_value(g) for g in view.get("grass", [])):
        if grass:
            x, y = at(grass)
            out.append(f'<rect x="{x + 12}" y="{y + 12}" width="{cell - 24}" height="{cell - 24}" rx="6" '
                       'fill="#6f9a3e" stroke="#3f5f20" class="grass"/>')
    for dino in view.get("triceratops", []):
        where = cell_of_value(dino.get("at"))
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
    raptor_at = cell_of_value(raptor.get("at") if isinstance(raptor, Mapping) else raptor)
    if raptor_at:
        x, y = at(raptor_at)
        corners = f"{x + cell / 2},{y + 8} {x + cell - 8},{y + cell - 8} {x + 8},{y + cell - 8}"
        out.append(f'<polygon points="{corners}" fill="#3b2f2f" stroke="#fff" stroke-width="2" '
                   'class="raptor"/>')
    for square in rings:
        x, y = at(square)
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{cell - 6}" height="{cell - 6}" rx="6" '
                   f'{marked()}/>')
    last = snapshot.get("last_event") or {}
    action = last.get("action") if isinstance(last, Mapping) else None
    if isinstance(action, Mapping):
        for key in ("to", "at", "cell"):
            moved = cell_of_value(action.get(key))
            if moved:
                x, y = at(moved)
                out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" '
                           'fill="none" stroke="#c62828" stroke-width="3" stroke-dasharray="6 3"/>')
                break
    current = snapshot.get("current")
    holdings = view.get("holdings") or {}
    people = {str(p.get("name")): str(p.get("person") or p.get("name")) for p in players
              if isinstance(p, Mapping)}  # the teams are colours: the people at them by name
    line = " · ".join(
        f"{attr(people.get(name, name))}: "
        + npgettext("jurassic-brunch", "%(num)d token", "%(num)d tokens", int(h.get("tokens", 0) or 0))
        % {"num": int(h.get("tokens", 0) or 0)}
        for name, h in holdings.items() if isinstance(h, Mapping)
    )
    if current:
        out.append(f'<text x="{pad}" y="{height - 34}" font-size="14" fill="#2d2416">'
                   + attr(gettext("%(player)s to play") % {"player": people.get(str(current), str(current))})
                   + '</text>')
    out.append(f'<text x="{pad}" y="{height - 12}" font-size="14" fill="#2d2416">{line}</text>')
    if rings:
        out.append(f'<text x="{pad}" y="{height - 56}" font-size="14" fill="#2d2416">'
                   + attr(gettext("Ringed orange: the places the list above names")) + '</text>')
    out.append("</svg>")
    return "".join(out)
