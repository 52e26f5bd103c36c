"""The loop on the command line: `companion run`, `companion replay FOLDER`, `companion history`,
`companion explain`.

- ``run``: the configured camera and the real GPIO panel (gpiozero picks the pin factory; ``mock`` off a
  Pi), the loop and the store in the state directory; prints every committed move. ``--web`` also serves
  the web page (``companion serve`` is the same with the page always on, for systemd).
- ``replay FOLDER``: recorded frames (image files in name order, or a video file) through the same loop,
  as fast as they can be read; prints the moves and the final scores (``--json`` for the events).
- ``history``: the stored games, or the events of one (``GAME_ID``); ``--export FILE`` writes a game as
  one JSON document (``-`` for stdout).
- ``explain SEQ``: why event SEQ of a game was applied (the rule that allowed it, the evidence seen), or
  with ``--notices`` the objections and questions the table raised and the rules they cite.

Bad input (a missing folder, an unknown game id, a broken config) exits with status 2 and one line on
stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.commands.arguments import fail


def _config(args: argparse.Namespace) -> Any:
    from companion.config import config_from_dict, load_config

    config = load_config(getattr(args, "config", None))
    changes: dict[str, Any] = {}
    if getattr(args, "game", None):
        changes["game"] = args.game
    if getattr(args, "players", None):
        changes["seats"] = [
            {"name": c.strip(), "colour": c.strip()} for c in args.players.split(",") if c.strip()
        ]
    if getattr(args, "seed", None) is not None:
        changes["seed"] = args.seed
    if getattr(args, "state_dir", None):
        changes["store"] = {"state_dir": str(args.state_dir)}
    if changes:
        config = config_from_dict(changes, source=config.source, base=config)
    return config


def _fail(command: str, message: str) -> int:
    return fail(command, message)


def _event_line(event: dict[str, Any]) -> str:
    action = event.get("action") or {}
    kind = "undo" if event["kind"] == "undo" else action.get("kind", event["kind"])
    details = ", ".join(f"{k}={v}" for k, v in action.items() if k not in ("kind", "player", "state"))
    who = event.get("player") or "table"
    return f"#{event['seq']:<4} {who:>10}  {kind}{f' ({details})' if details else ''}  [{event['source']}]"


# -- run ----------------------------------------------------------------------------------------------
def _run(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.records import event_dict
    from companion.table.loop import TableLoop
    from companion.table.pipeline import vision_pipeline

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from companion.mqtt.link import link_table
    from wire.broker import configured

    try:
        config = _config(args)
        mqtt = configured(config.mqtt, args)
    except (ConfigError, ValueError) as error:
        return _fail("run", str(error))
    from companion.commands.web import open_camera
    from companion.instance import AlreadyRunning, InstanceLock

    try:
        InstanceLock(config.state_dir).acquire()  # held until the process ends
    except AlreadyRunning as error:
        return _fail("run", str(error))

    printed = threading.Lock()

    def show(event: Any) -> None:
        with printed:
            print(_event_line(event_dict(event, config.game)), flush=True)

    loop = TableLoop(config, pipeline=vision_pipeline(config), on_commit=show,
                     real_table=config.camera.kind != "synthetic")
    for problem in loop.problems:
        print(f"warning: {problem}", file=sys.stderr)
    loop.source = open_camera(config, loop)
    if args.record:
        loop.source = RecordingSource(loop.source, Path(args.record), args.record_every)
        print(f"recording every {args.record_every}. frame to {args.record}", flush=True)
    running = None
    if args.web:
        from companion.web import WebConfig, create_app, serving

        web_config = WebConfig.from_config(config.web, state_dir=config.state_dir)
        running = serving.start(create_app(loop, web_config), web_config)
        print(f"web page: {running.url}", flush=True)
    snapshot = loop.snapshot()
    print(
        f"{snapshot['title']}: game {snapshot['game_id']}, {snapshot['event_count']} events so far; "
        f"camera {config.camera.source}; state in {config.state_dir}",
        flush=True,
    )
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    link = link_table(loop, mqtt)
    loop.start()
    try:
        while not stopping.wait(0.5):
            pass
    finally:
        if running is not None:
            running.stop()
        if link is not None:
            link.stop()
        loop.close()
        closer = getattr(loop.source, "close", None)
        if callable(closer):
            closer()
    return 0


class RecordingSource:
    """Saves every ``every``-th frame read as a numbered JPEG (what ``companion replay`` reads back)."""

    def __init__(self, source: Any, folder: Path, every: int = 1) -> None:
        self.source = source
        self.folder = folder
        self.every = max(1, every)
        self.count = 0
        folder.mkdir(parents=True, exist_ok=True)

    def read(self) -> Any:
        import cv2

        read = self.source.read()
        image = getattr(read, "image", None) if read is not None and not isinstance(read, tuple) else None
        if isinstance(read, tuple):
            image = read[0]
        if image is not None:
            if self.count % self.every == 0:
                cv2.imwrite(str(self.folder / f"frame{self.count:07d}.jpg"), image)
            self.count += 1
        return read

    def close(self) -> None:
        closer = getattr(self.source, "close", None)
        if callable(closer):
            closer()


# -- replay -------------------------------------------------------------------------------------------
def _replay(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.table.loop import TableLoop
    from companion.table.pipeline import vision_pipeline
    from vision.sources import FolderSource, SourceError

    try:
        if not args.state_dir:
            args.state_dir = tempfile.mkdtemp(prefix="dinotable-replay-")
        config = _config(args)
        source = FolderSource(args.folder)
        source.open()
    except (ConfigError, ValueError, SourceError) as error:
        return _fail("replay", str(error))
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hw.panel import Panel

    panel = Panel(
        config.pins,
        [s.colour for s in config.seats],
        pin_factory=MockFactory(pin_class=MockPWMPin),
        start=False,
    )
    # frames recorded at a real table: its cards were shuffled and drawn there
    loop = TableLoop(config, panel=panel, pipeline=vision_pipeline(config), resume=not args.new,
                     real_table=True)
    frames = 0
    try:
        while (frame := source.read()) is not None:
            loop.process_read(frame)  # with the source's lores image when it has one
            frames += 1
        events = loop.records.history()
        snapshot = loop.snapshot()
    finally:
        source.close()
        loop.close()
    if args.json:
        json.dump(
            {
                "frames": frames,
                "events": events,
                "pending": snapshot["pending"],
                "scores": snapshot["scores"],
                "over": snapshot["over"],
                "game_id": snapshot["game_id"],
                "state_dir": str(config.state_dir),
            },
            sys.stdout,
        )
        print()
        return 0
    for event in events:
        print(_event_line(event))
    print(
        f"{frames} frames, {len(events)} events committed, "
        f"{'game over' if snapshot['over'] else 'game running'}; store: {config.state_dir}"
    )
    if snapshot["pending"]:
        print(f"pending {snapshot['pending']['kind']}: {snapshot['pending']['text']}")
    for name, entry in snapshot["scores"]["players"].items():
        print(f"  {name:>10}: {entry['total']}")
    if skipped := getattr(source, "skipped", None):
        print(f"unreadable files skipped: {len(skipped)}", file=sys.stderr)
    return 0


# -- history, export, explain -------------------------------------------------------------------------
def _store(args: argparse.Namespace) -> Any:
    from companion.store import Store

    config = _config(args)
    path = Path(config.state_dir)
    if not (path / "companion.db").exists():
        raise ValueError(f"no store in {path} (use --state-dir or the config's [store] state_dir)")
    store = Store(path)
    for problem in store.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return store


def _history(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.records import export_game
    from companion.store import StoreError

    try:
        store = _store(args)
    except (ConfigError, ValueError) as error:
        return _fail("history", str(error))
    try:
        if args.export is not None:
            game_id = args.game_id if args.game_id is not None else store.latest_game_id()
            if game_id is None:
                return _fail("history", "no games stored")
            data = export_game(store, game_id)
            text = json.dumps(data, indent=1)
            if args.export == "-":
                print(text)
            else:
                try:
                    Path(args.export).write_text(text + "\n", encoding="utf-8")
                except OSError as error:
                    return _fail("history", f"cannot write {args.export}: {error.strerror or error}")
                print(f"game {game_id} exported to {args.export}", file=sys.stderr)
            return 0
        if args.game_id is None:
            games = [record.summary() for record in store.games()]
            damaged = store.damaged()
            if args.json:
                json.dump(games, sys.stdout)
                print()
                return 0
            for why in damaged.values():
                print(f"warning: {why}", file=sys.stderr)
            from companion.status_words import sentence_words

            for entry in store.salvages():
                print(f"note: {time.strftime('%Y-%m-%d %H:%M', time.localtime(entry.get('at') or 0))}: "
                      f"{sentence_words(entry.get('said'))}", file=sys.stderr)
            lines = {game_id: f"{game_id:>4}  damaged: the game cannot be read back" for game_id in damaged}
            for game in games:
                state = "over, won by " + ", ".join(game["winners"]) if game["over"] else "running"
                if game["game_id"] in damaged:
                    state = "damaged: its moves cannot be read back"
                players = ", ".join(p["name"] for p in game["players"])
                lines[game["game_id"]] = (f"{game['game_id']:>4}  {game['title']:<28} {players:<30} "
                                          f"{store.event_count(game['game_id']):>4} events  {state}")
            print("\n".join(lines[game_id] for game_id in sorted(lines)) if lines else "no games stored")
            return 0
        store.game(args.game_id)
        events = [event.to_dict() for event in store.events(args.game_id)]
        if args.json:
            json.dump(events, sys.stdout)
            print()
        else:
            for event in events:
                print(_event_line(event))
        return 0
    except StoreError as error:
        return _fail("history", str(error))
    finally:
        store.close()


def _ruling_in_words(game: Any, data: Any) -> dict[str, Any]:
    """The engine's ruling on a {state, action} file, with the move in the words the page uses."""
    from companion.words import action_label, in_words

    report: dict[str, Any] = game.explain_report(data)
    state = game.state_from_dict(data["state"])  # read by the ruling already: a valid position
    snap = {"game": game.name, "view": state.view(None)}
    label = action_label(report.get("action"), snap)
    who = report["action"].get("player") or report.get("to_play") or "the table"
    report["move"] = f"{who}: {label}"
    if isinstance(report.get("summary"), str):  # the engine's reason, as the page says it
        report["why"] = in_words(report["summary"], snap)
    return report


def _explain(args: argparse.Namespace) -> int:
    from companion.config import ConfigError
    from companion.store import StoreError, decode_action

    what = list(args.what)
    if len(what) == 2:  # GAME FILE: a ruling on a position, no store involved
        from companion.commands.rulings import game_named, read_json, run_ruling

        return run_ruling(lambda: _ruling_in_words(game_named(what[0]), read_json(what[1])))
    if len(what) > 2 or (what and not what[0].isdigit()):
        return _fail("explain", "give GAME FILE (a {state, action} file) or SEQ (a stored move's number)")
    args.seq = int(what[0]) if what else None
    try:
        store = _store(args)
    except (ConfigError, ValueError) as error:
        return _fail("explain", str(error))
    try:
        game_id = args.game if args.game is not None else store.latest_game_id()
        if game_id is None:
            return _fail("explain", "no games stored")
        if args.notices:
            json.dump(store.notices(game_id), sys.stdout, indent=1)
            print()
            return 0
        if args.seq is None:
            return _fail("explain", "give the event number SEQ (or --notices)")
        event = store.event(game_id, args.seq)
        if event is None:
            return _fail("explain", f"game {game_id} has no event {args.seq}")
        result: dict[str, Any] = {"game_id": game_id, "event": event.to_dict()}
        if event.action is not None and event.kind != "undo":
            replayed = store.replay(game_id, upto=args.seq - 1)
            action = decode_action(replayed.game, event.action)
            explanation = replayed.state.explain(action)
            result["explanation"] = explanation.to_dict()
            result["rules"] = [rule.cite() for rule in explanation.rules]
        observation = event.observation
        if observation is not None:
            result["evidence"] = {
                "frame": observation.get("frame_index"),
                "tags": len(observation.get("tags", {})),
                "pegs": len(observation.get("pegs", [])),
                "calibration": observation.get("calibration"),
                "photo": event.has_photo,
            }
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    except StoreError as error:
        return _fail("explain", str(error))
    finally:
        store.close()


def register(subparsers: Any) -> None:
    from companion.commands.arguments import bounded_whole, game_id, seed
    from wire.broker import add_arguments as add_mqtt_arguments

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--config", default=None, help="the TOML config file (default: built-in defaults)"
        )
        parser.add_argument("--state-dir", default=None, help="where the store lives (overrides the config)")

    run = subparsers.add_parser("run", help="run the table: real camera, GPIO panel, loop and store")
    common(run)
    run.add_argument("--web", action="store_true", help="also serve the web page")
    add_mqtt_arguments(run)
    run.add_argument("--record", default=None, metavar="DIR", help="save the frames for `companion replay`")
    run.add_argument("--record-every", type=bounded_whole(1, 10**6, "every how many frames"), default=1,
                     metavar="N", help="save every N-th frame")
    run.set_defaults(handler=_run)

    replay = subparsers.add_parser("replay", help="recorded frames (a folder or video) through the loop")
    replay.add_argument("folder", help="folder of frames in name order, or a video file")
    common(replay)
    replay.add_argument("--game", default=None, help="game (overrides the config)")
    replay.add_argument("--players", default=None, help="comma-separated seat colours, clockwise")
    replay.add_argument("--seed", type=seed, default=None, help="setup seed (overrides the config)")
    replay.add_argument(
        "--new", action="store_true", help="start a new game instead of resuming the stored one"
    )
    replay.add_argument("--json", action="store_true", help="print the events and scores as JSON")
    replay.set_defaults(handler=_replay)

    history = subparsers.add_parser("history", help="stored games and their events; export a game as JSON")
    history.add_argument("game_id", nargs="?", type=game_id, default=None,
                         help="a game's id: list its events")
    common(history)
    history.add_argument(
        "--export", default=None, metavar="FILE", help="write the game as JSON (- for stdout)"
    )
    history.add_argument("--json", action="store_true", help="JSON instead of text")
    history.set_defaults(handler=_history)

    explain = subparsers.add_parser(
        "explain", help="is a move legal, and why (GAME FILE with {state, action}; or SEQ: a stored move)",
        description="companion explain GAME FILE: whether FILE's action is legal in FILE's state and the "
        "rules that decide it, for every game (FILE is {\"state\": ..., \"action\": ...}; - reads standard "
        "input). companion explain SEQ: why stored move SEQ was applied, with its evidence.")
    explain.add_argument("what", nargs="*", metavar="GAME FILE | SEQ",
                         help="a game and a {state, action} file, or a stored move's number")
    common(explain)
    explain.add_argument("--game", type=game_id, default=None, help="game id (default: the latest)")
    explain.add_argument("--notices", action="store_true", help="the objections and questions instead")
    explain.set_defaults(handler=_explain)
