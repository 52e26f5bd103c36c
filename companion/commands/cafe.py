"""`companion cafe`: the café board. Every table of the café live (game, seats, whose turn, scores,
online or not), the finished plays kept in the board's own SQLite, a league per game, CSV exports.

It listens to the tables' reports on the MQTT broker (``--mqtt URL``, or ``[mqtt]`` in the config for
credentials and TLS) with a persistent session, so the broker keeps what the tables send while the board
is restarting. The page is read-only and shows only what the tables publish (the shared view).

``--write-logins DIR --tables table-1,table-2`` writes the broker's logins and ACL instead: each table may
write only its own topics, the board reads them all and writes only resend requests (docs/cafe.md).
"""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from pathlib import Path
from typing import Any

from companion.commands.arguments import fail

log = logging.getLogger("companion.cafe")


def default_board_dir() -> Path:
    from companion.config import default_state_dir

    return default_state_dir() / "cafe"


def _write_logins(args: argparse.Namespace) -> int:
    from companion.cafe.logins import write_logins

    tables = [name.strip() for name in (args.tables or "").split(",") if name.strip()]
    if not tables:
        return fail("cafe", "--write-logins needs --tables table-1,table-2,... (the tables' names)")
    try:
        written = write_logins(Path(args.write_logins), tables, board=args.board_user)
    except (ValueError, OSError) as error:
        return fail("cafe", str(error))
    print(f"wrote the broker's logins for {', '.join(written.logins)} in {written.directory} "
          f"(new: {', '.join(written.new) or 'none'}): install mosquitto-passwords and mosquitto-acl as "
          "/etc/mosquitto/dinotable-passwords and dinotable-acl, dinotable.conf in /etc/mosquitto/conf.d/, "
          "and give each table its NAME.password as [mqtt] password_file")
    return 0


def _run(args: argparse.Namespace) -> int:
    from companion.cafe.app import create_board_app
    from companion.cafe.board import BoardStore
    from companion.cafe.listener import BoardListener
    from companion.config import ConfigError, load_config
    from companion.mqtt.link import configured
    from companion.web import WebConfig
    from companion.web import server as web_server

    if args.write_logins:
        return _write_logins(args)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(args.config)
        mqtt = configured(config.mqtt, args)
        if not mqtt.enabled:
            raise ValueError("no broker: give --mqtt URL or [mqtt] url in the config")
        store = BoardStore(Path(args.state_dir).expanduser() if args.state_dir else default_board_dir())
    except (ConfigError, ValueError, OSError) as error:
        return fail("cafe", str(error))
    listener = BoardListener(mqtt, store, name=args.name)
    app = create_board_app(store, listener.status, tuple(args.allowed_host or ()))
    web_server.quiet_request_log()
    web = WebConfig(host="127.0.0.1", port=args.port)
    try:
        server = web_server.make(app, web, host=args.bind, port=args.port, read_only=True)
    except (OSError, ValueError) as error:
        store.close()
        return fail("cafe", f"cannot listen on {args.bind}:{args.port}: {error}")
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
        while not stopping.wait(2.0):
            listener.check()  # the network thread ended (it should not): the page says so, it starts again
    finally:
        running.stop()
        listener.stop()
        store.close()
    return 0


def register(subparsers: Any) -> None:
    from companion.cafe.logins import BOARD_USER
    from companion.commands.arguments import bind_address, port_number
    from companion.mqtt.link import add_arguments as add_mqtt_arguments

    cafe = subparsers.add_parser("cafe", help="the café board: every table live, a league per game",
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_mqtt_arguments(cafe, table=False)
    cafe.add_argument("--config", default=None, help="a config file whose [mqtt] gives credentials and TLS")
    cafe.add_argument("--port", type=port_number, default=8090, help="the board's web port (default 8090)")
    cafe.add_argument("--bind", type=bind_address, default="0.0.0.0",
                      help="address to listen on (default: every interface)")
    cafe.add_argument("--allowed-host", action="append", metavar="NAME",
                      help="a host name beyond this machine's own that the board answers (repeatable)")
    cafe.add_argument("--state-dir", default=None, help="where the board keeps its database")
    cafe.add_argument("--name", default="board", help="this board's name on the broker (one per board)")
    cafe.add_argument("--write-logins", default=None, metavar="DIR",
                      help="write the broker's logins and ACL for --tables into DIR, and stop")
    cafe.add_argument("--tables", default=None, metavar="NAMES",
                      help="with --write-logins: the tables' names, comma-separated")
    cafe.add_argument("--board-user", default=BOARD_USER, metavar="NAME",
                      help=f"with --write-logins: the board's login (default {BOARD_USER})")
    cafe.set_defaults(handler=_run)
