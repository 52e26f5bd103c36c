"""Jurassik (English and Spanish editions): registered as ``"jurassik"`` on import.

Files, in import order: ``rules`` (the rulebook passages), ``board`` (the excavation grid), ``components``,
``actions``, ``scoring``, ``state``, ``codec`` (the state JSON), ``laid`` (the
square as the players laid it), ``rulings`` (the command-line
rulings), ``game``.
"""

from engines.core import register_game
from engines.jurassik.actions import (
    CODEC,
    Decline,
    Discard,
    Exchange,
    RemoveStart,
    ReturnTile,
    Reveal,
    Steal,
    Take,
)
from engines.jurassik.codec import state_from_observation
from engines.jurassik.components import (
    ACTION_MIX,
    FACES,
    HIDDEN,
    ROCK,
    START,
    Setup,
    all_dino_tiles,
    face_of_tag,
    setup_for,
)
from engines.jurassik.game import JurassikGame
from engines.jurassik.rules import RULEBOOKS
from engines.jurassik.rulings import legal_report, score_report
from engines.jurassik.scoring import score_hands
from engines.jurassik.state import JurassikState, Phase

GAME = JurassikGame()
register_game(GAME)

__all__ = [
    "ACTION_MIX",
    "CODEC",
    "FACES",
    "GAME",
    "HIDDEN",
    "ROCK",
    "RULEBOOKS",
    "START",
    "Decline",
    "Discard",
    "Exchange",
    "JurassikGame",
    "JurassikState",
    "Phase",
    "RemoveStart",
    "ReturnTile",
    "Reveal",
    "Setup",
    "Steal",
    "Take",
    "all_dino_tiles",
    "face_of_tag",
    "legal_report",
    "score_hands",
    "score_report",
    "setup_for",
    "state_from_observation",
]
