"""The league: per game, every player's plays, wins, average and best score over the finished plays, and
the pictures of it (SVG bars, text at 12 px or more)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from lan import i18n
from wire.seats import rgb


@dataclass
class Standing:
    player: str
    colour: str | None = None
    plays: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def average(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def best(self) -> int:
        return max(self.scores, default=0)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "plays": self.plays, "wins": self.wins,
                "win_rate": round(self.wins / self.plays, 3) if self.plays else 0.0,
                "average": round(self.average, 1), "best": self.best}


@dataclass
class GameLeague:
    game: str
    title: str
    plays: int
    standings: list[Standing]

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "plays": self.plays,
                "standings": [s.to_dict() for s in self.standings]}


def leagues(plays: Iterable[Mapping[str, Any]]) -> list[GameLeague]:
    """One league per game played, players ranked by wins, then average score."""
    by_game: dict[str, tuple[str, dict[str, Standing], list[int]]] = {}
    for play in plays:
        title, table, count = by_game.setdefault(play["game"], (play["title"], {}, [0]))
        count[0] += 1
        colours = {p.get("name"): p.get("colour") for p in play.get("players", [])}
        for name, score in play["scores"].items():
            standing = table.setdefault(name, Standing(name, colours.get(name)))
            standing.plays += 1
            standing.wins += name in play["winners"]
            standing.scores.append(int(score))
    result = []
    for game, (title, table, count) in sorted(by_game.items(), key=lambda item: item[1][0]):
        ranked = sorted(table.values(), key=lambda s: (-s.wins, -s.average, s.player))
        result.append(GameLeague(game, title, count[0], ranked))
    return result


def standings_svg(league: GameLeague, width: int = 340) -> str:
    """Per player a line of words (name, wins; average and best) over a bar of the average score with the
    best marked. Drawn for a phone's width (text 12-14 px there); the page caps how wide it grows."""
    standings = league.standings[:12]
    row, bar_width = 50, width - 8
    height = 24 + row * len(standings)
    top = max((s.best for s in standings), default=0) or 1
    scale = bar_width / top
    label = escape(i18n.gettext("%(game)s: average and best score per player") % {"game": league.title})
    key = escape(i18n.gettext("average score (bar) · best (mark)"))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{label}" font-family="DejaVu Sans, sans-serif" font-size="14">',
             f'<text x="0" y="14" fill="#7a6a50" font-size="12">{key}</text>']
    for index, standing in enumerate(standings):
        y = 24 + index * row
        colour = rgb(standing.colour) if standing.colour else "#3f6238"
        bar = max(2.0, standing.average * scale)
        best = standing.best * scale
        won = escape(i18n.gettext("%(wins)s of %(plays)s won") % {"wins": standing.wins,
                                                                    "plays": standing.plays})
        best_words = escape(i18n.gettext("best %(score)s") % {"score": standing.best})
        parts += [
            f'<text x="0" y="{y + 15}" font-weight="bold">{escape(standing.player)}'
            f'<tspan font-weight="normal" font-size="12" fill="#7a6a50"> {won}</tspan></text>',
            f'<text x="{bar_width}" y="{y + 15}" text-anchor="end" font-size="13">{standing.average:.1f}'
            f' · {best_words}</text>',
            f'<rect x="0" y="{y + 21}" width="{bar:.1f}" height="18" rx="3" fill="{colour}" opacity=".85"/>',
            f'<line x1="{best:.1f}" x2="{best:.1f}" y1="{y + 18}" y2="{y + 42}" stroke="#2d2416" '
            'stroke-width="3"/>',
        ]
    parts.append("</svg>")
    return "".join(parts)


def plays_csv(plays: Sequence[Mapping[str, Any]]) -> str:
    """Every finished play, one row per player (a spreadsheet's shape)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["table", "game", "game_id", "finished", "duration_s", "moves", "player", "score", "won"])
    for play in plays:
        for name, score in play["scores"].items():
            writer.writerow([play["table"], play["title"], play["game_id"], round(play["finished"]),
                             play["duration_s"], play["moves"], name, score, int(name in play["winners"])])
    return out.getvalue()


def league_csv(games: Sequence[GameLeague]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "player", "plays", "wins", "average", "best"])
    for league in games:
        for s in league.standings:
            writer.writerow([league.title, s.player, s.plays, s.wins, round(s.average, 1), s.best])
    return out.getvalue()
