"""`companion hint GAME FILE --player P`: the move the companion would make for one player, decided from
what that player may see only (engines.core.search), as JSON: the action as `legal` lists it, its words
and why. Bad input is one ``error:`` line and exit 2, as for every ruling."""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands.arguments import BadInput, bounded_whole, seed
from companion.commands.rulings import game_named, read_json, run_ruling
from companion.words import action_label
from engines.core import available_games
from engines.core.search import LEVELS, Budget, NotToPlay, decide

MAX_SIMULATIONS = 100_000


def hint_report(game_name: str, data: Any, player: str, level: int, seed_value: int,
                simulations: int) -> dict[str, Any]:
    """What ``player`` would play in the position ``data`` (read as `legal` reads it)."""
    game = game_named(game_name)
    state = game.report_state(data)
    if player not in state.players:
        players = ", ".join(state.players)
        raise BadInput(f"--player {player!r} is not a player of this game (players: {players})")
    try:
        decision = decide(state, player, level, seed_value, Budget(simulations=simulations))
    except NotToPlay as refusal:
        raise BadInput(str(refusal)) from None
    action = decision.action.to_dict()
    return {
        "game": game.name,
        **decision.to_dict(),
        "action": action,
        "words": action_label(action, {"game": game.name, "view": state.view(player)}),
        "seed": seed_value,
    }


def _hint(args: argparse.Namespace) -> int:
    return run_ruling(lambda: hint_report(args.game, read_json(args.file), args.player, args.level,
                                          args.seed, args.simulations))


def register(subparsers: Any) -> None:
    command = subparsers.add_parser(
        "hint", help="the move the companion would make for one player",
        description="Decide, from what PLAYER may see only, the move the companion would make in the "
                    "position of FILE, and print it as JSON (action, words, why).")
    command.add_argument("game", help=", ".join(available_games()))
    command.add_argument("file", help="JSON position or engine state, or - for standard input")
    command.add_argument("--player", required=True, help="the player to advise (as the state names them)")
    command.add_argument("--level", type=bounded_whole(min(LEVELS), max(LEVELS), "--level"), default=3,
                         help="1 the game's bots, 2 greedy one move ahead, 3 search (default)")
    command.add_argument("--seed", type=seed, default=0, help="the same seed gives the same hint")
    command.add_argument("--simulations", type=bounded_whole(1, MAX_SIMULATIONS, "--simulations"),
                         default=Budget().simulations, help="how long level 3 searches (default %(default)s)")
    command.set_defaults(handler=_hint)
