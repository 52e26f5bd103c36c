"""The configuration file: a TOML file read with :mod:`tomllib`, validated with errors that say where.

Every key has a documented default (:data:`EXAMPLE` is the annotated file that ``companion run
--write-config`` writes); an absent file means all defaults. Example::

    game = "jurassic-parts"          # or jurassik, jurassic-brunch, isla-nublar (aliases: jp, brunch...)
    seed = 1                         # setup shuffles (bots and the demo); omit for a random one
    # speak = true                   # the companion says its moves aloud (espeak-ng, the edition's language)

    [options]                        # the engine's setup options, e.g. edition = "es" for Jurassik
    [house_rules]                    # the engine's house-rule options (RULES-NOTES.md readings by default)

    [[seats]]                        # clockwise from seat 0; one per player, 1 to 6
    name = "Ana"
    colour = "red"                   # red blue green yellow purple orange (Brunch: blue and orange)
    [[seats]]
    name = "Bo"
    colour = "blue"
    # companion = 3                  # the companion plays this seat at level 1-3; a person moves its pieces

    [pins]                           # BCM numbers; see docs/wiring.md for the defaults
    [camera]
    source = "picamera"              # picamera | usb:N | folder:PATH | video:PATH | synthetic
    fps = 15
    max_age_s = 1.0                  # a frame older than this means the camera is lost
    # width = 2304                   # main-stream size; omit both for the sensor's full resolution
    # height = 1296                  # (4608 x 2592 on Camera Module 3: >= 3 px per QR module at a tilt)
    # calibration = "/var/lib/dinotable/calibration.json"   # `companion calibrate --game G --out FILE`:
    #                                # fixed markers and the seat colours learned; omit to calibrate
    #                                # from the first frame showing the four markers (nominal colours)
    # tag_size_mm = 25               # the codes' printed size (companion tags --size); omit for 40 mm
    [store]
    state_dir = "~/.local/state/dinotable"   # $STATE_DIRECTORY under systemd
    [web]                            # phones at the table reach the page over the LAN
    lan = true                       # false: only this machine (bind 127.0.0.1)
    port = 8080
    pin = ""                         # 6-12 digits or a passphrase; empty: generated at first start,
    #                                # kept in the state directory and shown in the journal
    # bind = "0.0.0.0"
    # allowed_hosts = ["dinotable.cafe.example"]   # names beyond this machine's own (hostname, .local)
    # https = false                  # true: TLS with a self-signed certificate made at first start
    # spectators = true              # offer a watch-only link on the Pair page
    # session_hours = 12             # a phone stays paired this long at most
    # idle_hours = 4                 # ... and this long unused
    [mqtt]                           # a café: every table reports to one broker (`dinotable-cafe`)
    # url = "mqtt://cafe-pi.local"   # mqtts://... for TLS; empty: no broker
    # table = "table-3"              # the name on the café board (default: this machine's host name)
    # username = "table-3"           # Mosquitto's own authentication (password_file: a file holding it)
    # password_file = "/etc/dinotable/mqtt-password"
    # ca_file = "/etc/dinotable/cafe-ca.crt"   # the broker's certificate authority (self-signed TLS)
    # home_assistant = false         # true: announce the table to Home Assistant (MQTT discovery)
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.pairing import pin_problem
from engines.core import EngineError, Game, get_game
from hw.panel import DEFAULT_PINS, PanelPins
from lan.arguments import state_directory
from vision.scene import SEAT_RGB
from wire.broker import MqttConfig, mqtt_from_mapping

#: seat colour name -> nominal RGB, in seat order: the one definition (vision.scene)
SEAT_COLOURS: Mapping[str, tuple[int, int, int]] = SEAT_RGB
DEFAULT_GAME = "jurassic-parts"
DEFAULT_SEATS = ("red", "blue", "green")
#: what a seat's ``companion`` may be: 0 a person, else the level the companion plays it at
COMPANION_LEVELS = (0, 1, 2, 3)
CAMERA_KINDS = ("picamera", "usb", "folder", "video", "synthetic")

EXAMPLE = __doc__.split("Example::", 1)[1] if __doc__ else ""


def value_error_text(error: ValueError) -> str:
    """A ValueError from parsing, in words (Python's own message for a huge integer is about its API)."""
    text = " ".join(str(error).split())
    if "integer string conversion" in text:
        return "it holds an integer of more than 4300 digits"
    return text[:200]


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Seat:
    """One seat: ``name`` is the player as the game knows them; ``person`` the name of whoever sits there
    when the game names its players otherwise (Brunch's players are their colours)."""

    name: str
    colour: str
    seat: int
    person: str = ""
    #: 0: a person plays the seat; 1-3: the companion plays it at that level (a person moves its pieces)
    companion: int = 0

    @property
    def label(self) -> str:
        """The seat as people call it: "Ana (orange)" where the game names the player by colour."""
        return f"{self.person} ({self.name})" if self.person else self.name

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "seat": self.seat,
                **({"person": self.person} if self.person else {}),
                **({"companion": self.companion} if self.companion else {})}


@dataclass(frozen=True)
class CameraConfig:
    source: str = "picamera"
    fps: float = 15.0
    max_age_s: float = 1.0
    #: main-stream size; None (the default) is the camera's own: the Pi camera's full sensor resolution
    #: (4608 x 2592 on Camera Module 3, what a tilted view needs for >= 3 px per QR module), a USB
    #: webcam's vision.sources default. Set both or neither.
    width: int | None = None
    height: int | None = None
    #: a calibration file (``companion calibrate --out``): its marker fit and its learned seat colours;
    #: empty: calibrate from the first frame that shows the four markers, with the nominal colours
    calibration: str = ""
    #: the printed size of the codes (``companion tags --size``); None: the calibration's, else 40 mm
    tag_size_mm: float | None = None

    @property
    def size(self) -> tuple[int, int] | None:
        """(width, height) when the file sets them, else None (the camera's full resolution)."""
        if self.width is None or self.height is None:
            return None
        return (self.width, self.height)

    @property
    def kind(self) -> str:
        return self.source.split(":", 1)[0]

    @property
    def argument(self) -> str:
        return self.source.split(":", 1)[1] if ":" in self.source else ""


@dataclass(frozen=True)
class WebConfig:
    """The ``[web]`` table: LAN access is the normal mode (a Pi has no screen); see EXAMPLE."""

    bind: str = "0.0.0.0"
    port: int = 8080
    lan: bool = True
    pin: str = ""
    allowed_hosts: tuple[str, ...] = ()
    https: bool = False
    spectators: bool = True
    session_hours: float = 12.0
    idle_hours: float = 4.0


def default_state_dir() -> Path:
    """systemd's StateDirectory when run as the service, else the XDG state directory."""
    return state_directory()


@dataclass(frozen=True)
class Config:
    game: str = DEFAULT_GAME
    options: Mapping[str, Any] = field(default_factory=dict)
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[Seat, ...] = tuple(Seat(c, c, i) for i, c in enumerate(DEFAULT_SEATS))
    seed: int | None = None
    pins: PanelPins = DEFAULT_PINS
    camera: CameraConfig = field(default_factory=CameraConfig)
    state_dir: Path = field(default_factory=default_state_dir)
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    #: the companion's moves said aloud through a speaker (espeak-ng)
    speak: bool = False
    source: str = "<defaults>"

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def engine_options(self) -> dict[str, Any]:
        """Setup options and house rules together, as the engine takes them."""
        return {**dict(self.options), **dict(self.house_rules)}

    def settings(self) -> dict[str, Any]:
        """What the web page's settings view shows and may send back to :func:`config_from_settings`."""
        game = get_game(self.game)
        return {
            "game": game.name,
            "title": game.title,
            "options": dict(self.options),
            "house_rules": dict(self.house_rules),
            "seats": [seat.to_dict() for seat in self.seats],
            "seed": self.seed,
            "available_options": [
                {
                    "name": option.name,
                    "default": option.default,
                    "choices": list(option.choices),
                    "help": option.help,
                    "house_rule": option.house_rule,
                }
                for option in game.options
            ],
            "colours": list(SEAT_COLOURS),
        }


def _fail(source: str, key: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {key}: {message}")


def _table(data: Mapping[str, Any], key: str, source: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise _fail(source, key, f"must be a table, not {type(value).__name__}")
    return dict(value)


def config_from_dict(
    data: Mapping[str, Any], source: str = "<settings>", base: Config | None = None
) -> Config:
    """Validate a parsed config (the TOML file's content, or the web page's settings) into a Config."""
    base = base or Config()
    known = {"game", "seed", "options", "house_rules", "seats", "pins", "camera", "store", "web", "mqtt",
             "speak"}
    unknown = set(data) - known - {"title", "available_options", "colours"}
    if unknown:
        raise _fail(source, ", ".join(sorted(unknown)), f"unknown key(s); known: {', '.join(sorted(known))}")
    game = _read_game(data, source, base)
    options, house_rules = _read_options(data, source, game)
    seats = _read_seats(data, source, base, game)
    pins = base.pins
    if "pins" in data:
        try:
            pins = PanelPins.from_mapping(_table(data, "pins", source))
        except (TypeError, ValueError) as error:
            raise _fail(source, "pins", str(error)) from error
    if len(seats) > len(pins.seats):
        raise _fail(source, "pins.seats", f"{len(seats)} seats need {len(seats)} seat LED pins")
    state_dir = base.state_dir
    if "store" in data:
        store = _table(data, "store", source)
        if "state_dir" in store:
            if not isinstance(store["state_dir"], str) or not store["state_dir"]:
                raise _fail(source, "store.state_dir", "must be a directory path")
            state_dir = Path(os.path.expanduser(store["state_dir"]))
            if state_dir.exists() and not state_dir.is_dir():
                raise _fail(source, "store.state_dir", f"{state_dir} is a file, not a directory")
    seed = data.get("seed", base.seed if "game" not in data else None)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _fail(source, "seed", f"must be an integer, not {seed!r}")
    speak = data.get("speak", base.speak)
    if not isinstance(speak, bool):
        raise _fail(source, "speak", f"must be true or false, not {speak!r}")
    return Config(
        game=game.name,
        options=options,
        house_rules=house_rules,
        seats=seats,
        seed=seed,
        pins=pins,
        camera=_read_camera(data, source, base.camera),
        state_dir=state_dir,
        web=_read_web(data, source, base.web),
        mqtt=_read_mqtt(data, source, base.mqtt),
        speak=speak,
        source=source,
    )


def _read_mqtt(data: Mapping[str, Any], source: str, mqtt: MqttConfig) -> MqttConfig:
    if "mqtt" not in data:
        return mqtt
    try:
        return mqtt_from_mapping(_table(data, "mqtt", source))
    except ValueError as error:
        key, message = error.args
        raise _fail(source, key, message) from error


def _read_game(data: Mapping[str, Any], source: str, base: Config) -> Game:
    game_name = data.get("game", base.game)
    if not isinstance(game_name, str):
        raise _fail(source, "game", "must be a game name")
    try:
        return get_game(game_name)
    except KeyError as error:
        raise _fail(source, "game", str(error.args[0])) from error


def _read_options(data: Mapping[str, Any], source: str, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    options = _table(data, "options", source) if "options" in data else {}
    house_rules = _table(data, "house_rules", source) if "house_rules" in data else {}
    house_names = {option.name for option in game.options if option.house_rule}
    for name in house_rules:
        if name not in house_names:
            raise _fail(
                source,
                f"house_rules.{name}",
                f"not a house rule of {game.title}; house rules: {', '.join(sorted(house_names)) or 'none'}",
            )
    try:
        game.resolve_options({**options, **house_rules})
    except EngineError as error:
        raise _fail(source, "options", str(error)) from error
    return options, house_rules


def _read_seat(entry: Any, index: int, source: str) -> Seat:
    if isinstance(entry, str):
        entry = {"name": entry, "colour": entry}
    if not isinstance(entry, Mapping):
        raise _fail(source, f"seats[{index}]", "must be a table with name and colour")
    colour = entry.get("colour")
    if colour not in SEAT_COLOURS:
        choices = ", ".join(SEAT_COLOURS)
        raise _fail(source, f"seats[{index}].colour", f"must be one of {choices}, not {colour!r}")
    name = entry.get("person") or entry.get("name", colour)
    if not isinstance(name, str) or not name.strip():
        raise _fail(source, f"seats[{index}].name", "must be a non-empty text")
    extra = set(entry) - {"name", "colour", "seat", "person", "companion"}
    if extra:
        raise _fail(source, f"seats[{index}]", f"unknown key(s) {', '.join(sorted(extra))}")
    level = entry.get("companion", 0)
    if isinstance(level, bool) or level not in COMPANION_LEVELS:
        raise _fail(source, f"seats[{index}].companion",
                    f"must be 0 (a person) or a level of the companion, 1-3, not {level!r}")
    return Seat(name.strip(), str(colour), index, companion=int(level))


def _read_seats(data: Mapping[str, Any], source: str, base: Config, game: Game) -> tuple[Seat, ...]:
    seats_data = data.get("seats")
    if seats_data is None:
        if base.game == game.name:
            seats = base.seats
        else:
            seats = tuple(Seat(c, c, i) for i, c in enumerate(DEFAULT_SEATS[: max(game.min_players, 2)]))
    else:
        if not isinstance(seats_data, list) or not seats_data:
            raise _fail(source, "seats", "must be a list of [[seats]] tables with name and colour")
        seats = tuple(_read_seat(entry, index, source) for index, entry in enumerate(seats_data))
    if game.players_are_colours:  # the game's players are the colours; the people keep their names
        seats = tuple(Seat(s.colour, s.colour, s.seat, "" if s.name == s.colour else s.name, s.companion)
                      for s in seats)
    if len({s.colour for s in seats}) != len(seats):
        raise _fail(source, "seats", "two seats share a colour")
    if len({s.name for s in seats}) != len(seats):
        raise _fail(source, "seats", "two seats share a name")
    if len(seats) > 6:
        raise _fail(source, "seats", "at most 6 seats")
    if not game.min_players <= len(seats) <= game.max_players:
        takes = f"{game.min_players}-{game.max_players}"
        raise _fail(source, "seats", f"{game.title} takes {takes} players, not {len(seats)}")
    try:  # what only the game knows about its players (Brunch's two are named by their colours)
        game.check_players([s.name for s in seats])
    except EngineError as error:
        raise _fail(source, "seats", str(error)) from error
    return seats


def _read_camera(data: Mapping[str, Any], source: str, camera: CameraConfig) -> CameraConfig:
    if "camera" not in data:
        return camera
    cam = _table(data, "camera", source)
    extra = set(cam) - {"source", "fps", "max_age_s", "width", "height", "calibration", "tag_size_mm"}
    if extra:
        raise _fail(source, "camera", f"unknown key(s) {', '.join(sorted(extra))}")
    camera = CameraConfig(
        source=str(cam.get("source", camera.source)),
        fps=_number(cam, "fps", camera.fps, source, 0.1, 120),
        max_age_s=_number(cam, "max_age_s", camera.max_age_s, source, 0.05, 60),
        width=_size(cam, "width", camera.width, source),
        height=_size(cam, "height", camera.height, source),
        calibration=os.path.expanduser(str(cam.get("calibration", camera.calibration))),
        tag_size_mm=(_number(cam, "tag_size_mm", 40.0, source, 8.0, 100.0) if "tag_size_mm" in cam
                     else camera.tag_size_mm),
    )
    if (camera.width is None) != (camera.height is None):
        raise _fail(source, "camera", "give both width and height, or neither (the full sensor resolution)")
    if camera.kind not in CAMERA_KINDS:
        kinds = ", ".join(CAMERA_KINDS)
        raise _fail(source, "camera.source", f"must start with one of {kinds}, not {camera.source!r}")
    if camera.kind in ("folder", "video") and not camera.argument:
        raise _fail(source, "camera.source", f"{camera.kind}: needs a path, e.g. {camera.kind}:/data/frames")
    return camera


WEB_KEYS = frozenset({"bind", "port", "lan", "pin", "allowed_hosts", "https", "spectators", "session_hours",
                      "idle_hours"})


def _read_web(data: Mapping[str, Any], source: str, web: WebConfig) -> WebConfig:
    if "web" not in data:
        return web
    table = _table(data, "web", source)
    extra = set(table) - WEB_KEYS
    if extra:
        raise _fail(source, "web", f"unknown key(s) {', '.join(sorted(extra))}")
    flags = {}
    for key in ("lan", "https", "spectators"):
        flags[key] = table.get(key, getattr(web, key))
        if not isinstance(flags[key], bool):
            raise _fail(source, f"web.{key}", "must be true or false")
    lan = flags["lan"]
    pin = table.get("pin", web.pin)
    if not isinstance(pin, str):
        raise _fail(source, "web.pin", "must be text in quotes, e.g. pin = \"204718\"")
    problem = pin_problem(pin) if pin else None
    if problem:
        raise _fail(source, "web.pin", problem)
    bind = str(table.get("bind", "0.0.0.0" if lan else "127.0.0.1"))
    port = table.get("port", web.port)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise _fail(source, "web.port", f"must be a port number 1..65535, not {port!r}")
    if not lan and bind not in ("127.0.0.1", "localhost", "::1"):
        raise _fail(source, "web.bind", "binding beyond loopback needs lan = true (and a PIN)")
    if lan and bind in ("127.0.0.1", "localhost", "::1"):
        raise _fail(source, "web.bind", f"{bind} serves this machine only, but lan = true serves phones: set "
                                        "lan = false for this machine only, or leave bind out (0.0.0.0)")
    hosts = table.get("allowed_hosts", list(web.allowed_hosts))
    if not isinstance(hosts, list) or not all(isinstance(h, str) and 0 < len(h) <= 253 for h in hosts):
        raise _fail(source, "web.allowed_hosts", "must be a list of host names")
    hours = {key: _hours(table, key, getattr(web, key), source) for key in ("session_hours", "idle_hours")}
    if hours["idle_hours"] > hours["session_hours"]:
        raise _fail(source, "web.idle_hours", "must not be longer than session_hours")
    return WebConfig(bind=bind, port=port, lan=lan, pin=pin, allowed_hosts=tuple(hosts),
                     https=flags["https"], spectators=flags["spectators"], **hours)


def _hours(table: Mapping[str, Any], key: str, default: float, source: str) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.05 <= value <= 720:
        raise _fail(source, f"web.{key}", f"must be a number of hours 0.05..720, not {value!r}")
    return float(value)


def _number(
    table: Mapping[str, Any], key: str, default: float, source: str, low: float, high: float
) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise _fail(source, f"camera.{key}", f"must be a number {low}..{high}, not {value!r}")
    return float(value)


def _size(table: Mapping[str, Any], key: str, default: int | None, source: str) -> int | None:
    if key not in table:
        return default
    return int(_number(table, key, 0, source, 64, 8192))


def load_config(path: str | os.PathLike[str] | None) -> Config:
    """Read and validate the config file; None or a missing default path gives the defaults."""
    if path is None:
        return Config()
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ConfigError(f"{file}: no such config file") from error
    except OSError as error:
        raise ConfigError(f"{file}: cannot read it ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{file}: not UTF-8 text") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file}: not valid TOML ({error})") from error
    except ValueError as error:  # an integer of thousands of digits
        raise ConfigError(f"{file}: not usable TOML ({value_error_text(error)})") from error
    except RecursionError as error:
        raise ConfigError(f"{file}: not usable TOML (nested too deeply)") from error
    return config_from_dict(data, source=str(file))


def config_from_settings(settings: Mapping[str, Any], base: Config) -> Config:
    """The web page's new-game settings over the running config (pins, camera, store and web stay)."""
    allowed = {"game", "seed", "options", "house_rules", "seats"}
    data = {key: value for key, value in settings.items() if key in allowed}
    bad = set(settings) - allowed - {"title", "available_options", "colours"}
    if bad:
        raise ConfigError(f"<settings>: {', '.join(sorted(bad))}: cannot be changed from the web page")
    return config_from_dict(data, source="<settings>", base=base)
