"""Jurassik (English and Spanish editions): registered as ``"jurassik"`` on import."""

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
from engines.jurassik.deal import HiddenDeal, deal_hidden_faces, reveal_for
from engines.jurassik.engine import JurassikGame, JurassikState, score_hands
from engines.jurassik.reports import legal_report, score_report
from engines.jurassik.rules import RULEBOOKS
from engines.jurassik.state_format import state_from_observation

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
    "HiddenDeal",
    "JurassikGame",
    "JurassikState",
    "RemoveStart",
    "ReturnTile",
    "Reveal",
    "Setup",
    "Steal",
    "Take",
    "all_dino_tiles",
    "deal_hidden_faces",
    "face_of_tag",
    "legal_report",
    "reveal_for",
    "score_hands",
    "score_report",
    "setup_for",
    "state_from_observation",
]
