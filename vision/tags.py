"""The DT1 tag scheme: payloads, per-game manifests, strict validation.

A tag payload is ``DT1:<GAME>:<ID>`` in the QR alphanumeric charset (CONVENTIONS.md). Every game has a
:class:`Manifest` listing the ids of a printed set: component fronts (with what they are) and opaque back
ids (5 characters from 0-9A-Z drawn from a seed, revealing nothing about the front). Validation never
raises on bad input: anything that is not a tag of the current game's manifest is *counted* under a reason
and ignored; a duplicated id is reported.

Which back belongs to which front is known only where it physically belongs: the :class:`PrintedSet` (the
sheet printer puts a tile's front and back stickers together; the synthetic table draws the right back on
a face-down tile). The manifest the companion loads (:func:`manifest_for`, ``<game>-manifest.json``) lists
the backs sorted by id, after the fronts, with nothing that names their front.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEME = "DT1"
GAME_CODES: dict[str, str] = {
    "JP": "jurassic-parts",
    "JK": "jurassik",
    "JB": "jurassic-brunch",
    "IN": "isla-nublar",
}
_NAME_TO_CODE = {name: code for code, name in GAME_CODES.items()}
_ALIASES = {
    "parts": "JP",
    "jurassic_parts": "JP",
    "jurassik-en": "JK",
    "jurassik-es": "JK",
    "brunch": "JB",
    "jurassic_brunch": "JB",
    "nublar": "IN",
    "isla": "IN",
    "isla_nublar": "IN",
}
ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
_ID_RE = re.compile(r"^[0-9A-Z][0-9A-Z-]{0,20}$")
BACK_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BACK_LENGTH = 5
DEFAULT_SEED = 1

# Rejection reasons (keys of Observation.rejected).
NOT_TEXT = "not-text"
NOT_ALPHANUMERIC = "not-alphanumeric"
OTHER_SCHEME = "other-scheme"
MALFORMED = "malformed"
OTHER_GAME = "other-game"
UNKNOWN_ID = "unknown-id"


def game_code(game: str) -> str:
    """``"JP"``, ``"jurassic-parts"``, ``"parts"`` -> ``"JP"``; ValueError naming the known games."""
    text = str(game).strip()
    if text.upper() in GAME_CODES:
        return text.upper()
    lowered = text.lower()
    if lowered in _NAME_TO_CODE:
        return _NAME_TO_CODE[lowered]
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    known = ", ".join(f"{code} ({name})" for code, name in GAME_CODES.items())
    raise ValueError(f"unknown game {game!r}; known: {known}")


def payload(game: str, component_id: str) -> str:
    """The payload printed on a tag; ValueError if it could not be a valid tag."""
    code = game_code(game)
    if not _ID_RE.match(component_id):
        raise ValueError(f"tag id {component_id!r} must be 0-9 A-Z and '-' (at most 21 characters)")
    return f"{SCHEME}:{code}:{component_id}"


@dataclass(frozen=True)
class ParsedPayload:
    game: str
    component_id: str


def parse_payload(text: object) -> ParsedPayload | str:
    """A well-formed payload's game and id, or the rejection reason (a string). Never raises."""
    if not isinstance(text, str):
        return NOT_TEXT
    if len(text) > 64 or not text or not ALPHANUMERIC.issuperset(text):
        return NOT_ALPHANUMERIC
    parts = text.split(":")
    if parts[0] != SCHEME:
        return OTHER_SCHEME
    if len(parts) != 3:
        return MALFORMED
    _, code, component_id = parts
    if code not in GAME_CODES or not _ID_RE.match(component_id):
        return MALFORMED
    return ParsedPayload(code, component_id)


# ------------------------------------------------------------------------------------------- manifests
@dataclass(frozen=True)
class ManifestEntry:
    """One printed tag: its id, which face of the component it is on, and what the component is.

    ``kind`` groups components for printing (``tile``, ``action``, ``token``, ``figure``, ``board``...);
    ``component`` says what a front shows (``"TREX-3"``, ``"STEAL"``), empty for opaque backs; ``rocks``
    (Jurassic Parts) are the rocky edges at the tag's rotation 0; ``tag_mm`` is the printed side of a
    version-1 code (a version-2 payload prints 25/21 of it, the same module size).
    """

    component_id: str
    face: str
    kind: str
    component: str = ""
    rocks: tuple[bool, ...] | None = None
    tag_mm: float = 12.0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.component_id, "face": self.face, "kind": self.kind}
        if self.component:
            data["component"] = self.component
        if self.rocks is not None:
            data["rocks"] = [int(r) for r in self.rocks]
        data["tag_mm"] = self.tag_mm
        return data


@dataclass(frozen=True)
class Manifest:
    """Every tag id of one printed set of one game."""

    game: str
    seed: int
    entries: Mapping[str, ManifestEntry]
    notes: tuple[str, ...] = ()

    def __contains__(self, component_id: object) -> bool:
        return component_id in self.entries

    def entry(self, component_id: str) -> ManifestEntry | None:
        return self.entries.get(component_id)

    def payloads(self) -> list[str]:
        return [payload(self.game, cid) for cid in self.entries]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "game": self.game,
            "name": GAME_CODES[self.game],
            "seed": self.seed,
            "notes": list(self.notes),
            "tags": [entry.to_dict() for entry in self.entries.values()],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Manifest:
        entries = {}
        for row in data["tags"]:
            rocks = row.get("rocks")
            entry = ManifestEntry(
                component_id=str(row["id"]),
                face=str(row["face"]),
                kind=str(row["kind"]),
                component=str(row.get("component", "")),
                rocks=None if rocks is None else tuple(bool(r) for r in rocks),
                tag_mm=float(row.get("tag_mm", 12.0)),
            )
            entries[entry.component_id] = entry
        game, seed, notes = game_code(data["game"]), int(data.get("seed", 0)), tuple(data.get("notes", ()))
        return cls(game, seed, _backs_sorted(entries), notes)


def _backs_sorted(entries: Mapping[str, ManifestEntry]) -> dict[str, ManifestEntry]:
    """Entries in their order with the opaque backs moved to the end, sorted by id: the order of a manifest
    must not pair a back with its front (a file written in any order is read this way)."""
    opaque = sorted(cid for cid, e in entries.items() if e.face == "back" and not e.component)
    ordered = {cid: e for cid, e in entries.items() if cid not in set(opaque)}
    ordered.update((cid, entries[cid]) for cid in opaque)
    return ordered


def opaque_ids(count: int, seed: int, avoid: Iterable[str] = ()) -> list[str]:
    """``count`` distinct random ids (5 characters of 0-9A-Z) from ``seed``, none in ``avoid``."""
    rng = random.Random(f"dt1-backs-{seed}")
    taken = set(avoid)
    ids: list[str] = []
    while len(ids) < count:
        candidate = "".join(rng.choice(BACK_ALPHABET) for _ in range(BACK_LENGTH))
        if candidate not in taken:
            taken.add(candidate)
            ids.append(candidate)
    return ids


#: Printed side (mm) of a version-1 code, by component kind (a version-2 code keeps the module size, so it is
#: 25/21 larger). The table layouts (vision.tables) use 40 mm: about 3 px per module for a 2304x1296 camera
#: framing a 1280x720 mm table.
TAG_MM = {"tile": 40.0, "action": 40.0, "token": 40.0, "figure": 40.0, "board": 40.0}


def _jurassic_parts_backs() -> list[str]:
    """The opaque back ids of the engine's default component set (its printed set for seed 1)."""
    try:
        from engines.jurassic_parts import components as jp
    except ImportError:
        return []
    return [str(c.back) for c in jp.COMPONENTS]


def _jurassic_parts_tiles() -> tuple[list[tuple[str, str, tuple[bool, ...]]], str | None]:
    try:
        from engines.jurassic_parts import components as jp
    except ImportError:
        pass
    else:
        rows = [(c.tile_id, c.fossil, tuple(c.rocks)) for c in jp.COMPONENTS]
        note = "rocky edges from engines.jurassic_parts"
        if getattr(jp, "IS_DEFAULT_ROCKS", False):
            note += " (a generated default: check against the printed set)"
        return rows, note
    order = (
        [f"BRACHIO-{p}" for _ in range(2) for p in range(1, 6)]
        + [f"TREX-{p}" for _ in range(2) for p in range(1, 5)]
        + [f"TRICERA-{p}" for _ in range(3) for p in range(1, 4)]
        + [f"RAPTOR-{p}" for _ in range(5) for p in range(1, 3)]
        + ["PTERO"] * 8
        + ["PLANT"] * 10
        + ["BONES"] * 3
    )
    no_rocks = (False,) * 6
    return [(f"F{n:02d}", fossil, no_rocks) for n, fossil in enumerate(order, 1)], "engine absent: no rocks"


def mirror_rocks(rocks: tuple[bool, ...]) -> tuple[bool, ...]:
    """A tile turned over about its north-south axis: direction k shows what (3 - k) % 6 showed."""
    return tuple(rocks[(3 - k) % 6] for k in range(6))


@dataclass(frozen=True)
class PrintedSet:
    """A printed set as it leaves the printer: its manifest and which opaque back goes on which front.

    ``back_of`` maps a front id to the back id printed for the other side of the same component, in the
    fronts' order. Only the sheet printer and the simulation's ground truth use it; the companion loads
    :attr:`manifest` alone, which cannot pair a back with its front.
    """

    manifest: Manifest
    back_of: Mapping[str, str]

    def front_of(self, back_id: str) -> str | None:
        """The front printed on the other side of ``back_id`` (None for an id that is not a back)."""
        for front_id, back in self.back_of.items():
            if back == back_id:
                return front_id
        return None

    def backs(self, kind: str | None = None) -> list[str]:
        """The opaque back ids in their fronts' order (of one ``kind`` of component, or all)."""
        entries = self.manifest.entries
        return [back for front, back in self.back_of.items() if kind is None or entries[front].kind == kind]


def _build(game: str, seed: int) -> PrintedSet:
    fronts: list[ManifestEntry] = []
    backs_of: list[tuple[str, str, tuple[bool, ...] | None]] = []  # (front, kind, rocks) per opaque back
    entry = ManifestEntry
    notes: list[str] = []
    if game == "JP":
        rows, note = _jurassic_parts_tiles()
        if note:
            notes.append(note)
        for tile_id, fossil, rocks in rows:
            fronts.append(entry(tile_id, "front", "tile", fossil, rocks))
            backs_of.append((tile_id, "tile", mirror_rocks(rocks)))
    elif game == "JK":
        for dino in range(1, 11):
            for piece in range(1, 5):
                name = f"D{dino}-{piece}"
                what = f"dinosaur {dino} piece {piece}"
                fronts.append(entry(name, "front", "tile", f"{what} skeleton"))
                fronts.append(entry(f"{name}L", "back", "tile", f"{what} living"))
        mix = {"ROCK": 6, "DISCARD": 4, "EXCHANGE": 4, "STEAL": 4, "TWICE": 4, "RETURN": 2}
        for action, count in mix.items():
            for number in range(1, count + 1):
                fronts.append(ManifestEntry(f"{action}-{number}", "front", "action", action))
                backs_of.append((f"{action}-{number}", "action", None))
        fronts.append(ManifestEntry("START", "front", "tile", "START"))
        notes.append("action tiles: the largest count of either edition (en 23, es 22) is printed")
    elif game == "JB":
        for board in range(1, 5):
            fronts.append(entry(f"BOARD-{board}", "front", "board", f"pasture board {board}"))
        for colour in ("BLUE", "ORANGE"):
            for number in range(1, 6):
                fronts.append(entry(f"TRI-{colour}-{number}", "front", "figure", f"triceratops {colour}"))
        fronts.append(ManifestEntry("RAPTOR", "front", "figure", "raptor"))
        counts = {"YUMMY": 12, "SUPER-YUMMY": 3, "BIRTH": 3, "HIDEOUT": 2, "FLOWER": 4, "STODGY": 3}
        counts["TRAP"] = 1
        for kind, count in counts.items():
            for number in range(1, count + 1):
                fronts.append(entry(f"{kind}-{number:02d}", "front", "token", kind))
                backs_of.append((f"{kind}-{number:02d}", "token", None))
    elif game == "IN":
        for corner in ("NW", "NE", "SE", "SW"):
            fronts.append(entry(f"BOARD-{corner}", "front", "board", f"island board {corner} corner"))
        for number in range(1, 5):
            fronts.append(ManifestEntry(f"DINO-{number}", "front", "figure", f"dinosaur figure {number}"))
        notes.append("camps and equipment boxes are found by colour, not tags")
    else:  # pragma: no cover - game_code() guards
        raise ValueError(game)
    entries = {front.component_id: front for front in fronts}
    backs = opaque_ids(len(backs_of), seed * 7919 + sum(map(ord, game)), avoid=entries)
    engine_backs = _jurassic_parts_backs() if game == "JP" and seed == DEFAULT_SEED else []
    if len(engine_backs) == len(backs_of) and len(set(engine_backs) | set(entries)) == len(
        engine_backs
    ) + len(entries):
        # The default printed set is the engine's default component set: same back ids, so a state's
        # face-down tiles and the printed tags agree. Other seeds are other printed sets.
        backs = engine_backs
        notes.append("back ids: the engine's default component set")
    back_of = {front_id: back_id for back_id, (front_id, _, _) in zip(backs, backs_of)}
    for back_id, (_, kind, back_rocks) in zip(backs, backs_of):
        entries[back_id] = ManifestEntry(back_id, "back", kind, "", back_rocks)
    sized = {
        cid: ManifestEntry(e.component_id, e.face, e.kind, e.component, e.rocks, TAG_MM.get(e.kind, e.tag_mm))
        for cid, e in _backs_sorted(entries).items()  # the manifest's order must not pair backs with fronts
    }
    return PrintedSet(Manifest(game, seed, sized, tuple(notes)), back_of)


_CACHE: dict[tuple[str, int], PrintedSet] = {}


def printed_set(game: str, seed: int = DEFAULT_SEED) -> PrintedSet:
    """A printed set of ``game`` (its opaque back ids drawn from ``seed``) with its front-back pairing:
    for the sheet printer and the simulation's ground truth only."""
    key = (game_code(game), int(seed))
    if key not in _CACHE:
        _CACHE[key] = _build(*key)
    return _CACHE[key]


def manifest_for(game: str, seed: int = DEFAULT_SEED) -> Manifest:
    """The manifest of a printed set of ``game``, as the companion loads it: fronts, then the opaque backs
    sorted by id (nothing in it pairs a back with its front)."""
    return printed_set(game, seed).manifest


# ------------------------------------------------------------------------------------------ validation
@dataclass(frozen=True)
class Validated:
    """A decoded payload accepted as a tag of the current game."""

    component_id: str
    face: str
    entry: ManifestEntry


@dataclass
class TagValidator:
    """Sorts decoded payloads of one frame into accepted tags, counted rejections and duplicates."""

    manifest: Manifest
    rejected: Counter[str] = field(default_factory=Counter)
    seen: set[str] = field(default_factory=set)
    duplicates: list[str] = field(default_factory=list)

    def check(self, text: object) -> Validated | None:
        """The tag, or None (counted under a reason, or as a duplicate of an id already accepted)."""
        parsed = parse_payload(text)
        if isinstance(parsed, str):
            self.rejected[parsed] += 1
            return None
        if parsed.game != self.manifest.game:
            self.rejected[OTHER_GAME] += 1
            return None
        entry = self.manifest.entry(parsed.component_id)
        if entry is None:
            self.rejected[UNKNOWN_ID] += 1
            return None
        if parsed.component_id in self.seen:
            if parsed.component_id not in self.duplicates:
                self.duplicates.append(parsed.component_id)
            return None
        self.seen.add(parsed.component_id)
        return Validated(parsed.component_id, entry.face, entry)
