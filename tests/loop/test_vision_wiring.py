"""The loop's real vision pipeline wiring: a new game of another game, the calibration's colours, the
camera's lores stream, and recalibrating after the camera was bumped (synthetic camera, real vision)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, config_from_dict
from companion.loop import BotDriver, TableLoop, VisionPipeline, vision_pipeline
from companion.store import Store
from hw.panel import Panel
from vision.synthetic import SyntheticCamera
from vision.tables import recommended_camera


@dataclass
class Table:
    loop: TableLoop
    camera: SyntheticCamera
    pipeline: VisionPipeline

    def frame(self) -> Any:
        return self.loop.process_read(self.camera.read())

    def frames(self, count: int) -> None:
        for _ in range(count):
            self.frame()

    def driver(self, seed: int = 1) -> BotDriver:
        return BotDriver(self.loop, self.camera.show, seed=seed, pump=self.frame, max_frames=60)


def seats(*colours: str) -> list[dict[str, str]]:
    return [{"name": c, "colour": c} for c in colours]


def make_table(tmp_path: Path, config: Config, pipeline: VisionPipeline | None = None) -> Table:
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, [s.colour for s in config.seats], pin_factory=factory, start=False)
    camera = SyntheticCamera(camera=recommended_camera(tilt=6.0), seed=1)
    pipeline = pipeline or vision_pipeline(config, camera)
    loop = TableLoop(config, store=Store(tmp_path), panel=panel, pipeline=pipeline)
    camera.show(loop.model.scene(loop.state))
    return Table(loop, camera, pipeline)


@pytest.fixture
def jurassik_table(tmp_path: Path) -> Iterator[Table]:
    config = config_from_dict({"game": "jurassik", "seed": 1, "seats": seats("red", "blue")}, source="<t>")
    table = make_table(tmp_path, config)
    yield table
    table.loop.close()


def test_a_new_game_of_another_game_is_read_by_the_camera(jurassik_table: Table) -> None:
    table = jurassik_table
    table.frames(3)
    assert table.pipeline.tracker is not None and table.pipeline.tracker.detector.game == "JK"
    result = table.loop.new_game({"game": "jurassic-parts", "seed": 2, "seats": seats("green", "yellow")})
    assert result["ok"], result
    loop = table.loop
    table.camera.show(loop.model.scene(loop.current_state()))
    driver = table.driver(seed=2)
    while driver.physical == 0:  # until a move the camera has to read (a chisel placed)
        assert driver.step()
    camera_events = [e for e in loop.history() if e["source"] == "camera"]
    assert camera_events and camera_events[-1]["action"]["kind"] == "place-chisel"
    assert camera_events[-1]["player"] in ("green", "yellow")
    detector = table.pipeline.tracker.detector
    assert detector.game == "JP" and set(detector.colours.centroids) == {"green", "yellow"}
    assert loop.pending is None and loop.camera.errors == 0
