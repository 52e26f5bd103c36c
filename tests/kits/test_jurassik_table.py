"""Jurassik table layout: the grid, the seats, the reveal spot, and frames the decoders read."""

from __future__ import annotations

from collections import Counter

import pytest
import zxingcpp
from helpers.playouts import seeded_states

from companion.kits import kit_for
from companion.kits.jurassik.table import JurassikIds, JurassikLayout, scene_for
from engines.jurassik import GAME, JurassikState
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.render import render
from vision.tags import TagValidator


def playout(
    players: int, seed: int, steps: int, options: dict[str, object] | None = None
) -> list[JurassikState]:
    states = seeded_states(GAME, [f"p{i}" for i in range(players)], seed, steps, options)
    assert all(isinstance(state, JurassikState) for state in states)
    return states


def payload_ids(scene_tags: list[str]) -> list[str]:
    return [payload.split(":")[2] for payload in scene_tags]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_cells_round_trip_and_the_grid_fits_between_the_seats(players: int) -> None:
    layout = JurassikLayout(seats=players)
    for rows, cols in ((6, 6), (7, 7), (8, 8), (6, 8)):
        for row in range(rows):
            for col in range(cols):
                center = layout.cell_center(row, col, rows, cols)
                assert layout.cell_at(center, rows, cols) == (row, col)
                assert layout.cell_at((center[0] + 25.0, center[1] - 25.0), rows, cols) == (row, col)
        x0, _, x1, y1 = layout.grid_rect(rows, cols)
        for seat in layout.seat_places:
            assert seat.rect[2] < x0 or seat.rect[0] > x1
        assert y1 < layout.reveal_spot[1] and y1 < layout.box[1]
    assert layout.cell_at((5.0, 5.0), 8, 8) is None


def test_every_grid_tile_and_held_tile_is_tagged_once_in_its_zone() -> None:
    layout = JurassikLayout(seats=4)
    ids = JurassikIds()
    validator_manifest = kit_for("JK").manifest()
    for state in playout(4, seed=8, steps=80):
        scene = scene_for(state, layout, ids=ids)
        payloads = [tag.payload for tag in scene.tags]
        assert len(payloads) == len(set(payloads))
        validator = TagValidator(validator_manifest)
        assert all(validator.check(p) is not None for p in payloads), validator.rejected
        zones = Counter(scene.zone_at(tag.center) for tag in scene.tags)
        on_grid = sum(1 for token in state.cells if token is not None)
        in_reveal = 1 if state.phase == "reveal" else 0
        assert zones["play"] == on_grid - in_reveal
        assert zones["reveal"] == in_reveal
        for seat, name in zip(layout.seat_places, state.players):
            assert zones[f"seat:{seat.colour}"] == len(state.hands[name])


def test_face_down_tiles_keep_their_back_ids_while_they_lie_still() -> None:
    layout = JurassikLayout(seats=3)
    ids = JurassikIds()
    seen: dict[tuple[float, float], str] = {}
    for state in playout(3, seed=4, steps=60):
        scene = scene_for(state, layout, ids=ids)
        for tag in scene.tags:
            tag_id = tag.payload.split(":")[2]
            entry = kit_for("JK").manifest().entries[tag_id]
            if entry.face == "back" and entry.kind == "action" and scene.zone_at(tag.center) == "play":
                assert seen.setdefault(tag.center, tag_id) == tag_id


def test_reveal_spot_shows_the_face_the_caller_names() -> None:
    states = playout(4, seed=3, steps=200)
    pending = next(s for s in states if s.phase == "reveal")
    hidden_back = scene_for(pending, JurassikLayout(seats=4))
    face = scene_for(pending, JurassikLayout(seats=4), reveal="STEAL-2")
    on_spot = [t for t in face.tags if face.zone_at(t.center) == "reveal"]
    assert [t.payload for t in on_spot] == ["DT1:JK:STEAL-2"]
    assert len(hidden_back.tags) == len(face.tags)


def test_completed_dinosaurs_lie_on_their_living_side() -> None:
    # the first seed whose random playout completes a dinosaur (most do; none in 40 would be a bug)
    states = (state for seed in range(1, 41) for state in playout(2, seed=seed, steps=400))
    for state in states:
        complete = {name: state.complete_dinosaurs(name) for name in state.players}
        if any(complete.values()):
            scene = scene_for(state, JurassikLayout(seats=2))
            ids = payload_ids([t.payload for t in scene.tags])
            centre = {t.payload.split(":")[2]: t.center for t in scene.tags}
            for name, dinosaurs in complete.items():
                for dinosaur in dinosaurs:
                    assert all(f"D{dinosaur}-{piece}L" in ids for piece in range(1, 5)), name
                    # The four pieces lie as the 2x2 puzzle: a square of side one pitch.
                    corners = sorted(centre[f"D{dinosaur}-{piece}L"] for piece in range(1, 5))
                    xs = sorted({round(x, 6) for x, _ in corners})
                    ys = sorted({round(y, 6) for _, y in corners})
                    assert len(xs) == len(ys) == 2
                    assert xs[1] - xs[0] == pytest.approx(60.0) and ys[1] - ys[0] == pytest.approx(60.0)
            return
    pytest.fail("no dinosaur was completed in 40 random playouts")


def test_a_rendered_frame_reads_completely() -> None:
    state = playout(5, seed=6, steps=30)[-1]
    scene = scene_for(state, JurassikLayout(seats=5))
    frame = render(scene, recommended_camera(tilt=8.0), Effects.realistic(), 2)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    assert read == {tag.payload for tag in scene.tags}
    assert min(t.px_per_module for t in frame.tags) > 2.6
