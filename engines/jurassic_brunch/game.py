"""The Jurassic Brunch game: setup options and house rules, the initial state, and the CLI rulings."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Game, StateFormatError
from engines.core.game import GameInfo, Option
from engines.jurassic_brunch.actions import CODEC
from engines.jurassic_brunch.board import (
    ARRANGEMENTS,
    COLOURS,
    AreaError,
    PlayingArea,
    arrangement,
    parse_board,
    random_arrangement,
)
from engines.jurassic_brunch.codec import state_from_dict
from engines.jurassic_brunch.components import TOKEN_COUNTS, TRICERATOPS_PER_PLAYER
from engines.jurassic_brunch.rules import RULES
from engines.jurassic_brunch.rulings import legal_report, report_state, score_report
from engines.jurassic_brunch.state import HOUSE_RULES, BrunchState


class JurassicBrunch(Game):
    info = GameInfo("jurassic-brunch", "JB", "Jurassic Brunch", aliases=("brunch",))
    min_players = 2
    max_players = 2
    players_are_colours = True

    def __init__(self) -> None:
        self.rulebook = RULES
        self.codec = CODEC
        self.options = (
            Option(
                "arrangement",
                "square",
                (*ARRANGEMENTS, "random"),
                "How the four boards are placed: the rulebook's square for a first game, another named "
                "shape, or a random valid placement drawn from the setup rng.",
            ),
            Option(
                "boards",
                None,
                (),
                "Explicit placement (as seen on the table): a list of {id, centre, rotation}; overrides "
                "'arrangement'.",
            ),
            Option("eggs", None, (), "Egg layout per board (local cells); default: the assumed layout."),
            Option(
                "charge_blocked_by_grass",
                False,
                (False, True),
                "Grass tokens block a charge (by default a charge passes over them without eating).",
                house_rule=True,
            ),
            Option(
                "wake_same_turn",
                False,
                (False, True),
                "A triceratops may be woken in the turn it fell asleep (by default: from the next turn).",
                house_rule=True,
            ),
            Option(
                "super_yummy_same_turn",
                False,
                (False, True),
                "A Super Yummy may be used in the turn it was gained (by default: from the next turn).",
                house_rule=True,
            ),
        )

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        names = super().check_players(players)
        if sorted(names) != sorted(COLOURS):
            raise StateFormatError("Jurassic Brunch's two players are named by their colours, 'blue' and "
                                   "'orange'")
        return names

    # -- states -----------------------------------------------------------------------------------------
    def new_initial_state(
        self,
        players: Sequence[str] = COLOURS,
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> BrunchState:
        """Setup: boards placed, 4 triceratops each on their eggs, 1 in each pool, the raptor off the area,
        28 face-down (unknown) tokens on the other cells. Blue plays first with a single action."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        try:
            if resolved["boards"] is not None:
                if not isinstance(resolved["boards"], list):
                    raise AreaError("the boards option is a list of {id, centre, rotation}")
                boards = tuple(parse_board(item) for item in resolved["boards"])
            elif resolved["arrangement"] == "random":
                boards = random_arrangement(rng if rng is not None else random.Random(0))
            else:
                boards = arrangement(resolved["arrangement"])
            area = PlayingArea(boards, resolved["eggs"])
        except AreaError as error:
            raise StateFormatError(str(error)) from None
        state = BrunchState(self, area, {name: resolved[name] for name in HOUSE_RULES})
        eggs = {cell: colour for colour in COLOURS for cell in area.egg_cells[colour]}
        for cell, colour in eggs.items():
            state.triceratops[cell] = (colour, None)
        state.pool = {colour: TRICERATOPS_PER_PLAYER - len(area.egg_cells[colour]) for colour in COLOURS}
        state.grass = set(area.cells) - set(eggs)
        state.bag = dict(TOKEN_COUNTS)
        if len(state.grass) != sum(TOKEN_COUNTS.values()):
            raise StateFormatError("the egg layout must leave 28 spaces for the grass tokens")
        return state

    def state_as_laid(self, players: Sequence[str], laid: Mapping[str, Any],
                      options: Mapping[str, Any] | None = None, strict: bool = True) -> BrunchState:
        """The pasture as the group joined it (``{"boards": [{id, centre, rotation}, ...]}``, as the boards'
        centre tags show them): the rest of the set-up follows the boards (the triceratops on their eggs,
        the grass tokens face down on every other cell). The rulebook leaves the joining to the group, so
        ``strict`` asks no more than the rules do: four boards, each touching another, one area
        (JB-SETUP-AREA)."""
        boards = laid.get("boards") if isinstance(laid, Mapping) else None
        if not isinstance(boards, list):
            raise StateFormatError("a laid pasture needs 'boards': a list of {id, centre, rotation}")
        try:
            return self.new_initial_state(players, options={**(options or {}), "boards": boards})
        except StateFormatError as error:
            said_so = " ".join(str(error).split())  # the state's own words: no message of the catalogue
            raise self.illegal("JB-SETUP-AREA", said_so) from None

    def state_from_dict(self, data: Mapping[str, Any]) -> BrunchState:
        return state_from_dict(self, data)

    # -- rulings ----------------------------------------------------------------------------------------
    def score_report(self, data: Any) -> dict[str, Any]:
        """`companion score jurassic-brunch FILE`: tokens held and triceratops on the area at the end, or a
        full engine state (scored as it stands; hidden tokens count)."""
        return score_report(self, data)

    def legal_report(self, data: Any) -> dict[str, Any]:
        """`companion legal jurassic-brunch FILE`: a drawn position or a full engine state."""
        return legal_report(self, data)

    def report_state(self, data: Any) -> BrunchState:
        """A full engine state or a drawn position."""
        return report_state(self, data)
