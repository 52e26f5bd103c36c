"""A whole Isla Nublar game at a synthetic table: every frame rendered, read by the real vision pipeline
(detect + track), inferred, applied, stored and signalled; it ends exactly as the engine played directly
by the same bots. Cards, purchases and face-down reveals are invisible to the camera and come by the
bots' submit path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from table import build_table
from test_games import play_and_check

from companion.kits.isla_nublar.model import IslaNublarModel
from engines.core import available_games, uniform_policy
from vision.observation import Observation

pytestmark = pytest.mark.skipif("isla-nublar" not in available_games(), reason="no Isla Nublar engine")


@pytest.mark.slow
def test_a_whole_two_player_game_through_the_camera(tmp_path: Path) -> None:
    """The demo's bots (the engine's own): camps set up taking boxes back, stacks, figures, scoring
    (seed 2: 357 actions, 54 of them read from the table; 14-24 s on the shared machine)."""
    play_and_check("isla-nublar", ["red", "blue"], tmp_path, seed=2)


@pytest.mark.slow
def test_a_whole_two_player_game_of_random_bots_through_the_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Uniformly random bots: long games (727 actions, 32-52 s) in which the figures crowd the ends of
    the columns that stop in an upper area."""
    monkeypatch.setattr(IslaNublarModel, "bot_policy", lambda self: uniform_policy)
    play_and_check("isla-nublar", ["red", "blue"], tmp_path, seed=2)


def test_figures_crowding_a_column_end_are_read_through_the_camera(tmp_path: Path) -> None:
    """Two figures on the last field of a column and a third arriving next to them: every figure's code
    is read where the layout stands it (the arriving figure used to cover a neighbour's code)."""
    table = build_table("isla-nublar", ["red", "blue"], tmp_path, seed=1)
    try:
        loop = table.loop
        table.frames(3)
        state = loop.current_state()
        from engines.isla_nublar import IslaNublarState

        assert isinstance(state, IslaNublarState)
        crowded = state.clone()
        crowded.dinos.update({"DINO-2": "C1R6", "DINO-3": "C1R6", "DINO-4": "C1R5"})
        table.camera.show(loop.model.scene(crowded))
        table.frames(6)
        detections = loop.snapshot()["detections"]
        assert detections is not None
        observation = Observation.from_dict(detections)
        figures = {k: v.center_mm for k, v in observation.tags.items() if k.startswith("DINO-")}
        expected = {t.payload.rsplit(":", 1)[-1]: t.center for t in loop.model.scene(crowded).tags}
        assert set(figures) == {"DINO-1", "DINO-2", "DINO-3", "DINO-4"}
        for figure, at in figures.items():
            assert at is not None
            assert abs(at[0] - expected[figure][0]) < 6 and abs(at[1] - expected[figure][1]) < 6
    finally:
        table.close()
