"""`companion`: the command-line entry point.

Each group of subcommands lives in its own module under ``companion.commands`` and exposes
``register(subparsers)``; a subcommand's handler returns the process exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion.commands.arguments import OneLineParser

COMMAND_MODULES = (
    "companion.commands.demo",
    "companion.commands.rulings",
    "companion.commands.hint",
    "companion.commands.vision_tools",
    "companion.commands.play",
    "companion.commands.web",
    "companion.commands.doctor",
)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="companion",
        description="Dino Table Companion: reads, rules and scores real dinosaur board games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from companion import i18n

    i18n.use(i18n.from_environment())  # English unless LANGUAGE, LC_ALL, LC_MESSAGES or LANG say otherwise
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stopped:  # --help, or a refused argument (one error: line, exit 2)
        return stopped.code if isinstance(stopped.code, int) else 2
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        status: int = args.handler(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped early (`companion split FILE | head`): nothing is wrong
        quiet_closed_stdout()
        return 0
    return status


def quiet_closed_stdout() -> None:
    """Point stdout at /dev/null so that Python's flush at exit does not report the closed pipe again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
