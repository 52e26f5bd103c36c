"""The tags of Jurassic Brunch: the four pasture boards (at each board's centre cell), the triceratops of
both teams and the raptor, and the 28 grass tokens (fronts name their kind; backs are opaque); counts from
the engine."""

from __future__ import annotations

import re

from companion.kits.jurassic_brunch.reading import READING
from companion.kits.kit import printed_set
from engines.jurassic_brunch.board import BOARD_IDS, COLOURS
from engines.jurassic_brunch.components import SUPER_YUMMY, TOKEN_COUNTS, TRICERATOPS_PER_PLAYER, YUMMY
from engines.jurassic_brunch.game import JurassicBrunch
from vision.tags import DEFAULT_SEED, ManifestEntry, PrintedSet, TagInventory

#: the game as its engine declares it; its code begins every payload
INFO = JurassicBrunch.info
CODE = INFO.code
#: the order the token sheets print the kinds in (Yummies first: the most numerous)
PRINT_ORDER = (YUMMY, SUPER_YUMMY, *(kind for kind in TOKEN_COUNTS if kind not in (YUMMY, SUPER_YUMMY)))


def token_tag(kind: str, number: int) -> str:
    """The printed id of a grass token (``SUPER_YUMMY``, 1 -> ``SUPER-YUMMY-01``)."""
    return f"{kind.replace('_', '-')}-{number:02d}"


def figure_tag(colour: str, number: int) -> str:
    return f"TRI-{colour.upper()}-{number}"


#: a figure's printed id: its team's colour and number (``TRI-BLUE-2``); without the number, what the
#: table reads it as (a team's triceratops are alike: whichever stands where is the group's choice)
FIGURE_TAG = re.compile(r"^TRI-([A-Z]+)(?:-(\d+))?$")
#: a grass token's printed id: its kind and number (``SUPER-YUMMY-04``)
TOKEN_TAG = re.compile(r"^([A-Z]+(?:-[A-Z]+)*)-(\d+)$")


def alike(component_id: str) -> str:
    """What a front counts as on the table: a team's triceratops and a kind's tokens are interchangeable
    (``TRI-BLUE-2`` -> ``TRI-BLUE``, ``SUPER-YUMMY-04`` -> ``SUPER-YUMMY``); anything else by its id."""
    figure = FIGURE_TAG.match(component_id)
    if figure:
        return f"TRI-{figure.group(1)}"
    token = TOKEN_TAG.match(component_id)
    if token and token.group(1).replace("-", "_") in TOKEN_COUNTS:
        return token.group(1)
    return component_id


RAPTOR_TAG = "RAPTOR"


def inventory() -> TagInventory:
    faces = [ManifestEntry(board, "front", "board", f"pasture board {board.split('-')[-1]}")
             for board in BOARD_IDS]
    for colour in COLOURS:
        for number in range(1, TRICERATOPS_PER_PLAYER + 1):
            what = f"triceratops {colour.upper()}"
            faces.append(ManifestEntry(figure_tag(colour, number), "front", "figure", what))
    faces.append(ManifestEntry(RAPTOR_TAG, "front", "figure", "raptor"))
    tokens = []
    for kind in PRINT_ORDER:
        printed_kind = kind.replace("_", "-")
        for number in range(1, TOKEN_COUNTS[kind] + 1):
            tag = token_tag(kind, number)
            faces.append(ManifestEntry(tag, "front", "token", printed_kind))
            tokens.append(tag)
    opaque = tuple((tag, None) for tag in tokens)
    return TagInventory(code=CODE, name=INFO.name, faces=tuple(faces), opaque=opaque)


INVENTORY = inventory()


def printed(seed: int = DEFAULT_SEED) -> PrintedSet:
    return printed_set(INVENTORY, READING.tag_mm, seed)
