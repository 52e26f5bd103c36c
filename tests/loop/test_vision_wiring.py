"""The loop's real vision pipeline wiring: a new game of another game, the calibration's colours, the
camera's lores stream, and recalibrating after the camera was bumped (synthetic camera, real vision)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import BotDriver
from companion.config import Config, config_from_dict
from companion.kits import kit_for
from companion.store import Store
from companion.table.loop import TableLoop
from companion.table.pipeline import VisionPipeline, vision_pipeline
from hw.panel import Panel
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera


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
    camera.show(loop.game.model.scene(loop.game.state))
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
    table.camera.show(loop.game.model.scene(loop.current_state()))
    driver = table.driver(seed=2)
    while driver.physical == 0:  # until a move the camera has to read (a chisel placed)
        assert driver.step()
    camera_events = [e for e in loop.records.history() if e["source"] == "camera"]
    assert camera_events and camera_events[-1]["action"]["kind"] == "place-chisel"
    assert camera_events[-1]["player"] in ("green", "yellow")
    detector = table.pipeline.tracker.detector
    assert detector.game == "JP" and set(detector.colours.centroids) == {"green", "yellow"}
    assert loop.game.pending is None and loop.camera.errors == 0


def test_the_colours_learned_at_calibration_make_the_colour_model(tmp_path: Path) -> None:
    from vision import detect
    from vision.calibration import Calibration
    from vision.pegs import rgb_to_lab
    from vision.scene import SEAT_RGB

    config = config_from_dict({"game": "jurassik", "seed": 1, "seats": seats("red", "blue")}, source="<t>")
    camera = SyntheticCamera(camera=recommended_camera(tilt=6.0), seed=1)
    frame = camera.read()
    assert frame is not None
    found = detect.auto_calibration(frame.image, kit_for("jurassik").table_size())
    assert found is not None
    learned_red = (120.0, 175.0, 160.0)  # as this camera sees red: not the nominal colour
    found.with_colours({"red": learned_red}).save(tmp_path / "calibration.json")
    configured = config_from_dict(
        {"game": "jurassik", "seed": 1, "seats": seats("red", "blue"),
         "camera": {"calibration": str(tmp_path / "calibration.json")}}, source="<t>")
    pipeline = vision_pipeline(configured)
    assert isinstance(pipeline.calibration, Calibration)
    table = make_table(tmp_path / "store", configured, pipeline)
    try:
        table.frames(2)
        colours = table.pipeline.tracker.detector.colours
        assert colours.centroids["red"] == learned_red
        assert colours.centroids["blue"] == rgb_to_lab(SEAT_RGB["blue"])  # not seen at calibration: nominal
    finally:
        table.loop.close()
    # without a calibration file: the nominal colours of the seats
    plain = make_table(tmp_path / "plain", config)
    try:
        plain.frames(2)
        assert plain.pipeline.tracker.detector.colours.centroids["red"] == rgb_to_lab(SEAT_RGB["red"])
    finally:
        plain.loop.close()
    from companion.config import ConfigError

    missing = config_from_dict({"game": "jurassik", "camera": {"calibration": str(tmp_path / "none.json")}},
                               source="<t>")
    with pytest.raises(ConfigError, match=r"camera\.calibration"):
        vision_pipeline(missing)


def test_the_sources_lores_image_reaches_the_tracker_when_asked(jurassik_table: Table) -> None:
    table = jurassik_table
    table.frames(1)
    table.pipeline.use_lores = True
    tracker = table.pipeline.tracker
    given: list[Any] = []
    update = tracker.update

    def recording(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs.get("lores"))
        return update(*args, **kwargs)

    tracker.update = recording
    table.frames(2)
    assert len(given) == 2 and all(g is not None and g.shape == (324, 576) for g in given)
    # a source of plain (image, index, timestamp) tuples has none
    frame = table.camera.read()
    assert frame is not None
    table.loop.process_read(tuple(frame))
    assert given[-1] is None
    # off by default (too coarse for a far chisel): the frame alone is read
    table.pipeline.use_lores = False
    table.frames(1)
    assert len(given) == 4 and given[-1] is None


def test_loop_frames_hands_the_loop_the_lores_image() -> None:
    from companion.commands.web import LoopFrames

    camera = SyntheticCamera(seed=1)

    class Watched:
        def read(self) -> Any:
            return camera.read()

    read = LoopFrames(Watched()).read()
    assert read.lores is not None and read.image is not None


def settle(table: Table, frames: int = 4) -> None:
    table.frames(frames)
    assert table.loop.snapshot()["detections"] is not None


def test_a_bumped_camera_is_recalibrated_once_its_markers_are_steady(jurassik_table: Table) -> None:
    table = jurassik_table
    settle(table)
    before = table.loop.snapshot()
    assert before["camera"]["bumped"] is False and before["camera"]["recalibrations"] == 0
    table.camera.bump(tilt=1.0, yaw=0.3)  # within the monitor's marker search regions
    table.frame()
    bumped = table.loop.snapshot()["camera"]
    assert bumped["bumped"] is True and bumped["recalibrations"] == 0
    for _ in range(table.pipeline.steady_frames + 1):
        table.frame()
    camera = table.loop.snapshot()["camera"]
    assert camera["bumped"] is False and camera["recalibrations"] == 1
    assert camera["last_recalibration"] == "markers steady again"
    # and the table is read again in the new view: a move is read from the camera
    driver = table.driver()
    while driver.physical == 0:
        assert driver.step()
    assert [e for e in table.loop.records.history() if e["source"] == "camera"]
    assert table.loop.game.pending is None


def test_mode_recalibrates_a_bumped_camera(jurassik_table: Table) -> None:
    table = jurassik_table
    table.pipeline.steady_frames = 10_000  # only the button recalibrates here
    settle(table)
    assert table.loop.press("mode") == {"ok": True, "mode": "leader"}  # not bumped: Mode switches the view
    table.loop.press("mode")
    table.camera.bump(tilt=1.0, yaw=0.3)  # within the monitor's marker search regions
    for _ in range(3):
        table.frame()
    assert table.loop.snapshot()["camera"]["bumped"] is True
    from companion.web import WebConfig, create_app

    client: Any = create_app(table.loop, WebConfig()).test_client()
    assert 'id="camera-bumped"' in client.get("/").get_data(as_text=True)  # the page says so
    assert table.loop.press("mode") == {"ok": True, "recalibrating": True}
    assert table.loop.snapshot()["camera"]["recalibration_requested"] is True
    table.frame()
    camera = table.loop.snapshot()["camera"]
    assert camera["bumped"] is False and camera["recalibrations"] == 1
    assert camera["last_recalibration"] == "requested" and table.loop.snapshot()["mode"] == "turn"
    assert 'id="camera-bumped"' not in client.get("/").get_data(as_text=True)
