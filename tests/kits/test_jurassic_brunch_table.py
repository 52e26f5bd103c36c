"""Jurassic Brunch table layout: boards where the state puts them, figures that keep their ids, tokens."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import zxingcpp
from helpers.playouts import seeded_states

from companion.kits import kit_for
from companion.kits.jurassic_brunch.table import BrunchIds, BrunchLayout, scene_for
from engines.jurassic_brunch import ARRANGEMENTS, GAME, BrunchState
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.render import render
from vision.tags import TagValidator


def playout(seed: int, steps: int, arrangement: str = "square") -> list[BrunchState]:
    return seeded_states(GAME, ["blue", "orange"], seed, steps, {"arrangement": arrangement})


def ids_of(payloads: list[str]) -> list[str]:
    return [p.split(":")[2] for p in payloads]


@pytest.mark.parametrize("name", [*ARRANGEMENTS, "random"])
def test_every_arrangement_fits_between_the_seats(name: str) -> None:
    state = GAME.new_initial_state(["blue", "orange"], random.Random(4), {"arrangement": name})
    layout = BrunchLayout.for_area(state.area)
    assert layout.width / layout.height == pytest.approx(16 / 9, rel=0.01)
    play = layout.zones(state.area)[0]
    for cell in state.area.cells:
        center = layout.cell_center(cell)
        assert layout.cell_at(center) == cell
        assert play.contains(center)
        for seat in layout.seats:
            x0, y0, x1, y1 = seat.rect
            assert not (x0 - 31 < center[0] < x1 + 31 and y0 - 31 < center[1] < y1 + 31)


def test_boards_only_shows_each_board_tag_at_its_centre_and_rotation() -> None:
    state = GAME.new_initial_state(["blue", "orange"], random.Random(9), {"arrangement": "random"})
    layout = BrunchLayout.for_area(state.area)
    scene = scene_for(state, layout, boards_only=True)
    tags = {t.payload: t for t in scene.tags}
    assert set(tags) == {f"DT1:JB:BOARD-{n}" for n in range(1, 5)}
    for board in state.area.boards:
        tag = tags[f"DT1:JB:{board.board_id}"]
        assert tag.center == layout.cell_center(board.centre)
        assert tag.angle == 90.0 * board.rotation


def test_nothing_created_or_lost_and_figures_keep_their_ids() -> None:
    ids = BrunchIds()
    states = playout(seed=3, steps=150)
    layout = BrunchLayout.for_area(states[0].area)
    previous: dict[str, tuple[float, float]] = {}
    for before, state in zip([None, *states], states):
        scene = scene_for(state, layout, ids=ids)
        payloads = [t.payload for t in scene.tags]
        assert len(payloads) == len(set(payloads))
        validator = TagValidator(kit_for("JB").manifest())
        assert all(validator.check(p) is not None for p in payloads), validator.rejected
        names = ids_of(payloads)
        figures = Counter(n.split("-")[1] for n in names if n.startswith("TRI-"))
        # A figure being expelled by a charge is in the charging player's hand, not on the table.
        in_hand = state.pending[1] if state.pending is not None and state.pending[0] == "expel" else None
        expected = {"BLUE": 5, "ORANGE": 5}
        if in_hand is not None and in_hand[0] != "raptor":
            expected[in_hand[0].upper()] -= 1
        assert figures == expected, state.pending
        assert names.count("RAPTOR") == (0 if in_hand is not None and in_hand[0] == "raptor" else 1)
        covered = sum(1 for cell in state.grass if cell in state.triceratops or cell == state.raptor)
        held = sum(sum(state.tokens[c].values()) + sum(state.hidden[c].values()) for c in ("blue", "orange"))
        tokens = [n for n in names if not n.startswith(("TRI-", "RAPTOR", "BOARD-"))]
        assert len(tokens) == len(state.grass) - covered + held
        # Figures: at most the ones an action moved change place (a move, a charge and its expulsion).
        now = {t.payload: t.center for t in scene.tags if ":TRI-" in t.payload}
        moved = [p for p, c in now.items() if previous.get(p, c) != c]
        assert len(moved) <= 2, (before and before.pending, moved)
        previous = now


def test_a_rendered_frame_reads_completely() -> None:
    state = playout(seed=11, steps=40, arrangement="stairs")[-1]
    scene = scene_for(state)
    frame = render(scene, recommended_camera(tilt=6.0), Effects.realistic(), 4)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    assert read == {tag.payload for tag in scene.tags}
    # A version-2 code (SUPER-YUMMY-01) gets a larger print so its modules match the others'.
    sizes = {round(t.px_per_module, 1) for t in frame.tags if abs(t.table_center[1] - 360) < 200}
    assert max(sizes) - min(sizes) < 0.6
