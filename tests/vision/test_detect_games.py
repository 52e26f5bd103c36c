"""Frames of real engine states, drawn by the game's table layout, read back: every tag, its lattice cell,
every chisel and its colour (Jurassic Parts), the grid cells (Jurassik), the board cells (Brunch)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.playouts import seeded_states

from companion.cli import main
from companion.kits import kit_for
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.fixtures import colours_from_card
from sim.render import RenderedFrame, render
from vision import calibration as cal
from vision import colour_learning, detect, pegs
from vision.boards import FramedBoard
from vision.observation import Observation
from vision.scene import Scene

EFFECTS = Effects(blur=0.7, noise=2.5, vignette=0.2, gradient=0.15, jpeg_quality=85)


def play(game: Any, players: list[str], seed: int, steps: int, options: dict[str, Any] | None = None) -> Any:
    return seeded_states(game, players, seed, steps, options)[-1]


def read(
    scene: Scene,
    game: str,
    hints: detect.GeometryHints,
    tilt: float,
    seed: int,
    colours: pegs.ColourModel | None = None,
) -> tuple[Observation, RenderedFrame]:
    frame = render(scene, recommended_camera(tilt=tilt), EFFECTS, rng=seed)
    calibration = cal.calibrate(frame.image, cal.corner_layout(scene.width, scene.height), zones=scene.zones)
    return detect.Detector(kit_for(game).manifest(), calibration, hints, colours).observe(frame.image), frame


def ids(scene: Scene) -> set[str]:
    return {tag.payload.split(":")[2] for tag in scene.tags}


@pytest.fixture(scope="module")
def colours() -> pegs.ColourModel:
    return colours_from_card(recommended_camera(tilt=12.0), EFFECTS, rng=3, radius=3.0)


def test_jurassic_parts_game_in_progress(colours: pegs.ColourModel) -> None:
    from companion.kits.jurassic_parts.table import JurassicPartsLayout, scene_for
    from engines.jurassic_parts import GAME

    state = play(GAME, ["ann", "bob", "cy", "dee"], seed=5, steps=40)
    layout = JurassicPartsLayout(seats=4)
    scene = scene_for(state, layout)
    observation, frame = read(scene, "JP", kit_for("JP").hints(layout), 14.0, 5, colours)
    visible = {t.payload.split(":")[2] for t in frame.tags if t.in_frame and t.visible > 0.99}
    assert set(observation.tags) == visible == ids(scene)
    on_slab = [tag for tag in scene.tags if scene.zone_at(tag.center) == "play"]
    assert on_slab
    for tag in on_slab:
        tag_id = tag.payload.split(":")[2]
        assert observation.cell_of(tag_id) == layout.mm_to_axial(tag.center), tag_id
        assert round(observation.tags[tag_id].angle / 60.0) % 6 == round(tag.angle / 60.0) % 6
    expected = {}
    for peg in scene.pegs:
        match = re.match(r"chisel \((-?\d+), (-?\d+)\)\|\((-?\d+), (-?\d+)\)", peg.label)
        if match:
            a, b = sorted([(int(match[1]), int(match[2])), (int(match[3]), int(match[4]))])
            expected[f"{a[0]},{a[1]}|{b[0]},{b[1]}"] = peg.colour
    assert expected, "the playout put chisels on the slab"
    assert {peg.on: peg.colour for peg in observation.pegs} == expected
    seat_zones = {tag.payload.split(":")[2]: scene.zone_at(tag.center) for tag in scene.tags}
    assert {k: observation.tags[k].zone for k in seat_zones} == seat_zones


def test_jurassik_grid_cells() -> None:
    from companion.kits.jurassik.table import JurassikLayout, scene_for
    from engines.jurassik import GAME

    state = play(GAME, ["p0", "p1", "p2"], seed=3, steps=12)
    layout = JurassikLayout(seats=3)
    scene = scene_for(state, layout)
    observation, frame = read(scene, "JK", kit_for("JK").hints(layout, state), 18.0, 7)
    visible = {t.payload.split(":")[2] for t in frame.tags if t.in_frame}
    assert set(observation.tags) == visible == ids(scene)
    rows, cols = int(state.rows), int(state.cols)
    grid = [tag for tag in scene.tags if scene.zone_at(tag.center) == "play"]
    assert len(grid) > 10
    for tag in grid:
        cell = layout.cell_at(tag.center, rows, cols)
        assert cell is not None
        row, col = cell
        assert observation.cell_of(tag.payload.split(":")[2]) == (col, row)


def test_jurassic_brunch_board_cells() -> None:
    from companion.kits.jurassic_brunch.table import BrunchLayout, scene_for
    from engines.jurassic_brunch import GAME

    state = play(GAME, ["blue", "orange"], seed=2, steps=6, options={"arrangement": "random"})
    layout = BrunchLayout.for_area(state.area)
    scene = scene_for(state, layout)
    observation, frame = read(scene, "JB", kit_for("JB").hints(layout, state), 10.0, 9)
    visible = {t.payload.split(":")[2] for t in frame.tags if t.in_frame}
    assert set(observation.tags) == visible == ids(scene)
    on_area = [
        tag for tag in scene.tags if scene.zone_at(tag.center) == "play" and "BOARD-" not in tag.payload
    ]
    assert len(on_area) > 20
    for tag in on_area:
        assert observation.cell_of(tag.payload.split(":")[2]) == layout.cell_at(tag.center)


def test_calibrate_learns_seat_colours_from_the_seats_own_chisels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    from companion.kits.jurassic_parts.table import JurassicPartsLayout, scene_for
    from engines.jurassic_parts import GAME

    state = play(GAME, ["ann", "bob", "cy", "dee"], seed=8, steps=0)
    layout = JurassicPartsLayout(seats=4)
    scene = scene_for(state, layout)
    frame = render(
        scene, recommended_camera(tilt=20.0), Effects(brightness=0.8, gradient=0.3, noise=2.0), rng=4
    )
    path, out = tmp_path / "table.png", tmp_path / "cal.json"
    cv2.imwrite(str(path), frame.image)
    main(["calibrate", str(path), "--game", "JP", "--seats", "4", "--out", str(out)])
    report = json.loads(capsys.readouterr().out)
    assert report["colours_learned"] == sorted(["red", "blue", "green", "yellow"])
    calibration = cal.Calibration.load(out)
    model = pegs.ColourModel(calibration.colours)
    for peg in scene.pegs:
        ((x, y),) = frame.to_pixels([peg.center])
        sample = pegs.bgr_to_lab(pegs.sample_discs(frame.image, [(x, y)], 2.5))[0]
        assert model.classify((sample[0], sample[1], sample[2]))[0] == peg.colour


def test_isla_nublar_figures_camps_and_boxes() -> None:
    from companion.kits.isla_nublar.table import IslaNublarLayout, scene_for
    from companion.kits.isla_nublar.tags import CORNER_TAGS
    from engines.isla_nublar import GAME
    from vision import geometry
    from vision.scene import SEAT_RGB, Peg

    start = play(GAME, ["a", "b", "c"], seed=3, steps=0)
    state = play(GAME, ["a", "b", "c"], seed=3, steps=60)
    layout = IslaNublarLayout(seats=3)
    hints = kit_for("IN").hints(layout, state)
    camera = recommended_camera(tilt=10.0)
    # Calibration view: the empty island (its fields are the background) and each seat's pieces at home.
    empty = scene_for(start, layout)
    blank = render(empty, camera, EFFECTS, rng=2)
    calibration = cal.calibrate(
        blank.image, cal.corner_layout(layout.width, layout.height), zones=empty.zones
    )
    fit = detect.Detector(kit_for("IN").manifest(), calibration, hints).observe(blank.image).lattice
    assert fit is not None and fit.extra["corners_seen"] == list(CORNER_TAGS)
    board = hints.board
    assert isinstance(board, FramedBoard)
    spots = [geometry.island_field_centre(fit, p) for p in board.fields.values()]
    spots += [
        geometry.island_field_centre(fit, (p[0] + dx, p[1] + dy))
        for p in board.fields.values()
        for dx, dy in board.box_ring
    ]
    seats = colour_learning.learn_seat_colours(
        blank.image, calibration.homography, [(z.name, z.polygon) for z in empty.zones]
    )
    background = colour_learning.learn_from_pieces(
        blank.image, {}, 3.0, background_px=list(calibration.to_pixels(spots))
    )
    model = pegs.ColourModel(seats, background.background)
    assert sorted(seats) == ["blue", "green", "red"]

    scene = scene_for(state, layout)
    board = state.board
    taken = {f for f in state.dinos.values() if f} | set(state.camps) | set(state.boxes)
    free = [f for f in sorted(board.fields) if f not in taken][:3]
    for field_id, colour in zip(free, ["red", "green", "blue"]):
        scene.pegs.append(
            Peg(layout.field_center(board, field_id), colour, SEAT_RGB[colour], layout.camp_radius, 2)
        )
    frame = render(scene, camera, EFFECTS, rng=5)
    observation = detect.Detector(kit_for("IN").manifest(), calibration, hints, model).observe(frame.image)
    assert set(observation.tags) == ids(scene)

    def key(field_id: str) -> str:
        field = board.fields[field_id]
        return f"{field.column},{field.row}"

    for figure, field_id in state.dinos.items():
        if field_id is not None:
            assert observation.cell_of(figure) == tuple(int(v) for v in key(field_id).split(","))
    camps = {p.on: p.colour for p in observation.pegs if p.kind == "camp"}
    assert camps == {key(f): c for f, c in zip(free, ["red", "green", "blue"])}
    colour_of = dict(zip(state.players, layout.colours))
    boxes = sorted((p.on, p.colour) for p in observation.pegs if p.kind == "box")
    expected = sorted(
        (key(f), colour_of[owner])
        for f, owners in state.boxes.items()
        for owner, n in owners.items()
        for _ in range(n)
    )
    assert expected and boxes == expected


def test_brunch_boards_placed_free_are_found_from_their_tags() -> None:
    from companion.kits.jurassic_brunch.table import BrunchLayout, scene_for
    from engines.jurassic_brunch import GAME

    state = play(GAME, ["blue", "orange"], seed=2, steps=0, options={"arrangement": "random"})
    layout = BrunchLayout.for_area(state.area)
    scene = scene_for(state, layout, boards_only=True)  # setup: every board's centre tag in sight
    observation, _ = read(scene, "JB", kit_for("JB").hints(layout, state), 12.0, 3)
    assert observation.lattice is not None
    boards = observation.lattice.extra["boards"]
    assert set(boards) == {board.board_id for board in state.area.boards}
    for board in state.area.boards:
        assert tuple(boards[board.board_id]["centre_cell"]) == tuple(board.centre)
        assert boards[board.board_id]["quarter_turns"] == board.rotation % 4
    cells = observation.lattice.extra["board_of_cell"]
    assert {tuple(int(v) for v in key.split(",")) for key in cells} == set(state.area.cells)


def test_observe_with_the_state_gives_the_engines_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    from companion.kits.jurassik.table import JurassikLayout, scene_for
    from engines.jurassik import GAME

    state = play(GAME, ["p0", "p1", "p2"], seed=6, steps=5)
    layout = JurassikLayout(seats=3)
    scene = scene_for(state, layout)
    frame = render(scene, recommended_camera(tilt=6.0), EFFECTS, rng=6)
    image, state_file = tmp_path / "table.jpg", tmp_path / "state.json"
    cv2.imwrite(str(image), frame.image)
    state_file.write_text(json.dumps(state.to_dict()))
    assert main(["observe", "JK", str(image), "--state", str(state_file)]) == 0
    data = json.loads(capsys.readouterr().out)
    rows, cols = int(state.rows), int(state.cols)
    for tag in scene.tags:
        if scene.zone_at(tag.center) == "play":
            row, col = layout.cell_at(tag.center, rows, cols) or (-1, -1)
            assert data["lattice"]["cells"][tag.payload.split(":")[2]] == f"{col},{row}"
    state_file.write_text("{}")
    assert main(["observe", "JK", str(image), "--state", str(state_file)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: state:")
