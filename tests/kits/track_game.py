"""A game of a new board shape, written for the tests from docs/architecture.md alone: figures race along a
snake of twelve squares (six east, six back west), one figure a player, 1 to 3 squares a turn, and a tar
pit that sends a figure landing on it back. Its kit comes in two kinds: one with a board fit of its own
(the squares as cells) and one with none (where the figures stand is all there is). Nothing here is in a
shared file: the engine registers itself, the kit is registered by the tests that seat it."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.drawing import attr, colour_of, rgb
from companion.infer import TableModel
from companion.kits.kit import Kit
from companion.kits.reading import TableReading
from companion.privacy import Privacy
from engines.core import (
    TERMINAL,
    Action,
    ActionCodec,
    Game,
    GameInfo,
    Outcome,
    Rule,
    RuleBook,
    State,
    StateFormatError,
    register_game,
)
from vision.boards import Seen
from vision.detect import GeometryHints
from vision.observation import LatticeFit
from vision.places import IGNORED, POSITIONAL, UNORDERED, Places
from vision.scene import Scene, Tag, Zone
from vision.tags import ManifestEntry, TagInventory, payload

SQUARES = 12
LAST = SQUARES - 1
TAR_PIT, TAR_BACK = 7, 4
PITCH = 150.0
#: where a seat's figure stands within a square (two figures share one side by side)
OFFSETS = ((-34.0, 0.0), (34.0, 0.0))
WIDTH, HEIGHT = 1280.0, 720.0
ROWS_Y = (230.0, 410.0)


def square_centre(square: int) -> tuple[float, float]:
    """Squares 0-5 run east along the first row, 6-11 back west along the second."""
    row, step = divmod(square, SQUARES // 2)
    column = step if row == 0 else SQUARES // 2 - 1 - step
    x0 = WIDTH / 2 - PITCH * (SQUARES // 2 - 1) / 2
    return (x0 + PITCH * column, ROWS_Y[row])


def square_at(point: tuple[float, float]) -> int:
    return min(range(SQUARES), key=lambda s: math.dist(square_centre(s), point))


@dataclasses.dataclass(frozen=True)
class Step(Action):
    kind: ClassVar[str] = "step"
    player: str
    squares: int


class Track(Game):
    info = GameInfo("toy-track", "TT", "Toy Track")
    min_players = 2
    max_players = 2

    def __init__(self) -> None:
        self.rulebook = RuleBook("track.txt", [
            Rule("TRACK-STEP", "Steps", "track.txt", "move your figure 1, 2 or 3 squares forward"),
            Rule("TRACK-TURN", "Turn order", "track.txt", "players take turns clockwise"),
            Rule("TRACK-END", "Game end", "track.txt", "the first figure on the last square wins"),
        ])
        self.codec = ActionCodec([Step])
        self.options = ()

    def new_initial_state(self, players: Sequence[str], rng: random.Random | None = None,
                          options: Mapping[str, Any] | None = None) -> TrackState:
        self.resolve_options(options)
        return TrackState(self, self.check_players(players), [0] * len(players), 0)

    def state_from_dict(self, data: Mapping[str, Any]) -> TrackState:
        self.check_format(data)
        try:
            return TrackState(self, tuple(data["players"]), [int(v) for v in data["squares"]],
                              int(data["turn"]))
        except (KeyError, TypeError, ValueError) as error:
            raise StateFormatError(f"bad track state: {error}") from error


class TrackState(State):
    def __init__(self, game: Game, players: tuple[str, ...], squares: list[int], turn: int) -> None:
        self.game = game
        self._players = players
        self.squares = squares
        self.turn = turn

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def current_player(self) -> str:
        if LAST in self.squares:
            return TERMINAL
        return self._players[self.turn % len(self._players)]

    def legal_actions(self) -> list[Action]:
        if LAST in self.squares:
            return []
        player = self.current_player()
        here = self.squares[self._players.index(player)]
        return [Step(player, n) for n in (1, 2, 3) if here + n <= LAST]

    def clone(self) -> TrackState:
        return TrackState(self.game, self._players, list(self.squares), self.turn)

    def _apply_in_place(self, action: Action) -> None:
        assert isinstance(action, Step)
        if action.player != self.current_player():
            raise self.game.illegal("TRACK-TURN", f"it is {self.current_player()}'s turn")
        seat = self._players.index(action.player)
        if action.squares not in (1, 2, 3) or self.squares[seat] + action.squares > LAST:
            raise self.game.illegal("TRACK-STEP", f"{action.squares} squares is not a step from here")
        landed = self.squares[seat] + action.squares
        self.squares[seat] = TAR_BACK if landed == TAR_PIT else landed
        self.turn += 1

    def scores(self) -> Outcome:
        totals = dict(zip(self._players, self.squares))
        best = max(totals.values())
        return Outcome(totals, {p: {"square": v} for p, v in totals.items()},
                       tuple(p for p, v in totals.items() if v == best), reason="a figure arrived")

    def view(self, player: str | None = None) -> dict[str, Any]:
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {**self.header(), "players": list(self._players), "squares": list(self.squares),
                "turn": self.turn}


TRACK = register_game(Track())


def figure_tag(seat: int) -> str:
    return f"FIG-{seat + 1}"


def track_scene(state: State, colours: Sequence[str]) -> Scene:
    """The table: the snake of squares in the ``track`` zone, the figures on their squares, a seat area
    for each player along the south edge and the box in the south-east corner."""
    assert isinstance(state, TrackState)
    scene = Scene.with_corner_markers(WIDTH, HEIGHT)
    scene.zones.append(Zone("track", ((160.0, 130.0), (1120.0, 130.0), (1120.0, 510.0), (160.0, 510.0))))
    for index, colour in enumerate(colours):
        x0 = 160.0 + 400.0 * index
        scene.zones.append(Zone(f"seat:{colour}", ((x0, 540.0), (x0 + 380.0, 540.0), (x0 + 380.0, 680.0),
                                                  (x0, 680.0))))
    scene.zones.append(Zone("box", ((980.0, 540.0), (1120.0, 540.0), (1120.0, 680.0), (980.0, 680.0))))
    for seat, square in enumerate(state.squares):
        x, y = square_centre(square)
        dx, dy = OFFSETS[seat]
        scene.tags.append(Tag(payload(TRACK.info.code, figure_tag(seat)), (x + dx, y + dy), 0.0, 40.0))
    return scene


@dataclasses.dataclass(frozen=True)
class TrackFit:
    """The track's own board fit: each figure's cell is the square it stands on (``square,0``)."""

    def fit(self, seen: Seen, last: LatticeFit | None) -> LatticeFit:
        centres = seen.centres(seen.in_play)
        cells = {tag: f"{square_at(point)},0" for tag, point in centres.items()}
        return LatticeFit("square", square_centre(0), PITCH, 0.0, cells)

    def peg_searches(self, lattice: LatticeFit, seen: Seen) -> Sequence[Any]:
        return ()


@dataclasses.dataclass(frozen=True)
class TrackLayout:
    width: float = WIDTH
    height: float = HEIGHT


class TrackKit(Kit):
    """The toy track at the table; ``board_fit``: whether vision fits the squares (else it reads where the
    figures stand, and the reading's places alone tell a move)."""

    info = Track.info
    demo_colours = ("red", "blue")
    privacy = Privacy(public_fields=frozenset({"squares"}))
    reading = TableReading(
        places=Places({"track": POSITIONAL, "seat:*": UNORDERED, "box": IGNORED}, tolerance_mm=30.0),
        tag_mm={"figure": 40.0})

    def __init__(self, board_fit: bool) -> None:
        self.board_fit = board_fit

    def inventory(self) -> TagInventory:
        figures = [ManifestEntry(figure_tag(seat), "front", "figure", f"figure {seat + 1}")
                   for seat in range(Track.max_players)]
        return TagInventory(code=self.info.code, name=self.info.name, faces=tuple(figures))

    def layout(self, colours: Sequence[str]) -> TrackLayout:
        return TrackLayout()

    def scene(self, state: State, layout: Any = None) -> Scene:
        return track_scene(state, self.demo_colours)

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        board = TrackFit() if self.board_fit else None
        return GeometryHints(board=board, play_zone="track", table_size=(WIDTH, HEIGHT))

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        colours = list(players_by_colour)
        return TableModel(lambda s: track_scene(s, colours), lambda _: False, dict(players_by_colour))

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        players = snapshot.get("players") or []
        squares = "".join(
            f'<rect x="{10 + 40 * (s % 6 if s < 6 else 11 - s)}" y="{10 + 40 * (s // 6)}" width="34" '
            f'height="34" fill="{"#7a4a2a" if s == TAR_PIT else "#eee"}"/>' for s in range(SQUARES))
        figures = "".join(
            f'<circle cx="{27 + 40 * (s % 6 if s < 6 else 11 - s) + 8 * (i * 2 - 1)}" '
            f'cy="{27 + 40 * (s // 6)}" r="7" fill="{rgb(colour_of(players, str(name)))}">'
            f"<title>{attr(name)}</title></circle>"
            for i, (name, s) in enumerate(zip(view.get("players") or [], view.get("squares") or [])))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 260 100" role="img" '
                f'aria-label="the track">{squares}{figures}</svg>')
