"""The Jurassik :class:`Game`: editions and options, the seeded setup, and the state reader."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Game, StateFormatError
from engines.core.game import GameInfo, Option
from engines.jurassik.actions import CODEC
from engines.jurassik.codec import parse_state
from engines.jurassik.components import (
    ACTION_MIX,
    DINOSAURS_IN_BOX,
    EDITIONS,
    FACES,
    HIDDEN,
    START,
    dino_id,
    setup_for,
)
from engines.jurassik.laid import state_as_laid
from engines.jurassik.rules import RULEBOOKS
from engines.jurassik.rulings import legal_report, score_report
from engines.jurassik.state import JurassikState, Phase


class JurassikGame(Game):
    info = GameInfo("jurassik", "JK", "Jurassik", aliases=("jurassik-en", "jurassik-es"), editions=EDITIONS)
    min_players = 2
    max_players = 5

    def __init__(self) -> None:
        self.rulebook = RULEBOOKS["en"]
        self.codec = CODEC
        self.options = (
            Option("edition", "en", EDITIONS, "rulebook edition: en (23 action tiles) or es (22)"),
            Option(
                "long_game",
                False,
                (False, True),
                "English only: all the tiles (10 dinosaurs, 23 action tiles, 8x8) for any player count",
            ),
            Option(
                "compulsory_actions",
                False,
                (False, True),
                "house rule: Stealing, Exchanging and Returning must be used when possible (the rulebook "
                "says they 'allow' it, so by default a player may decline)",
                house_rule=True,
            ),
        )

    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> JurassikState:
        """Random setup: which dinosaurs are used and where every tile lies (seeded by ``rng``).

        The action tiles are laid face down and stay unknown: the ones not drawn go to the box unseen, so
        the engine only ever knows how many of each face have not been seen yet.
        """
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        edition: str = resolved["edition"]
        long_game: bool = resolved["long_game"]
        compulsory: bool = resolved["compulsory_actions"]
        try:
            setup = setup_for(edition, len(names), long_game)
        except ValueError as error:
            raise StateFormatError(str(error)) from error
        rng = rng if rng is not None else random.Random(0)
        in_box = DINOSAURS_IN_BOX[edition]
        chosen = sorted(rng.sample(range(1, in_box + 1), setup.dinosaurs))
        tiles: list[str | None] = [dino_id(d, p) for d in chosen for p in range(1, 5)]
        tiles += [HIDDEN] * setup.actions + [START]
        rng.shuffle(tiles)
        left_out = [dino_id(d, p) for d in range(1, in_box + 1) if d not in chosen for p in range(1, 5)]
        return JurassikState(
            game=self,
            edition=edition,
            long_game=long_game,
            players=names,
            rows=setup.rows,
            cols=setup.cols,
            cells=tiles,
            hands={name: [] for name in names},
            box_dinos=left_out,
            box_actions=dict.fromkeys(FACES[edition], 0),
            box_start=False,
            unseen=dict(ACTION_MIX[edition]),
            turn=0,
            phase=Phase.START,
            twice_left=0,
            reveal_cell=None,
            end_reason="",
            last_event="",
            compulsory_actions=compulsory,
        )

    def state_from_dict(self, data: Mapping[str, Any]) -> JurassikState:
        return parse_state(self, data)

    def state_as_laid(self, players: Sequence[str], laid: Mapping[str, Any],
                      options: Mapping[str, Any] | None = None, strict: bool = True) -> JurassikState:
        """The group's own deal: the dinosaurs they chose and every tile where they laid it
        (:mod:`engines.jurassik.laid`)."""
        return state_as_laid(self, players, laid, options, strict)

    def score_report(self, data: Any) -> dict[str, Any]:
        return score_report(data)

    def legal_report(self, data: Any) -> dict[str, Any]:
        return legal_report(self, data)
