"""Rulings from JSON files: `score`, `legal`, and each game's own (Jurassic Parts' `split`); `explain`
lives with the loop commands.

Contract shared by all of them: FILE ``-`` reads standard input; the answer is JSON on stdout; bad input
exits with status 2 and exactly one line on stderr naming the problem, with nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from companion.commands.arguments import EXIT_BAD_INPUT, BadInput
from engines.core import EngineError, Ruling, available_games, get_game
from wire.reports import json_depth

MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_NESTING = 64


def read_json(path: str) -> Any:
    """Parse the JSON document at ``path`` (``-``: standard input) or raise BadInput saying why not."""
    try:
        if path == "-":
            binary = getattr(sys.stdin, "buffer", None)
            if binary is not None:
                raw = binary.read(MAX_INPUT_BYTES + 1)
            else:  # a text stream (tests, embedding): re-encode; lone surrogates then fail to decode
                raw = sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogatepass")
        else:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror or error}") from error
    where = "standard input" if path == "-" else path
    if len(raw) > MAX_INPUT_BYTES:
        raise BadInput(f"{where} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    try:
        text = raw.decode("utf-8-sig")  # strict: undecodable bytes are bad input, a BOM is fine
    except UnicodeDecodeError:
        raise BadInput(f"{where} is not UTF-8 text") from None
    if not text.strip():
        raise BadInput(f"{where} is empty")
    _check_nesting(text, where)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        position = f"line {error.lineno} column {error.colno}"
        raise BadInput(f"malformed JSON in {where}: {error.msg} at {position}") from None
    except RecursionError:
        raise BadInput(f"{where} is nested too deeply") from None
    except ValueError as error:  # an integer of thousands of digits: Python refuses to convert it
        from companion.config import value_error_text

        raise BadInput(f"{where}: {value_error_text(error)}") from None


def _check_nesting(text: str, where: str) -> None:
    """Refuse documents nested deeper than any ruling needs, before a recursive parser meets them."""
    if json_depth(text, MAX_NESTING) > MAX_NESTING:
        raise BadInput(f"{where} is nested more than {MAX_NESTING} levels deep")


def run_ruling(compute: Callable[[], Any]) -> int:
    """Print ``compute()`` as JSON, or one error line on stderr with exit status 2.

    Only refusals that name bad input count as exit 2 (BadInput from here, EngineError from the engines);
    anything else is a bug and surfaces as one, rather than being passed off as the user's mistake.
    """
    try:
        result = compute()
    except (BadInput, EngineError) as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)
        return EXIT_BAD_INPUT
    json.dump(result, sys.stdout, sort_keys=False)
    sys.stdout.write("\n")
    return 0


def game_named(name: str) -> Any:
    try:
        return get_game(name)
    except KeyError as error:
        raise BadInput(str(error.args[0] if error.args else error)) from None


def _ruled_by(ruling: Ruling) -> Callable[[argparse.Namespace], int]:
    return lambda args: run_ruling(lambda: ruling.rule(read_json(args.file)))


def _score(args: argparse.Namespace) -> int:
    return run_ruling(lambda: game_named(args.game).score_report(read_json(args.file)))


def _legal(args: argparse.Namespace) -> int:
    return run_ruling(lambda: game_named(args.game).legal_report(read_json(args.file)))


def register(subparsers: Any) -> None:
    games = ", ".join(available_games())
    score = subparsers.add_parser("score", help="score players' holdings for a game")
    score.add_argument("game", help=games)
    score.add_argument("file", help="JSON holdings, or - for standard input")
    score.set_defaults(handler=_score)

    legal = subparsers.add_parser("legal", help="list the legal actions in a position")
    legal.add_argument("game", help=games)
    legal.add_argument("file", help="JSON position or engine state, or - for standard input")
    legal.set_defaults(handler=_legal)

    for name in available_games():  # a game's own rulings: each a command
        for ruling in get_game(name).rulings():
            command = subparsers.add_parser(ruling.name, help=ruling.help, description=ruling.description)
            command.add_argument("file", help="JSON document, or - for standard input")
            command.set_defaults(handler=_ruled_by(ruling))
