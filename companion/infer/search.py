"""The search: which legal action(s) explain what the camera now sees?

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
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.i18n import N_, Said, said, said_n
from companion.infer.model import TableModel, search_key
from companion.infer.picture import Difference, Picture, compare
from companion.privacy import STRICT, Privacy
from engines.core import CHANCE, TERMINAL, Action, IllegalAction, Rule, State
from vision.observation import Observation

TABLE_RULE = Rule(
    "TABLE-MATCH",
    N_("The table shows a legal move"),
    "companion",
    N_("The companion applies a change on the table only when a legal move (or a sequence of them) explains "
       "it."),
    N_("A change that no legal move explains is signalled until the table is put right or a correction is "
       "confirmed; nothing is applied meanwhile."),
)


@dataclass
class Inference:
    """The outcome of comparing one stable observation with the engine state."""

    kind: Literal["unchanged", "apply", "question", "objection"]
    actions: list[Action] = field(default_factory=list)
    options: list[list[Action]] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    text: str = ""
    #: the text as a sentence each reader's page says in their own language
    said: Said | None = None
    rule: Rule | None = None
    actor: str | None = None
    expected: str = ""
    seen: str = ""
    low_confidence: bool = False
    explored: int = 0

    @classmethod
    def asking(cls, kind: Literal["question", "objection"], asked: Said, **fields: Any) -> Inference:
        """An inference whose text is ``asked``: English in ``text``, each reader's own through ``said``."""
        return cls(kind, text=str(asked), said=asked, **fields)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "said": None if self.said is None else self.said.to_dict(),
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


def low_confidence(observation: Observation, threshold: float = 0.5,
                   differences: Sequence[Difference] | None = None, tolerance: float = 0.0) -> bool:
    """A reading not to act on without asking: untrusted geometry, or an unknown peg colour or a weak peg
    among those the change is about (``differences``: pegs seen within ``tolerance`` mm of where a peg
    difference was seen; every peg when not given). A chisel read weakly three turns ago, and matched
    since, does not make every later move a question."""
    if observation.calibration.state in ("bumped", "uncalibrated"):
        return True
    pegs = list(observation.pegs)
    if differences is not None:
        places = [d.seen.at for d in differences if d.what == "peg" and d.seen is not None]
        pegs = [peg for peg in pegs if any(math.dist(peg.center_mm, at) <= tolerance for at in places)]
    return any(peg.colour is None or peg.confidence < threshold for peg in pegs)


def infer(
    state: State,
    observation: Observation,
    model: TableModel,
    max_depth: int = 4,
    beam: int = 12,
    budget: int | None = None,
    max_stalls: int = 2,
    seen: Picture | None = None,
) -> Inference:
    """Explain ``observation`` from ``state``: see the module docstring (``seen``: its picture, when the
    caller drew it already).

    The game's model narrows the search to the few actions the difference points at (the cells, gaps,
    fields and pieces that changed); when that finds nothing, the legal actions are tried (shallower)
    before the change is objected to: a chisel whose split sends it straight back, say, leaves no trace at
    its own gap. The work is bounded: at most ``budget`` positions are drawn and compared
    (``model.search_budget`` by default), and a change of more than ``model.max_change`` differences is not
    searched at all; past either bound the answer is an objection saying that too much changed at once.
    """
    budget = model.search_budget if budget is None else budget
    expected_now = model.expected(state)
    seen = model.seen(observation) if seen is None else seen
    differences = compare(expected_now, seen, model.tolerance)
    if not differences:
        return Inference("unchanged")
    unsure = low_confidence(observation, differences=differences, tolerance=model.tolerance)
    if len(differences) > model.max_change:
        # one move can change much at once (a split sends a whole part of the slab away): try single
        # moves the change points at, within the budget; more than that is not searched
        single, spent = _search(state, seen, differences, model, unsure=unsure, narrow=True,
                                limits=SearchLimits(1, beam, budget, 0))
        return single or objection(state, model, differences, spent, too_much=True)
    closest: list[tuple[int, list[Action]]] = []
    result, spent = _search(state, seen, differences, model, unsure=unsure, narrow=True,
                            limits=SearchLimits(max_depth, beam, budget, max_stalls), closest=closest)
    if result is None and spent < budget:
        result, more = _search(state, seen, differences, model, unsure=unsure, narrow=False,
                               limits=SearchLimits(2, beam, budget - spent, max_stalls), closest=closest)
        spent += more
    if result is not None:
        return result
    return objection(state, model, differences, spent, too_much=spent >= budget, closest=closest)


@dataclass(frozen=True)
class SearchLimits:
    """How far one search may go: its depth in moves, the lines kept per depth, the positions it may
    draw, and the steps that may leave the distance to what is seen unchanged."""

    max_depth: int
    beam: int
    budget: int
    max_stalls: int


def _search(
    state: State,
    seen: Picture,
    differences: list[Difference],
    model: TableModel,
    *,
    unsure: bool,
    narrow: bool,
    limits: SearchLimits,
    closest: list[tuple[int, list[Action]]] | None = None,
) -> tuple[Inference | None, int]:
    """The first depth at which positions match what is seen (an apply or a question), and the number of
    positions drawn; None when none matched within ``budget``. ``closest`` collects the lines of play that
    came nearer to what is seen (what an objection offers to tap)."""
    # breadth-first by depth; a step must not move the picture further from what is seen, and at most
    # ``max_stalls`` steps may leave the distance unchanged (a take shown face down, then its reveal)
    root_key = search_key(state)
    Node = tuple[int, int, State, list[Action], Hashable]  # distance, stalls, state, path, key
    frontier: list[Node] = [(len(differences), 0, state, [], root_key)]
    visited = {root_key}
    explored = 0
    max_stalls, budget = limits.max_stalls, limits.budget
    for _depth in range(limits.max_depth):
        children: list[Node] = []
        solutions: dict[Hashable, tuple[State, list[Action]]] = {}
        for distance, stalls, node, path, node_key in frontier:
            if node.current_player() == TERMINAL:
                continue
            node_picture = model.expected(node, node_key)  # once per node: drawing it is the cost
            node_view = node_picture.key(model.tolerance)
            node_diffs = compare(node_picture, seen, model.tolerance) if path else differences
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
                key = search_key(child)
                if key in visited:
                    continue
                visited.add(key)
                child_picture = model.expected(child, key)
                if child_picture.key(model.tolerance) == node_view:
                    # invisible to the camera (a pass, a purchase): never guessed, it comes by button or web
                    continue
                child_distance = len(compare(child_picture, seen, model.tolerance))
                if closest is not None and 0 < child_distance < len(differences):
                    closest.append((child_distance, [*path, action]))
                if child_distance == 0:
                    solutions[key] = (child, [*path, action])
                elif child_distance < distance or (child_distance == distance and stalls < max_stalls):
                    children.append(
                        (child_distance, stalls + (child_distance == distance), child, [*path, action], key)
                    )
        if solutions:
            found = list(solutions.values())
            actor = _path_actor(state, found[0][1])
            if len(found) == 1 and not unsure:
                return explored_as(Inference(
                    "apply",
                    actions=found[0][1],
                    states=[found[0][0]],
                    differences=differences,
                    actor=actor,
                    explored=explored,
                    text=", ".join(describe_action(a) for a in found[0][1]),
                ))
            options = [path for _, path in found]
            asked = (
                said("Low-confidence reading: is this the move?")
                if len(found) == 1
                else said_n("%(num)d move explains the table: which one?",
                            "%(num)d moves explain the table: which one?", len(found))
            )
            return explored_as(Inference.asking(
                "question",
                asked,
                options=options,
                states=[s for s, _ in found],
                differences=differences,
                actor=actor,
                low_confidence=unsure,
                explored=explored,
                expected=_summary(differences, "expected"),
                seen=_summary(differences, "seen"),
            ))
        children.sort(key=lambda item: (item[0], item[1]))
        frontier = children[:limits.beam]
        if not frontier or explored >= budget:
            break
    return None, explored


def explored_as(inference: Inference) -> tuple[Inference, int]:
    return inference, inference.explored


def _path_actor(state: State, path: Sequence[Action]) -> str | None:
    player = state.current_player()
    return None if player in (CHANCE, TERMINAL) else player


def _summary(differences: Sequence[Difference], side: str) -> str:
    return "; ".join(d.describe() for d in differences[:6]) + (" ..." if len(differences) > 6 else "")


def objection(state: State, model: TableModel, differences: list[Difference], explored: int = 0,
              too_much: bool = False, closest: Sequence[tuple[int, list[Action]]] = ()) -> Inference:
    """No legal move explains the table: say what was expected, what is seen, who moved, and which rule,
    and offer the lines of play that come closest to it (``closest``: (differences left, actions)).
    ``too_much``: the change was larger than the search may look into."""
    actor = model.actor(state, differences)
    current = state.current_player()
    rule: Rule | None = None
    detail = ""
    refusal: Said | None = None
    for attempt in model.attempted_actions(state, differences, actor):
        explanation = state.explain(attempt)
        if not explanation.legal and explanation.rules:
            rule = explanation.rules[0]
            detail = explanation.summary
            refusal = Said.from_dict(explanation.details.get("said"))
            break
    seen_text = "; ".join(d.describe() for d in differences[:6])
    # a game whose players are its colours (Brunch's teams): the people at those seats by name
    named = model.players_by_colour
    if current == TERMINAL:
        expected_text = "nothing: the game is over"
    elif current == CHANCE:
        expected_text = "a face-down piece to be revealed"
    else:
        expected_text = f"a move by {named.get(current, current)}"
    if actor is not None and current not in (CHANCE, TERMINAL) and actor != current:
        text = said("%(actor)s moved out of turn: it is %(player)s's turn", actor=named.get(actor, actor),
                    player=named.get(current, current))
        if rule is None:
            rule = TURN_RULE
    elif detail:
        # the engine's detail, said by each reader's page in its language and the game's words (its cells
        # as the diagram numbers them); as the engine said it where the catalogue has no such message
        worded = refusal if refusal is not None else Said(detail)
        text = said("Illegal move: %(detail)s", detail=worded.to_dict())
    elif too_much:
        text = said("Too much changed at once to tell which moves were made: put the table back as it was, "
                    "or make one move at a time")
    else:
        text = said("The table changed in a way no legal move explains")
    if rule is None:
        rule = TABLE_RULE
    return Inference.asking(
        "objection",
        text,
        differences=differences,
        rule=rule,
        actor=actor,
        expected=expected_text,
        seen=seen_text,
        explored=explored,
        options=nearest_lines(closest, privacy=model.privacy),
    )


def nearest_lines(
    closest: Sequence[tuple[int, list[Action]]], count: int = 3, privacy: Privacy = STRICT
) -> list[list[Action]]:
    """The ``count`` lines of play that leave the fewest differences (the shorter first), naming nothing
    concealed: the page shows them to every session."""
    chosen: list[list[Action]] = []
    seen_keys: set[str] = set()
    policy = privacy
    for _, line in sorted(closest, key=lambda item: (item[0], len(item[1]))):
        key = repr([action.to_dict() for action in line])
        if key in seen_keys or not all(policy.option_shareable(action.to_dict()) for action in line):
            continue
        seen_keys.add(key)
        chosen.append(line)
        if len(chosen) >= count:
            break
    return chosen


TURN_RULE = Rule(
    "TABLE-TURN",
    N_("Play in turn"),
    "companion",
    N_("Players act in turn; only the player to act may move pieces (the camera names who moved)."),
)
