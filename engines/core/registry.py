"""Games by their one name. Each engine package registers its Game when imported; the registry finds the
packages under ``engines/`` itself, so a new game is its package and nothing else.

A game is known by ``Game.name`` (``"jurassic-parts"``); its tag code (``"JP"``) and ``Game.aliases``
(``"parts"``) are other spellings of the same name. Spellings ignore case and treat ``_`` as ``-``.
"""

from __future__ import annotations

import importlib
import pkgutil

from engines.core.game import Game

_GAMES: dict[str, Game] = {}
_SPELLINGS: dict[str, str] = {}
_discovered = False


def _spelling(text: str) -> str:
    return str(text).strip().lower().replace("_", "-")


def register_game(game: Game) -> Game:
    """Register ``game`` under its name, its tag code and its aliases (a spelling names one game only)."""
    for spelling in (game.name, game.code, *game.aliases):
        key = _spelling(spelling)
        owner = _SPELLINGS.get(key)
        if owner is not None and owner != game.name:
            raise ValueError(f"{spelling!r} already names {owner}")
        _SPELLINGS[key] = game.name
    _GAMES[game.name] = game
    return game


def _discover() -> None:
    """Import every engine package once (each registers its game)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import engines

    for module in pkgutil.iter_modules(engines.__path__):
        if module.ispkg and module.name != "core":
            importlib.import_module(f"engines.{module.name}")


def canonical_name(name: str) -> str:
    """The one name of the game spelt ``name`` (its name, code or an alias); KeyError naming the games."""
    _discover()
    key = _SPELLINGS.get(_spelling(name))
    if key is None:
        raise KeyError(f"unknown game {name!r}; available: {', '.join(available_games())}")
    return key


def get_game(name: str) -> Game:
    """The registered game spelt ``name``; KeyError naming the known games otherwise."""
    return _GAMES[canonical_name(name)]


def available_games() -> list[str]:
    """The names of the registered games, in registration order."""
    _discover()
    return list(_GAMES)
