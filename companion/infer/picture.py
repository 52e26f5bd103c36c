"""What inference compares: a table reduced to a :class:`Picture` (which front tag lies where, how many
face-down tags lie where, which coloured pegs stand where), from an expected scene or from what the camera
saw, and the :class:`Difference` list between two pictures. Face-down tags are anonymous "backs" (their ids
say nothing about the front), so a reveal is a back replaced by a front at the same place."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from vision.observation import BACK, Observation
from vision.places import EVERYWHERE, Places
from vision.scene import Point, Scene, Zone


@dataclass(frozen=True)
class Placed:
    """Where an item lies: its zone and point (mm), and whether the point matters there (the kit's
    :class:`~vision.places.Places` says; in an unordered zone only the zone counts)."""

    zone: str | None
    at: Point
    positional: bool = True


#: decides what a tag counts as: ``(component_id, is_back, zone) -> name`` or None to leave it out
Namer = Callable[[str, bool, "str | None"], "str | None"]


def default_namer(component_id: str, is_back: bool, zone: str | None) -> str | None:
    """Fronts by their id, backs anonymous (what lies in an ignored zone never reaches a namer)."""
    return "back" if is_back else component_id


@dataclass
class Picture:
    """A table reduced to what inference compares: items by (what, name) -> where they lie.

    ``what`` is ``front`` (name: the component id, or a class such as ``STEAL`` when a game's pieces of a
    kind are interchangeable), ``back`` (all face-down tags are alike) or ``peg`` (name: the colour).
    """

    items: dict[tuple[str, str], list[Placed]] = field(default_factory=dict)
    _keys: dict[float, str] = field(default_factory=dict, repr=False, compare=False)
    #: a seen picture is compared with many hypotheses whose items mostly lie where they lay: each group's
    #: pairing against it, kept by the expected places (exact: the same places give the same pairing)
    _pairings: dict[Any, tuple[list[Placed], list[Placed]]] = field(default_factory=dict, repr=False,
                                                                   compare=False)

    def add(self, what: str, name: str, placed: Placed) -> None:
        self.items.setdefault((what, name), []).append(placed)

    def key(self, tolerance: float) -> str:
        """A stable text key (positions snapped to the tolerance): unchanged table -> same key."""
        cached = self._keys.get(tolerance)
        if cached is not None:
            return cached
        grid = max(tolerance, 1e-6)

        def snap(p: Placed) -> str:
            if not p.positional:
                return f"{p.zone}"
            return f"{p.zone}@{round(p.at[0] / grid)},{round(p.at[1] / grid)}"

        key = "|".join(
            f"{what}:{name}=" + ";".join(sorted(snap(p) for p in places))
            for (what, name), places in sorted(self.items.items())
            if places
        )
        self._keys[tolerance] = key
        return key


def picture_from_scene(
    scene: Scene,
    back_ids: Callable[[str], bool],
    zone_cache: dict[Point, str | None] | None = None,
    namer: Namer = default_namer,
    places: Places = EVERYWHERE,
) -> Picture:
    """The picture of an expected scene, read by ``places`` (what lies in an ignored zone is left out).
    ``back_ids(component_id)`` tells a face-down tag from a front. ``zone_cache`` remembers the zone of
    each position (layouts put pieces on the same spots again)."""
    cache: dict[Point, str | None] = {} if zone_cache is None else zone_cache

    def zone_at(point: Point) -> str | None:
        if point not in cache:
            if len(cache) > 100_000:
                cache.clear()
            cache[point] = scene.zone_at(point)
        return cache[point]

    picture = Picture()
    for tag in scene.tags:
        component_id = tag.payload.rsplit(":", 1)[-1]
        zone = zone_at(tag.center)
        if places.ignored(zone):
            continue
        back = back_ids(component_id)
        name = namer(component_id, back, zone)
        if name is not None:
            picture.add("back" if back else "front", name, Placed(zone, tag.center, places.positional(zone)))
    for peg in scene.pegs:
        zone = zone_at(peg.center)
        if not places.ignored(zone):
            picture.add("peg", peg.colour, Placed(zone, peg.center, places.positional(zone)))
    return picture


def picture_from_observation(
    observation: Observation, zones: Sequence[Zone], namer: Namer = default_namer,
    places: Places = EVERYWHERE,
) -> Picture:
    """The picture of what the camera saw (zones from the observation, or from the layout's zones), read
    by ``places`` as :func:`picture_from_scene` reads an expected one."""

    def zone_of(point: Point | None, given: str | None) -> str | None:
        if given is not None:
            return given
        if point is None:
            return None
        for zone in zones:
            if zone.contains(point):
                return zone.name
        return None

    picture = Picture()
    for component_id, reading in observation.tags.items():
        at = reading.center_mm if reading.center_mm is not None else reading.center_px
        zone = zone_of(reading.center_mm, reading.zone)
        if places.ignored(zone):
            continue
        back = reading.face == BACK
        name = namer(component_id, back, zone)
        if name is not None:
            picture.add("back" if back else "front", name, Placed(zone, at, places.positional(zone)))
    for peg in observation.pegs:
        zone = zone_of(peg.center_mm, peg.zone)
        if not places.ignored(zone):
            picture.add("peg", peg.colour or "?", Placed(zone, peg.center_mm, places.positional(zone)))
    return picture


@dataclass(frozen=True)
class Difference:
    """One way the seen table differs from the expected one."""

    what: Literal["front", "back", "peg"]
    change: Literal["appeared", "vanished", "moved"]
    item: str  # component id, "back", or the peg colour
    expected: Placed | None
    seen: Placed | None

    def describe(self) -> str:
        def where(p: Placed | None) -> str:
            if p is None:
                return "nowhere"
            if p.positional:
                return f"{p.zone or 'the table'} at ({p.at[0]:.0f}, {p.at[1]:.0f}) mm"
            return str(p.zone)

        name = {"front": f"tile {self.item}", "back": "a face-down tile", "peg": f"a {self.item} peg"}[
            self.what
        ]
        if self.change == "appeared":
            return f"{name} appeared in {where(self.seen)}"
        if self.change == "vanished":
            return f"{name} is gone from {where(self.expected)}"
        return f"{name} moved from {where(self.expected)} to {where(self.seen)}"

    def to_dict(self) -> dict[str, Any]:
        def out(p: Placed | None) -> Any:
            if p is None:
                return None
            return {"zone": p.zone, "at": [round(p.at[0], 1), round(p.at[1], 1)], "positional": p.positional}

        return {
            "what": self.what,
            "change": self.change,
            "item": self.item,
            "expected": out(self.expected),
            "seen": out(self.seen),
            "text": self.describe(),
        }


def _match_anonymous(
    expected: Sequence[Placed], seen: Sequence[Placed], tolerance: float
) -> tuple[list[Placed], list[Placed]]:
    """Pair anonymous items (backs, pegs of one colour) place by place; return the unmatched of each side."""
    if len(expected) == 1 and len(seen) == 1:  # most items (every front tag): one on each side
        e, s = expected[0], seen[0]
        same = e.zone == s.zone and (not e.positional or math.dist(e.at, s.at) <= tolerance)
        return ([], []) if same else ([e], [s])
    left_expected: list[Placed] = []
    remaining = list(seen)
    # unordered zones: by count; positional: nearest within tolerance (greedy by distance)
    exp_unordered = Counter(p.zone for p in expected if not p.positional)
    seen_unordered = Counter(p.zone for p in remaining if not p.positional)
    left_seen: list[Placed] = []
    for zone in set(exp_unordered) | set(seen_unordered):
        surplus = exp_unordered[zone] - seen_unordered[zone]
        exp_items = [p for p in expected if p.zone == zone]
        seen_items = [p for p in remaining if p.zone == zone]
        if surplus > 0:
            left_expected += exp_items[:surplus]
        elif surplus < 0:
            left_seen += seen_items[:-surplus]
    exp_pos = [p for p in expected if p.positional]
    seen_pos = [p for p in remaining if p.positional]
    cell = max(tolerance, 1e-6)
    buckets: dict[tuple[str | None, int, int], list[int]] = {}
    for j, s in enumerate(seen_pos):
        buckets.setdefault((s.zone, int(s.at[0] // cell), int(s.at[1] // cell)), []).append(j)
    pairs = []
    for i, e in enumerate(exp_pos):
        cx, cy = int(e.at[0] // cell), int(e.at[1] // cell)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in buckets.get((e.zone, cx + dx, cy + dy), ()):
                    d = math.dist(e.at, seen_pos[j].at)
                    if d <= tolerance:
                        pairs.append((d, i, j))
    pairs.sort()
    used_e: set[int] = set()
    used_s: set[int] = set()
    for _, i, j in pairs:
        if i not in used_e and j not in used_s:
            used_e.add(i)
            used_s.add(j)
    left_expected += [p for i, p in enumerate(exp_pos) if i not in used_e]
    left_seen += [p for j, p in enumerate(seen_pos) if j not in used_s]
    return left_expected, left_seen


def compare(expected: Picture, seen: Picture, tolerance: float) -> list[Difference]:
    """Every difference between an expected picture and a seen one (empty: they match).

    A peg whose colour vision could not name (``?``) may stand for any expected peg at its place: such
    a reading matches, and :func:`low_confidence` makes inference ask before acting on it.
    """
    differences: list[Difference] = []
    unnamed = list(seen.items.get(("peg", "?"), []))
    peg_gone: list[tuple[str, Placed]] = []
    for what, name in sorted(set(expected.items) | set(seen.items)):
        if (what, name) == ("peg", "?"):
            continue
        places = expected.items.get((what, name), [])
        key = (what, name, tolerance, tuple(places))
        paired = seen._pairings.get(key)
        if paired is None:
            paired = _match_anonymous(places, seen.items.get((what, name), []), tolerance)
            if len(seen._pairings) < 20_000:  # one observation's search: bounded by its budget anyway
                seen._pairings[key] = paired
        gone, new = list(paired[0]), list(paired[1])
        if what == "front" and len(gone) == 1 and len(new) == 1:
            differences.append(Difference("front", "moved", name, gone[0], new[0]))
            continue
        kind: Literal["front", "back", "peg"] = (
            "front" if what == "front" else "back" if what == "back" else "peg"
        )
        if kind == "peg":
            peg_gone += [(name, p) for p in gone]
        else:
            differences += [Difference(kind, "vanished", name, p, None) for p in gone]
        differences += [Difference(kind, "appeared", name, None, p) for p in new]
    if unnamed and peg_gone:
        left, unnamed = _match_anonymous([p for _, p in peg_gone], unnamed, tolerance)
        peg_gone = [(name, p) for name, p in peg_gone if any(p is q for q in left)]
    differences += [Difference("peg", "vanished", name, p, None) for name, p in peg_gone]
    differences += [Difference("peg", "appeared", "?", None, p) for p in unnamed]
    return differences


@dataclass(frozen=True)
class Accepted:
    """How a table accepted as it is differed from the game: the differences, and how many items of each
    kind were seen then (a kind that turns up more often since has had its missing piece put in)."""

    differences: tuple[Difference, ...] = ()
    seen_counts: tuple[tuple[tuple[str, str], int], ...] = ()

    @classmethod
    def of(cls, expected: Picture, seen: Picture, tolerance: float) -> Accepted:
        differences = tuple(compare(expected, seen, tolerance))
        keys = {(d.what, d.item) for d in differences}
        return cls(differences, tuple(sorted((key, len(seen.items.get(key, []))) for key in keys)))


    def live(self, seen: Picture, tolerance: float) -> Accepted:
        """The differences that still speak for ``seen``: once a piece off its place has moved, or one of a
        missing kind has turned up, the acceptance is over for it for good."""
        counts = dict(self.seen_counts)

        def speaks(d: Difference) -> bool:
            places = seen.items.get((d.what, d.item), [])
            if d.seen is not None:
                return _near(places, d.seen, tolerance) is not None
            # a missing piece: until one of its kind turns up, or one lies in its place
            put_in = d.expected is not None and _near(places, d.expected, tolerance) is not None
            return len(places) <= counts.get((d.what, d.item), 0) and not put_in

        kept = tuple(d for d in self.differences if speaks(d))
        return self if len(kept) == len(self.differences) else Accepted(kept, self.seen_counts)

    def to_dict(self) -> dict[str, Any]:
        return {"differences": [d.to_dict() for d in self.differences],
                "seen_counts": [[what, item, count] for (what, item), count in self.seen_counts]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Accepted:
        """Read back as stored (a malformed record raises ValueError, KeyError or TypeError)."""
        def place(value: Any) -> Placed | None:
            if value is None:
                return None
            zone, at = value["zone"], value["at"]
            return Placed(None if zone is None else str(zone), (float(at[0]), float(at[1])),
                          bool(value.get("positional", True)))

        differences = tuple(
            Difference(str(d["what"]), str(d["change"]), str(d["item"]),  # type: ignore[arg-type]
                       place(d.get("expected")), place(d.get("seen")))
            for d in data.get("differences") or [])
        counts = tuple(((str(what), str(item)), int(count))
                       for what, item, count in data.get("seen_counts") or [])
        return cls(differences, counts)


def _near(places: Sequence[Placed], place: Placed, tolerance: float) -> int | None:
    for index, candidate in enumerate(places):
        if candidate.zone == place.zone and (
                not place.positional or math.dist(candidate.at, place.at) <= tolerance):
            return index
    return None


def as_accepted(seen: Picture, accepted: Accepted, tolerance: float) -> Picture:
    """``seen`` with differences accepted as they are (a table started as it was laid) taken out: a piece
    that lay off its place then counts as lying on it while it still lies where it was seen, and one that
    was missing counts as there until one of its kind turns up."""
    if not accepted.differences:
        return seen
    items = {key: list(places) for key, places in seen.items.items()}
    counts = dict(accepted.seen_counts)

    for difference in accepted.differences:
        key = (difference.what, difference.item)
        places = items.setdefault(key, [])
        if difference.seen is not None:
            index = _near(places, difference.seen, tolerance)
            if index is None:
                continue  # moved since: the acceptance no longer speaks for it
            del places[index]
            if difference.expected is not None:
                places.append(difference.expected)
        elif difference.expected is not None and len(seen.items.get(key, [])) <= counts.get(key, 0):
            places.append(difference.expected)
    return Picture({key: places for key, places in items.items() if places})
