"""A synthetic table wired to the real loop: synthetic camera -> real vision -> inference -> engine ->
store -> mock panel. Shared by the end-to-end tests and benchmarks/bench_loop.py."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import BotDriver
from companion.config import Config, config_from_dict
from companion.store import Store
from companion.table.loop import TableLoop
from companion.table.pipeline import Pipeline, vision_pipeline
from engines.core import State, get_game
from hw.panel import Panel
from hw.speech import Speaker
from sim.camera import SyntheticCamera
from sim.camera_model import recommended_camera


class FrameClock:
    """The loop's clock in these tests: it moves one camera frame (1/15 s) per frame delivered, so frame
    ages, timeouts and the camera-lost check depend on frames, never on how busy the machine is."""

    def __init__(self, fps: float = 15.0) -> None:
        self.now = 1000.0
        self.step = 1.0 / fps

    def tick(self) -> None:
        self.now += self.step

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    config: Config
    loop: TableLoop
    camera: SyntheticCamera
    driver: BotDriver
    factory: MockFactory
    clock: FrameClock

    def frame(self) -> Any:
        self.clock.tick()
        return self.loop.process_read(self.camera.read())

    def frames(self, count: int) -> None:
        for _ in range(count):
            self.frame()

    def initial_state(self) -> State:
        game = get_game(self.config.game)
        options = game.resolve_options(self.config.engine_options)
        return game.new_initial_state(
            self.config.players, rng=random.Random(self.config.seed), options=options
        )

    def close(self) -> None:
        self.loop.close()
        self.factory.reset()


def build_table(
    game: str,
    colours: Sequence[str],
    state_dir: Path,
    seed: int = 1,
    tilt: float = 8.0,
    pipeline: Pipeline | None = None,
    real_table: bool = False,
    options: dict[str, Any] | None = None,
    companion: dict[str, int] | None = None,
    speaker: Speaker | None = None,
) -> Table:
    """``companion``: the seats (by colour) the companion plays, at their levels; ``speaker`` says its
    moves."""
    seats = [{"name": c, "colour": c, **({"companion": companion[c]} if c in (companion or {}) else {})}
             for c in colours]
    config = config_from_dict(
        {"game": game, "seed": seed, "seats": seats,
         **({"options": options} if options else {})}, source="<e2e>"
    )
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, list(colours), pin_factory=factory, start=False)
    camera = SyntheticCamera(camera=recommended_camera(tilt=tilt), seed=seed)
    clock = FrameClock()
    loop = TableLoop(
        config, store=Store(state_dir), panel=panel, pipeline=pipeline or vision_pipeline(config, camera),
        clock=clock, real_table=real_table, speaker=speaker,
    )
    camera.show(loop.game.model.scene(loop.game.state))
    table = Table(config, loop, camera, None, factory, clock)  # type: ignore[arg-type]
    table.driver = BotDriver(loop, camera.show, seed=seed, pump=table.frame, max_frames=60)
    return table
