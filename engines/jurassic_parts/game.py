"""The Jurassic Parts :class:`Game`: options and house rules, the setup (random for bots, or the slab as
observed), start bonuses and resource cards."""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Game, Policy, StateFormatError
from engines.core.game import GameInfo, Option, Ruling
from engines.core.schema import Node, distinct
from engines.jurassic_parts import bots
from engines.jurassic_parts.actions import CODEC
from engines.jurassic_parts.board import NO_CHISEL, Cell, Layout
from engines.jurassic_parts.codec import state_from_dict
from engines.jurassic_parts.components import (
    CARD_BY_ID,
    COMPONENT_BY_ID,
    COMPONENTS,
    RESOURCE_CARDS,
    SPECIES,
)
from engines.jurassic_parts.moves import start_turn
from engines.jurassic_parts.rules import RULEBOOK
from engines.jurassic_parts.rulings import legal_report, score_report, split_ruling
from engines.jurassic_parts.state import JurassicPartsState

SPECIES_INDEX = {species.name: i for i, species in enumerate(SPECIES)}
BACK_ROCKS = {c.back: c.back_rocks for c in COMPONENTS}


def hex_distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def default_cells(count: int, rng: random.Random) -> list[Cell]:
    """A hex-ish blob of ``count`` cells around (0, 0): whole rings, then a random part of the next ring."""
    cells: list[Cell] = [(0, 0)]
    radius = 0
    while len(cells) < count:
        radius += 1
        ring = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                if hex_distance(q, r) == radius]
        if len(cells) + len(ring) > count:
            ring = rng.sample(ring, count - len(cells))
        cells.extend(sorted(ring))
    return cells


def random_layout(rng: random.Random) -> list[dict[str, Any]]:
    """The rulebook's setup with a seeded shuffle: a Pile of Bones face up in the centre, the other 57 tiles
    shuffled, nearly half of them turned face down, laid in a hex blob with random rotations.

    Face-down entries carry only what the table shows: the back id and the rocks seen on the back."""
    bones = [c for c in COMPONENTS if c.fossil == "BONES"]
    centre = bones[0]
    rest = [c for c in COMPONENTS if c is not centre]
    rng.shuffle(rest)
    face_down = len(rest) // 2 + rng.randint(0, 1)
    down_ids = {c.tile_id for c in rest[:face_down]}
    rng.shuffle(rest)
    cells = default_cells(len(COMPONENTS), rng)
    tiles: list[dict[str, Any]] = [
        {"cell": list(cells[0]), "id": centre.tile_id, "rotation": rng.randrange(6), "face_up": True}
    ]
    for cell, comp in zip(cells[1:], rest):
        rotation = rng.randrange(6)
        if comp.tile_id in down_ids:
            tiles.append({"cell": list(cell), "id": None, "back": comp.back, "rotation": rotation,
                          "rocks": list(comp.back_rocks), "face_up": False})
        else:
            tiles.append({"cell": list(cell), "id": comp.tile_id, "rotation": rotation, "face_up": True})
    return tiles


def _observed_tile(tile: Node) -> tuple[Cell, int, tuple[bool, ...], str | None, int, str | None]:
    """Cell, rotation, rocks, back id, fossil kind (-1 face down) and front id of an observed tile."""
    cell = tile["cell"].pair()
    rotation = tile.get("rotation", 0).integer(0, 5)
    face_up = tile.get("face_up", True).boolean()
    tile_id = tile.get("id").optional(lambda n: n.text())
    comp = COMPONENT_BY_ID.get(tile_id) if tile_id is not None else None
    if tile_id is not None and comp is None:
        tile["id"].fail(f"unknown tile id {tile_id!r}")
    if face_up and comp is None:
        tile.fail("is face up but has no tile id")
    back = tile.get("back").optional(lambda n: n.text())
    rocks_node = tile.get("rocks")
    if rocks_node.value is not None:
        rocks = tuple(item.boolean() for item in rocks_node.items_of(6, 6))
    elif comp is not None and face_up:
        rocks = tuple(comp.rocks)
    elif back is not None and back in BACK_ROCKS:
        rocks = tuple(BACK_ROCKS[back])  # the rocks printed on a known back (not its front's identity)
    else:
        rocks = (False,) * 6
    kind = comp.kind if face_up and comp is not None else -1
    return cell, rotation, rocks, back, kind, tile_id if face_up else None


def observed_slab(node: Node) -> tuple[Layout, list[int], list[str | None]]:
    """The slab of an observed setup: its layout, each slot's fossil kind (-1 face down) and front id."""
    items = node.items_of(2, len(COMPONENTS))
    read = [_observed_tile(tile) for tile in items]
    cells, rotations, rocks, backs, fossils, ids = (list(column) for column in zip(*read))
    known = [(item, tile_id) for item, tile_id in zip(items, ids) if tile_id is not None]
    distinct([item for item, _ in known], [tile_id for _, tile_id in known], "tile id")
    try:
        layout = Layout(cells, rocks, rotations, backs)
    except ValueError as error:
        node.fail(str(error))
    if len(layout.parts([True] * layout.size, [NO_CHISEL] * len(layout.gaps))) > 1:
        node.fail("the slab must be one piece of neighbouring tiles")
    return layout, fossils, ids


class JurassicPartsGame(Game):
    info = GameInfo("jurassic-parts", "JP", "Jurassic Parts", aliases=("parts",))
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        self.rulebook = RULEBOOK
        self.codec = CODEC
        self.options = (
            Option("resource_cards", 0, (0, 1, 2),
                   "resource cards dealt to each player from the cards whose text is known (the Backpack)"),
            Option("slab_purchase", "any", ("any", "face-up"),
                   "which slab tiles may be bought: any (a face-down one is turned up first; a Pile of Bones "
                   "stays and nothing is paid), or face-up tiles only", house_rule=True),
            Option("sell_pterodactyls", "never", ("never", "unpaid"),
                   "selling a Pterodactyl: never (it is always a complete dinosaur: the reading in "
                   "RULES-NOTES), or one that earned no amber (bought from the Field Leader, or taken while "
                   "the supply was empty), since the rulebook only forbids a tile of a complete dinosaur "
                   "\"after amber is collected for it\"", house_rule=True),
            Option("end_bones", "optimal", ("optimal", "loose"),
                   "Piles of Bones not committed by the end: placed where they score most (the reading in "
                   "RULES-NOTES), or left as loose tiles worth 1 each", house_rule=True),
        )

    # -- factories ------------------------------------------------------------------------------------
    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> JurassicPartsState:
        """A bot game: the default random slab (seeded), start bonuses, resource cards dealt."""
        rng = rng or random.Random()
        return self.state_from_layout(players, random_layout(rng), options=options, rng=rng)

    def state_from_layout(
        self,
        players: Sequence[str],
        tiles: Sequence[Mapping[str, Any]],
        first_player: str | None = None,
        options: Mapping[str, Any] | None = None,
        cards: Mapping[str, Sequence[str]] | None = None,
        rng: random.Random | None = None,
    ) -> JurassicPartsState:
        """The start of play on a slab as observed: each tile ``{"cell": [q, r], "rotation": 0-5,
        "face_up": bool, "id": "F07" | None, "back": id | None, "rocks": [6 bools] | None}``.

        A face-up tile needs its ``id`` (its rocks default to the component list's); a face-down tile's
        fossil is unknown, its rocks are those seen on its back (default: none)."""
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        layout, fossils, ids = observed_slab(Node(list(tiles), "tiles"))
        first = names.index(first_player) if first_player is not None else 0
        dealt = self._deal(names, resolved, cards, rng, first)
        state = JurassicPartsState(self, layout, names, resolved, first, fossils, ids, dealt)
        # start bonuses by seat, counted clockwise from the first player
        n = len(names)
        for seat in range(1, n):
            p = (first + seat) % n
            if seat in (1, 3, 4, 5):
                state.dull[p] -= 1
                state.sharp[p] += 1
            if seat >= 2 and state.supply > 0:
                state.supply -= 1
                state.amber[p] += 1
        state.turn_number = 0
        start_turn(state, first)
        return state

    def state_as_laid(self, players: Sequence[str], laid: Mapping[str, Any],
                      options: Mapping[str, Any] | None = None, strict: bool = True) -> JurassicPartsState:
        """The slab as the group laid it (``{"tiles": [...]}`` as :meth:`state_from_layout` reads them): any
        shape, face up or down as the tiles came. ``strict``: the whole box on the slab, a Pile of Bones face
        up (JP-SETUP); otherwise any slab the rules can play on. The resource cards are dealt as the
        engine deals them (seeded by the slab: the same slab deals the same)."""
        tiles = laid.get("tiles") if isinstance(laid, Mapping) else None
        if not isinstance(tiles, Sequence) or isinstance(tiles, str):
            raise StateFormatError("a laid slab needs 'tiles': a list of the tiles as they lie")
        if strict:
            bones = [t for t in tiles if isinstance(t, Mapping) and t.get("face_up", True)
                     and COMPONENT_BY_ID.get(str(t.get("id"))) is not None
                     and COMPONENT_BY_ID[str(t.get("id"))].fossil == "BONES"]
            if len(tiles) != len(COMPONENTS):
                raise self.illegal("JP-SETUP", "the slab has %(found)d of the %(wanted)d tiles",
                                   found=len(tiles),
                                   wanted=len(COMPONENTS))
            if not bones:
                raise self.illegal("JP-SETUP", "no Pile of Bones lies face up on the slab")
        seed = zlib.crc32(repr(sorted(map(repr, tiles))).encode())
        try:
            return self.state_from_layout(players, tiles, options=options, rng=random.Random(seed))
        except StateFormatError as error:
            if not strict:
                raise
            said_so = " ".join(str(error).split())  # the state's own words: no message of the catalogue
            raise self.illegal("JP-SETUP", said_so) from None

    def _deal(self, names: tuple[str, ...], options: Mapping[str, Any],
              cards: Mapping[str, Sequence[str]] | None, rng: random.Random | None,
              first: int) -> list[tuple[str, ...]]:
        if cards is not None:
            dealt = []
            for name in names:
                held = tuple(cards.get(name, ()))
                unknown = [c for c in held if c not in CARD_BY_ID]
                if unknown:
                    raise StateFormatError(f"cards.{name}: unknown resource card {unknown[0]!r}")
                dealt.append(held)
            return dealt
        per_player = int(options["resource_cards"])
        deck = [card.card_id for card in RESOURCE_CARDS]
        (rng or random.Random(0)).shuffle(deck)
        hands: list[list[str]] = [[] for _ in names]
        for _ in range(per_player):
            for seat in range(len(names)):
                if deck:
                    hands[(first + seat) % len(names)].append(deck.pop())
        return [tuple(hand) for hand in hands]

    # -- reading and rulings ----------------------------------------------------------------------------
    def state_from_dict(self, data: Mapping[str, Any]) -> JurassicPartsState:
        return state_from_dict(self, data)

    def score_report(self, data: Any) -> dict[str, Any]:
        return score_report(self, data)

    def bot_policy(self) -> Policy:
        return bots.bot_policy

    def legal_report(self, data: Any) -> dict[str, Any]:
        return legal_report(self, data)

    def rulings(self) -> tuple[Ruling, ...]:
        return (Ruling(
            "split",
            help="rule on a Jurassic Parts slab: is it split, who takes how many tiles",
            description="Read a slab (players, current player, tiles at axial q,r, chisels on gaps) and "
                        "print the split ruling as JSON.",
            rule=split_ruling,
        ),)
