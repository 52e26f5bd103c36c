"""JB-SETUP-AREA / JB-SETUP-EGGS: four freely placed boards, validated; eggs as data; seeded setup."""

from __future__ import annotations

import random

import pytest

from engines.core import StateFormatError
from engines.jurassic_brunch import (
    ARRANGEMENTS,
    BOARD_IDS,
    DEFAULT_EGGS,
    DEFAULT_EGGS_ARE_ASSUMED,
    GAME,
    AreaError,
    Board,
    PlayingArea,
    arrangement,
    boards_from_tags,
    random_arrangement,
)
from engines.jurassic_brunch.board import ORTHOGONAL, rotate


def shared_edges(area: PlayingArea, first: str, second: str) -> int:
    return sum(
        1
        for cell, board_id in area.board_of.items()
        if board_id == first
        for dx, dy in ORTHOGONAL
        if area.board_of.get((cell[0] + dx, cell[1] + dy)) == second
    )


@pytest.mark.parametrize("name", sorted(ARRANGEMENTS))
def test_named_arrangements_are_valid_with_36_cells_and_8_eggs(name: str) -> None:
    area = PlayingArea(arrangement(name))
    assert len(area.cells) == 36
    assert {colour: len(cells) for colour, cells in area.egg_cells.items()} == {"blue": 4, "orange": 4}
    assert not set(area.egg_cells["blue"]) & set(area.egg_cells["orange"])
    assert set(area.egg_cells["blue"]) <= area.cells


def test_the_square_is_the_default_and_6_by_6() -> None:
    state = GAME.new_initial_state(["blue", "orange"])
    assert state.area.cells == {(x, y) for x in range(6) for y in range(6)}
    assert state.area == PlayingArea(arrangement("square"))


def test_corners_arrangement_boards_touch_along_a_single_cell_edge() -> None:
    area = PlayingArea(arrangement("corners"))
    assert shared_edges(area, "BOARD-1", "BOARD-2") == 1
    assert shared_edges(area, "BOARD-2", "BOARD-3") == 1


def test_random_arrangements_are_valid_varied_and_reproducible() -> None:
    shapes = set()
    for seed in range(60):
        boards = random_arrangement(random.Random(seed))
        area = PlayingArea(boards)  # validates: no overlap, each board touches another, connected
        assert min(x for x, _ in area.cells) == 0 and min(y for _, y in area.cells) == 0
        shapes.add(area.cells)
        assert random_arrangement(random.Random(seed)) == boards
    assert len(shapes) > 40


def test_seeded_random_setup_option() -> None:
    first = GAME.new_initial_state(["blue", "orange"], random.Random(5), {"arrangement": "random"})
    again = GAME.new_initial_state(["blue", "orange"], random.Random(5), {"arrangement": "random"})
    assert first == again
    assert len(first.grass) == 28 and len(first.triceratops) == 8


def test_rotation_is_counter_clockwise_seen_from_above() -> None:
    assert rotate((1, 0), 1) == (0, -1)  # east turns to north
    assert rotate((0, -1), 1) == (-1, 0)  # north turns to west
    assert rotate((1, 0), 4) == (1, 0)
    board = Board("BOARD-1", (10, 10), 1)
    # local (0, 0) is the north-west corner at rotation 0; a quarter turn CCW takes it to the south-west
    assert board.cell((0, 0)) == (9, 11)
    assert set(board.cells()) == {(x, y) for x in (9, 10, 11) for y in (9, 10, 11)}


def test_board_from_its_centre_tag_snaps_to_quarter_turns() -> None:
    assert Board.from_tag("BOARD-2", (4, 1), 88.0).rotation == 1
    assert Board.from_tag("BOARD-2", (4, 1), -91.0).rotation == 3
    assert Board.from_tag("BOARD-2", (4, 1), 179.0).rotation == 2


def test_boards_from_their_centre_tags_in_millimetres() -> None:
    pitch = 30.0
    # the square, seen slightly off the grid and with noisy angles, anywhere on the table
    seen = {
        "BOARD-1": (100.0 + 1.2, 200.0 - 0.8, 2.0),
        "BOARD-2": (100.0 + 3 * pitch - 1.5, 200.0 + 0.6, 268.0),
        "BOARD-3": (100.0 + 3 * pitch + 0.4, 200.0 + 3 * pitch + 1.1, 181.0),
        "BOARD-4": (100.0 - 0.9, 200.0 + 3 * pitch, 92.0),
    }
    boards = boards_from_tags(seen, pitch)
    assert PlayingArea(boards) == PlayingArea(arrangement("square"))
    with pytest.raises(AreaError, match="must each be seen once"):
        boards_from_tags({"BOARD-1": (0.0, 0.0, 0.0)}, pitch)
    with pytest.raises(AreaError, match="cell size"):
        boards_from_tags(seen, 0.0)


def test_egg_layout_is_data_and_the_default_is_marked_assumed() -> None:
    assert DEFAULT_EGGS_ARE_ASSUMED
    eggs = {board_id: {"blue": [(1, 1)], "orange": [(1, 2)]} for board_id in BOARD_IDS}
    area = PlayingArea(arrangement("square"), eggs)
    assert (1, 1) in area.egg_cells["blue"] and (1, 2) in area.egg_cells["orange"]
    state = GAME.new_initial_state(["blue", "orange"], options={"eggs": eggs})
    assert state.triceratops[(1, 1)] == ("blue", None)
    assert set(DEFAULT_EGGS) == set(BOARD_IDS)


@pytest.mark.parametrize(
    "eggs",
    [
        {b: {"blue": [(0, 0)], "orange": []} for b in BOARD_IDS},  # 4 blue, 0 orange
        {b: {"blue": [(0, 0)], "orange": [(0, 0)]} for b in BOARD_IDS},  # two eggs on one cell
        {b: {"blue": [(0, 3)], "orange": [(0, 0)]} for b in BOARD_IDS},  # off the board
        {"BOARD-1": {"blue": [(0, 0)], "orange": [(1, 0)]}},  # boards missing
    ],
)
def test_bad_egg_layouts_are_refused(eggs: object) -> None:
    with pytest.raises(AreaError):
        PlayingArea(arrangement("square"), eggs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("centres", "message"),
    [
        ([(1, 1), (4, 1), (1, 4), (3, 4)], "overlaps"),
        ([(1, 1), (4, 1), (1, 4), (10, 10)], "no space adjacent"),
        ([(1, 1), (4, 4), (7, 7), (10, 10)], "no space adjacent"),  # corners meet only diagonally
        ([(1, 1), (4, 1), (1, 9), (4, 9)], "one connected"),  # two separate pairs
    ],
)
def test_bad_placements_are_refused(centres: list[tuple[int, int]], message: str) -> None:
    boards = [Board(board_id, centre) for board_id, centre in zip(BOARD_IDS, centres)]
    with pytest.raises(AreaError, match=message):
        PlayingArea(boards)


def test_board_ids_and_rotations_are_checked() -> None:
    with pytest.raises(AreaError, match="four boards"):
        PlayingArea([Board("BOARD-1", (1, 1)), Board("BOARD-1", (4, 1)), Board("BOARD-3", (7, 1)),
                     Board("BOARD-4", (10, 1))])
    with pytest.raises(StateFormatError, match="rotation"):
        GAME.new_initial_state(
            ["blue", "orange"],
            options={"boards": [{"id": "BOARD-1", "centre": [1, 1], "rotation": 4}]},
        )


def test_explicit_board_placement_as_seen_on_the_table() -> None:
    boards = [
        {"id": "BOARD-1", "centre": [1, 1], "rotation": 0},
        {"id": "BOARD-2", "centre": [4, 2], "rotation": 1},
        {"id": "BOARD-3", "centre": [4, 5], "rotation": 2},
        {"id": "BOARD-4", "centre": [1, 7], "rotation": 3},
    ]
    state = GAME.new_initial_state(["blue", "orange"], options={"boards": boards})
    assert (0, 0) in state.area.cells and (5, 0) not in state.area.cells
    with pytest.raises(StateFormatError, match="no space adjacent"):
        GAME.new_initial_state(
            ["blue", "orange"], options={"boards": [*boards[:3], {"id": "BOARD-4", "centre": [20, 20]}]}
        )


def test_setup_puts_four_triceratops_on_eggs_one_in_pool_and_28_grass() -> None:
    state = GAME.new_initial_state(["blue", "orange"], options={"arrangement": "l-shape"})
    for colour in ("blue", "orange"):
        on_eggs = [cell for cell in state.area.egg_cells[colour] if state.triceratops[cell][0] == colour]
        assert len(on_eggs) == 4 and state.pool[colour] == 1
    assert len(state.grass) == 28 and not state.grass & set(state.triceratops)
    assert state.raptor is None and sum(state.bag.values()) == 28
    assert state.current_player() == "blue" and state.actions_left == 1


def test_players_must_be_blue_and_orange() -> None:
    with pytest.raises(StateFormatError):
        GAME.new_initial_state(["red", "blue"])
    with pytest.raises(StateFormatError):
        GAME.new_initial_state(["blue"])
