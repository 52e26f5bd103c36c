"""Jurassic Parts components: the 58 fossil tiles, the dinosaurs they make up, and the resource cards.

Fossil kinds are small integers so that holdings are compact count tuples:

* ``0..13``: dinosaur parts ``BRACHIO-1..5``, ``TREX-1..4``, ``TRICERA-1..3``, ``RAPTOR-1..2``
* ``14`` ``PTERO``, ``15`` ``PLANT``, ``16`` ``BONES`` (an uncommitted Pile of Bones)
* ``17..30``: a Pile of Bones committed as part ``k - 17`` (written ``BONES:TREX-3``)

The rocky edges of each tile are NOT printed in the rulebook. :data:`COMPONENTS` is a *default* set,
generated once from a fixed seed by :func:`generate_default_set` and stored as data in
``_default_set.py``; it must be checked against a printed set before a real table relies on it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.jurassic_parts._default_set import DEFAULT_SET, DEFAULT_SET_SEED

# -- fossil kinds -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Species:
    """A dinosaur of the field guide: its name, its parts (fossil kinds), points, and copies in the box."""

    name: str
    title: str
    parts: tuple[int, ...]
    points: int
    copies: int

    @property
    def size(self) -> int:
        return len(self.parts)


PART_NAMES: tuple[str, ...] = (
    *(f"BRACHIO-{i}" for i in range(1, 6)),
    *(f"TREX-{i}" for i in range(1, 5)),
    *(f"TRICERA-{i}" for i in range(1, 4)),
    *(f"RAPTOR-{i}" for i in range(1, 3)),
)
N_PARTS = len(PART_NAMES)  # 14
PTERO = 14
PLANT = 15
BONES = 16
COMMITTED = 17  # BONES committed as part p has kind COMMITTED + p
N_KINDS = COMMITTED + N_PARTS  # 31

KIND_NAMES: tuple[str, ...] = (
    *PART_NAMES,
    "PTERO",
    "PLANT",
    "BONES",
    *(f"BONES:{name}" for name in PART_NAMES),
)
KIND_OF: dict[str, int] = {name: kind for kind, name in enumerate(KIND_NAMES)}
#: kinds a tile can show on its front (committed Piles of Bones are BONES tiles)
FRONT_KINDS: tuple[int, ...] = tuple(range(COMMITTED))

SPECIES: tuple[Species, ...] = (
    Species("BRACHIO", "Brachiosaurus", (0, 1, 2, 3, 4), 15, 2),
    Species("TREX", "T-Rex", (5, 6, 7, 8), 10, 2),
    Species("TRICERA", "Triceratops", (9, 10, 11), 7, 3),
    Species("RAPTOR", "Velociraptor", (12, 13), 4, 5),
)
SPECIES_OF_PART: tuple[int, ...] = tuple(
    index for index, species in enumerate(SPECIES) for _ in species.parts
)
PTERO_POINTS = 1
PLANT_POINTS: tuple[int, ...] = (0, 1, 3, 5, 8, 11, 15, 20, 25, 30, 35)

#: how many tiles of each front kind the box holds (58 in all)
BOX_COUNTS: tuple[int, ...] = (
    *(species.copies for species in SPECIES for _ in species.parts),
    8,  # PTERO
    10,  # PLANT
    3,  # BONES
)
assert sum(BOX_COUNTS) == 58 and len(BOX_COUNTS) == COMMITTED


def real_kind(kind: int) -> int:
    """The front of the tile behind a kind (a committed Pile of Bones is a BONES tile)."""
    return BONES if kind >= COMMITTED else kind


def plant_points(count: int) -> int:
    if count < len(PLANT_POINTS):
        return PLANT_POINTS[count]
    return PLANT_POINTS[-1] + 5 * (count - len(PLANT_POINTS) + 1)


# -- the 58 tiles -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Component:
    """One fossil tile: tag id ``F01``..``F58``, fossil name, rocky edges at rotation 0 (six booleans over the
    edge index k, counter-clockwise from east), and the opaque id printed on its back."""

    tile_id: str
    fossil: str
    rocks: tuple[bool, bool, bool, bool, bool, bool]
    back: str

    @property
    def kind(self) -> int:
        return KIND_OF[self.fossil]

    @property
    def back_rocks(self) -> tuple[bool, bool, bool, bool, bool, bool]:
        """Rocks seen on the back at its own rotation 0: the front's rocks mirrored east-west."""
        return mirror_rocks(self.rocks)

    def to_dict(self) -> dict[str, object]:
        return {"id": self.tile_id, "fossil": self.fossil, "rocks": list(self.rocks), "back": self.back,
                "back_rocks": list(self.back_rocks)}


def mirror_rocks(rocks: tuple[bool, ...]) -> tuple[bool, bool, bool, bool, bool, bool]:
    """Turning a tile over about its north-south axis swaps E<->W, NE<->NW, SW<->SE: k -> (3 - k) % 6."""
    r = [rocks[(3 - k) % 6] for k in range(6)]
    return (r[0], r[1], r[2], r[3], r[4], r[5])


def _fossil_order() -> list[str]:
    order: list[str] = []
    for species in SPECIES:
        for _ in range(species.copies):
            order.extend(PART_NAMES[p] for p in species.parts)
    order += ["PTERO"] * 8 + ["PLANT"] * 10 + ["BONES"] * 3
    return order


def generate_default_set(seed: int = DEFAULT_SET_SEED) -> tuple[tuple[str, str, str, str], ...]:
    """How ``_default_set.py`` was made: fossils in field-guide order, each edge rocky with chance 1/4,
    back ids of 5 characters from 0-9A-Z, all from ``random.Random(seed)``."""
    rng = random.Random(seed)
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    rows = []
    backs: set[str] = set()
    for number, fossil in enumerate(_fossil_order(), start=1):
        rocks = "".join("1" if rng.random() < 0.25 else "0" for _ in range(6))
        back = "".join(rng.choice(alphabet) for _ in range(5))
        while back in backs:
            back = "".join(rng.choice(alphabet) for _ in range(5))
        backs.add(back)
        rows.append((f"F{number:02d}", fossil, rocks, back))
    return tuple(rows)


def _component(row: tuple[str, str, str, str]) -> Component:
    tile_id, fossil, rocks, back = row
    r = [c == "1" for c in rocks]
    return Component(tile_id, fossil, (r[0], r[1], r[2], r[3], r[4], r[5]), back)


#: The default component list (58 tiles). Rocky edges are a generated default: check against a printed set.
COMPONENTS: tuple[Component, ...] = tuple(_component(row) for row in DEFAULT_SET)
COMPONENT_BY_ID: dict[str, Component] = {c.tile_id: c for c in COMPONENTS}
TILE_IDS: tuple[str, ...] = tuple(c.tile_id for c in COMPONENTS)
IS_DEFAULT_ROCKS = True


def component(tile_id: str) -> Component:
    """The tile with tag id ``tile_id`` (``F01``..``F58``); KeyError for an unknown id."""
    return COMPONENT_BY_ID[tile_id]


def manifest() -> dict[str, object]:
    """The component list as data for the tag manifest (vision) and the docs."""
    return {
        "default_rocks": IS_DEFAULT_ROCKS,
        "note": f"Rocky edges are a generated default (seed {DEFAULT_SET_SEED}); check them against a "
        "printed set.",
        "tiles": [c.to_dict() for c in COMPONENTS],
    }


# -- resource cards ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResourceCard:
    """A resource card as data: its text and the effects the engine knows how to apply."""

    card_id: str
    title: str
    text: str
    remains_in_play: bool
    extra_kept_chisels: int = 0


#: Cards whose text the rulebook prints. Others can be added here as data when their text is known.
RESOURCE_CARDS: tuple[ResourceCard, ...] = (
    ResourceCard(
        "BACKPACK",
        "Backpack",
        "You may carry over an additional Chisel between turns. (Remains in play)",
        remains_in_play=True,
        extra_kept_chisels=1,
    ),
)
CARD_BY_ID: dict[str, ResourceCard] = {card.card_id: card for card in RESOURCE_CARDS}


#: the numbers the rulebook gives: each player's chisels, the amber supply, chisels sharpened at a turn's
#: start and kept sharp at its end, the most tiles one contributor takes from a split, purchase prices
CHISELS_PER_PLAYER = 12
AMBER_SUPPLY = 20
SHARPEN_PER_TURN = 3
SAVED_SHARP = 1
SHARE_CAP = 6
PURCHASE_PRICES = (1, 2, 3)


def purchase_price(purchases_made: int) -> int:
    """The price of the next purchase after ``purchases_made`` this turn: 1, 2, then 3 amber."""
    return PURCHASE_PRICES[min(purchases_made, len(PURCHASE_PRICES) - 1)]
