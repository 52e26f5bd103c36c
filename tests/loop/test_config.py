"""The TOML configuration: defaults, validation with errors naming the key, the web's settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.config import EXAMPLE, Config, ConfigError, config_from_dict, config_from_settings, load_config

GOOD = """
game = "jurassik"
seed = 7

[options]
edition = "es"

[[seats]]
name = "Ana"
colour = "red"

[[seats]]
name = "Bo"
colour = "purple"

[pins]
seats = [5, 6]
buzzer = 12

[camera]
source = "folder:/tmp/frames"
fps = 10

[store]
state_dir = "/tmp/dinotable-test"

[web]
lan = true
pin = "482190"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_a_full_config_loads(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert config.game == "jurassik" and config.seed == 7
    assert config.players == ["Ana", "Bo"]
    assert [s.colour for s in config.seats] == ["red", "purple"]
    assert config.engine_options == {"edition": "es"}
    assert config.pins.seats == (5, 6) and config.pins.buzzer == 12
    assert config.camera.kind == "folder" and config.camera.argument == "/tmp/frames"
    assert config.state_dir == Path("/tmp/dinotable-test")
    assert config.web.lan and config.web.bind == "0.0.0.0"


def test_defaults_serve_the_lan_behind_a_generated_pin(tmp_path: Path) -> None:
    """LAN access is how a Pi is used: on by default, and never without a PIN of 6 digits or more."""
    from companion.web import WebConfig

    config = Config()
    assert config.web.lan and config.web.bind == "0.0.0.0" and config.web.pin == ""
    assert config.pins.confirm == 23
    assert load_config(None) == config
    served = WebConfig.from_config(config.web, state_dir=tmp_path)
    assert served.lan and served.pin is not None and len(served.pin) == 6 and served.pin.isdigit()
    assert (tmp_path / "web-pin").stat().st_mode & 0o077 == 0
    again = WebConfig.from_config(config.web, state_dir=tmp_path)
    assert again.pin == served.pin  # kept: the same PIN after a restart


@pytest.mark.parametrize("pin", ["4821", "12345", "1234567890123", "short pas", " padded passphrase"])
def test_guessable_pins_are_refused(tmp_path: Path, pin: str) -> None:
    with pytest.raises(ConfigError, match=r"web\.pin"):
        load_config(write(tmp_path, GOOD.replace('pin = "482190"', f'pin = "{pin}"')))


@pytest.mark.parametrize("pin", ["204718", "123456789012", "correct horse battery"])
def test_good_pins_and_passphrases_are_taken(tmp_path: Path, pin: str) -> None:
    assert load_config(write(tmp_path, GOOD.replace('pin = "482190"', f'pin = "{pin}"'))).web.pin == pin


def test_the_documented_example_is_valid_toml_and_loads(tmp_path: Path) -> None:
    text = EXAMPLE.replace('"jurassic-parts"', '"jurassik"')
    text = "\n".join(line[4:] if line.startswith("    ") else line for line in text.splitlines())
    config = load_config(write(tmp_path, text))
    assert config.players == ["Ana", "Bo"] and config.game == "jurassik"
    assert config.camera.source == "picamera" and config.web.port == 8080


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('game = "chess"', "game: unknown game"),
        ('colour = "purple"', "share a colour"),
        ('edition = "fr"', "options: option 'edition'"),
        ('source = "folder:/tmp/frames"\nfps = "fast"', "camera.fps"),
        ('pin = "482190"', "web.pin"),
        ("buzzer = 12", "pins"),
        ("seed = 7", "seed"),
    ],
)
def test_bad_values_are_named(tmp_path: Path, change: str, message: str) -> None:
    text = GOOD
    replacements = {
        'game = "chess"': ('game = "jurassik"', 'game = "chess"'),
        'colour = "purple"': ('colour = "purple"', 'colour = "red"'),
        'edition = "fr"': ('edition = "es"', 'edition = "fr"'),
        'source = "folder:/tmp/frames"\nfps = "fast"': ("fps = 10", 'fps = "fast"'),
        'pin = "482190"': ('pin = "482190"', 'pin = "4821"'),
        "buzzer = 12": ("buzzer = 12", "buzzer = 5"),
        "seed = 7": ("seed = 7", 'seed = "seven"'),
    }
    old, new = replacements[change]
    text = text.replace(old, new)
    with pytest.raises(ConfigError, match=message.split(":")[0]) as caught:
        load_config(write(tmp_path, text))
    assert str(tmp_path) in str(caught.value)


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "game = "))
    with pytest.raises(ConfigError, match="unknown key"):
        load_config(write(tmp_path, 'game = "jurassik"\nlasers = true'))
    with pytest.raises(ConfigError, match="takes 2-5 players"):
        load_config(write(tmp_path, 'game = "jurassik"\n[[seats]]\ncolour = "red"'))
    with pytest.raises(ConfigError, match="needs lan"):
        load_config(write(tmp_path, 'game = "jurassik"\n[web]\nlan = false\nbind = "0.0.0.0"'))


def test_web_settings_change_the_game_but_not_the_hardware(tmp_path: Path) -> None:
    base = load_config(write(tmp_path, GOOD))
    new = config_from_settings(
        {"game": "jurassik", "seats": [{"name": "X", "colour": "blue"}, "green"]}, base
    )
    assert new.players == ["X", "green"] and new.pins == base.pins and new.web == base.web
    with pytest.raises(ConfigError, match="cannot be changed"):
        config_from_settings({"pins": {"buzzer": 4}}, base)
    settings = new.settings()
    assert settings["game"] == "jurassik" and {o["name"] for o in settings["available_options"]} >= {
        "edition"
    }


def test_the_camera_size_defaults_to_the_full_sensor_resolution(tmp_path: Path, monkeypatch: Any) -> None:
    """No width/height: PiCameraSource gets size=None (its full-sensor default, 4608 x 2592 on Camera
    Module 3); a size in the file is passed on; one without the other is refused."""
    import vision.sources
    from companion.commands.web import open_camera

    made: list[tuple[str, Any]] = []

    class Recording:
        def __init__(self, *args: Any, size: Any = "unset", **kwargs: Any) -> None:
            made.append((type(self).__name__, size))

    class PiCameraSource(Recording):
        pass

    class VideoCaptureSource(Recording):
        pass

    monkeypatch.setattr(vision.sources, "PiCameraSource", PiCameraSource)
    monkeypatch.setattr(vision.sources, "VideoCaptureSource", VideoCaptureSource)
    assert Config().camera.size is None and Config().camera.width is None
    open_camera(Config()).watched.factory()
    sized = load_config(write(tmp_path, '[camera]\nwidth = 2304\nheight = 1296\n'))
    assert sized.camera.size == (2304, 1296)
    open_camera(sized).watched.factory()
    usb = load_config(write(tmp_path, '[camera]\nsource = "usb:0"\n'))
    open_camera(usb).watched.factory()
    assert made == [
        ("PiCameraSource", None),
        ("PiCameraSource", (2304, 1296)),
        ("VideoCaptureSource", "unset"),
    ]
    with pytest.raises(ConfigError, match="both width and height"):
        load_config(write(tmp_path, "[camera]\nwidth = 2304\n"))


def test_the_synthetic_camera_renders_at_the_configured_size(tmp_path: Path) -> None:
    """Off a Pi the loop can run at the sensor's full size: the synthetic camera takes [camera] width and
    height (and its own 2304 x 1296 without them)."""
    from companion.commands.web import open_camera

    full = load_config(write(tmp_path, '[camera]\nsource = "synthetic"\nwidth = 4608\nheight = 2592\n'))
    source = open_camera(full).watched.factory()
    assert source.read().image.shape[:2] == (2592, 4608)
    plain = load_config(write(tmp_path, '[camera]\nsource = "synthetic"\n'))
    assert open_camera(plain).watched.factory().read().image.shape[:2] == (1296, 2304)


def test_seat_colours_have_one_definition() -> None:
    """The config's, the camera's and the web drawing's seat colours are the house palette, not copies."""
    from companion import config
    from companion.drawing import SEAT_COLOURS as SVG_SEAT_COLOURS
    from companion.drawing import rgb
    from vision.scene import SEAT_COLOURS, SEAT_RGB
    from wire.seats import SEAT_SHADES

    assert config.SEAT_COLOURS is SEAT_RGB is SVG_SEAT_COLOURS is SEAT_SHADES
    assert list(SEAT_RGB) == list(SEAT_COLOURS)  # in seat order: the demo fills seats in this order
    assert rgb("blue") == "rgb(40,80,200)"


def test_seats_take_any_names_and_a_config_the_game_cannot_use_is_one_line(tmp_path: Path) -> None:
    """Brunch's players are its colours: the people keep their own names beside them, in any order; seats
    the game cannot use (colours it has not) are one line at load naming the key."""
    path = tmp_path / "brunch.toml"
    path.write_text('game = "jurassic-brunch"\n[[seats]]\nname = "Ana"\ncolour = "orange"\n'
                    '[[seats]]\nname = "Bo"\ncolour = "blue"\n')
    seats = load_config(path).seats
    assert [(s.name, s.person, s.label) for s in seats] == [("orange", "Ana", "Ana (orange)"),
                                                            ("blue", "Bo", "Bo (blue)")]
    assert load_config(path).players == ["orange", "blue"]
    again = config_from_dict({"game": "jurassic-brunch", "seats": [s.to_dict() for s in seats]})
    assert again.seats == seats  # the settings the page sends back keep the names
    path.write_text('game = "jurassic-brunch"\n[[seats]]\nname = "Ana"\ncolour = "red"\n'
                    '[[seats]]\nname = "Bo"\ncolour = "blue"\n')
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert "seats:" in str(error.value) and "orange" in str(error.value) and "\n" not in str(error.value)
    path.write_text('game = "jurassic-brunch"\n[[seats]]\nname = "orange"\ncolour = "orange"\n'
                    '[[seats]]\nname = "blue"\ncolour = "blue"\n')
    assert [(seat.name, seat.person) for seat in load_config(path).seats] == [("orange", ""), ("blue", "")]


def test_a_loopback_bind_with_lan_access_is_one_line_not_served_on_every_address(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"web\.bind.*serves this machine only, but lan = true") as caught:
        load_config(write(tmp_path, '[web]\nlan = true\nbind = "127.0.0.1"\n'))
    assert len(str(caught.value).splitlines()) == 1


def test_speech_is_one_setting_the_page_cannot_change(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('speak = true\n[[seats]]\ncolour = "red"\ncompanion = 2\n[[seats]]\ncolour = "blue"\n',
                    encoding="utf-8")
    config = load_config(path)
    assert config.speak and not Config().speak
    with pytest.raises(ConfigError, match="speak: must be true or false"):
        config_from_dict({"speak": "yes"})
    with pytest.raises(ConfigError, match="cannot be changed from the web page"):
        config_from_settings({"speak": False}, config)
    assert config_from_settings({"game": config.game, "seats": ["red", "blue"]}, config).speak
