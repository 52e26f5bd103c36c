"""`companion demo`: the main job on the embedded default.

A bot-played game (Jurassic Parts unless ``--game`` says otherwise) on a synthetic table: the bots move
pieces, the synthetic renderer draws each frame, the real loop (:class:`companion.table.loop.TableLoop`) reads
them through the vision pipeline, infers and applies the moves, stores every one (SQLite, in a temporary
state directory unless ``--state-dir`` is given) and signals on mock GPIO. The web page is served on
localhost while it plays; ``--headless`` prints progress and the final scores instead (``--until-end``
returns when the game is over, for scripts).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_GAME = "jurassic-parts"


@dataclass
class Demo:
    """The running pieces of a demo, for the command and for tests."""

    loop: Any
    camera: Any
    driver: Any
    state_dir: Path
    web: Any = None
    url: str = ""
    link: Any = None

    def close(self) -> None:
        if self.web is not None:
            self.web.stop()
        if self.link is not None:
            if self.link.queued:
                print(f"waiting up to 30 s for the broker to take {self.link.queued} queued move(s)",
                      flush=True)
            self.link.stop(drain_s=30)
        self.loop.close()


def _seats(game: Any, colours_text: str, companion: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    from companion.kits import kit_for

    colours = [c.strip() for c in colours_text.split(",") if c.strip()] if colours_text else []
    if not colours:
        colours = list(kit_for(game.name).demo_colours)
    colours = colours[: game.max_players]
    from companion.config import SEAT_COLOURS

    for colour in SEAT_COLOURS:
        if len(colours) >= game.min_players:
            break
        if colour not in colours:
            colours.append(colour)
    unknown = sorted(set(companion or {}) - set(colours))
    if unknown:
        from companion.config import ConfigError

        raise ConfigError(f"--companion {unknown[0]}: no such seat (seats: {', '.join(colours)})")
    levels = companion or {}
    return [{"name": colour, "colour": colour, **({"companion": levels[colour]} if colour in levels else {})}
            for colour in colours]


def build(game_name: str = DEFAULT_GAME, colours: str = "", seed: int = 1, state_dir: Path | None = None,
          fps: float = 0.0, synchronous: bool = True, hands: bool = False, real_table: bool = False,
          options: Mapping[str, Any] | None = None, companion: Mapping[str, int] | None = None,
          speak: bool = False) -> Demo:
    """Wire a demo table: config, store, mock panel, synthetic camera, vision pipeline, loop, bots (who
    also make the moves of the seats the companion plays, ``companion``: colour -> level)."""
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.bots import BotDriver
    from companion.config import config_from_dict
    from companion.store import Store
    from companion.table.loop import TableLoop
    from engines.core import get_game
    from hw.panel import Panel

    game = get_game(game_name)
    directory = state_dir if state_dir is not None else Path(tempfile.mkdtemp(prefix="dinotable-demo-"))
    directory.mkdir(parents=True, exist_ok=True)
    house = {option.name for option in game.options if option.house_rule}
    config = config_from_dict({
        "game": game.name, "seed": seed, "seats": _seats(game, colours, companion),
        "options": {k: v for k, v in (options or {}).items() if k not in house},
        "house_rules": {k: v for k, v in (options or {}).items() if k in house},
        "camera": {"source": "synthetic", "fps": fps or 15},
        "store": {"state_dir": str(directory)},
        "speak": speak,
    }, source="<demo>")
    seat_colours = [s.colour for s in config.seats]
    panel = Panel(config.pins, seat_colours, pin_factory=MockFactory(pin_class=MockPWMPin))
    store = Store(directory)
    source, pipeline = _camera_and_pipeline(config, seed, fps)
    # real_table: the cards as players shuffle and draw them (the bots then play what could be in a hand)
    loop = TableLoop(config, store=store, panel=panel, source=source, pipeline=pipeline, resume=False,
                     real_table=real_table)
    show = source.show
    source.show(loop.game.model.scene(loop.current_state()))
    if hands and hasattr(source, "reach_in"):
        show = _with_hands(source)
    pump: Callable[[], object] | None = None
    if synchronous:
        def pump() -> object:
            # a stalled camera reads None (no fresh frame): nothing to process, the frame age grows
            return loop.process_read(source.read())
    driver = BotDriver(loop, show, seed=seed, pump=pump, max_frames=240,
                       frame_wait=1.0 / fps if fps else 0.02)
    return Demo(loop, source, driver, directory)


def _with_hands(camera: Any) -> Callable[[Any], None]:
    """Show each new table picture with a hand reaching in first, as a player's would."""

    def show(scene: Any) -> None:
        camera.reach_in(frames=6)
        camera.show(scene)

    return show


def _camera_and_pipeline(config: Any, seed: int, fps: float) -> tuple[Any, Any]:
    """The synthetic camera and the real vision pipeline over it (detect + track)."""
    from companion.table.pipeline import vision_pipeline
    from sim.camera import SyntheticCamera

    camera = SyntheticCamera(seed=seed, fps=fps)
    return camera, vision_pipeline(config, camera)


# -- output ---------------------------------------------------------------------------------------------
def _scores_lines(snapshot: dict[str, Any]) -> Iterator[str]:
    """Each player's total and its parts in the game's words ("Stodgy Grass: 3", not "STODGY 3")."""
    from companion.words import part_name

    players = snapshot["scores"]["players"]
    for name, entry in sorted(players.items(), key=lambda item: -item[1]["total"]):
        parts = ", ".join(f"{part_name(k, snapshot)}: {v}" for k, v in entry["breakdown"].items() if v)
        line = f"  {name:>10}: {entry['total']:3d}"
        yield f"{line}  ({parts})" if parts else line


def _event_line(event: dict[str, Any], snapshot: dict[str, Any] | None = None) -> str:
    from companion.words import event_label

    who = event.get("player") or "table"
    return f"  #{event['seq']:<4} {who:>8}  {event_label(event, snapshot)}  [{event.get('source', '')}]"


def run_headless(demo: Demo, until_end: bool, max_actions: int | None, verbose: bool,
                 pace: float = 0.0) -> int:
    from companion.bots import BotStuck

    loop = demo.loop
    seen = 0
    steps = 0
    started = time.monotonic()
    try:
        while True:
            if max_actions is not None and steps >= max_actions:
                break
            if not demo.driver.step():
                break
            steps += 1
            if pace:
                time.sleep(pace)
            events = loop.records.history()
            snapshot = loop.snapshot() if verbose and len(events) > seen else None
            for event in events[seen:]:
                if verbose:
                    print(_event_line(event, snapshot), flush=True)
            if not verbose and len(events) // 25 > seen // 25:
                print(f"  ... {len(events)} moves committed", flush=True)
            seen = len(events)
            if not until_end and max_actions is None and steps >= 200:
                break
    except BotStuck as error:
        print(f"the bots got stuck: {error}", file=sys.stderr)
        return 1
    snapshot = loop.snapshot()
    took = time.monotonic() - started
    driver = demo.driver
    print(f"{'game over' if snapshot['over'] else 'stopped'} after {seen} committed moves in {took:.1f} s "
          f"({driver.physical} read by the camera, {driver.submitted} submitted, "
          f"{driver.questions} questions, {driver.frames} frames)")
    for line in _scores_lines(snapshot):
        print(line)
    if snapshot["over"]:
        print(f"winner(s): {', '.join(snapshot['scores']['winners'])}")
    return 0


def _free_port(preferred: int) -> int:
    import socket

    for port in (preferred, 0):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            chosen: int = sock.getsockname()[1]
            return chosen
    raise OSError("no free port")


def serve(demo: Demo, port: int = 8080) -> str:
    """Start the loop's camera thread and the web page on localhost; returns the page's address."""
    from companion.memory import thrifty_allocator
    from companion.web import WebConfig, create_app, serving
    from lan import server as web_server

    thrifty_allocator()
    web_server.quiet_request_log()
    config = WebConfig(host="127.0.0.1", port=_free_port(port) if port else 0)
    demo.web = serving.start(create_app(demo.loop, config), config)
    demo.loop.start()
    demo.url = demo.web.url
    return demo.url


def run_with_page(demo: Demo, args: argparse.Namespace) -> int:
    from companion.bots import BotStuck

    serve(demo, args.port)
    print(f"{demo.loop.snapshot()['title']}: a bot-played game on a synthetic table.", flush=True)
    print(f"Open {demo.web.url} in your browser (Ctrl-C stops the demo).", flush=True)
    stop = threading.Event()
    failure: list[str] = []

    def play() -> None:
        try:
            while not stop.is_set():
                pending = demo.loop.game.pending
                if pending is not None and pending.kind == "objection" and not demo.driver.taking_back():
                    stop.wait(0.5)  # a person at the page decides; the bots wait
                    continue
                if not demo.driver.step():
                    return
                stop.wait(1.0 if args.pace is None else args.pace)
        except BotStuck as error:
            failure.append(str(error))
        except Exception as error:  # the page stays up to show what happened
            failure.append(f"{type(error).__name__}: {error}")

    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)  # `kill` cleans up like Ctrl-C (the temporary store goes)
    bots = threading.Thread(target=play, name="demo-bots", daemon=True)
    bots.start()
    try:
        while bots.is_alive():
            bots.join(0.5)
        if failure:
            print(f"the bots stopped: {failure[0]}", file=sys.stderr)
        else:
            print("game over:", flush=True)
            for line in _scores_lines(demo.loop.snapshot()):
                print(line, flush=True)
        if args.until_end:
            return 1 if failure else 0
        print(f"The page stays up at {demo.web.url} (Ctrl-C to stop).", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        stop.set()
        print("stopped", file=sys.stderr)
        return 0


def _run(args: argparse.Namespace) -> int:
    from companion.commands.arguments import fail
    from companion.config import ConfigError
    from companion.store import StoreError
    from engines.core import available_games, get_game

    try:
        get_game(args.game)
    except KeyError:
        return fail("demo", f"unknown game {args.game!r}; available: {', '.join(available_games())}")
    from companion.mqtt.link import link_table
    from wire.broker import MqttConfig, configured

    try:
        mqtt = configured(MqttConfig(), args)
    except ValueError as error:
        return fail("demo", error)
    state_dir = Path(args.state_dir).expanduser() if args.state_dir else None
    if state_dir is not None and state_dir.exists() and not state_dir.is_dir():
        return fail("demo", f"--state-dir {state_dir} is a file, not a directory")
    fps = 0.0 if args.headless else args.fps
    if state_dir is None:
        state_dir_made = Path(tempfile.mkdtemp(prefix="dinotable-demo-"))
    try:
        demo = build(args.game, args.players, args.seed, state_dir or state_dir_made, fps=fps,
                     synchronous=args.headless, hands=args.hands, options=dict(args.option),
                     companion=dict(args.companion), speak=args.speak)
    except (ConfigError, StoreError, OSError) as error:
        if state_dir is None:
            shutil.rmtree(state_dir_made, ignore_errors=True)
        return fail("demo", error)
    except Exception:
        if state_dir is None:
            shutil.rmtree(state_dir_made, ignore_errors=True)
        raise
    demo.link = link_table(demo.loop, mqtt)
    try:
        if args.headless:
            title = demo.loop.snapshot()["title"]
            players = ", ".join(s["name"] for s in demo.loop.snapshot()["players"])
            print(f"{title}: a bot-played game for {players} (seed {args.seed}), read by the camera")
            return run_headless(demo, args.until_end, args.max_actions, args.verbose, args.pace or 0.0)
        return run_with_page(demo, args)
    finally:
        demo.close()
        if state_dir is None:
            shutil.rmtree(demo.state_dir, ignore_errors=True)
        else:
            print(f"the game is stored in {demo.state_dir}")


def register(subparsers: Any) -> None:
    from companion.commands.arguments import (
        bounded_number,
        bounded_whole,
        companion_seat,
        option_setting,
        port_number,
        seconds,
        seed,
    )
    from wire.broker import add_arguments as add_mqtt_arguments

    demo = subparsers.add_parser(
        "demo", help="a bot-played game on a synthetic table, with the web page (the embedded default)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    demo.add_argument("--game", default=DEFAULT_GAME, help="jurassic-parts (default), jurassik, ...")
    demo.add_argument("--players", default="",
                      help="comma-separated seat colours, clockwise (default red,blue,green)")
    demo.add_argument("--seed", type=seed, default=1, help="seed for setup, bots and chance (default 1)")
    demo.add_argument("--headless", action="store_true", help="no web page: print progress and the scores")
    demo.add_argument("--until-end", action="store_true", help="return when the game is over")
    demo.add_argument("--max-actions", type=bounded_whole(0, 10**7, "the number of actions"), default=None,
                      help="stop after this many bot actions")
    demo.add_argument("--verbose", "-v", action="store_true", help="headless: print every committed move")
    demo.add_argument("--port", type=port_number, default=8080, help="web page port on localhost (default "
                      "8080, or a free one)")
    demo.add_argument("--pace", type=seconds, default=None,
                      help="seconds between bot moves (default 1 with the page, 0 headless)")
    demo.add_argument("--fps", type=bounded_number(0.1, 120, "frames per second"), default=8.0,
                      help="synthetic camera frames per second with the page")
    demo.add_argument("--hands", action="store_true", help="show a hand reaching in before each move")
    demo.add_argument("--option", type=option_setting, action="append", default=[], metavar="NAME=VALUE",
                      help="a setup option or house rule of the game, e.g. --option edition=es (Jurassik's "
                           "Spanish edition; the page then speaks Spanish unless the browser asks otherwise)")
    demo.add_argument("--companion", type=companion_seat, action="append", default=[], metavar="COLOUR=LEVEL",
                      help="the companion plays this seat at level 1-3 (the bots make its moves for it), "
                           "e.g. --companion blue=3")
    demo.add_argument("--speak", action="store_true",
                      help="the companion says its moves aloud (espeak-ng: sudo apt install espeak-ng)")
    add_mqtt_arguments(demo)
    demo.add_argument("--state-dir", default="",
                      help="keep the game's database here (default: a temporary one)")
    demo.set_defaults(handler=_run)
