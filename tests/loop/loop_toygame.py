"""A toy table game for the loop tests: tiles in a row, taken from either end into the taker's seat zone
face down, then revealed (a chance action, as the camera sees the front). It exercises every path of the
loop (physical moves, reveals, an invisible pass, illegal and out-of-turn moves) without depending on the
real games' table layouts."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.config import Config, Seat
from companion.infer import TableModel
from companion.privacy import Privacy
from engines.core import (
    CHANCE,
    TERMINAL,
    Action,
    ActionCodec,
    Game,
    GameInfo,
    InputError,
    Outcome,
    Rule,
    RuleBook,
    Ruling,
    State,
    StateFormatError,
    register_game,
)
from vision.places import POSITIONAL, UNORDERED, Places
from vision.scene import Scene, Tag, Zone

SLOT_PITCH = 50.0
#: the row is read where each tile lies; a seat's area only for what is in it
TOY_PLACES = Places({"play": POSITIONAL, "seat:*": UNORDERED}, tolerance_mm=SLOT_PITCH * 0.4)
#: the row's slots and a revealed front are open to everyone
TOY_PRIVACY = Privacy(public_fields=frozenset({"slot", "front"}))


@dataclasses.dataclass(frozen=True)
class Take(Action):
    kind: ClassVar[str] = "take"
    player: str
    slot: int


@dataclasses.dataclass(frozen=True)
class Reveal(Action):
    kind: ClassVar[str] = "reveal"
    slot: int
    front: int


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"
    player: str


class Grab(Game):
    info = GameInfo("toy-grab", "TG", "Toy Grab")
    min_players = 2
    max_players = 4

    def __init__(self) -> None:
        self.rulebook = RuleBook(
            "toy.txt",
            [
                Rule("GRAB-END", "Game end", "toy.txt", "the game ends when the row is empty"),
                Rule(
                    "GRAB-ENDS",
                    "Take from an end",
                    "toy.txt",
                    "take the leftmost or rightmost tile of the row",
                ),
                Rule("GRAB-TURN", "Turn order", "toy.txt", "players take turns clockwise"),
                Rule("GRAB-PASS", "Pass once", "toy.txt", "each player may pass once per game"),
            ],
        )
        self.codec = ActionCodec([Take, Reveal, Pass])
        from engines.core.game import Option

        self.options = (Option("slots", 8, (), "tiles in the row"),)

    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> GrabState:
        slots = int(self.resolve_options(options)["slots"])
        return GrabState(self, self.check_players(players), [True] * slots, {}, None, 0, [])

    def rulings(self) -> tuple[Ruling, ...]:
        return (Ruling("tiles-left", "count the tiles left in a toy row",
                       "Read a row of tiles ([true, false, ...]) and print how many are left.", tiles_left),)

    def state_from_dict(self, data: Mapping[str, Any]) -> GrabState:
        self.check_format(data)
        try:
            return GrabState(
                self,
                tuple(data["players"]),
                [bool(v) for v in data["row"]],
                {int(k): (str(v[0]), v[1]) for k, v in data["held"].items()},
                data["pending"],
                int(data["turn"]),
                list(data["passed"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise StateFormatError(f"bad toy state: {error}") from error


def tiles_left(data: Any) -> dict[str, Any]:
    """The toy's own ruling: the tiles still in a row."""
    if not isinstance(data, list) or not all(isinstance(tile, bool) for tile in data):
        raise InputError("a row is a list of true (a tile) and false (taken)")
    return {"left": sum(data), "taken": len(data) - sum(data)}


class GrabState(State):
    def __init__(
        self,
        game: Game,
        players: tuple[str, ...],
        row: list[bool],
        held: dict[int, tuple[str, int | None]],
        pending: int | None,
        turn: int,
        passed: list[str],
    ) -> None:
        self.game = game
        self._players = players
        self.row = row
        self.held = held  # slot -> (player, front or None while face down)
        self.pending = pending
        self.turn = turn
        self.passed = passed

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def current_player(self) -> str:
        if self.pending is not None:
            return CHANCE
        if not any(self.row):
            return TERMINAL
        return self._players[self.turn % len(self._players)]

    def _ends(self) -> list[int]:
        left = [i for i, v in enumerate(self.row) if v]
        return sorted({left[0], left[-1]}) if left else []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.pending is None:
            return []
        used = {front for _, front in self.held.values() if front is not None}
        fronts = [f for f in range(1, len(self.row) + 1) if f not in used]
        return [(Reveal(self.pending, f), 1 / len(fronts)) for f in fronts]

    def legal_actions(self) -> list[Action]:
        if self.pending is not None:
            return [a for a, _ in self.chance_outcomes()]
        if not any(self.row):
            return []
        player = self.current_player()
        actions: list[Action] = [Take(player, slot) for slot in self._ends()]
        if player not in self.passed:
            actions.append(Pass(player))
        return actions

    def clone(self) -> GrabState:
        return GrabState(
            self.game,
            self._players,
            list(self.row),
            dict(self.held),
            self.pending,
            self.turn,
            list(self.passed),
        )

    def _apply_in_place(self, action: Action) -> None:
        game = self.game
        if isinstance(action, Reveal):
            if self.pending != action.slot:
                raise game.illegal("GRAB-ENDS", "no tile of that slot waits to be revealed")
            if action not in [a for a, _ in self.chance_outcomes()]:
                raise game.illegal("GRAB-ENDS", f"front {action.front} is already revealed")
            self.held[action.slot] = (self.held[action.slot][0], action.front)
            self.pending = None
            return
        if self.pending is not None:
            raise game.illegal("GRAB-TURN", "a tile must be revealed first")
        assert isinstance(action, Take | Pass)
        if action.player != self.current_player():
            raise game.illegal("GRAB-TURN", f"it is {self.current_player()}'s turn, not {action.player}'s")
        if isinstance(action, Pass):
            if action.player in self.passed:
                raise game.illegal("GRAB-PASS", f"{action.player} has passed already")
            self.passed.append(action.player)
            self.turn += 1
            return
        if action.slot not in self._ends():
            raise game.illegal("GRAB-ENDS", f"slot {action.slot} is not at an end of the row")
        self.row[action.slot] = False
        self.held[action.slot] = (action.player, None)
        self.pending = action.slot
        self.turn += 1

    def scores(self) -> Outcome:
        totals = {p: 0 for p in self._players}
        for player, front in self.held.values():
            totals[player] += front or 0
        best = max(totals.values())
        return Outcome(
            totals,
            {p: {"fronts": v} for p, v in totals.items()},
            tuple(p for p, v in totals.items() if v == best),
            reason="row empty",
        )

    def view(self, player: str | None = None) -> dict[str, Any]:
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.header(),
            "players": list(self._players),
            "row": list(self.row),
            "held": {str(k): [v[0], v[1]] for k, v in sorted(self.held.items())},
            "pending": self.pending,
            "turn": self.turn,
            "passed": list(self.passed),
        }


GRAB = register_game(Grab())


def back_id(slot: int) -> str:
    return f"BK{slot:03d}"


def is_back(component_id: str) -> bool:
    return component_id.startswith("BK")


def grab_scene(state: State, colours: Sequence[str]) -> Scene:
    """The table of a toy state: the row in the play zone, each player's tiles in the seat zone."""
    assert isinstance(state, GrabState)
    width = 60 + SLOT_PITCH * len(state.row)
    scene = Scene.with_corner_markers(width, 300)
    scene.zones.append(Zone("play", ((0, 0), (width, 0), (width, 150), (0, 150))))
    seat_width = width / len(colours)
    for index, colour in enumerate(colours):
        x0 = index * seat_width
        scene.zones.append(
            Zone(f"seat:{colour}", ((x0, 150), (x0 + seat_width, 150), (x0 + seat_width, 300), (x0, 300)))
        )
    for slot, present in enumerate(state.row):
        if present:
            scene.tags.append(Tag(f"DT1:TG:{back_id(slot)}", (40 + SLOT_PITCH * slot, 75)))
    counts: dict[str, int] = {}
    for slot, (player, front) in sorted(state.held.items()):
        index = state.players.index(player)
        k = counts.get(player, 0)
        counts[player] = k + 1
        at = (index * seat_width + 15 + 14 * (k % 6), 180 + 30 * (k // 6))
        payload = f"DT1:TG:{back_id(slot)}" if front is None else f"DT1:TG:F{front}"
        scene.tags.append(Tag(payload, at))
    return scene


class Toy:
    """Everything a loop test needs for the toy game."""

    def __init__(self, players: Sequence[str] = ("red", "blue"), slots: int = 8) -> None:
        self.players = list(players)
        self.slots = slots
        self.config = Config(
            game="toy-grab",
            options={"slots": slots},
            seats=tuple(Seat(p, p, i) for i, p in enumerate(players)),
            seed=3,
        )

    def scene_for(self, state: State) -> Scene:
        return grab_scene(state, self.players)

    def model(self, config: Config | None = None) -> TableModel:
        config = config or self.config
        colours = [s.colour for s in config.seats]
        seats = {s.colour: s.name for s in config.seats}
        model = TableModel(lambda s: grab_scene(s, colours), is_back, seats)
        model.read_by(TOY_PLACES, TOY_PRIVACY)
        return model
