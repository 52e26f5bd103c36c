"""The café broker's logins and ACL: each table its own login that may write only its own topics, the board
one that reads every table and writes only resend requests.

``dinotable-cafe --write-logins DIR --tables table-1,table-2`` writes, in DIR:

- ``mosquitto-passwords``: Mosquitto's password file (PBKDF2-SHA512, the ``$7$`` form ``mosquitto_passwd``
  writes), mode 600;
- ``mosquitto-acl``: what each login may read and write;
- ``dinotable.conf``: the lines for ``/etc/mosquitto/conf.d/`` (no anonymous access, the files above);
- ``<name>.password``: each login's password alone (mode 600), for that table's ``[mqtt] password_file``.

Running it again keeps the passwords already written and adds the new tables.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wire.topics import DEFAULT_PREFIX, HOME_ASSISTANT_PREFIX, TABLE_NAME, HomeAssistantTopics, Topics

BOARD_USER = "cafe-board"
ITERATIONS = 101  # mosquitto_passwd's own default
INSTALLED = Path("/etc/mosquitto")


def password_hash(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """Mosquitto's ``$7$`` password hash (PBKDF2-HMAC-SHA512, 12-byte salt, 64-byte digest)."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(tables: Sequence[str], board: str = BOARD_USER, prefix: str = DEFAULT_PREFIX,
             home_assistant_prefix: str = HOME_ASSISTANT_PREFIX) -> str:
    lines = ["# The café's broker: who may read and write what (dinotable-cafe --write-logins).", "",
             f"user {board}", f"topic read {prefix}/#", f"topic write {prefix}/+/resend", ""]
    for table in tables:
        topics = Topics(prefix, table)
        lines += [f"user {table}"]
        lines += [f"topic write {topic}" for topic in (topics.events, topics.plays, topics.state,
                                                        topics.status)]
        home_assistant = HomeAssistantTopics(home_assistant_prefix, table)
        lines += [f"topic read {topics.resend}", f"topic write {home_assistant.writes}",
                  f"topic read {home_assistant.status}", ""]
    return "\n".join(lines)


def broker_conf(directory: Path = INSTALLED) -> str:
    return "\n".join([
        "# The café board's broker (dinotable-cafe --write-logins): logins and an ACL, nobody anonymous.",
        "per_listener_settings false",
        "allow_anonymous false",
        "# a login's client id is its name: no login can take over (and so disconnect) another's connection",
        "use_username_as_clientid true",
        f"password_file {directory / 'dinotable-passwords'}",
        f"acl_file {directory / 'dinotable-acl'}", ""])


@dataclass(frozen=True)
class Written:
    directory: Path
    logins: tuple[str, ...]
    new: tuple[str, ...]


def _private(path: Path, text: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    path.chmod(0o600)


def write_logins(directory: Path, tables: Sequence[str], board: str = BOARD_USER,
                 prefix: str = DEFAULT_PREFIX, home_assistant_prefix: str = HOME_ASSISTANT_PREFIX) -> Written:
    """Write the broker's password file, ACL and config lines, and each login's password file."""
    names = [board, *tables]
    for name in names:
        if not TABLE_NAME.match(name):
            raise ValueError(f"login {name!r}: 1-40 letters, digits, - or _ (it is part of the MQTT topics)")
    if len(set(names)) != len(names):
        raise ValueError("a table's name is used twice (or is the board's)")
    directory.mkdir(parents=True, exist_ok=True)
    passwords, new = {}, []
    for name in names:
        kept = directory / f"{name}.password"
        if kept.is_file():
            passwords[name] = kept.read_text(encoding="utf-8").strip()
        else:
            passwords[name] = secrets.token_urlsafe(18)
            _private(kept, passwords[name] + "\n")
            new.append(name)
    _private(directory / "mosquitto-passwords",
             "".join(f"{name}:{password_hash(passwords[name])}\n" for name in names))
    acl = acl_text(tables, board, prefix, home_assistant_prefix)
    (directory / "mosquitto-acl").write_text(acl, encoding="utf-8")
    (directory / "dinotable.conf").write_text(broker_conf(), encoding="utf-8")
    return Written(directory, tuple(names), tuple(new))
