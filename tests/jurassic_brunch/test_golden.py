"""A scripted opening on the rulebook's first-game square, step by step, with what the table shows."""

from __future__ import annotations

from engines.core import CHANCE
from engines.jurassic_brunch import (
    GAME,
    Birth,
    Charge,
    EndTurn,
    Expel,
    Move,
    RaptorMove,
    Reveal,
    Steal,
)
from engines.jurassic_brunch.state import BrunchState


def picture(state: BrunchState) -> list[str]:
    rows = []
    for y in range(6):
        row = ""
        for x in range(6):
            cell = (x, y)
            if cell in state.triceratops:
                owner, since = state.triceratops[cell]
                letter = "B" if owner == "blue" else "O"
                row += letter.lower() if since is not None else letter
            elif cell == state.raptor:
                row += "R"
            else:
                row += "g" if cell in state.grass else "."
        rows.append(row)
    return rows


def test_scripted_opening_on_the_square() -> None:
    state = GAME.new_initial_state(["blue", "orange"])
    assert picture(state) == ["BgOggB", "gggggg", "gggggO", "Oggggg", "gggggg", "BggOgB"]

    # turn 1, blue, one action: eats a Yummy
    state = state.apply(Move((0, 0), (1, 0), True))
    assert state.current_player() == CHANCE
    state = state.apply(Reveal("YUMMY")).apply(EndTurn())
    assert state.current_player() == "orange" and state.actions_left == 2

    # turn 2, orange: a Flower (blue's Yummy is taken at random: the only choice), then It Was a Trap!
    state = state.apply(Move((2, 0), (2, 1), True)).apply(Reveal("FLOWER"))
    assert state.chance_outcomes() == [(Steal("YUMMY"), 1.0)]
    state = state.apply(Steal("YUMMY"))
    state = state.apply(Move((5, 2), (4, 2), True)).apply(Reveal("TRAP"))
    assert state.raptor == (4, 2) and state.pool == {"blue": 1, "orange": 2}
    state = state.apply(EndTurn())

    # turn 3, blue: a Birth placed in the corner it left, then Stodgy Grass
    state = state.apply(Move((1, 0), (1, 1), True)).apply(Reveal("BIRTH"))
    state = state.apply(Birth((0, 0)))
    state = state.apply(Move((5, 0), (4, 0), True)).apply(Reveal("STODGY")).apply(EndTurn())
    assert picture(state) == ["B..gb.", "gBOggg", "ggggR.", "Oggggg", "gggggg", "BggOgB"]

    # turn 4, orange: charges blue off (1, 1) to (5, 2), and the raptor scares it from there
    state = state.apply(Charge((2, 1), (1, 1))).apply(Expel((5, 2)))
    assert picture(state)[1:3] == ["gO.ggg", "ggggRB"]
    state = state.apply(RaptorMove((4, 2), (5, 2), True))
    assert state.pool == {"blue": 1, "orange": 2} and state.progress
    state = state.apply(EndTurn())
    assert picture(state) == ["B..gb.", "gO.ggg", "gggg.R", "Oggggg", "gggggg", "BggOgB"]

    outcome = state.scores()
    assert outcome.breakdown == {"blue": {"BIRTH": 1, "FLOWER": 1, "STODGY": 3},
                                 "orange": {"TRAP": 3, "YUMMY": 2}}
    assert outcome.scores == {"blue": 5, "orange": 5}
    assert outcome.winners == ("orange",)  # tied on leaves, orange holds fewer tokens
    assert state.turn == 5 and state.current_player() == "blue" and state.quiet_turns == 0
