"""Command-line rulings: ``companion score jurassik FILE`` and ``companion legal jurassik FILE``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import EngineError, InputError
from engines.jurassik.components import is_text, normalize_dino, parse_dino
from engines.jurassik.scoring import score_hands

if TYPE_CHECKING:
    from engines.jurassik.game import JurassikGame


def score_report(data: Any) -> dict[str, Any]:
    """Score ``{"players": [{"name": "ana", "tiles": ["D1-1", ...]}, ...]}``.

    Returns ``{"players": {"ana": {"total": 4, "breakdown": {"D1": 3, "D3": 1}}, ...}, "winners": [...]}``;
    every player with the best total is a winner. Raises InputError (one line) on bad input.
    """
    if not isinstance(data, Mapping):
        raise InputError("input must be a JSON object with a 'players' list")
    if set(data) - {"players"}:
        raise InputError(f"unknown fields: {', '.join(sorted(map(str, set(data) - {'players'})))}")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise InputError("'players' must be a non-empty list of {name, tiles}")
    if not 2 <= len(players) <= 5:
        raise InputError(f"Jurassik is played by 2-5 players, not {len(players)}")
    hands: dict[str, list[str]] = {}
    owner: dict[str, str] = {}
    for number, entry in enumerate(players, start=1):
        if not isinstance(entry, Mapping):
            raise InputError(f"player {number} must be an object with 'name' and 'tiles'")
        if set(entry) - {"name", "tiles"}:
            extra = ", ".join(sorted(map(str, set(entry) - {"name", "tiles"})))
            raise InputError(f"player {number} has unknown fields: {extra}")
        name = entry.get("name")
        if not is_text(name):
            raise InputError(f"player {number} needs a 'name' of non-empty Unicode text")
        if name in hands:
            raise InputError(f"player name {name!r} appears twice")
        tiles = entry.get("tiles")
        if not isinstance(tiles, list):
            raise InputError(f"{name}: 'tiles' must be a list of dinosaur tile ids such as \"D3-2\"")
        hand = []
        for tile in tiles:
            normal = normalize_dino(tile)
            if normal is None or parse_dino(tile) is None:
                raise InputError(f"{name}: {tile!r} is not a dinosaur tile id (D1-1 .. D10-4)")
            if normal in owner:
                who = owner[normal]
                raise InputError(f"tile {normal} is held twice ({who} and {name})" if who != name
                                 else f"{name} lists tile {normal} twice")
            owner[normal] = name
            hand.append(normal)
        hands[name] = hand
    totals, breakdown = score_hands(hands)
    best = max(totals.values())
    return {
        "players": {name: {"total": totals[name], "breakdown": breakdown[name]} for name in hands},
        "winners": [name for name in hands if totals[name] == best],
    }


def legal_report(game: JurassikGame, data: Any) -> dict[str, Any]:
    """The legal actions in a state given in the documented JSON state format (docs/jurassik.md)."""
    try:
        state = game.state_from_dict(data)
    except EngineError as error:
        raise InputError(f"invalid jurassik state: {' '.join(str(error).split())}") from error
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"invalid jurassik state: {error}") from error
    report: dict[str, Any] = {
        "game": game.name,
        "edition": state.edition,
        "phase": state.phase,
        "to_play": state.current_player(),
        "accessible": [list(state.cell_of(i)) for i in state.accessible_cells()],
        "actions": [action.to_dict() for action in state.legal_actions()],
    }
    if state.is_chance_node():
        report["chance"] = [
            {"action": action.to_dict(), "probability": probability}
            for action, probability in state.chance_outcomes()
        ]
    outcome = state.outcome()
    if outcome is not None:
        report["outcome"] = {
            "players": {
                name: {"total": outcome.scores[name], "breakdown": dict(outcome.breakdown[name])}
                for name in state.players
            },
            "winners": list(outcome.winners),
            "reason": outcome.reason,
        }
    return report
