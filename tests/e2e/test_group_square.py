"""A Jurassik square a group dealt and laid by hand, read through the real camera path: frames rendered
with a tilted camera, lens and noise, written to a folder and read back by `companion replay`, and the
same through a running table (the loop `serve` runs). The game starts as laid and every take is read as
itself, with no objection."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import cv2
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "loop"))

from group_tables import GroupTable

from companion.cli import main
from engines.jurassik import JurassikState
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera

pytestmark = pytest.mark.slow

COLOURS = ("red", "blue")


def record(folder: Path, group: GroupTable, played: list[tuple[Any, JurassikState]],
           frames_each: int = 5) -> None:
    camera = SyntheticCamera(camera=recommended_camera(tilt=8.0), seed=7)
    index = 0
    for state in [group.state] + [after for _, after in played]:
        camera.show(group.scene(state))
        for _ in range(frames_each):
            frame = camera.read()
            assert frame is not None
            cv2.imwrite(str(folder / f"frame-{index:04d}.jpg"), frame.image)
            index += 1


def test_replay_reads_a_group_s_own_square_as_laid(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    group = GroupTable(COLOURS, COLOURS, deal=2026, shift=(18.0, -14.0), jitter_mm=3.0, turn_deg=2.0)
    played = group.moves(8)
    frames = tmp_path / "frames"
    frames.mkdir()
    record(frames, group, played)
    status = main(["replay", str(frames), "--game", "jurassik", "--players", ",".join(COLOURS),
                   "--state-dir", str(tmp_path / "store"), "--json"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pending"] is None
    assert [e["action"] for e in out["events"]] == [action.to_dict() for action, _ in played]
    assert all(e["source"] == "camera" for e in out["events"])
