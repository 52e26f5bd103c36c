"""Move inference shared by every game: which legal action(s) explain what the camera now sees?

The idea: a game's table layout (its kit's ``table.scene_for(state, layout)``) says what the table
looks like in any engine state. Both that expected :class:`~vision.scene.Scene` and the stable
:class:`~vision.observation.Observation` are reduced to a :class:`Picture` (which front tag lies where,
how many face-down tags lie where, which coloured pegs stand where) and compared. The change from the
current state is explained by searching the legal actions (and short sequences of them, e.g. a tile taken
and then revealed) for those whose expected picture matches what is seen:

- nothing changed: nothing to do (and a pending objection is cleared: the table was put right);
- exactly one resulting state: apply the action(s);
- several: a question (Confirm takes the first, or the web page chooses);
- none: an objection naming what was expected, what was seen, who moved (out of turn?) and the rule that
  forbids the move when the game's module can tell which action was attempted.

Face-down tags are compared as anonymous "backs" (their ids say nothing about the front), so a reveal is
seen as a back replaced by a front at the same place, and hidden identities enter the engine as chance
actions exactly when the camera sees them.
"""

from __future__ import annotations

import json
import math
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engines.core import CHANCE, TERMINAL, Action, IllegalAction, Rule, State
from vision.observation import BACK, Observation
from vision.scene import Point, Scene, Zone

#: zones where position does not matter (what lies there belongs to the zone, wherever it lies)
UNORDERED_PREFIXES = ("seat:", "box", "field-leader", "supply", "reveal", "leader")

TABLE_RULE = Rule(
    "TABLE-MATCH",
    "The table shows a legal move",
    "companion",
    "The companion applies a change on the table only when a legal move (or a sequence of them) explains it.",
    "A change that no legal move explains is signalled until the table is put right or a correction is "
    "confirmed; nothing is applied meanwhile.",
)


def is_positional(zone: str | None) -> bool:
    return zone is None or not zone.startswith(UNORDERED_PREFIXES)


@dataclass(frozen=True)
class Placed:
    zone: str | None
    at: Point


#: decides what a tag counts as: ``(component_id, is_back, zone) -> name`` or None to leave it out
Namer = Callable[[str, bool, "str | None"], "str | None"]


def default_namer(component_id: str, is_back: bool, zone: str | None) -> str | None:
    """Fronts by their id, backs anonymous; whatever lies in the box is out of play and left out."""
    if zone is not None and zone.startswith("box"):
        return None
    return "back" if is_back else component_id


@dataclass
class Picture:
    """A table reduced to what inference compares: items by (what, name) -> where they lie.

    ``what`` is ``front`` (name: the component id, or a class such as ``STEAL`` when a game's pieces of a
    kind are interchangeable), ``back`` (all face-down tags are alike) or ``peg`` (name: the colour).
    """

    items: dict[tuple[str, str], list[Placed]] = field(default_factory=dict)
    _keys: dict[float, str] = field(default_factory=dict, repr=False, compare=False)

    def add(self, what: str, name: str, placed: Placed) -> None:
        self.items.setdefault((what, name), []).append(placed)

    def key(self, tolerance: float) -> str:
        """A stable text key (positions snapped to the tolerance): unchanged table -> same key."""
        cached = self._keys.get(tolerance)
        if cached is not None:
            return cached
        grid = max(tolerance, 1e-6)

        def snap(p: Placed) -> str:
            if not is_positional(p.zone):
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
) -> Picture:
    """The picture of an expected scene. ``back_ids(component_id)`` tells a face-down tag from a front.
    ``zone_cache`` remembers the zone of each position (layouts put pieces on the same spots again)."""
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
        back = back_ids(component_id)
        name = namer(component_id, back, zone)
        if name is not None:
            picture.add("back" if back else "front", name, Placed(zone, tag.center))
    for peg in scene.pegs:
        zone = zone_at(peg.center)
        if zone is None or not zone.startswith("box"):
            picture.add("peg", peg.colour, Placed(zone, peg.center))
    return picture


def picture_from_observation(
    observation: Observation, zones: Sequence[Zone], namer: Namer = default_namer
) -> Picture:
    """The picture of what the camera saw (zones from the observation, or from the layout's zones)."""

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
        back = reading.face == BACK
        name = namer(component_id, back, zone)
        if name is not None:
            picture.add("back" if back else "front", name, Placed(zone, at))
    for peg in observation.pegs:
        zone = zone_of(peg.center_mm, peg.zone)
        if zone is None or not zone.startswith("box"):
            picture.add("peg", peg.colour or "?", Placed(zone, peg.center_mm))
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
            if is_positional(p.zone):
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
            return None if p is None else {"zone": p.zone, "at": [round(p.at[0], 1), round(p.at[1], 1)]}

        return {
            "what": self.what,
            "change": self.change,
            "item": self.item,
            "expected": out(self.expected),
            "seen": out(self.seen),
            "text": self.describe(),
        }


def _same_place(a: Placed, b: Placed, tolerance: float) -> bool:
    if a.zone != b.zone:
        return False
    if not is_positional(a.zone):
        return True
    return math.dist(a.at, b.at) <= tolerance


def _match_anonymous(
    expected: Sequence[Placed], seen: Sequence[Placed], tolerance: float
) -> tuple[list[Placed], list[Placed]]:
    """Pair anonymous items (backs, pegs of one colour) place by place; return the unmatched of each side."""
    left_expected: list[Placed] = []
    remaining = list(seen)
    # unordered zones: by count; positional: nearest within tolerance (greedy by distance)
    exp_unordered = Counter(p.zone for p in expected if not is_positional(p.zone))
    seen_unordered = Counter(p.zone for p in remaining if not is_positional(p.zone))
    left_seen: list[Placed] = []
    for zone in set(exp_unordered) | set(seen_unordered):
        surplus = exp_unordered[zone] - seen_unordered[zone]
        exp_items = [p for p in expected if p.zone == zone]
        seen_items = [p for p in remaining if p.zone == zone]
        if surplus > 0:
            left_expected += exp_items[:surplus]
        elif surplus < 0:
            left_seen += seen_items[:-surplus]
    exp_pos = [p for p in expected if is_positional(p.zone)]
    seen_pos = [p for p in remaining if is_positional(p.zone)]
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
        gone, new = _match_anonymous(
            expected.items.get((what, name), []), seen.items.get((what, name), []), tolerance
        )
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


# -- the game's table model ----------------------------------------------------------------------------


class TableModel:
    """What inference needs to know about one game's table. Per-game modules subclass it.

    ``scene_for(state)`` gives the expected scene; ``is_back(component_id)`` tells face-down ids;
    ``tolerance`` is how far (mm) a piece may lie from where it is expected; ``seat_of_colour`` maps seat
    colours to player names (moves out of turn are named by the colour of the zone or peg that changed).
    """

    tolerance: float = 12.0

    def __init__(
        self,
        scene_for: Callable[[State], Scene],
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        tolerance: float | None = None,
    ) -> None:
        self._scene_for = scene_for
        self.is_back = is_back
        self.players_by_colour = dict(players_by_colour)
        if tolerance is not None:
            self.tolerance = tolerance
        self._cache: dict[str, Picture] = {}
        self._zones_at: dict[Point, str | None] = {}
        self.zones: list[Zone] = []

    def scene(self, state: State) -> Scene:
        scene = self._scene_for(state)
        if scene.zones:
            self.zones = list(scene.zones)
        return scene

    def expected(self, state: State, key: str | None = None) -> Picture:
        key = key or state_key(state)
        picture = self._cache.get(key)
        if picture is None:
            picture = picture_from_scene(
                self.hypothesis_scene(state), self.is_back, self._zones_at, self.name_of
            )
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = picture
        return picture

    def hypothesis_scene(self, state: State) -> Scene:
        """The scene of a state inference tries out (games whose layouts keep printed ids stable from
        frame to frame use throwaway ids here, so hypotheses never disturb what the table shows)."""
        return self.scene(state)

    def vision_hints(self) -> Any:
        """Geometry hints for vision's detector (None: vision's defaults for the game)."""
        return None

    def chance_outcome(self, state: State, rng: Any) -> Action:
        """What the physical table turns up at a chance node in a bot game (default: drawn by weight)."""
        from engines.core import sample_chance

        return sample_chance(state, rng)

    def bot_policy(self) -> Any:
        """The game's own bot policy for demos (None: uniformly random legal moves)."""
        return None

    def seen(self, observation: Observation) -> Picture:
        return picture_from_observation(observation, self.zones, self.name_of)

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        """What a tag counts as (see :func:`default_namer`); games make interchangeable pieces alike."""
        return default_namer(component_id, is_back, zone)

    def display_scene(self, before: State, action: Action, after: State) -> Scene:
        """What the table shows once ``action`` has been made physically (the bot driver shows it). A
        reveal may look different from the settled state after it (the tile lies face up on the reveal
        spot before it goes where the rules send it)."""
        return self.scene(after)

    # -- hooks for the per-game modules ---------------------------------------------------------------
    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        """The legal actions worth trying first (all of them unless a game narrows the search)."""
        return state.legal_actions()

    def attempted_actions(
        self, state: State, differences: Sequence[Difference], actor: str | None
    ) -> list[Action]:
        """Actions the players may have tried that the rules refuse (to cite the rule); none by default."""
        return []

    def split_shares(self, state: State) -> list[tuple[str, int]] | None:
        """Jurassic Parts: the contributors of the split being shared out, in rank order, and their tiles."""
        return None

    def actor(self, state: State, differences: Sequence[Difference]) -> str | None:
        """Who made the change: the owner of the seat zone or the peg colour involved (None: unknown)."""
        for difference in differences:
            for place in (difference.seen, difference.expected):
                if place is not None and place.zone and place.zone.startswith("seat:"):
                    colour = place.zone.split(":", 1)[1]
                    if colour in self.players_by_colour:
                        return self.players_by_colour[colour]
            appeared = difference.what == "peg" and difference.change == "appeared"
            if appeared and difference.item in self.players_by_colour:
                return self.players_by_colour[difference.item]
        return None


def state_key(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))


def state_seed(state: State, salt: int = 0) -> int:
    """A deterministic seed from a state (bots resumed after a crash choose the same move again)."""
    return zlib.crc32(state_key(state).encode()) ^ (salt & 0xFFFFFFFF)


# -- the search ----------------------------------------------------------------------------------------


@dataclass
class Inference:
    """The outcome of comparing one stable observation with the engine state."""

    kind: Literal["unchanged", "apply", "question", "objection"]
    actions: list[Action] = field(default_factory=list)
    options: list[list[Action]] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    text: str = ""
    rule: Rule | None = None
    actor: str | None = None
    expected: str = ""
    seen: str = ""
    low_confidence: bool = False
    explored: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "actions": [a.to_dict() for a in self.actions],
            "options": [[a.to_dict() for a in option] for option in self.options],
            "rule": None if self.rule is None else self.rule.to_dict(),
            "actor": self.actor,
            "expected": self.expected,
            "seen": self.seen,
            "differences": [d.to_dict() for d in self.differences],
            "low_confidence": self.low_confidence,
        }


def describe_action(action: Action) -> str:
    data = action.to_dict()
    kind = data.pop("kind")
    if kind == "correct":
        return "correction"
    parts = ", ".join(f"{k}={_short(v)}" for k, v in data.items())
    return f"{kind}({parts})" if parts else kind


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:37] + "..."


def low_confidence(observation: Observation, threshold: float = 0.5) -> bool:
    """A reading not to act on without asking: an unknown peg colour, a weak peg, untrusted geometry."""
    if observation.calibration.state in ("bumped", "uncalibrated"):
        return True
    return any(peg.colour is None or peg.confidence < threshold for peg in observation.pegs)


def infer(
    state: State,
    observation: Observation,
    model: TableModel,
    max_depth: int = 4,
    beam: int = 12,
    budget: int = 3000,
    max_stalls: int = 2,
) -> Inference:
    """Explain ``observation`` from ``state``: see the module docstring.

    The game's model first narrows the search to the actions where the table changed; when that finds
    nothing, every legal action is tried (shallower) before the change is objected to: a chisel whose
    split sends it straight back, say, leaves no trace at its own gap.
    """
    expected_now = model.expected(state)
    seen = model.seen(observation)
    differences = compare(expected_now, seen, model.tolerance)
    if not differences:
        return Inference("unchanged")
    unsure = low_confidence(observation)
    result = _search(state, seen, differences, model, unsure, True, max_depth, beam, budget, max_stalls)
    if result is None:
        result = _search(state, seen, differences, model, unsure, False, 2, beam, budget, max_stalls)
    return result if result is not None else objection(state, model, differences)


def _search(
    state: State,
    seen: Picture,
    differences: list[Difference],
    model: TableModel,
    unsure: bool,
    narrow: bool,
    max_depth: int,
    beam: int,
    budget: int,
    max_stalls: int,
) -> Inference | None:

    # breadth-first by depth; a step must not move the picture further from what is seen, and at most
    # ``max_stalls`` steps may leave the distance unchanged (a take shown face down, then its reveal)
    frontier: list[tuple[int, int, State, list[Action]]] = [(len(differences), 0, state, [])]
    visited = {state_key(state)}
    explored = 0
    for _depth in range(max_depth):
        children: list[tuple[int, int, State, list[Action]]] = []
        solutions: dict[str, tuple[State, list[Action]]] = {}
        for distance, stalls, node, path in frontier:
            if node.current_player() == TERMINAL:
                continue
            node_diffs = compare(model.expected(node), seen, model.tolerance) if path else differences
            # chance nodes always ask the model: it names the reveal from what the camera read
            use_model = narrow or node.is_chance_node()
            actions = model.candidate_actions(node, node_diffs) if use_model else node.legal_actions()
            for action in actions:
                if explored >= budget:
                    break
                try:
                    child = node.apply(action)
                except IllegalAction:
                    continue
                explored += 1
                key = state_key(child)
                if key in visited:
                    continue
                visited.add(key)
                child_picture = model.expected(child, key)
                if child_picture.key(model.tolerance) == model.expected(node).key(model.tolerance):
                    # invisible to the camera (a pass, a purchase): never guessed, it comes by button or web
                    continue
                child_distance = len(compare(child_picture, seen, model.tolerance))
                if child_distance == 0:
                    solutions[key] = (child, [*path, action])
                elif child_distance < distance or (child_distance == distance and stalls < max_stalls):
                    children.append(
                        (child_distance, stalls + (child_distance == distance), child, [*path, action])
                    )
        if solutions:
            found = list(solutions.values())
            actor = _path_actor(state, found[0][1])
            if len(found) == 1 and not unsure:
                return Inference(
                    "apply",
                    actions=found[0][1],
                    states=[found[0][0]],
                    differences=differences,
                    actor=actor,
                    explored=explored,
                    text=", ".join(describe_action(a) for a in found[0][1]),
                )
            options = [path for _, path in found]
            text = (
                "Low-confidence reading: is this the move?"
                if len(found) == 1
                else f"{len(found)} moves explain the table: which one?"
            )
            return Inference(
                "question",
                options=options,
                states=[s for s, _ in found],
                differences=differences,
                text=text,
                actor=actor,
                low_confidence=unsure,
                explored=explored,
                expected=_summary(differences, "expected"),
                seen=_summary(differences, "seen"),
            )
        children.sort(key=lambda item: (item[0], item[1]))
        frontier = children[:beam]
        if not frontier or explored >= budget:
            break
    return None


def _path_actor(state: State, path: Sequence[Action]) -> str | None:
    player = state.current_player()
    return None if player in (CHANCE, TERMINAL) else player


def _summary(differences: Sequence[Difference], side: str) -> str:
    return "; ".join(d.describe() for d in differences[:6]) + (" ..." if len(differences) > 6 else "")


def objection(state: State, model: TableModel, differences: list[Difference], explored: int = 0) -> Inference:
    """No legal move explains the table: say what was expected, what is seen, who moved, and which rule."""
    actor = model.actor(state, differences)
    current = state.current_player()
    rule: Rule | None = None
    detail = ""
    for attempt in model.attempted_actions(state, differences, actor):
        explanation = state.explain(attempt)
        if not explanation.legal and explanation.rules:
            rule = explanation.rules[0]
            detail = explanation.summary
            break
    seen_text = "; ".join(d.describe() for d in differences[:6])
    if current == TERMINAL:
        expected_text = "nothing: the game is over"
    elif current == CHANCE:
        expected_text = "a face-down piece to be revealed"
    else:
        expected_text = f"a move by {current}"
    if actor is not None and current not in (CHANCE, TERMINAL) and actor != current:
        text = f"{actor} moved out of turn: it is {current}'s turn"
        if rule is None:
            rule = TURN_RULE
    elif detail:
        text = f"Illegal move: {detail}"
    else:
        text = "The table changed in a way no legal move explains"
    if rule is None:
        rule = TABLE_RULE
    return Inference(
        "objection",
        differences=differences,
        text=text,
        rule=rule,
        actor=actor,
        expected=expected_text,
        seen=seen_text,
        explored=explored,
    )


TURN_RULE = Rule(
    "TABLE-TURN",
    "Play in turn",
    "companion",
    "Players act in turn; only the player to act may move pieces (the camera names who moved).",
)


def join(items: Iterable[str]) -> str:
    return ", ".join(items)
