"""Carrying on after a restart when the stored game is not the one the config describes.

A Pi restarts (a power cut, the watchdog, an update) with a game half played. When the config names the
same game and seats, the game simply carries on. When it does not (the config was edited, the game on the
table is another), nothing is chosen silently: the stored game carries on with its own game and seats, so
every seat LED is the right one, and the table asks, on the page and with the panel's amber, whether to
carry on or to start the config's game.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.config import Config, ConfigError, Seat, config_from_dict
from companion.i18n import Said, said
from companion.store import Store, StoreError
from engines.core import get_game


@dataclass(frozen=True)
class Mismatch:
    """How the stored game differs from the config: what the question says."""

    game_id: int
    stored: Config
    configured: Config
    differences: tuple[str, ...]

    @property
    def question(self) -> Said:
        return said("The stored game %(id)s is not the one the config describes (%(differences)s). Carry on "
                    "with it, or start the config's game?", id=self.game_id,
                    differences="; ".join(self.differences))

    @property
    def text(self) -> str:
        return str(self.question)

    def choices(self) -> list[str | Said]:
        return [said("Carry on game %(id)s: %(game)s", id=self.game_id, game=describe(self.stored)),
                said("Start a new game: %(game)s", game=describe(self.configured))]


def describe(config: Config) -> str:
    seats = ", ".join(f"{seat.name} ({seat.colour})" for seat in config.seats)
    return f"{get_game(config.game).title} with {seats}"


def _seats(config: Config) -> list[tuple[str, str]]:
    return [(seat.name, seat.colour) for seat in config.seats]


def plan(store: Store, config: Config) -> tuple[Config, Mismatch | None]:
    """The config to run with: the stored game's own when it is unfinished and differs from ``config``
    (then with the :class:`Mismatch` to ask about), else ``config``."""
    game_id = store.latest_game_id()
    if game_id is None:
        return config, None
    try:
        record = store.game(game_id)
        stored_game = get_game(record.game).name
    except (StoreError, KeyError):
        return config, None  # the game in progress reports an unreadable game and starts afresh
    if record.finished is not None:
        return config, None
    seats = [Seat(str(p["name"]), str(p["colour"]), int(p.get("seat", i)), str(p.get("person") or ""))
             for i, p in enumerate(record.players)]
    differences = []
    if stored_game != get_game(config.game).name:
        differences.append(f"stored {get_game(stored_game).title}, config {get_game(config.game).title}")
    if [(s.name, s.colour) for s in seats] != _seats(config):
        differences.append("stored seats " + ", ".join(f"{s.person or s.name} ({s.colour})" for s in seats)
                           + "; config seats " + ", ".join(f"{n} ({c})" for n, c in _seats(config)))
    if not differences:
        return config, None
    settings = record.settings or {}
    try:
        stored = config_from_dict(
            {"game": stored_game, "options": dict(settings.get("options") or {}),
             "house_rules": dict(settings.get("house_rules") or {}),
             "seats": [seat.to_dict() for seat in seats]},
            source=f"<stored game {game_id}>", base=config)
    except ConfigError:
        return config, None  # a stored game the config cannot describe: start the config's game
    return stored, Mismatch(game_id, stored, config, tuple(differences))
