"""Jurassic World: Rückkehr zur Isla Nublar, the rules engine (registered as ``isla-nublar``).

The board and the card lists are data files (``data/``), shipped as marked defaults; see docs/isla-nublar.md.

Files, in import order: ``rules``, ``board`` (the island from its data file), ``components`` (the cards,
pieces and card zones), ``actions``, ``scoring``, ``tasks`` and ``dinosaurs`` (the pending work of a turn),
``moves`` (the main phase), ``state``, ``codec`` (reading the state JSON), ``rulings`` (the command-line
rulings), ``bots``, ``game``.
"""

from engines.core import register_game
from engines.isla_nublar.actions import ACTION_TYPES, CODEC
from engines.isla_nublar.board import Board, Field, board_from_dict, default_board
from engines.isla_nublar.components import CardSet, cards_from_dict, default_cards
from engines.isla_nublar.game import IslaNublarGame
from engines.isla_nublar.rules import RULEBOOK
from engines.isla_nublar.scoring import score_card
from engines.isla_nublar.state import IslaNublarState

GAME = IslaNublarGame()
register_game(GAME)

__all__ = [
    "ACTION_TYPES",
    "CODEC",
    "GAME",
    "RULEBOOK",
    "Board",
    "CardSet",
    "Field",
    "IslaNublarGame",
    "IslaNublarState",
    "board_from_dict",
    "cards_from_dict",
    "default_board",
    "default_cards",
    "score_card",
]
