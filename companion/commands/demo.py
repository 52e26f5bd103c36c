"""`companion demo`: the main job on the embedded default (a bot-played game)."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from engines.core import available_games, get_game, random_playout

DEFAULT_PLAYERS = ("red", "blue", "green")


def _terminal_demo(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = args.players.split(",") if args.players else list(DEFAULT_PLAYERS)
    players = players[: game.max_players]
    while len(players) < game.min_players:
        players.append(f"player{len(players) + 1}")
    steps = 0

    def progress(_before: Any, _action: Any, _after: Any) -> None:
        nonlocal steps
        steps += 1
        if steps % 50 == 0:
            print(f"  ... {steps} actions", file=sys.stderr)

    print(f"{game.title}: a bot-played game for {', '.join(players)} (seed {args.seed})")
    final = random_playout(game, players, random.Random(args.seed), on_step=progress)
    outcome = final.outcome()
    assert outcome is not None
    print(f"game over after {steps} actions: {outcome.reason}")
    for name in players:
        parts = ", ".join(f"{k} {v}" for k, v in outcome.breakdown[name].items() if v)
        print(f"  {name:>8}: {outcome.scores[name]:3d}  ({parts})")
    print(f"winner(s): {', '.join(outcome.winners)}")
    return 0


def register(subparsers: Any) -> None:
    demo = subparsers.add_parser("demo", help="run a bot-played game end to end (the embedded default)")
    demo.add_argument("--game", default="jurassic-parts", help=f"one of: {', '.join(available_games())}")
    demo.add_argument("--players", default="", help="comma-separated seat colours, clockwise")
    demo.add_argument("--seed", type=int, default=1, help="seed for setup, bots and chance")
    demo.set_defaults(handler=_terminal_demo)
