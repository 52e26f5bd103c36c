"""`companion cafe`: the café board. Every table of the café live (game, seats, whose turn, scores,
online or not), the finished plays kept in the board's own SQLite, a league per game, CSV exports.

It listens to the tables' reports on the MQTT broker (``--mqtt URL``, or ``[mqtt]`` in the config for
credentials and TLS) with a persistent session, so the broker keeps what the tables send while the board
is restarting. The page is read-only and shows only what the tables publish (the shared view).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.cafe")


def default_board_dir() -> Path:
    from companion.config import default_state_dir

    return default_state_dir() / "cafe"


def _run(args: argparse.Namespace) -> int:
    from companion.cafe.app import create_board_app
    from companion.cafe.board import BoardStore
    from companion.cafe.listener import BoardListener
    from companion.config import ConfigError, load_config
    from companion.web import WebConfig
    from companion.web import server as web_server

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        mqtt = config.mqtt.overridden(args.mqtt, None)
        if not mqtt.enabled:
            raise ValueError("no broker: give --mqtt URL or [mqtt] url in the config")
        store = BoardStore(Path(args.state_dir).expanduser() if args.state_dir else default_board_dir())
    except (ConfigError, ValueError, OSError) as error:
        print(f"companion cafe: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    listener = BoardListener(mqtt, store, name=args.name)
    app = create_board_app(store, listener.status, tuple(args.allowed_host or ()))
    web_server.quiet_request_log()
    web = WebConfig(host="127.0.0.1", port=args.port)
    try:
        server = web_server.make(app, web, host=args.bind, port=args.port, read_only=True)
    except OSError as error:
        print(f"companion cafe: cannot listen on {args.bind}:{args.port}: {error}", file=sys.stderr)
        return 1
    thread = threading.Thread(target=server.run, name="cafe-web", daemon=True)
    thread.start()
    running = web_server.RunningServer(server, thread)
    listener.start()
    print(f"café board: {running.url} (tables report to {listener.status()['broker']}; "
          f"plays kept in {store.path})", flush=True)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        while not stopping.wait(0.5):
            pass
    finally:
        running.stop()
        listener.stop()
        store.close()
    return 0


def register(subparsers: Any) -> None:
    cafe = subparsers.add_parser("cafe", help="the café board: every table live, a league per game",
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cafe.add_argument("--mqtt", default=None, metavar="URL", help="the café's broker (mqtt://host, mqtts://...)")
    cafe.add_argument("--config", default=None, help="a config file whose [mqtt] gives credentials and TLS")
    cafe.add_argument("--port", type=int, default=8090, help="the board's web port (default 8090)")
    cafe.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    cafe.add_argument("--allowed-host", action="append", metavar="NAME",
                      help="a host name beyond this machine's own that the board answers (repeatable)")
    cafe.add_argument("--state-dir", default=None, help="where the board keeps its database")
    cafe.add_argument("--name", default="board", help="this board's name on the broker (one per board)")
    cafe.set_defaults(handler=_run)
