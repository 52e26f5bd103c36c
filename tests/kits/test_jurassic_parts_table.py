"""Jurassic Parts table layout: lattice geometry, scenes from engine states, and frames the decoders read."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
import zxingcpp
from helpers.playouts import seeded_states
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kits import kit_for
from companion.kits.jurassic_parts.identities import JurassicPartsIds, printed_tiles, true_reveal
from companion.kits.jurassic_parts.table import (
    DIRECTIONS,
    ROCK_RGB,
    SQRT3,
    JurassicPartsLayout,
    hex_round,
    scene_for,
)
from engines.core import TERMINAL
from engines.jurassic_parts import GAME
from engines.jurassic_parts.components import COMPONENT_BY_ID
from engines.jurassic_parts.state import JurassicPartsState
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.render import render
from vision import calibration as cal
from vision.detect import Detector
from vision.scene import SEAT_RGB, Scene
from vision.tags import TagValidator

LAYOUT = JurassicPartsLayout(seats=4)


def playout(players: int, seed: int, steps: int, truthful: bool = True) -> list[JurassicPartsState]:
    """A random game; a face-down tile turns up as the tile really lying there (``truthful``) or as any
    fossil the engine allows (an engine-only chance outcome the table must still draw)."""

    def seen(state: Any, outcome: Any) -> Any:
        return true_reveal(state, outcome.cell) or outcome

    states = seeded_states(
        GAME, [f"p{i}" for i in range(players)], seed, steps, seen=seen if truthful else None
    )
    assert all(isinstance(state, JurassicPartsState) for state in states)
    return states


@pytest.fixture(scope="module")
def start() -> JurassicPartsState:
    state = GAME.new_initial_state(["ann", "bob", "cy", "dee"], random.Random(11))
    assert isinstance(state, JurassicPartsState)
    return state


# -- lattice geometry ---------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(q=st.integers(-8, 8), r=st.integers(-8, 8), dx=st.floats(-0.4, 0.4), dy=st.floats(-0.4, 0.4))
def test_axial_and_mm_are_inverse(q: int, r: int, dx: float, dy: float) -> None:
    x, y = LAYOUT.axial_to_mm(q, r)
    assert LAYOUT.mm_to_axial_fraction((x, y)) == pytest.approx((q, r), abs=1e-9)
    # Anywhere inside the inscribed circle of the hexagon still maps to the same cell.
    inradius = LAYOUT.pitch / 2.0
    assert LAYOUT.mm_to_axial((x + dx * inradius * 2, y + dy * inradius * 2)) == (q, r) or (
        math.hypot(dx, dy) * 2 > 0.99
    )


def test_directions_follow_the_conventions() -> None:
    origin = LAYOUT.axial_to_mm(0, 0)
    for k, (dq, dr) in enumerate(DIRECTIONS):
        x, y = LAYOUT.axial_to_mm(dq, dr)
        angle = math.degrees(math.atan2(-(y - origin[1]), x - origin[0])) % 360.0
        assert angle == pytest.approx(60.0 * k)
        assert math.hypot(x - origin[0], y - origin[1]) == pytest.approx(LAYOUT.pitch)


def test_gap_midpoint_is_halfway_and_needs_neighbours() -> None:
    for dq, dr in DIRECTIONS:
        midpoint = LAYOUT.gap_midpoint((2, -1), (2 + dq, -1 + dr))
        a, b = LAYOUT.axial_to_mm(2, -1), LAYOUT.axial_to_mm(2 + dq, -1 + dr)
        assert math.dist(midpoint, a) == pytest.approx(LAYOUT.pitch / 2.0)
        assert math.dist(midpoint, b) == pytest.approx(LAYOUT.pitch / 2.0)
    with pytest.raises(ValueError):
        LAYOUT.gap_midpoint((0, 0), (2, 0))


def test_hex_round_picks_the_nearest_centre() -> None:
    rng = random.Random(3)
    for _ in range(300):
        point = (rng.uniform(300, 980), rng.uniform(80, 620))
        cell = LAYOUT.mm_to_axial(point)
        best = min(
            ((q, r) for q in range(-9, 10) for r in range(-9, 10)),
            key=lambda c: math.dist(point, LAYOUT.axial_to_mm(*c)),
        )
        assert cell == best
    assert hex_round(0.49, 0.0) == (0, 0) and hex_round(0.51, 0.0) == (1, 0)


def test_the_default_table_is_the_general_arrangement_at_1280_by_720() -> None:
    for seats in (2, 6):
        assert JurassicPartsLayout.for_table(seats, 1280.0, 720.0) == JurassicPartsLayout(seats=seats)


@pytest.mark.parametrize("roomy", [False, True])
def test_the_slab_and_seats_fit_the_table_without_overlap(roomy: bool) -> None:
    for seats in range(2, 7):
        layout = JurassicPartsLayout.roomy(seats) if roomy else JurassicPartsLayout(seats=seats)
        if roomy and seats >= 5:
            assert all(len(layout.seat_tile_slots(seat)) >= 14 for seat in layout.seat_places)
        for zone in layout.zones():
            assert all(0 <= x <= layout.width and 0 <= y <= layout.height for x, y in zone.polygon)
        slab = layout.slab_rect()
        assert slab[0] > 0 and slab[2] < layout.width and slab[1] > 0 and slab[3] < layout.height
        for seat in layout.seat_places:
            x0, y0, x1, y1 = seat.rect
            assert x1 < slab[0] or x0 > slab[2]
            tiles = layout.seat_tile_slots(seat)
            for x, y in tiles:
                assert x0 < x < x1 and y0 < y < y1
            # Chisel rows, the amber column and the tiles never overlap, even with everything there.
            small = [*layout.seat_chisel_slots(seat, 0), *layout.seat_chisel_slots(seat, 1)]
            amber = layout.seat_amber_slots(seat)
            for a in small:
                assert all(math.dist(a, b) >= 2 * layout.chisel_radius for b in small if b != a)
                assert all(math.dist(a, b) >= layout.chisel_radius + 4.5 for b in amber)
            for piece in [*small, *amber]:
                assert x0 < piece[0] < x1 and y0 < piece[1] < y1
                assert all(math.dist(piece, t) >= layout.hex_radius * SQRT3 / 2 + 4.5 for t in tiles)
            for i, a in enumerate(tiles):
                assert all(math.dist(a, b) >= layout.pitch for b in tiles[i + 1 :])


# -- scenes from states -------------------------------------------------------------------------------
def slab_payloads(scene: Scene) -> dict[str, Any]:
    return {tag.payload.split(":")[2]: tag for tag in scene.tags}


def test_start_scene_shows_every_slab_tile_at_its_cell(start: JurassicPartsState) -> None:
    scene = scene_for(start, LAYOUT)
    tags = slab_payloads(scene)
    assert len(scene.tags) == len(tags) == 58
    validator = TagValidator(kit_for("JP").manifest())
    faces: Counter[str] = Counter()
    for tag in scene.tags:
        checked = validator.check(tag.payload)
        assert checked is not None, tag.payload
        faces[checked.face] += 1
    assert not validator.duplicates and not validator.rejected
    face_down = sum(1 for kind in start.fossil if kind < 0)
    assert faces == Counter({"front": 58 - face_down, "back": face_down})
    slab = start.layout
    for slot, cell in enumerate(slab.cells):
        center = LAYOUT.axial_to_mm(*cell)
        tag = min(scene.tags, key=lambda t: math.dist(t.center, center))
        assert math.dist(tag.center, center) < 1e-9
        if start.fossil[slot] >= 0:
            assert tag.payload == f"DT1:JP:{start.tile_id[slot]}"
            assert tag.angle == pytest.approx(60.0 * slab.rotations[slot])
        assert tag.size == LAYOUT.tag_size


def test_rocky_edges_are_drawn_on_the_rocky_sides(start: JurassicPartsState) -> None:
    scene = scene_for(start, LAYOUT)
    bands = [shape for shape in scene.shapes if shape.fill == ROCK_RGB]
    slab = start.layout
    expected = 0
    for slot, cell in enumerate(slab.cells):
        if start.fossil[slot] < 0:
            continue
        center = LAYOUT.axial_to_mm(*cell)
        rocks = COMPONENT_BY_ID[str(start.tile_id[slot])].rocks
        for k in range(6):
            rocky = rocks[(k - slab.rotations[slot]) % 6]
            expected += rocky
            edge = (
                center[0] + LAYOUT.pitch / 2 * math.cos(math.radians(60 * k)),
                center[1] - LAYOUT.pitch / 2 * math.sin(math.radians(60 * k)),
            )
            near = [b for b in bands if math.dist(np.mean(b.polygon, axis=0), edge) < 5.0]
            assert bool(near) == bool(rocky) or len(near) == 1  # the neighbour's band may lie there too
    assert len(bands) >= expected


def test_chisels_stand_at_gap_midpoints_in_their_owners_colour() -> None:
    states = playout(4, seed=2, steps=60)
    checked = 0
    for state in states:
        scene = scene_for(state, LAYOUT)
        slab = state.layout
        on_gaps = [peg for peg in scene.pegs if peg.label.startswith("chisel")]
        owners = [(gap, who) for gap, who in enumerate(state.owner) if who >= 0]
        assert len(on_gaps) == len(owners)
        for gap, who in owners:
            a, b = slab.gaps[gap]
            midpoint = LAYOUT.gap_midpoint(slab.cells[a], slab.cells[b])
            peg = next(p for p in on_gaps if math.dist(p.center, midpoint) < 1e-9)
            assert peg.colour == LAYOUT.colours[who] and peg.rgb == SEAT_RGB[peg.colour]
            checked += 1
        # Every chisel is somewhere: on the slab (a peg the camera reads) or in its owner's rows (scenery).
        assert len(scene.pegs) == sum(state.on_board)
        for p, seat in enumerate(LAYOUT.seat_places):
            for label, count in (("sharp chisel", state.sharp[p]), ("dull chisel", state.dull[p])):
                bodies = [s for s in scene.shapes if s.label == label and s.fill == SEAT_RGB[seat.colour]]
                assert len(bodies) == count
    assert checked > 10


@pytest.mark.parametrize("truthful", [True, False])
def test_no_tile_created_or_lost_over_a_whole_game(truthful: bool) -> None:
    ids = JurassicPartsIds()
    previous: dict[str, tuple[str | None, tuple[float, float]]] = {}
    states = playout(4, seed=7, steps=400, truthful=truthful)
    assert states[-1].current_player() == TERMINAL
    for state in states:
        scene = scene_for(state, LAYOUT, ids=ids)
        payloads = [tag.payload for tag in scene.tags]
        assert len(payloads) == len(set(payloads))
        fronts = {p.split(":")[2] for p in payloads if p.split(":")[2] in COMPONENT_BY_ID}
        backs = len(payloads) - len(fronts)
        # Every tile is on the slab or in its holder's area, unless that area is full (the rest is a pile).
        printed = printed_tiles(state, JurassicPartsIds())
        capacity = {
            name: len(LAYOUT.seat_tile_slots(seat)) for seat, name in zip(LAYOUT.seat_places, state.players)
        }
        capacity["@leader"] = len(LAYOUT.field_leader_slots())
        piled = sum(max(0, len(tiles) - capacity[holder]) for holder, tiles in printed.held.items())
        assert len(fronts) + backs == 58 - piled
        assert piled <= 2
        # A tile lying in a seat or the Field Leader's area stays where it was unless it changes hands.
        now = {t.payload: (scene.zone_at(t.center), t.center) for t in scene.tags}
        shifted = [
            p
            for p, (zone, c) in now.items()
            if p in previous and previous[p][0] == zone != "play" and previous[p][1] != c
        ]
        assert not shifted
        previous = now
    final = scene_for(states[-1], LAYOUT, ids=ids)
    zones = Counter(final.zone_at(tag.center) for tag in final.tags)
    assert zones["play"] == 0


@pytest.mark.parametrize("tilt", [0.0, 12.0])
def test_frames_of_a_game_in_progress_decode_completely(tilt: float) -> None:
    state = playout(4, seed=5, steps=120)[-1]
    scene = scene_for(state, LAYOUT)
    frame = render(scene, recommended_camera(tilt=tilt, yaw=tilt / 8.0), Effects.realistic(), 3)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    # zxing-cpp alone reads every code of 3 px a module or more; the product's reading reads them all.
    assert read >= {tag.payload for tag in frame.tags if tag.px_per_module >= 3.0}
    area = cal.corner_layout(LAYOUT.width, LAYOUT.height)
    calibration = cal.calibrate(frame.image, area, zones=scene.zones)
    kit = kit_for("JP")
    observed = Detector(kit.manifest(), calibration, kit.hints(LAYOUT)).observe(frame.image)
    assert {reading.payload for reading in observed.tags.values()} == {tag.payload for tag in scene.tags}
    smallest = min(t.px_per_module for t in frame.tags)
    if tilt == 0.0:
        assert smallest >= 3.0, f"{smallest:.2f} px/module"
    for truth in frame.pegs:
        x, y = (round(v) for v in truth.center)
        bgr = frame.image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)
        distances = {name: float(np.linalg.norm(bgr[::-1] - np.array(rgb))) for name, rgb in SEAT_RGB.items()}
        assert min(distances, key=distances.__getitem__) == truth.colour


def test_layout_seat_count_must_match_the_players(start: JurassicPartsState) -> None:
    with pytest.raises(ValueError):
        scene_for(start, JurassicPartsLayout(seats=3))


def test_the_roomy_table_shows_every_tile_of_a_six_player_game() -> None:
    layout = JurassicPartsLayout.roomy(6)
    states = playout(6, seed=1, steps=700)
    assert states[-1].current_player() == TERMINAL
    scene = scene_for(states[-1], layout)
    assert len(scene.tags) == 58
    frame = render(scene, recommended_camera(), Effects.realistic(), 2)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    assert read == {tag.payload for tag in scene.tags}
    assert 2.6 < min(t.px_per_module for t in frame.tags) < 3.0  # the price of the room


def test_true_reveal_names_the_tile_behind_each_back(start: JurassicPartsState) -> None:
    slab = start.layout
    hidden = [slot for slot in range(slab.size) if start.fossil[slot] < 0]
    assert hidden
    seen = set()
    for slot in hidden:
        reveal = true_reveal(start, slab.cells[slot])
        assert reveal is not None
        component = COMPONENT_BY_ID[reveal.tile]
        assert component.back == slab.backs[slot] and component.fossil == reveal.fossil
        seen.add(reveal.tile)
    assert len(seen) == len(hidden)
    assert true_reveal(start, (40, 40)) is None


def test_a_face_down_tile_is_drawn_with_its_printed_back_and_read_as_a_back(
    start: JurassicPartsState,
) -> None:
    from vision import calibration as cal
    from vision import detect

    scene = scene_for(start, LAYOUT)
    frame = render(scene, recommended_camera(tilt=5.0), Effects.realistic(), 4)
    calibration = cal.calibrate(frame.image, cal.corner_layout(scene.width, scene.height), zones=scene.zones)
    observation = detect.Detector(kit_for("JP").manifest(), calibration, kit_for("JP").hints(LAYOUT)).observe(
        frame.image
    )
    slab = start.layout
    hidden = [slot for slot in range(slab.size) if start.fossil[slot] < 0]
    assert hidden
    printed = kit_for("JP").printed_set()
    for slot in hidden:
        reveal = true_reveal(start, slab.cells[slot])
        assert reveal is not None
        back = printed.back_of[reveal.tile]  # the ground truth pairs a back with its front ...
        reading = observation.tags[back]
        assert reading.face == "back" and reading.zone == "play"
        assert reading.center_mm is not None
        assert math.dist(reading.center_mm, LAYOUT.axial_to_mm(*slab.cells[slot])) < 6.0
        # ... the manifest the companion reads it with does not: the entry names no front
        entry = kit_for("JP").manifest().entries[back]
        assert entry.component == "" and entry.face == "back"


def test_either_equal_half_is_a_candidate_whatever_the_table_shows() -> None:
    """Equal halves: the chisels sent back look alike whichever half is awarded, so both awards stay
    candidates (a question), however far a half's own cells lie from the chisels that changed."""
    from companion.infer.picture import compare

    rng = random.Random(3)
    colours = ["red", "blue", "green"]
    model = kit_for("jurassic-parts").model({c: c for c in colours})
    halves = 0
    for _ in range(60):  # random games; each that reaches equal halves is checked
        state = GAME.new_initial_state(colours, rng=random.Random(rng.randrange(10**6)))
        while not state.is_terminal() and state.to_dict()["turn"]["phase"] != "award":
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        halves += 1
        awards = [a for a in state.legal_actions() if a.kind == "award-part"]
        for award in awards:  # what the camera sees after either: the chisels gone from the cut
            differences = [d for d in compare(model.expected(state), model.expected(state.apply(award)),
                                              model.tolerance) if d.what == "peg"]
            assert set(awards) <= set(model.candidate_actions(state, differences))
    assert halves >= 5
