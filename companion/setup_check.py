"""Setting up the table for a new game: what the camera sees against the game's setup, as a checklist of
steps for the players (nothing is objected to, nobody is blamed, until the table is set up)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import Said
from companion.infer import Difference, TableModel, compare
from companion.kits import find_kit
from companion.kits.kit import ReadsSetup
from engines.core import Action, IllegalAction, LaidByPlayers, State, StateFormatError, get_game
from vision.observation import Observation


def _name(difference: Difference) -> str:
    return {"front": f"tile {difference.item}", "back": "a face-down tile",
            "peg": f"the {difference.item} peg"}[difference.what]


def _where(difference: Difference, expected: bool) -> str:
    place = difference.expected if expected else difference.seen
    if place is None:
        return "its place"
    return str(place.zone or "the table") if place.zone and not place.zone.startswith("play") else \
        f"({place.at[0]:.0f}, {place.at[1]:.0f}) mm"


def step_text(difference: Difference) -> str:
    """One thing to do to the table, in the players' words."""
    name = _name(difference)
    if difference.change == "vanished":
        return f"put {name} at {_where(difference, True)}"
    if difference.change == "appeared":
        return f"take {name} off the table (seen at {_where(difference, False)})"
    return f"move {name} from {_where(difference, False)} to {_where(difference, True)}"


#: the steps a checklist shows at once (the rest are counted)
MAX_SHOWN_STEPS = 12


@dataclass(frozen=True)
class SetupCheck:
    """The table against the setup: how many pieces are in place and what is left to do."""

    in_place: int
    expected: int
    steps: tuple[str | Said, ...]
    differences: tuple[Difference, ...]

    @property
    def done(self) -> bool:
        return not self.differences and not self.steps

    def text(self, title: str) -> str:
        if self.done:
            return f"The table is set up for {title}"
        return (f"Set up the table for {title}: {self.in_place} of {self.expected} pieces in place, "
                f"{len(self.steps)} step{'s' if len(self.steps) != 1 else ''} to go. Confirm starts the game "
                "with the table as it is.")

    def to_dict(self) -> dict[str, Any]:
        return {"in_place": self.in_place, "expected": self.expected, "steps": [str(s) for s in self.steps],
                "said_steps": [s.to_dict() if isinstance(s, Said) else None for s in self.steps],
                "differences": [d.to_dict() for d in self.differences[:MAX_SHOWN_STEPS]]}


def check_setup(state: State, observation: Observation, model: TableModel) -> SetupCheck:
    expected = model.expected(state)
    differences = compare(expected, model.seen(observation), model.tolerance)
    total = sum(len(places) for places in expected.items.values())
    misplaced = sum(1 for d in differences if d.change != "appeared")
    return SetupCheck(max(0, total - misplaced), total, tuple(step_text(d) for d in differences),
                      tuple(differences))


#: at most this many cards turned face up are read from one picture of a table being set up
MAX_SETUP_REVEALS = 16


def reveals_seen(state: State, observation: Observation, model: TableModel,
                 open_chance: frozenset[str]) -> list[Action]:
    """The cards being turned face up for everyone as the table is set up (a buy pile's top, the scoring
    row), read from the picture: at each such chance the one outcome that brings the table's picture
    nearer to what the camera sees; none where no outcome does, or where two do equally well."""
    seen = model.seen(observation)
    found: list[Action] = []
    distance = len(compare(model.expected(state), seen, model.tolerance))
    while distance and len(found) < MAX_SETUP_REVEALS and state.is_chance_node():
        outcomes = [action for action in state.legal_actions() if action.kind in open_chance]
        scored = []
        for action in outcomes:
            child = state.apply(action)
            scored.append((len(compare(model.expected(child), seen, model.tolerance)), action, child))
        scored.sort(key=lambda item: item[0])
        if not scored or scored[0][0] >= distance or (len(scored) > 1 and scored[1][0] == scored[0][0]):
            break
        distance, action, state = scored[0]
        found.append(action)
    return found


@dataclass(frozen=True)
class LaidSetup:
    """A set-up the players laid that the game can start from: its ``state``, where it lies on the table
    (``placement``, the kit's), and whether the rulebook's set-up allows it (``strict``) or it is the
    group's own variant, started because they asked."""

    state: State
    placement: Mapping[str, Any]
    strict: bool = True
    #: for a set-up of the group's own: what the rulebook's set-up still lacks (the checklist)
    lacking: SetupCheck = field(default_factory=lambda: SetupCheck(0, 0, (), ()))

    @property
    def digest(self) -> str:
        """A short fingerprint of the set-up (it changes with any piece laid, moved or turned)."""
        text = json.dumps([self.state.to_dict(), self.placement], sort_keys=True, default=str)
        return hashlib.sha1(text.encode()).hexdigest()[:12]


def reads_setups(game_name: str) -> bool:
    """Whether the table's set-up is read as the game (the players deal and lay it themselves)."""
    return isinstance(find_kit(game_name), ReadsSetup) and isinstance(get_game(game_name), LaidByPlayers)


def read_laid_setup(state: State, observation: Observation, model: TableModel, options: Mapping[str, Any],
                    strictness: tuple[bool, ...] = (True,)) -> LaidSetup | SetupCheck:
    """The set-up on the table as the game (a game that reads set-ups: :func:`reads_setups`), or the
    checklist of what the table lacks, in the rule's and the diagram's words. ``state``: the game as
    started (its players; what it expects tells how many pieces a set-up has). The table is read once and
    offered to the game strictly (the rulebook's set-up) and/or not (any the rules can start from), in the
    order of ``strictness``; the first refusal's reasons make the checklist."""
    kit, game = find_kit(state.game.name), state.game
    if not isinstance(kit, ReadsSetup) or not isinstance(game, LaidByPlayers):
        raise TypeError(f"{state.game.title} deals its own set-up")
    seen = kit.read_setup(observation, model.layout)
    expected = sum(len(places) for places in model.expected(state).items.values())
    steps = seen.steps
    refusals: list[tuple[str | Said, ...]] = []
    for strict in strictness if seen.laid is not None else ():
        try:
            laid = game.state_as_laid(state.players, seen.laid, options, strict)
        except IllegalAction as error:  # in each reader's language where the catalogue has its words
            refusals.append((Said(error.message, error.params),))
        except StateFormatError as error:
            refusals.append((" ".join(str(error).split()),))
        else:
            lacking = SetupCheck(min(seen.pieces, expected), expected, refusals[0] if refusals else (), ())
            return LaidSetup(laid, seen.placement, strict, lacking)
    steps = refusals[0] if refusals else steps
    return SetupCheck(min(seen.pieces, expected), expected, tuple(steps), ())
