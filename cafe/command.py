"""`dinotable-cafe` (or ``python -m cafe``): the café board. Every table of the café live (game, seats,
whose turn, scores, online or not), the finished plays kept in the board's own SQLite, a league per game,
CSV exports.

It listens to the tables' reports on the MQTT broker (``--mqtt URL``, or ``[mqtt]`` in the config file for
credentials and TLS; the board reads nothing else there) with a persistent session, so the broker keeps
what the tables send while the board is restarting. The page is read-only and shows only what the tables
publish (the shared view).

``--write-logins DIR --tables table-1,table-2`` writes the broker's logins and ACL instead: each table may
write only its own topics, the board reads them all and writes only resend requests (docs/cafe.md).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import tomllib
from collections.abc import Sequence
from pathlib import Path

from cafe.logins import BOARD_USER
from lan.arguments import EXIT_BAD_INPUT, OneLineParser, bind_address, port_number, refuse, state_directory
from wire.broker import MqttConfig, add_arguments, configured, mqtt_from_mapping

log = logging.getLogger("cafe")
PROG = "dinotable-cafe"


def fail(message: object) -> int:
    return refuse(message, PROG)


def default_board_dir() -> Path:
    """systemd's StateDirectory when run as the service, else dinotable/cafe in the XDG state directory."""
    return state_directory("cafe")


def broker_settings(path: str | None) -> MqttConfig:
    """The config file's ``[mqtt]`` table (the board reads nothing else); ValueError saying what is wrong."""
    if path is None:
        return MqttConfig()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read it ({error})") from None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as error:
        raise ValueError(f"{path}: not usable TOML ({error})") from None
    mqtt = data.get("mqtt", {})
    if not isinstance(mqtt, dict):
        raise ValueError(f"{path}: mqtt must be a table ([mqtt])")
    try:
        return mqtt_from_mapping(mqtt)
    except ValueError as error:
        key, message = error.args if len(error.args) == 2 else ("mqtt", str(error))
        raise ValueError(f"{path}: {key}: {message}") from None


def _write_logins(args: argparse.Namespace) -> int:
    from cafe.logins import write_logins

    tables = [name.strip() for name in (args.tables or "").split(",") if name.strip()]
    if not tables:
        return fail("--write-logins needs --tables table-1,table-2,... (the tables' names)")
    try:
        mqtt = broker_settings(args.config)  # its prefixes: the ACL names the topics the tables write
        written = write_logins(Path(args.write_logins), tables, board=args.board_user, prefix=mqtt.prefix,
                               home_assistant_prefix=mqtt.home_assistant_prefix)
    except (ValueError, OSError) as error:
        return fail(error)
    print(f"wrote the broker's logins for {', '.join(written.logins)} in {written.directory} "
          f"(new: {', '.join(written.new) or 'none'}): install mosquitto-passwords and mosquitto-acl as "
          "/etc/mosquitto/dinotable-passwords and dinotable-acl, dinotable.conf in /etc/mosquitto/conf.d/, "
          "and give each table its NAME.password as [mqtt] password_file")
    return 0


def run(args: argparse.Namespace) -> int:
    from cafe.app import create_board_app
    from cafe.board import BoardStore
    from cafe.listener import BoardListener
    from lan import server as web_server

    if args.write_logins:
        return _write_logins(args)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        mqtt = configured(broker_settings(args.config), args)
        if not mqtt.enabled:
            raise ValueError("no broker: give --mqtt URL or [mqtt] url in the config")
        store = BoardStore(Path(args.state_dir).expanduser() if args.state_dir else default_board_dir())
    except (ValueError, OSError) as error:
        return fail(error)
    listener = BoardListener(mqtt, store, name=args.name)
    app = create_board_app(store, listener.status, tuple(args.allowed_host or ()))
    web_server.quiet_request_log()
    try:
        running = web_server.start(app, web_server.Limits(host=args.bind, port=args.port), read_only=True)
    except (OSError, ValueError) as error:
        store.close()
        return fail(f"cannot listen on {args.bind}:{args.port}: {error}")
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


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog=PROG, description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser, table=False)
    parser.add_argument("--config", default=None, help="a config file whose [mqtt] gives credentials and TLS")
    parser.add_argument("--port", type=port_number, default=8090, help="the board's web port (default 8090)")
    parser.add_argument("--bind", type=bind_address, default="0.0.0.0",
                        help="address to listen on (default: every interface)")
    parser.add_argument("--allowed-host", action="append", metavar="NAME",
                        help="a host name beyond this machine's own that the board answers (repeatable)")
    parser.add_argument("--state-dir", default=None, help="where the board keeps its database")
    parser.add_argument("--name", default="board", help="this board's name on the broker (one per board)")
    parser.add_argument("--write-logins", default=None, metavar="DIR",
                        help="write the broker's logins and ACL for --tables into DIR, and stop")
    parser.add_argument("--tables", default=None, metavar="NAMES",
                        help="with --write-logins: the tables' names, comma-separated")
    parser.add_argument("--board-user", default=BOARD_USER, metavar="NAME",
                        help=f"with --write-logins: the board's login (default {BOARD_USER})")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stopped:  # --help, or a refused argument (one error: line, exit 2)
        return stopped.code if isinstance(stopped.code, int) else EXIT_BAD_INPUT
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
