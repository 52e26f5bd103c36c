"""`companion serve`: the table as a service (what the systemd unit runs).

The configured camera and panel, the real loop and vision pipeline, the store in the state directory,
and the web page (loopback unless ``[web] lan = true`` with a PIN). Under systemd (``Type=notify``) it
reports READY once the page is served, keeps a STATUS line, pings the watchdog only while camera frames
are fresh, and says STOPPING on SIGTERM.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.commands.arguments import fail
from companion.instance import AlreadyRunning, InstanceLock

log = logging.getLogger("companion.serve")


class LoopFrames:
    """A watched :mod:`vision.sources` source as the loop's frame source: ``read()`` gives the source's
    :class:`vision.sources.Frame` (image, index, timestamp and the Pi camera's ``lores`` grey image, which
    the loop passes on; the vision pipeline uses it only with ``use_lores``).

    The watched source never raises for a failing camera; while it has no fresh frame this returns
    ``(None, -1, t)`` and the loop's frame-age check shows the camera-lost signal.
    """

    def __init__(self, watched: Any, idle_s: float = 0.01, synthetic: Any = None) -> None:
        self.watched = watched
        self.idle_s = idle_s
        #: the synthetic camera behind it, when the table is the drawn one (the hands move its pieces)
        self.synthetic = synthetic

    def read(self) -> Any:
        frame = self.watched.read()
        if frame is None:
            time.sleep(self.idle_s)
            return None, -1, time.monotonic()
        return frame

    def current_fault(self) -> Any:
        """Why the camera does not open (a :class:`vision.sources.SourceFault`), None while it does."""
        return self.watched.current_fault()

    def close(self) -> None:
        self.watched.close()


class SourceLog:
    """The watched camera's events in the journal: each failure once until it changes or mends."""

    def __init__(self) -> None:
        self.last = ""

    def __call__(self, event: Any) -> None:
        if event.kind in ("open-failed", "reconnecting", "lost"):
            text = event.detail.rsplit("; ", 1)[0]
            if text != self.last:
                log.error("camera: %s", text)
                self.last = text
        elif event.kind in ("opened", "reconnected"):
            if self.last:
                log.info("camera: %s %s", event.kind, event.detail)
            self.last = ""


def open_camera(config: Any, loop: Any = None) -> Any:
    """The configured camera, watched by frame age and reopened with backoff."""
    from vision.sources import FolderSource, PiCameraSource, TupleSource, VideoCaptureSource, WatchedSource

    camera = config.camera
    kind, argument = camera.kind, camera.argument
    size = camera.size  # None unless the file sets it: the sensor's full resolution (PiCameraSource)
    synthetic = None
    if kind == "synthetic":  # one drawn table for the whole run: reopening the source keeps what lies on it
        from sim.camera import SyntheticCamera
        from sim.camera_model import recommended_camera

        # the configured size: the loop runs off a Pi at the sensor's (4608 x 2592) when asked to
        model = recommended_camera() if size is None else replace(recommended_camera(), resolution=size)
        synthetic = SyntheticCamera(camera=model, fps=camera.fps)
        if loop is not None:
            synthetic.show(loop.game.model.scene(loop.current_state()))

    def factory() -> Any:
        if kind == "picamera":
            return PiCameraSource(size=size)
        if kind == "usb":
            if size is None:  # the webcam source's own default size
                return VideoCaptureSource(int(argument or 0))
            return VideoCaptureSource(int(argument or 0), size=size)
        if kind == "video":
            return VideoCaptureSource(argument, size=None)
        if kind == "folder":
            return FolderSource(argument, loop=True)
        if synthetic is not None:
            return TupleSource(synthetic)
        raise ValueError(f"unknown camera source {camera.source!r}")

    watched = WatchedSource(factory, max_age=camera.max_age_s, on_event=SourceLog())
    return LoopFrames(watched, synthetic=synthetic)


def describe(loop: Any, url: str) -> str:
    snap = loop.snapshot()
    camera = snap["camera"]
    turn = "game over" if snap["over"] else f"{snap['current'] or 'reveal'} to play"
    return (f"{snap['title']}, game {snap['game_id']}: {snap['event_count']} moves, {turn}; camera "
            f"{'ok' if camera['ok'] else 'LOST'} {camera['fps']:.0f} fps; page {url}")


def _write_config(path: str, state_dir: str | None) -> int:
    """Write the annotated example config (every key with its default) for the person setting up the Pi;
    with ``state_dir`` (the service's), every command given this config uses the service's store and PIN."""
    from companion.config import EXAMPLE
    from companion.service_config import set_state_dir

    target = Path(path)
    if target.exists():
        return fail("serve", f"{target} exists; not overwriting it")
    lines = EXAMPLE.strip("\n").splitlines()
    text = "\n".join(line[4:] if line.startswith("    ") else line for line in lines)
    # a service deals each game afresh; its database is in systemd's StateDirectory
    text = text.replace("\nstate_dir = ", "\n# state_dir = ").replace("\nseed = ", "\n# seed = ")
    if state_dir:
        text = set_state_dir(text, state_dir)
    try:
        target.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        return fail("serve", f"cannot write {target}: {error.strerror or error}")
    print(f"wrote {target}: edit the game, seats, pins, camera and web sections")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, load_config
    from companion.memory import thrifty_allocator
    from companion.mqtt.link import link_table
    from companion.systemd_notify import Watchdog, notify
    from companion.table.loop import TableLoop
    from companion.table.pipeline import vision_pipeline
    from companion.web import WebConfig, create_app, serving
    from lan import server as web_server
    from wire.broker import configured

    if args.write_config:
        return _write_config(args.write_config, args.state_dir)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    thrifty_allocator()  # before any thread: a burst of requests gives its memory back
    try:
        config = load_config(args.config)
        overrides: dict[str, Any] = {}
        if args.port is not None:
            overrides["port"] = args.port
        web_config = WebConfig.from_config(config.web, state_dir=config.state_dir, **overrides)
        mqtt = configured(config.mqtt, args)
    except (ConfigError, ValueError, OSError) as error:
        return fail("serve", error)
    try:
        instance = InstanceLock(config.state_dir).acquire()
    except AlreadyRunning as error:
        return fail("serve", error)
    loop = TableLoop(config, pipeline=vision_pipeline(config), real_table=config.camera.kind != "synthetic")
    camera = open_camera(config, loop)
    loop.source = camera
    hands = None
    if camera.synthetic is not None:  # nobody's hands on a drawn table: these move its pieces
        from companion.by_hand import TableByHand

        hands = TableByHand(loop, camera.synthetic.show, seed=config.seed)
    web_server.quiet_request_log()
    try:
        running = serving.start(create_app(loop, web_config, hands=hands), web_config)
    except OSError as error:
        loop.close()
        instance.release()
        return fail("serve", listen_failure(web_config, error))
    if hands is not None:
        hands.start()
        log.info("the synthetic table: a move tapped on the page is made on it and read by the camera, and "
                 "so are the companion's")
    link = link_table(loop, mqtt)
    loop.start()
    url = running.url
    log.info("%s", serving_words(web_config, url))
    if web_config.lan and web_config.pin_generated:  # shown once, when made; companion pair prints it
        log.info("pair a phone: open %s and enter the PIN %s (or print the card: companion pair --out "
                 "card.svg)", lan_url(web_config), web_config.pin)
    elif web_config.lan:
        log.info("pair a phone: open %s with the table's PIN (companion pair prints it with a QR code)",
                 lan_url(web_config))
    fingerprint = getattr(running, "fingerprint", None)
    if fingerprint:
        log.info("HTTPS certificate fingerprint (SHA-256): %s", fingerprint)
    stopping = threading.Event()

    def stop(signum: int, _frame: Any) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    notify(f"READY=1\nSTATUS={describe(loop, url)}")
    watchdog = Watchdog(loop.healthy, lambda: describe(loop, url)).start()
    try:
        while not stopping.wait(1.0):
            pass
    finally:
        notify("STOPPING=1")
        watchdog.stop()
        if hands is not None:
            hands.stop()
        running.stop()
        if link is not None:
            link.stop()
        loop.close()
        source_close = getattr(loop.source, "close", None)
        if callable(source_close):
            source_close()
        instance.release()
    return 0


def serving_words(web_config: Any, url: str) -> str:
    """Where the page is served, as the journal says it: every address a phone may use."""
    if not web_config.lan:
        return f"serving {url} (this machine only: LAN access is off)"
    everywhere = web_config.host in ("0.0.0.0", "::", "")
    where = "on all addresses" if everywhere else f"on {web_config.host}"
    return (f"serving {where}, port {web_config.port}: phones open {lan_url(web_config)} (LAN access on: the "
            f"PIN opens the page; {url} on this machine)")


def listen_failure(web_config: Any, error: OSError) -> str:
    """Why the page cannot be served, naming the program that holds the port when one does."""
    import errno

    from companion.doctor.ports import port_holders, taken_words

    where = f"{web_config.host}:{web_config.port}"
    if error.errno != errno.EADDRINUSE:
        return f"cannot listen on {where}: {error.strerror or error}"
    _, found = port_holders(web_config.port)
    if any(holder.is_companion for holder in found):
        return (f"already running: another companion serves port {web_config.port}; stop it first (on a Pi: "
                "sudo systemctl stop dinotable)")
    return (f"cannot listen on {where}: {taken_words(web_config.port, found)}; stop it, or give the page "
            "another port ([web] port in the config, or --port)")


def lan_url(web_config: Any) -> str:
    """The page's address as phones on the LAN reach it: the mDNS name Raspberry Pi OS announces."""
    import socket

    scheme = "https" if web_config.https else "http"
    return f"{scheme}://{socket.gethostname().lower()}.local:{web_config.port}/"


def _pair(args: argparse.Namespace) -> int:
    """Print the pairing link and PIN with a QR code, and write a printable card."""
    from companion.config import ConfigError, load_config
    from companion.pairing import pairing_url, qr_svg
    from companion.web import WebConfig

    try:
        config = load_config(args.config or _service_config())  # the installed table's PIN by default
        web_config = WebConfig.from_config(config.web, state_dir=config.state_dir)
    except (ConfigError, ValueError, OSError) as error:
        return fail("pair", error)
    if not web_config.lan or not web_config.pin:
        return fail("pair", "LAN access is off ([web] lan = false): nothing to pair")
    base = args.url or lan_url(web_config)
    link = pairing_url(base, web_config.pin)
    import segno

    print(f"open {base} and enter the PIN {web_config.pin}, or scan:")
    segno.make(link, error="m", micro=False).terminal(compact=True)
    if args.out:
        card = _pairing_card(base, web_config.pin, qr_svg(link, scale=8))
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                handle.write(card)
        except OSError as error:
            return fail("pair", f"cannot write {args.out}: {error.strerror or error}")
        print(f"wrote the pairing card {args.out} (print it; it shows the PIN)")
    return 0


#: where the installed service reads its config (scripts/pi-install.sh writes it there)
SERVICE_CONFIG = Path("/etc/dinotable/config.toml")


def _service_config() -> Path | None:
    """The installed table's config, when there is one this user may read (else the defaults)."""
    return SERVICE_CONFIG if os.access(SERVICE_CONFIG, os.R_OK) else None


def _pairing_card(base: str, pin: str, qr: str) -> str:
    from html import escape

    body = qr.split(">", 1)[1].rsplit("</svg>", 1)[0] if qr.startswith("<svg") else qr
    size = qr.split('width="', 1)[1].split('"', 1)[0] if 'width="' in qr else "300"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="105mm" height="148mm" viewBox="0 0 420 592">'
        '<rect width="420" height="592" fill="#fff"/>'
        '<text x="210" y="48" font-family="sans-serif" font-size="26" text-anchor="middle">Dino Table</text>'
        '<text x="210" y="80" font-family="sans-serif" font-size="15" text-anchor="middle">'
        "Scan to open the table on your phone</text>"
        f'<svg x="60" y="100" width="300" height="300" viewBox="0 0 {size} {size}">{body}</svg>'
        '<text x="210" y="440" font-family="sans-serif" font-size="15" text-anchor="middle">'
        f"{escape(base)}</text>"
        '<text x="210" y="490" font-family="monospace" font-size="32" text-anchor="middle">'
        f"PIN {escape(pin)}</text>"
        "</svg>\n"
    )


def register(subparsers: Any) -> None:
    from companion.commands.arguments import port_number
    from wire.broker import add_arguments as add_mqtt_arguments

    pair = subparsers.add_parser(
        "pair", help="print the pairing link, PIN and QR code for phones; write a printable card")
    pair.add_argument("--config", default=None,
                      help=f"the TOML config file (default: the installed table's, {SERVICE_CONFIG})")
    pair.add_argument("--url", default=None, help="the page's address (default: http://HOSTNAME.local:PORT/)")
    pair.add_argument("--out", default=None, metavar="FILE.svg", help="write a printable pairing card")
    pair.set_defaults(handler=_pair)

    serve = subparsers.add_parser(
        "serve", help="run the table with its web page (the systemd service)", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    serve.add_argument("--config", default=None, help="the TOML config file (default: built-in defaults)")
    serve.add_argument("--port", type=port_number, default=None, help="web port (overrides [web] port)")
    add_mqtt_arguments(serve)
    serve.add_argument("--write-config", metavar="PATH", default="",
                       help="write an annotated example config file to PATH and exit")
    serve.add_argument("--state-dir", default=None, metavar="DIR",
                       help="with --write-config: the state directory the written config names (the "
                       "service's, e.g. /var/lib/dinotable)")
    serve.set_defaults(handler=_serve)
