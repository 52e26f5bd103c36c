"""Lattice fitting from tag centres: hex (axial), square grid, Brunch boards, the island board."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import geometry
from vision.observation import LatticeFit, cell_key

SQRT3 = math.sqrt(3.0)


def hex_point(origin: tuple[float, float], pitch: float, angle: float, q: int, r: int) -> tuple[float, float]:
    dx, dy = geometry.rotate((pitch * (q + r / 2), pitch * SQRT3 / 2 * r), angle)
    return (origin[0] + dx, origin[1] + dy)


def _slab(count: int, seed: int) -> list[tuple[int, int]]:
    """A connected blob of ``count`` hex cells grown at random from (0, 0)."""
    rng = random.Random(seed)
    cells = [(0, 0)]
    while len(cells) < count:
        q, r = rng.choice(cells)
        dq, dr = rng.choice(geometry.HEX_DIRECTIONS)
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    return cells


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(3, 58),
    seed=st.integers(0, 10_000),
    pitch=st.floats(30.0, 60.0),
    angle=st.floats(-8.0, 8.0),
    noise=st.floats(0.0, 0.05),
)
def test_hex_fit_recovers_axial_cells_up_to_a_shift(
    count: int, seed: int, pitch: float, angle: float, noise: float
) -> None:
    rng = random.Random(seed + 1)
    cells = _slab(count, seed)
    origin = (300.0, 200.0)
    centres = {}
    for index, (q, r) in enumerate(cells):
        x, y = hex_point(origin, pitch, angle, q, r)
        centres[f"F{index + 1:02d}"] = (x + rng.gauss(0, noise * pitch), y + rng.gauss(0, noise * pitch))
    fit = geometry.fit_hex(centres)
    got = {tag: fit.cell_of(tag) for tag in centres}
    shift = None
    for index, cell in enumerate(cells):
        found = got[f"F{index + 1:02d}"]
        assert found is not None
        delta = (found[0] - cell[0], found[1] - cell[1])
        shift = shift or delta
        assert delta == shift
    if count >= 10:  # a handful of noisy tiles pins the cells, not the pitch and angle to a degree
        assert abs(fit.pitch - pitch) < 0.05 * pitch
        assert abs(fit.angle - angle) < 3.0


def test_hex_fit_with_a_prior_keeps_the_layout_origin_and_missing_tiles_do_not_matter() -> None:
    prior = LatticeFit("hex", (300.0, 200.0), 45.0, 0.0)
    cells = [(0, 0), (3, 1), (-2, 4), (5, -2)]  # far apart: no neighbours at all
    centres = {f"F{i}": hex_point((300.4, 199.2), 45.0, 0.5, q, r) for i, (q, r) in enumerate(cells)}
    fit = geometry.fit_hex(centres, prior=prior)
    assert [fit.cell_of(f"F{i}") for i in range(len(cells))] == cells
    assert fit.residual < 1.0
    one = geometry.fit_hex({"F1": hex_point((300.0, 200.0), 45.0, 0.0, 2, -1)}, prior=prior)
    assert one.cell_of("F1") == (2, -1)


def test_two_tiles_on_one_cell_are_reported() -> None:
    prior = LatticeFit("hex", (0.0, 0.0), 40.0, 0.0)
    fit = geometry.fit_hex({"F1": (0.0, 0.0), "F2": (3.0, 1.0), "F3": (40.0, 0.0)}, prior=prior)
    assert fit.extra["clashes"] == {"0,0": ["F1", "F2"]}


def test_square_fit_recovers_grid_cells() -> None:
    rng = random.Random(3)
    centres = {}
    truth = {}
    for col in range(7):
        for row in range(7):
            if rng.random() < 0.3:
                continue  # taken tiles
            x, y = geometry.rotate((col * 50.0, row * 50.0), 4.0)
            centres[f"T{col}{row}"] = (100 + x + rng.gauss(0, 2), 80 + y + rng.gauss(0, 2))
            truth[f"T{col}{row}"] = (col, row)
    fit = geometry.fit_square(centres, prior=LatticeFit("square", (100.0, 80.0), 50.0, 0.0))
    assert {k: fit.cell_of(k) for k in centres} == truth
    assert abs(fit.angle - 4.0) < 1.0


def test_hex_gaps_and_tile_rotation() -> None:
    gaps = geometry.hex_gaps([(0, 0), (1, 0), (0, 1), (5, 5)])
    assert sorted(gaps) == [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 0))]
    assert geometry.tile_rotation(121.0) == 2 and geometry.tile_rotation(-58.0) == 5


def test_boards_fit_places_pieces_on_the_common_grid() -> None:
    pitch = 40.0
    # Board 1 at the origin, board 2 to its east (touching), board 3 south of 1 turned a quarter.
    boards = {
        "BOARD-1": ((100.0, 100.0), 0.0),
        "BOARD-2": ((220.0, 100.0), 180.0),
        "BOARD-3": ((100.0, 220.0), 90.0),
    }
    pieces = {
        "TRI-BLUE-1": (61.0, 59.0),
        "RAPTOR": (261.0, 141.0),
        "YUMMY-01": (140.0, 260.0),
        "OFF": (500.0, 500.0),
    }
    fit = geometry.fit_boards(boards, pieces, pitch)
    assert fit.cell_of("TRI-BLUE-1") == (0, 0)
    assert fit.cell_of("RAPTOR") == (5, 2)
    assert fit.cell_of("YUMMY-01") == (2, 5)
    assert fit.cell_of("OFF") == (11, 11)  # off the boards: the detector keeps only play-zone pieces
    assert fit.extra["boards"]["BOARD-3"]["quarter_turns"] == 1
    assert fit.extra["board_of_cell"]["4,1"] == "BOARD-2"


CORNERS = ("BOARD-NW", "BOARD-NE", "BOARD-SE", "BOARD-SW")


@pytest.mark.parametrize("hidden", [(), ("BOARD-SE",), ("BOARD-NE", "BOARD-SW")])
def test_island_fit_assigns_pieces_to_fields(hidden: tuple[str, ...]) -> None:
    pitch = 50.0
    fields = {(c, r): geometry.flat_top_field_centre(c, r, pitch) for c in range(8) for r in range(6)}
    size = (400.0, 330.0)
    origin, angle = (120.0, 90.0), 3.0

    def place(p: tuple[float, float]) -> tuple[float, float]:
        dx, dy = geometry.rotate(p, angle)
        return (origin[0] + dx, origin[1] + dy)

    corners = {
        name: place(p)
        for name, p in zip(CORNERS, [(0, 0), (size[0], 0), size, (0, size[1])])
        if name not in hidden
    }
    pieces = {"DINO-1": place(fields[(3, 2)]), "DINO-2": place(fields[(6, 4)])}
    fit = geometry.fit_island(corners, size, fields, pieces, CORNERS)
    assert fit.cells == {"DINO-1": cell_key((3, 2)), "DINO-2": cell_key((6, 4))}
    assert abs(fit.angle - angle) < 0.5
    centre = geometry.island_field_centre(fit, fields[(3, 2)])
    assert math.dist(centre, pieces["DINO-1"]) < 0.5
