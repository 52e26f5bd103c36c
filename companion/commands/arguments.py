"""What every command shares about its arguments: bad input is one ``error:`` line on stderr and exit 2.

:class:`OneLineParser` makes argparse's own refusals one line too, and the ``type=`` checkers below refuse
what would otherwise go wrong later (a port out of range, a size that is not finite, a seat count no game
has) with the argument's name in the message.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from lan.arguments import EXIT_BAD_INPUT, OneLineParser, bind_address, port_number, refuse

__all__ = ["EXIT_BAD_INPUT", "BadInput", "OneLineParser", "bind_address", "bounded_number", "bounded_whole",
           "companion_seat", "fail", "game_id", "millimetres", "port_number", "seat_count", "seconds",
           "seed"]


class BadInput(Exception):
    """Input a command cannot use (a file, a picture, a ruling's JSON); its message is the one line
    printed on stderr."""


def fail(command: str, message: object) -> int:
    """Say what is wrong in one line and give the exit status for bad input."""
    return refuse(message, f"companion {command}")


def bounded_number(low: float, high: float, what: str, low_open: bool = False) -> Callable[[str], float]:
    """A ``type=`` for a finite number in ``low..high`` (``low`` itself refused when ``low_open``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value > high or value < low or (low_open and value == low):
            above = f"more than {low:g}" if low_open else f"{low:g}"
            raise argparse.ArgumentTypeError(f"{what} must be {above} to {high:g}, not {text}")
        return value

    return parse


def bounded_whole(low: int, high: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low} to {high}, not {value}")
        return value

    return parse


#: lengths on a table in millimetres: more than 0, at most 100 m
millimetres = bounded_number(0.0, 100_000.0, "a length in mm", low_open=True)
seconds = bounded_number(0.0, 3600.0, "seconds")
seat_count = bounded_whole(1, 6, "the number of seats")
seed = bounded_whole(-(2**63), 2**63 - 1, "a seed")
game_id = bounded_whole(1, 2**62, "a game's id")


def option_setting(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of a game option: the value read as JSON (``true``, ``3``, ``"x"``), else as text."""
    import json

    name, equals, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals or not name or len(text) > 200:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE (e.g. edition=es)")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value.strip()


def companion_seat(text: str) -> tuple[str, int]:
    """``COLOUR=LEVEL``: a seat the companion plays, at level 1-3."""
    colour, equals, level = text.partition("=")
    if not equals or level.strip() not in ("1", "2", "3") or not colour.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not COLOUR=LEVEL with a level 1-3 (e.g. blue=3)")
    return colour.strip(), int(level)
