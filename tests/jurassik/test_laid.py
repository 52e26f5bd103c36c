"""The square as the group laid it (JK-SETUP): any deal the rules allow is the game, whatever dinosaurs
and action tiles were drawn and wherever each tile lies; what the rules do not allow is named in the
diagram's words; a square of the group's own starts when asked."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction, LaidByPlayers, StateFormatError, get_game
from engines.jurassik import JurassikGame, JurassikState

PLAYERS = {2: ["ana", "ben"], 3: ["ana", "ben", "cy"], 4: ["ana", "ben", "cy", "di"],
           5: ["ana", "ben", "cy", "di", "ed"]}


def grid_of(state: JurassikState) -> list[list[str | None]]:
    return [list(state.cells[r * state.cols:(r + 1) * state.cols]) for r in range(state.rows)]


def test_jurassik_reads_set_ups_the_players_lay(game: JurassikGame) -> None:
    assert isinstance(game, LaidByPlayers)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5), edition=st.sampled_from(["en", "es"]),
       long_game=st.booleans())
def test_every_deal_the_rules_allow_is_read_as_itself(seed: int, players: int, edition: str,
                                                     long_game: bool) -> None:
    game = get_game("jurassik")
    assert isinstance(game, JurassikGame)
    options = {"edition": edition, "long_game": long_game and edition == "en"}
    dealt = game.new_initial_state(PLAYERS[players], random.Random(seed), options)
    laid = game.state_as_laid(PLAYERS[players], {"grid": grid_of(dealt)}, options)
    assert laid == dealt and laid.to_dict() == dealt.to_dict()


def test_the_spanish_rectangle_may_lie_either_way_round(game: JurassikGame) -> None:
    dealt = game.new_initial_state(PLAYERS[3], random.Random(4), {"edition": "es"})
    turned = [list(column) for column in zip(*grid_of(dealt))]
    laid = game.state_as_laid(PLAYERS[3], {"grid": turned}, {"edition": "es"})
    assert (laid.rows, laid.cols) == (8, 6) and sorted(map(str, laid.cells)) == sorted(map(str, dealt.cells))


def test_opaque_backs_are_face_down_action_tiles(game: JurassikGame) -> None:
    dealt = game.new_initial_state(PLAYERS[2], random.Random(1))
    grid = [["7QX2A" if cell == "?" else cell for cell in row] for row in grid_of(dealt)]
    assert game.state_as_laid(PLAYERS[2], {"grid": grid}) == dealt


@pytest.mark.parametrize(("change", "says"), [
    (lambda g: g[2].__setitem__(4, None), "the square has a gap at row 3, column 5"),
    (lambda g: g.pop(), "the tiles lie in a 5x6 square; 2 players lay 6x6 / 8x8"),
    (lambda g: [row.append("?") for row in g], "the tiles lie in a 6x7 square; 2 players lay 6x6 / 8x8"),
])
def test_what_the_square_lacks_is_said_in_the_diagram_s_words(game: JurassikGame, change: object,
                                                             says: str) -> None:
    grid = grid_of(game.new_initial_state(PLAYERS[2], random.Random(6)))
    change(grid)  # type: ignore[operator]
    with pytest.raises(IllegalAction) as refused:
        game.state_as_laid(PLAYERS[2], {"grid": grid})
    assert refused.value.rule.rule_id == "JK-SETUP" and refused.value.detail == says


def test_dinosaurs_and_action_tiles_are_counted(game: JurassikGame) -> None:
    dealt = game.new_initial_state(PLAYERS[2], random.Random(6))
    grid = grid_of(dealt)
    flat = [cell for row in grid for cell in row]
    unused = next(d for d in range(1, 11) if f"D{d}-1" not in flat)
    swapped = [[f"D{unused}-1" if cell == "?" and (r, c) == first else cell for c, cell in enumerate(row)]
               for r, row in enumerate(grid)
               for first in [next((i // 6, i % 6) for i, t in enumerate(flat) if t == "?")]]
    with pytest.raises(IllegalAction, match=f"dinosaur {unused} has 1 of its 4 tiles in the square"):
        game.state_as_laid(PLAYERS[2], {"grid": swapped})
    doubled = [["D1-1" if cell == "START" else cell for cell in row] for row in grid]
    with pytest.raises(IllegalAction, match="needs the beginning of excavation tile, once"):
        game.state_as_laid(PLAYERS[2], {"grid": doubled})


def test_a_square_of_the_group_s_own_starts_when_asked(game: JurassikGame) -> None:
    """Seven dinosaurs and ten action tiles for two players: not the rulebook's, a game all the same."""
    dealt = game.new_initial_state(PLAYERS[2], random.Random(9))
    grid = grid_of(dealt)
    flat = [cell for row in grid for cell in row]
    unused = next(d for d in range(1, 11) if f"D{d}-1" not in flat)
    index = flat.index("?")
    grid[index // 6][index % 6] = f"D{unused}-1"
    with pytest.raises(IllegalAction):
        game.state_as_laid(PLAYERS[2], {"grid": grid})
    own = game.state_as_laid(PLAYERS[2], {"grid": grid}, strict=False)
    assert own.cells[index] == f"D{unused}-1" and own.phase == "start"


def test_a_place_not_laid_yet_holds_the_one_tile_the_set_up_lacks(game: JurassikGame) -> None:
    dealt = game.new_initial_state(PLAYERS[2], random.Random(12))
    grid = grid_of(dealt)
    flat = [cell for row in grid for cell in row]
    tile = next(cell for cell in flat if cell and cell.startswith("D"))
    index = flat.index(tile)
    grid[index // 6][index % 6] = None
    assert game.state_as_laid(PLAYERS[2], {"grid": grid}, strict=False) == dealt
    two = [list(row) for row in grid]
    other = next(i for i, cell in enumerate(flat) if cell and cell.startswith("D") and cell[:3] != tile[:3])
    two[other // 6][other % 6] = None  # two different tiles missing: which is where is not known
    with pytest.raises(StateFormatError):
        game.state_as_laid(PLAYERS[2], {"grid": two}, strict=False)


@pytest.mark.parametrize("laid", [{}, {"grid": "D1-1"}, {"grid": []}, {"grid": [["D1-1"], "x"]}])
def test_what_cannot_be_read_is_a_format_error(game: JurassikGame, laid: dict[str, object]) -> None:
    with pytest.raises(StateFormatError):
        game.state_as_laid(PLAYERS[2], laid, strict=False)
