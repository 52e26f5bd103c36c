"""The DT1 tag scheme: payloads, manifests of printed sets, strict validation.

A tag payload is ``DT1:<CODE>:<ID>`` in the QR alphanumeric charset, ``CODE`` being the game's two-letter
tag code (``JP``). A game's kit describes what its components carry (a :class:`TagInventory`, derived from
the engine's own component data); a :class:`Manifest` lists the ids of one printed set: named faces (with
what they show) and opaque back ids (5 characters from 0-9A-Z drawn from a seed, revealing nothing about the
front). Validation never raises on bad input: anything that is not a tag of the current game's manifest is
*counted* under a reason and ignored; a duplicated id is reported.

Which back belongs to which front is known only where it physically belongs: the :class:`PrintedSet` (the
sheet printer puts a tile's front and back stickers together; the synthetic table draws the right back on
a face-down tile). The manifest the companion loads (``<game>-manifest.json``) lists
the backs sorted by id, after the fronts, with nothing that names their front.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

SCHEME = "DT1"
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


_CODE_RE = re.compile(r"^[A-Z][0-9A-Z]$")


def payload(code: str, component_id: str) -> str:
    """The payload printed on a tag of the game with tag code ``code``; ValueError if it could not be a
    valid tag."""
    if not _CODE_RE.match(code):
        raise ValueError(f"tag code {code!r} must be two characters: a letter, then a letter or digit")
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
    if not _CODE_RE.match(code) or not _ID_RE.match(component_id):
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

    game: str  # the tag code
    seed: int
    entries: Mapping[str, ManifestEntry]
    notes: tuple[str, ...] = ()
    name: str = ""  # the game's name, for people reading the file

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
            "name": self.name,
            "seed": self.seed,
            "notes": list(self.notes),
            "tags": [entry.to_dict() for entry in self.entries.values()],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def resized(self, tag_mm: float) -> Manifest:
        """The same set printed with every code ``tag_mm`` wide (a version-1 code's side; larger versions
        keep the module size): what ``companion tags --size`` printed."""
        if not 8.0 <= tag_mm <= 100.0:
            raise ValueError(f"a code of {tag_mm:g} mm: give 8 to 100 mm")
        entries = {cid: ManifestEntry(e.component_id, e.face, e.kind, e.component, e.rocks, float(tag_mm))
                   for cid, e in self.entries.items()}
        return Manifest(self.game, self.seed, entries, self.notes, self.name)

    @property
    def printed_mm(self) -> float:
        """The printed size of the set's codes (the largest, should they differ)."""
        return max((entry.tag_mm for entry in self.entries.values()), default=0.0)

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
        code, seed, notes = str(data["game"]), int(data.get("seed", 0)), tuple(data.get("notes", ()))
        if not _CODE_RE.match(code):
            raise ValueError(f"manifest game {code!r} is not a tag code")
        return cls(code, seed, _backs_sorted(entries), notes, str(data.get("name", "")))


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


@dataclass(frozen=True)
class PrintedSet:
    """A printed set as it leaves the printer: its manifest and which opaque back goes on which front.

    ``back_of`` maps a front id to the back id printed for the other side of the same component, in the
    fronts' order. Only the sheet printer and the simulation's ground truth use it; the companion loads
    :attr:`manifest` alone, which cannot pair a back with its front.
    """

    manifest: Manifest
    back_of: Mapping[str, str]

    def resized(self, tag_mm: float) -> PrintedSet:
        """The same set printed with every code ``tag_mm`` wide (a version-1 code's side; larger versions
        keep the module size): the manifest says so, the pairing is unchanged."""
        return PrintedSet(self.manifest.resized(tag_mm), self.back_of)

    def front_of(self, back_id: str) -> str | None:
        """The front printed on the other side of ``back_id`` (None for an id that is not a back)."""
        return self._fronts_by_back.get(back_id)

    @cached_property
    def _fronts_by_back(self) -> dict[str, str]:
        fronts: dict[str, str] = {}
        for front_id, back in self.back_of.items():
            fronts.setdefault(back, front_id)  # the first front, as a scan in order would find
        return fronts

    def backs(self, kind: str | None = None) -> list[str]:
        """The opaque back ids in their fronts' order (of one ``kind`` of component, or all)."""
        entries = self.manifest.entries
        return [back for front, back in self.back_of.items() if kind is None or entries[front].kind == kind]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: a printed set is cached per inventory
class TagInventory:
    """What a game's components carry, as its kit derives it from the engine's component data.

    ``faces``: every named face, in print order (a front, or a second face that shows what it is, such as
    Jurassik's living side, with ``face="back"``); ``opaque``: the fronts whose other side is an opaque back,
    with the rocky edges that back shows (None where the game has no rocks); ``fixed_backs``: the back ids of
    the default printed set where the engine names them itself (one per entry of ``opaque``), else empty.
    """

    code: str
    name: str
    faces: tuple[ManifestEntry, ...]
    opaque: tuple[tuple[str, tuple[bool, ...] | None], ...] = ()
    fixed_backs: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def build_printed_set(inventory: TagInventory, tag_mm: Mapping[str, float],
                      seed: int = DEFAULT_SEED) -> PrintedSet:
    """The printed set of ``inventory`` with each kind of component's codes ``tag_mm[kind]`` wide (a
    version-1 code's side, as the game's kit declares it), whose opaque back ids are drawn from ``seed``
    (the default seed uses the engine's own back ids where it has them, so a state's face-down tiles and
    the tags agree). ValueError naming a kind without a size."""
    unsized = sorted({face.kind for face in inventory.faces} - set(tag_mm))
    if unsized:
        raise ValueError(f"{inventory.name}: no printed size for the tags of kind {', '.join(unsized)}")
    entries = {face.component_id: face for face in inventory.faces}
    notes = list(inventory.notes)
    code = inventory.code
    backs = opaque_ids(len(inventory.opaque), seed * 7919 + sum(map(ord, code)), avoid=entries)
    fixed = list(inventory.fixed_backs)
    if (seed == DEFAULT_SEED and fixed and len(fixed) == len(inventory.opaque)
            and len(set(fixed) | set(entries)) == len(fixed) + len(entries)):
        backs = fixed
        notes.append("back ids: the engine's default component set")
    back_of = {front_id: back_id for back_id, (front_id, _) in zip(backs, inventory.opaque)}
    for back_id, (front_id, back_rocks) in zip(backs, inventory.opaque):
        entries[back_id] = ManifestEntry(back_id, "back", entries[front_id].kind, "", back_rocks)
    sized = {
        cid: ManifestEntry(e.component_id, e.face, e.kind, e.component, e.rocks, float(tag_mm[e.kind]))
        for cid, e in _backs_sorted(entries).items()  # the manifest's order must not pair backs with fronts
    }
    return PrintedSet(Manifest(code, seed, sized, tuple(notes), inventory.name), back_of)


@lru_cache(maxsize=512)
def qr_matrix(payload: str) -> np.ndarray:
    """The module matrix (True = dark) of a payload encoded as tags are: alphanumeric, ECC M, the smallest
    version (1 or 2 for every tag); no quiet zone. ValueError for text that cannot be such a tag."""
    import segno

    if not ALPHANUMERIC.issuperset(payload):
        raise ValueError(f"cannot encode {payload!r} as an alphanumeric QR code")
    try:
        code = segno.make_qr(payload, error="m", mode="alphanumeric", boost_error=False)
    except (segno.DataOverflowError, ValueError) as error:
        raise ValueError(f"cannot encode {payload!r} as an alphanumeric QR code: {error}") from error
    if int(code.version) > 2:
        raise ValueError(f"payload {payload!r} needs QR version {code.version}; tags must fit version 2")
    matrix = np.array([list(row) for row in code.matrix], dtype=bool)
    matrix.flags.writeable = False
    return matrix


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
