"""The ``[mqtt]`` table of the config and the broker URL: where a table (or the café board) reports.

``url`` is ``mqtt://[user[:password]@]host[:port]`` (1883) or ``mqtts://...`` (TLS, 8883); ``table`` is
the name this table reports under (default: the machine's host name). Mosquitto's own authentication:
``username`` with ``password`` or ``password_file`` (a file holding only the password, e.g. a systemd
credential) and, for a broker with a self-signed certificate, ``ca_file``.
"""

from __future__ import annotations

import re
import socket
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from wire.topics import DEFAULT_PREFIX, HOME_ASSISTANT_PREFIX, TABLE_NAME

KEYS = ("url", "table", "keepalive", "username", "password", "password_file", "ca_file", "home_assistant",
        "prefix", "home_assistant_prefix")


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None


def parse_url(url: str) -> BrokerAddress:
    """A broker URL in parts; ValueError saying what is wrong."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"broker URL {url!r} must start with mqtt:// or mqtts://")
    if not parts.hostname:
        raise ValueError(f"broker URL {url!r} names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"broker URL {url!r}: only mqtt[s]://[user[:password]@]host[:port]")
    try:
        port = parts.port
    except ValueError as error:
        raise ValueError(f"broker URL {url!r}: {error}") from error
    tls = parts.scheme == "mqtts"
    return BrokerAddress(
        parts.hostname, port or (8883 if tls else 1883), tls,
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password is not None else None,
    )


@dataclass(frozen=True)
class MqttConfig:
    """How this table (or the café board) reaches the broker; ``url`` empty means no broker."""

    url: str = ""
    table: str = ""
    keepalive: int = 30
    username: str = ""
    password: str = ""
    password_file: str = ""
    ca_file: str = ""
    home_assistant: bool = False
    prefix: str = DEFAULT_PREFIX
    #: Home Assistant's discovery prefix (its MQTT integration's setting; "homeassistant" unless changed)
    home_assistant_prefix: str = HOME_ASSISTANT_PREFIX

    @property
    def enabled(self) -> bool:
        return bool(self.url)

    @property
    def table_name(self) -> str:
        return self.table or default_table_name()

    @property
    def broker(self) -> str:
        """host:port, for the page and the journal (the URL only: no password file is read)."""
        address = parse_url(self.url)
        return f"{address.host}:{address.port}"

    def address(self) -> BrokerAddress:
        address = parse_url(self.url)
        username = self.username or address.username
        password = self.password or address.password
        if self.password_file:
            password = Path(self.password_file).expanduser().read_text(encoding="utf-8").strip()
        return replace(address, username=username, password=password)

    def overridden(self, url: str | None = None, table: str | None = None, **given: str | None) -> MqttConfig:
        """The command line's ``--mqtt URL --table NAME`` (and login, password file, CA file) over the
        file's values."""
        changes: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
        config = replace(self, url=url if url is not None else self.url,
                         table=table if table is not None else self.table, **changes)
        config.check()
        return config

    def check(self) -> None:
        """ValueError naming the key that cannot be used."""
        if self.url:
            parse_url(self.url)
        if self.table and not TABLE_NAME.match(self.table):
            raise ValueError(f"table name {self.table!r}: 1-40 letters, digits, - or _ (it is part of the "
                             "MQTT topic)")
        if not 5 <= self.keepalive <= 3600:
            raise ValueError("keepalive must be 5..3600 seconds")
        for key, prefix in (("prefix", self.prefix), ("home_assistant_prefix", self.home_assistant_prefix)):
            if not re.match(r"^[A-Za-z0-9_-]{1,40}$", prefix):
                raise ValueError(f"{key} {prefix!r}: 1-40 letters, digits, - or _")
        if self.ca_file and not Path(self.ca_file).expanduser().is_file():
            raise ValueError(f"ca_file {self.ca_file}: no such file")
        if self.password_file and not Path(self.password_file).expanduser().is_file():
            raise ValueError(f"password_file {self.password_file}: no such file")


def default_table_name() -> str:
    name = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:40].strip("-")
    return name or "table"


def mqtt_from_mapping(data: Mapping[str, Any]) -> MqttConfig:
    """The config file's ``[mqtt]`` table; ValueError ``(key, message)`` for a bad one."""
    unknown = set(data) - set(KEYS)
    if unknown:
        raise ValueError("mqtt", f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(KEYS)}")
    texts = {}
    for key in ("url", "table", "username", "password", "password_file", "ca_file", "prefix",
                "home_assistant_prefix"):
        if key in data:
            if not isinstance(data[key], str):
                raise ValueError(f"mqtt.{key}", "must be a text")
            texts[key] = data[key]
    keepalive = data.get("keepalive", 30)
    if not isinstance(keepalive, int) or isinstance(keepalive, bool):
        raise ValueError("mqtt.keepalive", "must be a whole number of seconds")
    home_assistant = data.get("home_assistant", False)
    if not isinstance(home_assistant, bool):
        raise ValueError("mqtt.home_assistant", "must be true or false")
    config = MqttConfig(keepalive=keepalive, home_assistant=home_assistant, **texts)
    try:
        config.check()
    except ValueError as error:
        raise ValueError("mqtt", str(error)) from error
    return config


def make_client(config: MqttConfig, client_id: str, clean: bool = True) -> Any:
    """A paho-mqtt client for ``config`` (TLS and credentials set; not connected yet)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    address = config.address()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                         protocol=mqtt.MQTTv311)
    if address.username:
        client.username_pw_set(address.username, address.password)
    if address.tls:
        context = ssl.create_default_context(cafile=str(Path(config.ca_file).expanduser()) if config.ca_file
                                             else None)
        client.tls_set_context(context)
    client.reconnect_delay_set(min_delay=1, max_delay=5)  # a broker on the café's LAN: try often
    client.max_queued_messages_set(0)
    return client


def connection_problem(config: MqttConfig, timeout_s: float = 3.0) -> str:
    """Why the broker cannot be reached, in words: tried again by hand (paho says only that it failed)."""
    address = parse_url(config.url)
    where = f"{address.host}:{address.port}"
    try:
        with socket.create_connection((address.host, address.port), timeout=timeout_s) as sock:
            if not address.tls:
                return f"the broker at {where} took the connection but did not answer as MQTT"
            ca = str(Path(config.ca_file).expanduser()) if config.ca_file else None
            context = ssl.create_default_context(cafile=ca)
            with context.wrap_socket(sock, server_hostname=address.host):
                return f"the broker at {where} accepts TLS: check the login (username, password_file)"
    except ssl.SSLCertVerificationError as error:
        reason = str(error.verify_message or error)
        if "match" in reason.lower():
            return (f"the broker's TLS certificate is not for {address.host!r} ({reason}): connect by the "
                    "name or address the certificate was made for")
        fix = "give its CA file ([mqtt] ca_file or --mqtt-ca-file)" if not config.ca_file else (
            f"{config.ca_file} is not the CA that signed it")
        return f"the broker's TLS certificate at {where} is not trusted here ({reason}): {fix}"
    except ssl.SSLError as error:
        return f"TLS with the broker at {where} failed ({error.reason or error}): is it an mqtts:// port?"
    except ConnectionRefusedError:
        return f"the broker at {where} refused the connection: is Mosquitto running, on that port?"
    except TimeoutError:
        return f"no answer from the broker at {where} within {timeout_s:g} s"
    except OSError as error:
        return f"cannot reach the broker at {where}: {error.strerror or error}"


def add_arguments(parser: Any, table: bool = True) -> None:
    """``--mqtt URL --table NAME`` and the broker's login and TLS for the commands that connect."""
    parser.add_argument("--mqtt", default=None, metavar="URL",
                        help="report every move to this café broker (mqtt://host or mqtts://host)")
    if table:
        parser.add_argument("--table", default=None, metavar="NAME", help="this table's name on the café "
                            "board (default: [mqtt] table, or the host name)")
    parser.add_argument("--mqtt-user", default=None, metavar="NAME", help="the broker login's name")
    parser.add_argument("--mqtt-password-file", default=None, metavar="FILE",
                        help="a file holding the login's password (never the password itself: ps shows it)")
    parser.add_argument("--mqtt-ca-file", default=None, metavar="FILE",
                        help="the certificate authority of an mqtts:// broker with its own certificate")


def configured(config: MqttConfig, args: Any) -> MqttConfig:
    """The file's ``[mqtt]`` with the command line over it; ValueError for a bad URL or name, or for a
    password on the command line (``ps`` shows every process's arguments)."""
    url = getattr(args, "mqtt", None)
    if url and parse_url(url).password is not None:
        raise ValueError("a password in the broker URL shows in ps: put it in a file and give "
                         "--mqtt-password-file FILE (or [mqtt] password_file)")
    return config.overridden(url, getattr(args, "table", None), username=getattr(args, "mqtt_user", None),
                             password_file=getattr(args, "mqtt_password_file", None),
                             ca_file=getattr(args, "mqtt_ca_file", None))
