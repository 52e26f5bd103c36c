"""Games by name. Each engine package registers its Game when imported."""

from __future__ import annotations

import importlib

from engines.core.game import Game

_GAMES: dict[str, Game] = {}

#: name -> module that registers it (imported on first use so that one broken engine breaks only itself)
_KNOWN_MODULES: dict[str, str] = {
    "jurassic-parts": "engines.jurassic_parts",
    "jurassik": "engines.jurassik",
    "jurassic-brunch": "engines.jurassic_brunch",
    "isla-nublar": "engines.isla_nublar",
}

ALIASES: dict[str, str] = {
    "jp": "jurassic-parts",
    "parts": "jurassic-parts",
    "brunch": "jurassic-brunch",
    "jurassik-en": "jurassik",
    "jurassik-es": "jurassik",
    "nublar": "isla-nublar",
    "isla": "isla-nublar",
}


def register_game(game: Game) -> Game:
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name`` (or an alias); KeyError naming the known games otherwise."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in _GAMES and key in _KNOWN_MODULES:
        try:
            importlib.import_module(_KNOWN_MODULES[key])
        except ModuleNotFoundError as error:
            if error.name != _KNOWN_MODULES[key]:
                raise
    if key not in _GAMES:
        raise KeyError(f"unknown game {name!r}; available: {', '.join(available_games())}")
    return _GAMES[key]


def available_games() -> list[str]:
    """Names of the games whose engines are installed."""
    found = []
    for key, module in _KNOWN_MODULES.items():
        if key not in _GAMES:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as error:
                if error.name != module:
                    raise
                continue
        if key in _GAMES:
            found.append(key)
    return found
