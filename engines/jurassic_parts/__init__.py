"""Jurassic Parts: the slab-splitting fossil game, as a pure rules engine registered as ``jurassic-parts``.

* :data:`GAME` / :class:`JurassicPartsGame`: setup (a seeded random slab for bots, or
  :meth:`~JurassicPartsGame.state_from_layout` for a slab as observed), rulings, validation.
* :class:`JurassicPartsState`: one playthrough (chance nodes for face-down fossils).
* :func:`split_ruling`: ``companion split FILE``.
* :data:`COMPONENTS` / :func:`component`: the 58 tiles with their (default, to be checked) rocky edges.

Files, in import order: ``rules``, ``board`` (the slab), ``components`` (with the generated default rocks,
``_default_set``), ``actions``, ``scoring``, ``moves`` (phases and what each action does), ``state``,
``codec`` (reading the state JSON), ``rulings`` (the command-line rulings), ``bots``, ``game``.
"""

from engines.core import register_game
from engines.jurassic_parts.actions import (
    ACTION_TYPES,
    CODEC,
    AwardPart,
    BuyIgnoreRocks,
    BuyLeaderTile,
    BuySharpen,
    BuySlabTile,
    CommitBones,
    EndTurn,
    KeepTile,
    PickUpChisel,
    PlaceChisel,
    Reveal,
    Sell,
    TakeTile,
)
from engines.jurassic_parts.board import Layout, rank_contributors, shares
from engines.jurassic_parts.bots import bot_policy
from engines.jurassic_parts.components import (
    COMPONENTS,
    IS_DEFAULT_ROCKS,
    RESOURCE_CARDS,
    SPECIES,
    Component,
    ResourceCard,
    component,
    manifest,
)
from engines.jurassic_parts.game import JurassicPartsGame, random_layout
from engines.jurassic_parts.rules import RULEBOOK
from engines.jurassic_parts.rulings import split_ruling
from engines.jurassic_parts.scoring import score_holding
from engines.jurassic_parts.state import JurassicPartsState

GAME = JurassicPartsGame()
register_game(GAME)

__all__ = [
    "ACTION_TYPES",
    "CODEC",
    "COMPONENTS",
    "GAME",
    "IS_DEFAULT_ROCKS",
    "RESOURCE_CARDS",
    "RULEBOOK",
    "SPECIES",
    "AwardPart",
    "BuyIgnoreRocks",
    "BuyLeaderTile",
    "BuySharpen",
    "BuySlabTile",
    "CommitBones",
    "Component",
    "EndTurn",
    "JurassicPartsGame",
    "JurassicPartsState",
    "KeepTile",
    "Layout",
    "PickUpChisel",
    "PlaceChisel",
    "ResourceCard",
    "Reveal",
    "Sell",
    "TakeTile",
    "bot_policy",
    "component",
    "manifest",
    "random_layout",
    "rank_contributors",
    "score_holding",
    "shares",
    "split_ruling",
]
