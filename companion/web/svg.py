"""Server-drawn pictures (SVG): the score-over-time chart, the table as a diagram (each game's kit draws
its own; the primitives they share are :mod:`companion.drawing`).

Pictures are built from the shared view only (``state.view(None)``), so nothing private can leak into
them. Every text that comes from data is escaped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.drawing import attr, colour_of, rgb
from companion.i18n import gettext


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


def score_chart_svg(history: Sequence[Mapping[str, Any]], players: Sequence[Mapping[str, Any]],
                    width: int = 400, height: int = 260) -> str:
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
    left, right, upper, lower = 40, 124, 16, 34  # type at 15: 12 px or more on a phone
    plot_w, plot_h = width - left - right, height - upper - lower

    def x(step: int) -> float:
        return left + plot_w * step / steps

    def y(value: int) -> float:
        return upper + plot_h * (1 - value / top)

    label = attr(gettext("scores over time"))
    moves = attr(gettext("committed moves (%(num)d)") % {"num": len(history)})
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" '
        f'role="img" aria-label="{label}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf7"/>',
    ]
    for tick in range(0, top + 1, max(1, top // 5)):
        ty = y(tick)
        out.append(f'<line x1="{left}" y1="{ty:.1f}" x2="{left + plot_w}" y2="{ty:.1f}" stroke="#e4dccb"/>')
        out.append(f'<text x="{left - 6}" y="{ty + 4:.1f}" font-size="15" text-anchor="end" '
                   f'fill="#6b5d45">{tick}</text>')
    out.append(f'<line x1="{left}" y1="{upper + plot_h}" x2="{left + plot_w}" y2="{upper + plot_h}" '
               'stroke="#6b5d45"/>')
    out.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 8}" font-size="15" text-anchor="middle" '
               f'fill="#6b5d45">{moves}</text>')
    ranked = sorted(names, key=lambda n: -last[n])
    for rank, name in enumerate(ranked):
        colour = rgb(colour_of(players, name))
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in series[name])
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
                   f'stroke-linejoin="round" data-player="{attr(name)}"/>')
        end_x, end_y = x(series[name][-1][0]), y(series[name][-1][1])
        out.append(f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="4" fill="{colour}"/>')
        ly = upper + 14 + rank * 24
        out.append(f'<rect x="{width - right + 12}" y="{ly - 11}" width="14" height="14" rx="2" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{width - right + 30}" y="{ly + 1}" font-size="15" fill="#2d2416">'
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
    """The table as a diagram, from the shared view: the game kit's own drawing where there is one."""
    from companion.kits import find_kit

    view = snapshot.get("view")
    try:
        kit = find_kit(str(snapshot.get("game", "")))
    except KeyError:
        kit = None
    if isinstance(view, Mapping) and kit is not None:
        try:
            return kit.diagram(view, snapshot)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # an unexpected view shape: fall back to the summary rather than fail the page
    return _summary_svg(snapshot)


def diagram_spots(snapshot: Mapping[str, Any]) -> Any:
    """Where a tap on :func:`board_svg`'s picture makes a legal move (a kit's ``DiagramSpots``), or None
    (the game's picture has none, or nothing is legal now)."""
    from companion.kits import find_kit

    view = snapshot.get("view")
    try:
        kit = find_kit(str(snapshot.get("game", "")))
    except KeyError:
        return None
    if kit is None or not isinstance(view, Mapping) or not snapshot.get("legal") or snapshot.get("pending"):
        return None  # nothing to tap, or the page asks something first
    try:
        spots = kit.diagram_spots(view, snapshot)
    except (KeyError, TypeError, ValueError, IndexError):
        return None  # an unexpected view shape: the list of moves still offers every move
    return spots if spots is not None and spots.spots else None


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


_TEXT = re.compile(r"<text\b[^>]*>.*?</text>", re.DOTALL)


def without_words(svg: str) -> str:
    """A drawing with its type taken out (a thumbnail, whose words are said beside it)."""
    return _TEXT.sub("", svg)
