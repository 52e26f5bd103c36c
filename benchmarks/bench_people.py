"""People at the table: seeded games of every game played by fallible people (:mod:`sim.people`) through
the table under a camera and the page, never through the engine.

The camera is the ideal one with a tracker's patience (a change is read once it has held still for three
frames, as vision's tracker does); the page is the real Flask app, asked and tapped as the page's script
does (its snapshot, ``/api/press``, ``/api/submit``, ``/api/choose``, with CSRF and Origin), or with
``--browser`` served over loopback to two tabs of Debian's chromium that tap the page's own buttons. The
table is a real one: the people shuffle and draw the cards, so every draw is unseen, and where the rules
leave the set-up to the players (Jurassik's square) they deal and lay it with a shuffle of their own. Per
game it prints how many games ended with the true final score (the score of the game the people really
played), taps per game, objections that were right (a slip to object to) and false (none), and the seconds
each slip took to recover from (camera frames at 15 fps plus 3 s a tap).

Usage: ``python benchmarks/bench_people.py [--seeds N] [--game G] [--browser]``; the last line reads
``people: X/Y games ended with the true score, Z false objections, T taps per game``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.bots import SeededBots
from companion.config import config_from_dict
from companion.kits import kit_for
from companion.setup_check import reads_setups
from companion.store import Store
from companion.table.loop import TableLoop
from companion.web import WebConfig, create_app
from engines.core import Action, State, available_games, get_game
from hw.panel import Panel
from sim.ideal import IdealPipeline, SceneSource, ideal_observation
from sim.people import NotRecovered, PageSide, People, PeopleReport, SlipRates
from sim.phones import ApiPhone, BrowserPhone
from vision.observation import Observation
from vision.scene import SEAT_RGB, Scene
from vision.tags import ParsedPayload, parse_payload

#: a game's two phones on its page (the app), opened for one game; what they hold is closed with ``stack``
Phones = Callable[[Any, contextlib.ExitStack], tuple[PageSide, PageSide]]


def api_phones(app: Any, stack: contextlib.ExitStack) -> tuple[PageSide, PageSide]:
    """Two phones asking the page's routes through a WSGI test client (fast)."""
    return ApiPhone(app), ApiPhone(app)


class BrowserPhones:
    """Two phones as browser tabs of ``browser`` (Playwright's chromium), each its own context (cookie),
    on the page served over loopback as the table serves it; ``opened`` keeps every tab (its errors)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.opened: list[BrowserPhone] = []

    def __call__(self, app: Any, stack: contextlib.ExitStack) -> tuple[PageSide, PageSide]:
        from companion.web import serving

        server = serving.start(app, WebConfig(host="127.0.0.1", port=0))
        stack.callback(server.stop)
        phones = []
        for _ in range(2):
            context = self.browser.new_context(viewport={"width": 390, "height": 844})
            stack.callback(context.close)
            phones.append(BrowserPhone(context.new_page(), server.url))
        self.opened.extend(phones)
        return phones[0], phones[1]


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


class CameraTable:
    """The pieces under the camera as the people lay them, and frames passing on the loop's clock."""

    def __init__(self, loop: TableLoop, source: SceneSource, clock: FrameClock) -> None:
        self.loop, self.source, self.clock = loop, source, clock
        self.frames = 0

    @property
    def model(self) -> Any:
        return self.loop.game.model  # the table's, laid where the players laid it once the game starts

    def show(self, scene: Scene) -> None:
        self.source.show(scene)

    def wait(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.clock.now += 1 / 15
            self.frames += 1
            self.loop.process_frame(*self.source.read())

    def scene(self, state: State) -> Scene:
        return self.model.scene(state)

    def set_up_stages(self, state: State) -> list[Scene]:
        stages: list[Scene] = self.model.set_up_stages(state)
        return stages

    def move_scene(self, before: State, action: Action, after: State) -> Scene:
        return self.model.display_scene(before, action, after)

    def looks_alike(self, first: State, second: State) -> bool:
        tolerance = self.model.tolerance
        return bool(self.model.expected(first).key(tolerance) == self.model.expected(second).key(tolerance))

    def turn_up(self, state: State, rng: random.Random) -> Action:
        return self.model.chance_outcome(state, rng)

    def follows(self, state: State) -> State:
        return self.loop.game.settled(state)

    def out_of_turn(self, before: State, action: Action, after: State,
                    rng: random.Random) -> tuple[Scene, str] | None:
        """``action`` made by another seat (and that seat's player): where the mover moved a piece of
        their own, one of the other's own pieces moves so instead; else what came to the mover's place
        lies in the other's, a peg in the mover's colour is in the other's."""
        colour_of = {player: colour for colour, player in self.model.players_by_colour.items()}
        mine = colour_of.get(str(before.current_player()))
        others = sorted(c for c in colour_of.values() if c != mine)
        if mine is None or not others:
            return None
        theirs = rng.choice(others)
        start, moved = self.scene(before), self.move_scene(before, action, after)
        wrong = self._their_piece_moved(start, moved, mine, theirs, rng) or self._laid_in_their_place(
            start, moved, mine, theirs)
        return None if wrong is None else (wrong, self.model.players_by_colour[theirs])

    def _their_piece_moved(self, start: Scene, moved: Scene, mine: str, theirs: str,
                           rng: random.Random) -> Scene | None:
        """The other's own piece moved as the mover's own piece was (a figure in a team's colour)."""
        def owner(tag: Any) -> str | None:
            parsed = parse_payload(tag.payload)
            return self.model.owner(parsed.component_id) if isinstance(parsed, ParsedPayload) else None

        placed = {tag.payload: tag.center for tag in start.tags}
        mover = next((tag for tag in moved.tags
                      if owner(tag) == mine and placed.get(tag.payload, tag.center) != tag.center), None)
        if mover is None:
            return None
        dx, dy = mover.center[0] - placed[mover.payload][0], mover.center[1] - placed[mover.payload][1]
        candidates = [i for i, tag in enumerate(start.tags) if owner(tag) == theirs]
        for index in rng.sample(candidates, len(candidates)):
            tag = start.tags[index]
            to = (tag.center[0] + dx, tag.center[1] + dy)
            clear = all(math.dist(to, other.center) > 0.6 * math.hypot(dx, dy) for other in start.tags)
            if 0 < to[0] < start.width and 0 < to[1] < start.height and clear:
                tags = [*start.tags[:index], replace(tag, center=to), *start.tags[index + 1:]]
                return replace(start, tags=tags)
        return None

    def _laid_in_their_place(self, start: Scene, moved: Scene, mine: str, theirs: str) -> Scene | None:
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

    def lays_own_set_up(self) -> bool:
        return reads_setups(self.loop.game.engine.name)

    def same_picture(self, scene: Scene, state: State) -> bool:
        observation = ideal_observation(scene, self.loop.game.engine.name, self.model.is_back, 0, 0.0)
        seen = self.model.seen(observation)
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


def play(game: str, seed: int, rates: SlipRates | None = None, phones: Phones = api_phones) -> PeopleReport:
    """One game of ``game`` with people, seeded (``rates``: how often they slip, the default rates;
    ``phones``: how they reach the page)."""
    colours = seats_of(game)
    config = config_from_dict({"game": game, "seed": seed, "seats": colours}, source="<people>")
    factory = MockFactory(pin_class=MockPWMPin)
    panel = Panel(config.pins, colours, pin_factory=factory, start=False)
    source, clock = SceneSource(), FrameClock()
    loop = TableLoop(config, store=Store(Path(tempfile.mkdtemp(prefix="people-"))), panel=panel,
                     source=source, pipeline=SteadyCamera(config.game, kit_for(game).is_back), clock=clock,
                     real_table=True)  # the people shuffle and draw the cards: each draw is unseen
    try:
        with contextlib.ExitStack() as stack:
            app = create_app(loop, WebConfig())
            engine = get_game(game)
            options = {**config.engine_options, **kit_for(game).real_table_options}
            # a game whose set-up the players lay is dealt with the people's own shuffle, not the table's,
            # and laid as they choose where the rules let them
            own = reads_setups(game)
            deal = random.Random(f"people-{seed}") if own else random.Random(config.seed)
            options.update(kit_for(game).group_choices if own else {})
            truth = engine.new_initial_state(config.players, rng=deal,
                                             options=engine.resolve_options(options))
            bots = SeededBots(seed, None, loop.game.model)
            phone, second_phone = phones(app, stack)
            people = People(truth, CameraTable(loop, source, clock), phone, second_phone,
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
    parser.add_argument("--browser", action="store_true",
                        help="the phones are chromium tabs (Playwright) tapping the page's buttons")
    args = parser.parse_args()
    games = [args.game] if args.game else available_games()
    with contextlib.ExitStack() as stack:
        phones = BrowserPhones(open_chromium(stack)) if args.browser else api_phones
        return play_all(games, args.seeds, phones)


def open_chromium(stack: contextlib.ExitStack) -> Any:
    """Debian's headless chromium through Playwright (no browser is downloaded)."""
    from playwright.sync_api import sync_playwright

    playwright = stack.enter_context(sync_playwright())
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--headless", "--no-sandbox", "--disable-gpu"])
    stack.callback(browser.close)
    return browser


def play_all(games: list[str], seeds: int, phones: Phones) -> int:
    everyone: list[PeopleReport] = []
    for game in games:
        reports = []
        for seed in range(1, seeds + 1):
            report = play(game, seed, phones=phones)
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
