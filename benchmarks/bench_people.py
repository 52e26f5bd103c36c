"""People at the table: seeded games of every game played by fallible people (:mod:`sim.people`) through
the table under a camera and the page, never through the engine.

The camera is the ideal one with a tracker's patience (a change is read once it has held still for three
frames, as vision's tracker does); the page is the real Flask app, asked and tapped as the page's script
does (its snapshot, ``/api/press``, ``/api/submit``, ``/api/choose``, with CSRF and Origin). Per game it
prints how many games ended with the true final score (the score of the game the people really played),
taps per game, objections that were right (a slip to object to) and false (none), and the seconds each
slip took to recover from (camera frames at 15 fps plus 3 s a tap).

Usage: ``python benchmarks/bench_people.py [--seeds N] [--game G]``; the last line reads
``people: X/Y games ended with the true score, Z false objections, T taps per game``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import SeededBots
from companion.config import config_from_dict
from companion.kits import kit_for
from companion.store import Store
from companion.table.loop import TableLoop
from companion.web import WebConfig, create_app
from engines.core import Action, State, available_games, get_game
from hw.panel import Panel
from sim.ideal import IdealPipeline, SceneSource, ideal_observation
from sim.people import NotRecovered, People, PeopleReport, SlipRates
from vision.observation import Observation
from vision.scene import SEAT_RGB, Scene

HOST = {"Host": "localhost"}
ORIGIN = "http://localhost"


class SteadyCamera(IdealPipeline):
    """The ideal camera read the way the tracker reads: a table is stable once it held still ``window``
    frames (a piece lifted for a moment is never read), and held while a hand is over it."""

    def __init__(self, game: str, is_back: Any, window: int = 3) -> None:
        super().__init__(game, is_back)
        self.window = window
        self._last: Scene | None = None
        self._held = 0

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Observation | None:
        self._held = self._held + 1 if frame is self._last else 1
        self._last = frame
        observation = ideal_observation(frame, self.game, self.is_back, index, timestamp)
        return replace(observation, stable=self._held >= self.window, held=bool(frame.occluders))


class Phone:
    """One phone on the page: a browser session with its own cookie and CSRF token."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.token = self._token()

    def _token(self) -> str:
        html: str = self.client.get("/", headers=HOST).get_data(as_text=True)
        marker = 'name="csrf-token" content="'
        start = html.index(marker) + len(marker)
        return html[start:html.index('"', start)]

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {**HOST, "X-CSRF-Token": self.token, "Origin": ORIGIN}
        answer = self.client.post(url, json=body, headers=headers)
        data: dict[str, Any] = answer.get_json() or {"ok": False, "error": answer.status}
        return data

    def look(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get("/api/snapshot", headers=HOST).get_json()
        return data

    def press(self, button: str) -> dict[str, Any]:
        return self._post("/api/press", {"button": button})

    def tap_move(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._post("/api/submit", {"action": action})

    def choose(self, index: int) -> dict[str, Any]:
        return self._post("/api/choose", {"index": index})

    def reload(self) -> dict[str, Any]:
        page = self.client.get("/", headers=HOST)
        if page.status_code != 200:
            raise RuntimeError(f"the page did not load again: {page.status}")
        return self.look()


class CameraTable:
    """The pieces under the camera as the people lay them, and frames passing on the loop's clock."""

    def __init__(self, loop: TableLoop, source: SceneSource, clock: FrameClock) -> None:
        self.loop, self.source, self.clock = loop, source, clock
        self.model = loop.model
        self.frames = 0

    def show(self, scene: Scene) -> None:
        self.source.show(scene)

    def wait(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.clock.now += 1 / 15
            self.frames += 1
            self.loop.process_frame(*self.source.read())

    def scene(self, state: State) -> Scene:
        return self.model.scene(state)

    def move_scene(self, before: State, action: Action, after: State) -> Scene:
        return self.model.display_scene(before, action, after)

    def looks_alike(self, first: State, second: State) -> bool:
        tolerance = self.model.tolerance
        return bool(self.model.expected(first).key(tolerance) == self.model.expected(second).key(tolerance))

    def turn_up(self, state: State, rng: random.Random) -> Action:
        return self.model.chance_outcome(state, rng)

    def follows(self, state: State) -> State:
        return self.loop.keeper.settled(state)

    def out_of_turn(self, before: State, action: Action, after: State, rng: random.Random) -> Scene | None:
        """``action`` made by another seat: what came to the mover's place lies in the other's, a peg in
        the mover's colour is in the other's."""
        colour_of = {player: colour for colour, player in self.model.players_by_colour.items()}
        mine = colour_of.get(str(before.current_player()))
        others = sorted(c for c in colour_of.values() if c != mine)
        if mine is None or not others:
            return None
        theirs = rng.choice(others)
        start, moved = self.scene(before), self.move_scene(before, action, after)
        zones = {zone.name: zone for zone in moved.zones}
        here, there = zones.get(f"seat:{mine}"), zones.get(f"seat:{theirs}")
        shift = None if here is None or there is None else _offset(here.polygon, there.polygon)
        placed = {(t.payload, t.center, t.angle) for t in start.tags}
        tags, changed = [], False
        for tag in moved.tags:
            new = (tag.payload, tag.center, tag.angle) not in placed
            if shift and here and there and new and here.contains(tag.center):
                laid = _inside(there, (tag.center[0] + shift[0], tag.center[1] + shift[1]))
                tag, changed = replace(tag, center=laid), True
            tags.append(tag)
        pegs = list(moved.pegs)
        for index, peg in enumerate(pegs):
            if peg not in start.pegs and peg.colour == mine:
                pegs[index], changed = replace(peg, colour=theirs, rgb=SEAT_RGB.get(theirs, peg.rgb)), True
        return replace(moved, tags=tags, pegs=pegs) if changed else None

    def same_picture(self, scene: Scene, state: State) -> bool:
        seen = self.model.seen(ideal_observation(scene, self.loop.game.name, self.model.is_back, 0, 0.0))
        return bool(seen.key(self.model.tolerance) == self.model.expected(state).key(self.model.tolerance))


def _offset(here: Any, there: Any) -> tuple[float, float]:
    """From one zone's top-left corner to the other's: a card keeps its place in the area it is laid in
    (seat areas differ in size, so middle to middle could put it off the table)."""
    def corner(points: Any) -> tuple[float, float]:
        return min(p[0] for p in points), min(p[1] for p in points)
    (x0, y0), (x1, y1) = corner(here), corner(there)
    return x1 - x0, y1 - y0


def _inside(zone: Any, point: tuple[float, float]) -> tuple[float, float]:
    """``point`` pulled into ``zone``'s bounding box (a card laid at the far edge of a smaller area)."""
    xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
    margin = 20.0
    return (min(max(point[0], min(xs) + margin), max(xs) - margin),
            min(max(point[1], min(ys) + margin), max(ys) - margin))


class FrameClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seats_of(game: str) -> list[str]:
    return list(kit_for(game).demo_colours)


def play(game: str, seed: int, rates: SlipRates | None = None) -> PeopleReport:
    """One game of ``game`` with people, seeded (``rates``: how often they slip; the default rates)."""
    colours = seats_of(game)
    config = config_from_dict({"game": game, "seed": seed, "seats": colours}, source="<people>")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, colours, pin_factory=factory, start=False)
    source, clock = SceneSource(), FrameClock()
    loop = TableLoop(config, store=Store(Path(tempfile.mkdtemp(prefix="people-"))), panel=panel,
                     source=source, pipeline=SteadyCamera(config.game, kit_for(game).is_back), clock=clock)
    try:
        app = create_app(loop, WebConfig())
        engine = get_game(game)
        truth = engine.new_initial_state(config.players, rng=random.Random(config.seed),
                                         options=engine.resolve_options(config.engine_options))
        bots = SeededBots(seed, None, loop.model)
        people = People(truth, CameraTable(loop, source, clock), Phone(app), Phone(app),
                        choose=lambda state, _rng: bots.choose(state, state.legal_actions()), seed=seed,
                        rates=rates)
        try:
            return people.play()
        except NotRecovered as error:
            people.report.unrecovered.append(str(error))
            return people.report
    finally:
        loop.close()
        factory.reset()


def summary(reports: list[PeopleReport]) -> str:
    ended = sum(r.ended_true for r in reports)
    recoveries = [s for r in reports for s in r.recoveries]
    slips = sum(sum(r.slips.values()) for r in reports)
    median = statistics.median(recoveries) if recoveries else 0.0
    taps = statistics.mean(r.taps for r in reports)
    right = sum(r.objections_right for r in reports)
    return (f"{ended}/{len(reports)} ended with the true score; {taps:.0f} taps a game; "
            f"objections {right} right, "
            f"{sum(r.objections_false for r in reports)} false, {sum(r.missed for r in reports)} missed; "
            f"{slips} slips, {len(recoveries)} recoveries: median {median:.1f} s, "
            f"longest {max(recoveries, default=0.0):.1f} s; "
            f"{sum(len(r.unrecovered) for r in reports)} not recovered")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="games of each game (default 20)")
    parser.add_argument("--game", choices=available_games(), help="one game only")
    args = parser.parse_args()
    games = [args.game] if args.game else available_games()
    everyone: list[PeopleReport] = []
    for game in games:
        reports = []
        for seed in range(1, args.seeds + 1):
            report = play(game, seed)
            reports.append(report)
            status = "true score" if report.ended_true else "NOT the true score"
            print(f"  {game} seed {seed}: {report.moves} moves, {report.taps} taps, {status}, slips "
                  f"{dict(report.slips)}" + "".join(f"\n    false objection: {t}" for t in report.false_texts)
                  + "".join(f"\n    not recovered: {t}" for t in report.unrecovered), flush=True)
        print(f"{game}: {summary(reports)}", flush=True)
        everyone.extend(reports)
    ended = sum(r.ended_true for r in everyone)
    false = sum(r.objections_false for r in everyone)
    taps = statistics.mean(r.taps for r in everyone)
    print(f"people: {ended}/{len(everyone)} games ended with the true score, {false} false objections, "
          f"{taps:.0f} taps per game")
    return 0 if ended == len(everyone) and false == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
