"""The 28 grass tokens: kinds, how many of each, and what each scores."""

from __future__ import annotations

from collections.abc import Mapping

BIRTH = "BIRTH"
HIDEOUT = "HIDEOUT"
FLOWER = "FLOWER"
STODGY = "STODGY"
TRAP = "TRAP"
SUPER_YUMMY = "SUPER_YUMMY"
YUMMY = "YUMMY"

#: token kind -> number of tokens in the box (28 in all)
TOKEN_COUNTS: Mapping[str, int] = {
    BIRTH: 3,
    HIDEOUT: 2,
    FLOWER: 4,
    STODGY: 3,
    TRAP: 1,
    SUPER_YUMMY: 3,
    YUMMY: 12,
}
TOKEN_KINDS: tuple[str, ...] = tuple(TOKEN_COUNTS)
#: the rulebook's name of each token ("Effects of the Tokens")
TOKEN_TITLES: dict[str, str] = {
    BIRTH: "Birth",
    HIDEOUT: "Hideout",
    FLOWER: "Flower",
    STODGY: "Stodgy Grass",
    TRAP: "It Was a Trap!",
    SUPER_YUMMY: "Super Yummy",
    YUMMY: "Yummy",
}
TOTAL_TOKENS = sum(TOKEN_COUNTS.values())

#: points per token held at the end (a used Super Yummy is discarded, so it no longer scores)
TOKEN_POINTS: Mapping[str, int] = {
    BIRTH: 1,
    HIDEOUT: 1,
    FLOWER: 1,
    STODGY: 3,
    TRAP: 3,
    SUPER_YUMMY: 1,
    YUMMY: 2,
}

#: tag id prefixes of the printed token fronts (``DT1:JB:SUPER-YUMMY-01``) -> kind
_TAG_PREFIXES = {kind.replace("_", "-"): kind for kind in TOKEN_KINDS}

#: how many of a player's tokens one Hideout protects
HIDEOUT_CAPACITY = 3
#: triceratops figures per team, and the raptor's name where a dinosaur is named
TRICERATOPS_PER_PLAYER = 5
RAPTOR = "raptor"


def normalise_kind(name: object) -> str:
    """``"super-yummy"``, ``"Super_Yummy"`` -> ``"SUPER_YUMMY"``; ValueError for anything else."""
    if not isinstance(name, str):
        raise ValueError(f"a token kind must be a string, not {type(name).__name__}")
    kind = name.strip().upper().replace("-", "_").replace(" ", "_")
    if kind not in TOKEN_COUNTS:
        raise ValueError(f"unknown grass token {name!r}; known: {', '.join(TOKEN_KINDS)}")
    return kind


def kind_from_tag(tag_id: str) -> str | None:
    """The kind of a token front tag id (``"SUPER-YUMMY-01"`` -> ``"SUPER_YUMMY"``), None if not a front."""
    prefix, _, number = tag_id.rpartition("-")
    if not number.isdigit():
        return None
    return _TAG_PREFIXES.get(prefix)


def points(tokens: Mapping[str, int]) -> dict[str, int]:
    """Points per kind for a holding (kinds held only), in the box order."""
    return {kind: TOKEN_POINTS[kind] * tokens[kind] for kind in TOKEN_KINDS if tokens.get(kind, 0)}
