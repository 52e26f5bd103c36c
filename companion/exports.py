"""A finished play for the places players keep their plays: BG Stats' push link (its documented
``createPlay.html?data=`` format), a CSV row per player, and the play as JSON. All from the shared view
(:meth:`companion.records.GameRecords.play`)."""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

BG_STATS = "https://app.bgstatsapp.com/createPlay.html?data="


def _totals(play: Mapping[str, Any]) -> dict[str, int]:
    players = (play.get("scores") or {}).get("players") or {}
    return {name: int(entry.get("total", 0)) for name, entry in players.items()}


def ranks(play: Mapping[str, Any]) -> dict[str, int]:
    """1 for the winners, then by score (equal scores share a rank)."""
    totals = _totals(play)
    winners = set((play.get("scores") or {}).get("winners") or [])
    order = sorted(totals, key=lambda name: (name not in winners, -totals[name]))
    result: dict[str, int] = {}
    for index, name in enumerate(order):
        previous = order[index - 1] if index else None
        same = previous is not None and (previous in winners) == (name in winners) and \
            totals[previous] == totals[name]
        result[name] = result[previous] if same and previous is not None else index + 1
    return result


def source_play_id(play: Mapping[str, Any]) -> str:
    """One play's id for the apps it is pushed to: the table's name, the game's number in its store and
    when it started (a store started afresh numbers its games from 1 again), so a second push of the same
    play is known as that play, and two tables' games never share one."""
    table = str(play.get("table") or "table")
    return f"dinotable:{table}:{play['game_id']}:{int(float(play['started']))}"


def source_player_id(name: str) -> str:
    """A person's id across plays: from the name they play under (whatever seat they take), spaces and
    case aside, so "Ana" at red today and "ana" at blue next week are one player in the app."""
    return "dinotable:" + " ".join(name.split()).casefold()


def bg_stats_data(play: Mapping[str, Any]) -> dict[str, Any]:
    """The play in BG Stats' push format: the game (``highestWins``, ``noPoints`` always said), the play's
    and each person's stable ids, the edition or variant as ``board``, and every player's score, rank,
    ``winner`` and ``startPlayer``."""
    totals = _totals(play)
    winners = set((play.get("scores") or {}).get("winners") or [])
    placed = ranks(play)
    started = datetime.datetime.fromtimestamp(float(play["started"]))
    reason = (play.get("scores") or {}).get("reason") or ""
    return {
        "sourceName": "Dino Table Companion",
        "sourcePlayId": source_play_id(play),
        "game": {"name": play["title"], "highestWins": True, "noPoints": False,
                 "sourceGameId": play["game"]},
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, round(float(play.get("duration_s") or 0) / 60)),
        "location": "Dino Table",
        "board": str(play.get("variant") or ""),
        "comments": f"Scored by the Dino Table Companion ({play.get('moves', 0)} moves). {reason}".strip(),
        "players": [
            {"name": p["name"], "sourcePlayerId": source_player_id(p["name"]), "role": p.get("colour") or "",
             "score": totals.get(p["name"], 0), "winner": p["name"] in winners,
             "rank": placed.get(p["name"], len(totals)), "startPlayer": p["name"] == play.get("start_player")}
            for p in play["players"]
        ],
    }


def bg_stats_link(play: Mapping[str, Any]) -> str:
    """The link that opens BG Stats' import dialog with this play filled in."""
    return BG_STATS + quote(json.dumps(bg_stats_data(play), separators=(",", ":")), safe="")


def play_csv(play: Mapping[str, Any]) -> str:
    """One row per player: the play's game and date, seat, score and each part of it, rank, winner."""
    totals = _totals(play)
    players = (play.get("scores") or {}).get("players") or {}
    parts: list[str] = []
    for entry in players.values():
        parts += [k for k in (entry.get("breakdown") or {}) if k not in parts]
    placed = ranks(play)
    winners = set((play.get("scores") or {}).get("winners") or [])
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "date", "duration_min", "player", "colour", "start_player", "score", *parts,
                     "rank", "winner"])
    date = datetime.datetime.fromtimestamp(float(play["started"])).strftime("%Y-%m-%d %H:%M")
    for p in play["players"]:
        breakdown = (players.get(p["name"]) or {}).get("breakdown") or {}
        writer.writerow([play["title"], date, round(float(play.get("duration_s") or 0) / 60, 1), p["name"],
                         p.get("colour") or "", int(p["name"] == play.get("start_player")),
                         totals.get(p["name"], 0), *[breakdown.get(k, 0) for k in parts],
                         placed.get(p["name"], ""), int(p["name"] in winners)])
    return out.getvalue()
