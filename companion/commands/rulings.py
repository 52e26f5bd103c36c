"""Rulings from JSON files: `split`, `score`, `legal`, `explain`.

Contract shared by all of them: FILE ``-`` reads standard input; the answer is JSON on stdout; bad input
exits with status 2 and exactly one line on stderr naming the problem, with nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from engines.core import EngineError, get_game

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input that a ruling cannot use; its message is the one line printed on stderr."""


def read_json(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise BadInput(f"{path} is not UTF-8 text") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise BadInput(f"malformed JSON in {path}: {error.msg} at {where}") from None


def run_ruling(compute: Callable[[], Any]) -> int:
    """Print ``compute()`` as JSON, or one error line on stderr with exit status 2."""
    try:
        result = compute()
    except (BadInput, EngineError, KeyError, ValueError, TypeError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
        print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    json.dump(result, sys.stdout, sort_keys=False)
    sys.stdout.write("\n")
    return 0


def _split(args: argparse.Namespace) -> int:
    def compute() -> Any:
        from engines.jurassic_parts import split_ruling

        return split_ruling(read_json(args.file))

    return run_ruling(compute)


def _score(args: argparse.Namespace) -> int:
    return run_ruling(lambda: get_game(args.game).score_report(read_json(args.file)))


def _legal(args: argparse.Namespace) -> int:
    return run_ruling(lambda: get_game(args.game).legal_report(read_json(args.file)))


def register(subparsers: Any) -> None:
    split = subparsers.add_parser(
        "split",
        help="rule on a Jurassic Parts slab: is it split, who takes how many tiles",
        description="Read a slab (players, current player, tiles at axial q,r, chisels on gaps) and print "
        "the split ruling as JSON.",
    )
    split.add_argument("file", help="JSON slab description, or - for standard input")
    split.set_defaults(handler=_split)

    score = subparsers.add_parser("score", help="score players' holdings for a game")
    score.add_argument("game", help="jurassic-parts, jurassik, jurassic-brunch or isla-nublar")
    score.add_argument("file", help="JSON holdings, or - for standard input")
    score.set_defaults(handler=_score)

    legal = subparsers.add_parser("legal", help="list the legal actions in a position")
    legal.add_argument("game", help="jurassic-parts, jurassik, jurassic-brunch or isla-nublar")
    legal.add_argument("file", help="JSON position or engine state, or - for standard input")
    legal.set_defaults(handler=_legal)
