"""Jurassik in the players' words: dinosaur pieces by number and piece, action tiles by their face."""

from __future__ import annotations

import re

from companion.i18n import lazy_pgettext, pgettext
from engines.jurassik.components import FACE_BY_TAG, START

_PIECE = re.compile(r"^D(10|[1-9])-([1-4])(L?)$")
_DINOSAUR = re.compile(r"^D(10|[1-9])$")
_ACTION = re.compile(r"^([A-Z]+)-[0-9]+$")


def piece_of(name: str) -> tuple[int, int, bool] | None:
    """``D3-2L`` -> (3, 2, True): a dinosaur tile's dinosaur, piece and whether its living side shows."""
    piece = _PIECE.match(name)
    return (int(piece.group(1)), int(piece.group(2)), bool(piece.group(3))) if piece else None


#: the action faces as the rulebook names them
FACE_WORDS = {"rock": lazy_pgettext("jurassik", "Rock"), "discard": lazy_pgettext("jurassik", "Discarding"),
              "exchange": lazy_pgettext("jurassik", "Exchanging"),
              "steal": lazy_pgettext("jurassik", "Stealing"),
              "twice": lazy_pgettext("jurassik", "Playing twice"),
              "return": lazy_pgettext("jurassik", "Returning")}


def jurassik_words(name: str) -> str | None:
    """``D3-2`` -> "dinosaur 3, piece 2", ``D3-2L`` adds "living side", ``D3`` (a score part) ->
    "dinosaur 3", ``STEAL-2`` -> "Stealing tile", ``steal`` (a face) -> "a Stealing tile", ``START`` ->
    "start tile"."""
    if name in FACE_WORDS:
        return pgettext("jurassik", "a %(face)s tile") % {"face": FACE_WORDS[name]}
    piece = piece_of(name)
    if piece:
        said = {"dinosaur": piece[0], "piece": piece[1]}
        if piece[2]:
            return pgettext("jurassik", "dinosaur %(dinosaur)d, piece %(piece)d, living side") % said
        return pgettext("jurassik", "dinosaur %(dinosaur)d, piece %(piece)d") % said
    dinosaur = _DINOSAUR.match(name)
    if dinosaur:
        return pgettext("jurassik", "dinosaur %(dinosaur)s") % {"dinosaur": dinosaur.group(1)}
    action = _ACTION.match(name)
    if action and action.group(1) in FACE_BY_TAG:
        return pgettext("jurassik", "%(face)s tile") % {"face": FACE_WORDS[FACE_BY_TAG[action.group(1)]]}
    return pgettext("jurassik", "start tile") if name == START else None
