"""Jurassik components: tile ids, action faces, and the setup table of each edition.

Tile ids follow the cross-team conventions: dinosaur tiles ``D1-1``..``D10-4`` (dinosaur, piece) on the
skeleton side (``D3-2L`` is the living side of the same tile), action tiles ``ROCK-1``, ``STEAL-2``... and the
start tile ``START``. Inside the engine an action tile lying face down is the token ``"?"`` (its identity is
unknown until revealed) and a revealed Rock lying in the zone is ``"ROCK"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeGuard

EDITIONS = ("en", "es")

HIDDEN = "?"
ROCK = "ROCK"
START = "START"

#: action faces in rulebook order; the Spanish edition has no Returning
FACES: dict[str, tuple[str, ...]] = {
    "en": ("rock", "discard", "exchange", "steal", "twice", "return"),
    "es": ("rock", "discard", "exchange", "steal", "twice"),
}

#: the action tiles in the box of each edition (RULES-NOTES: English 23, Spanish 22)
ACTION_MIX: dict[str, dict[str, int]] = {
    "en": {"rock": 6, "discard": 3, "exchange": 4, "steal": 4, "twice": 4, "return": 2},
    "es": {"rock": 6, "discard": 4, "exchange": 4, "steal": 4, "twice": 4},
}

#: dinosaurs in the box: the English box has 10, the Spanish box 8 (32 cards)
DINOSAURS_IN_BOX = {"en": 10, "es": 8}

#: tag prefix of an action tile front -> face
FACE_BY_TAG = {
    "ROCK": "rock",
    "DISCARD": "discard",
    "EXCHANGE": "exchange",
    "STEAL": "steal",
    "TWICE": "twice",
    "RETURN": "return",
}

_DINO_RE = re.compile(r"^D(10|[1-9])-([1-4])(L?)$")
_ACTION_TAG_RE = re.compile(r"^(ROCK|DISCARD|EXCHANGE|STEAL|TWICE|RETURN)-[1-9][0-9]?$")


@dataclass(frozen=True, slots=True)
class Setup:
    """What one edition and player count put on the table (RULES-NOTES setup table)."""

    dinosaurs: int
    actions: int
    rows: int
    cols: int

    @property
    def tiles(self) -> int:
        return 4 * self.dinosaurs + self.actions + 1


def setup_for(edition: str, players: int, long_game: bool = False) -> Setup:
    """The setup row of the RULES-NOTES table; ValueError for a combination the rulebooks do not have."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; editions: en, es")
    if not 2 <= players <= 5:
        raise ValueError(f"Jurassik takes 2-5 players, not {players}")
    if edition == "es":
        if long_game:
            raise ValueError("the Spanish edition has no 'all tiles' long game")
        return Setup(dinosaurs=8, actions=15, rows=6, cols=8)
    if long_game or players == 5:
        return Setup(dinosaurs=10, actions=23, rows=8, cols=8)
    if players == 2:
        return Setup(dinosaurs=6, actions=11, rows=6, cols=6)
    return Setup(dinosaurs=8, actions=16, rows=7, cols=7)


def is_text(value: object) -> TypeGuard[str]:
    """A non-empty string of real Unicode text: no lone surrogates (what undecodable input bytes become)."""
    if not isinstance(value, str) or not value.strip():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def dino_id(dinosaur: int, piece: int) -> str:
    return f"D{dinosaur}-{piece}"


def all_dino_tiles(edition: str) -> list[str]:
    """Every dinosaur tile in the box of ``edition``, in order."""
    return [dino_id(d, p) for d in range(1, DINOSAURS_IN_BOX[edition] + 1) for p in range(1, 5)]


def parse_dino(tile: object) -> tuple[int, int] | None:
    """(dinosaur, piece) of a dinosaur tile id (either side), or None if ``tile`` is not one."""
    if not isinstance(tile, str):
        return None
    match = _DINO_RE.match(tile)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


def normalize_dino(tile: object) -> str | None:
    """The skeleton-side id of a dinosaur tile id (``D3-2L`` -> ``D3-2``), or None."""
    parsed = parse_dino(tile)
    return None if parsed is None else dino_id(*parsed)


def dinosaur_of(tile: str) -> int:
    """The dinosaur number of a (normalized) dinosaur tile id."""
    return int(tile[1 : tile.index("-")])


def tile_sort_key(tile: str) -> tuple[int, int]:
    parsed = parse_dino(tile)
    return parsed if parsed is not None else (99, 99)


def face_of_tag(tag: str) -> str | None:
    """The face of an action tile front id (``STEAL-2`` -> ``steal``), or None."""
    if not _ACTION_TAG_RE.match(tag):
        return None
    return FACE_BY_TAG[tag.split("-")[0]]


#: points for holding 1, 2, 3 or 4 tiles of one dinosaur
POINTS = {0: 0, 1: 1, 2: 3, 3: 6, 4: 10}
