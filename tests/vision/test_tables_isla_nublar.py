"""Isla Nublar table layout: the island board placed and turned, camps and boxes by colour, figures."""

from __future__ import annotations

import math

import numpy as np
import pytest
import zxingcpp

from engines.isla_nublar import GAME, IslaNublarState, default_board
from vision.fixtures import random_playout
from vision.render import Effects, render
from vision.tables import SEAT_RGB, recommended_camera
from vision.tables.isla_nublar import IslaNublarLayout, scene_for


def playout(players: int, seed: int, steps: int) -> list[IslaNublarState]:
    states = random_playout(GAME, [f"p{i}" for i in range(players)], seed, steps)
    assert all(isinstance(state, IslaNublarState) for state in states)
    return states


@pytest.mark.parametrize("angle", [90.0, 0.0, 37.0])
def test_board_and_table_coordinates_are_inverse(angle: float) -> None:
    board = default_board()
    layout = IslaNublarLayout(board_angle=angle)
    for field_id in board.fields:
        center = layout.field_center(board, field_id)
        assert layout.field_at(board, center) == field_id
        back = layout.mm_to_board(board, center)
        assert back == pytest.approx(board.centre(field_id))
    # Neighbouring fields are one pitch apart on the table.
    first = next(iter(board.fields.values()))
    for neighbour in first.neighbours:
        distance = math.dist(
            layout.field_center(board, first.field_id), layout.field_center(board, neighbour)
        )
        assert distance == pytest.approx(layout.pitch)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_fits_between_the_seats(players: int) -> None:
    board = default_board()
    layout = IslaNublarLayout(seats=players)
    zones = layout.zones(board)
    play = zones[0]
    corners = layout.board_corners(board)
    for point in [*(layout.field_center(board, f) for f in board.fields), *corners.values()]:
        assert play.contains(point)
        assert 60.0 < point[0] < layout.width - 60.0 and 60.0 < point[1] < layout.height - 60.0
        for seat in layout.seat_places:
            assert not seat.zone.contains(point)
    # The corner tags keep the board's compass: NW is the volcano end's west corner.
    x0, y0, _, _ = board.extent()
    assert (
        layout.mm_to_board(board, corners["NW"])[0] < x0 and layout.mm_to_board(board, corners["NW"])[1] < y0
    )


def test_camps_and_boxes_are_pegs_where_the_state_has_them() -> None:
    layout = IslaNublarLayout(seats=3)
    for state in playout(3, seed=2, steps=400)[::20]:
        scene = scene_for(state, layout)
        colour = dict(zip(state.players, layout.colours))
        covered = {field for field in state.dinos.values() if field is not None}
        for field_id in state.board.fields:
            if field_id in covered:
                continue
            center = layout.field_center(state.board, field_id)
            stack = state.camps.get(field_id, [])
            camp = [p for p in scene.pegs if p.label == f"camp {field_id}"]
            if stack:
                assert len(camp) == 1 and camp[0].center == center
                assert camp[0].height == len(stack) and camp[0].colour == colour[stack[-1]]
            else:
                assert not camp
            boxes = [p for p in scene.pegs if p.label == f"box {field_id}"]
            expected = {colour[o]: n for o, n in state.boxes.get(field_id, {}).items() if n}
            got: dict[str, int] = {}
            for peg in boxes:
                got[peg.colour] = got.get(peg.colour, 0) + 1
                assert layout.field_at(state.board, peg.center) == field_id
            assert got == expected
        # Supplies: every player's remaining camps and boxes lie in their zone.
        # Supplies are scenery (the camera reads pieces on the board only): one body disc per piece.
        assert all(layout.field_at(state.board, p.center) is not None for p in scene.pegs)
        for seat, player in zip(layout.seat_places, state.players):
            bodies = [s for s in scene.shapes if s.fill == SEAT_RGB[seat.colour]]
            in_zone = [s for s in bodies if seat.zone.contains(s.polygon[0])]
            assert sum(1 for s in in_zone if s.label == "camp supply") == state.personal[player]["camps"]
            assert sum(1 for s in in_zone if s.label == "box supply") == state.personal[player]["boxes"]


def test_a_rendered_frame_reads_every_tag_and_peg_colour() -> None:
    state = playout(4, seed=5, steps=300)[-1]
    scene = scene_for(state)
    frame = render(scene, recommended_camera(tilt=5.0), Effects.realistic(), 1)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    # Colours are checked under even light: telling yellow from orange under a shadow is the vision's job.
    clean = render(scene, recommended_camera(tilt=5.0), Effects(blur=0.6, noise=2.0), 1)
    assert read == {tag.payload for tag in scene.tags}
    assert {t.payload for t in scene.tags} >= {f"DT1:IN:BOARD-{c}" for c in ("NW", "NE", "SE", "SW")}
    for truth in clean.pegs:
        x, y = (round(v) for v in truth.center)
        bgr = clean.image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)
        distances = {name: float(np.linalg.norm(bgr[::-1] - np.array(rgb))) for name, rgb in SEAT_RGB.items()}
        assert min(distances, key=distances.__getitem__) == truth.colour
