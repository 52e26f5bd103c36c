"""Jurassic Brunch: two triceratops teams graze four freely placed pasture boards under a raptor's eye.

``import engines.jurassic_brunch`` registers the game as ``"jurassic-brunch"``. The full state format is in
docs/jurassic-brunch.md; the readings of the rulebook are in shared/RULES-NOTES.md and in :mod:`.rules`.

Files, in import order: ``rules``, ``board`` (the pasture boards and the playing area), ``components`` (the
grass tokens and figures), ``actions``, ``scoring``, ``moves`` (what each action does), ``state``,
``codec`` (reading the state JSON), ``rulings`` (the command-line rulings), ``game``.
"""

from engines.core import register_game
from engines.jurassic_brunch.actions import (
    Birth,
    Charge,
    EndTurn,
    Expel,
    Hide,
    Look,
    Move,
    RaptorMove,
    Reveal,
    Steal,
    UseSuperYummy,
    Wake,
)
from engines.jurassic_brunch.board import (
    ARRANGEMENTS,
    BOARD_IDS,
    DEFAULT_EGGS,
    DEFAULT_EGGS_ARE_ASSUMED,
    AreaError,
    Board,
    PlayingArea,
    arrangement,
    boards_from_tags,
    random_arrangement,
)
from engines.jurassic_brunch.codec import check_conservation
from engines.jurassic_brunch.components import TOKEN_COUNTS, TOKEN_KINDS, TOKEN_POINTS, kind_from_tag
from engines.jurassic_brunch.game import JurassicBrunch
from engines.jurassic_brunch.rules import RULES
from engines.jurassic_brunch.state import BrunchState

GAME = JurassicBrunch()
register_game(GAME)

__all__ = [
    "ARRANGEMENTS",
    "BOARD_IDS",
    "DEFAULT_EGGS",
    "DEFAULT_EGGS_ARE_ASSUMED",
    "GAME",
    "RULES",
    "TOKEN_COUNTS",
    "TOKEN_KINDS",
    "TOKEN_POINTS",
    "AreaError",
    "Birth",
    "Board",
    "BrunchState",
    "Charge",
    "EndTurn",
    "Expel",
    "Hide",
    "JurassicBrunch",
    "Look",
    "Move",
    "PlayingArea",
    "RaptorMove",
    "Reveal",
    "Steal",
    "UseSuperYummy",
    "Wake",
    "arrangement",
    "boards_from_tags",
    "check_conservation",
    "kind_from_tag",
    "random_arrangement",
]
