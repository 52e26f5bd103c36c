"""Move inference: observation vs engine state -> the action(s) that explain it, a question or an objection.

:mod:`companion.infer.common` holds the game-independent search; one module per game
(``companion.infer.jurassic_parts`` ...) refines the :class:`TableModel` (which actions to try first, how to
name the rule an attempted move breaks, the split shares). :func:`model_for` picks the game's module, or the
common model over the game's table layout (``vision.tables.<game>``) when a game has no module of its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.infer.common import (
    Difference,
    Inference,
    Picture,
    TableModel,
    compare,
    ideal_observation,
    infer,
    state_key,
    state_seed,
)
from engines.core import State
from vision.scene import Scene

__all__ = [
    "Difference",
    "Inference",
    "Picture",
    "TableModel",
    "compare",
    "ideal_observation",
    "infer",
    "model_for",
    "module_name",
    "state_key",
    "state_seed",
    "table_layout",
]


def module_name(game: str) -> str:
    """``"jurassic-parts"`` -> ``"jurassic_parts"`` (module name under engines/, vision/tables/, infer/)."""
    return game.replace("-", "_")


def back_predicate(game: str) -> Callable[[str], bool]:
    """Tells a face-down (opaque) tag id of this game's printed set from a front id."""
    try:
        from vision.tags import manifest_for

        manifest = manifest_for(game)
    except Exception:  # no manifest for this game yet: treat unknown 5-character ids as backs
        return lambda component_id: len(component_id) == 5 and "-" not in component_id

    def is_back(component_id: str) -> bool:
        entry = manifest.entry(component_id)
        return entry is not None and entry.face == "back"

    return is_back


def table_layout(game: str, players: Sequence[str], colours: Sequence[str] | None = None) -> tuple[Any, Any]:
    """The game's table layout module and a layout for these players: ``(module, layout)``.

    Raises ImportError when the game has no table layout (vision/tables/<game>.py) yet.
    """
    tables = importlib.import_module(f"vision.tables.{module_name(game)}")
    make = getattr(tables, "default_layout", None) or getattr(tables, "layout_for", None)
    if make is None:
        raise ImportError(f"vision.tables.{module_name(game)} has no default_layout()")
    try:
        layout = make(list(players), list(colours) if colours is not None else None)
    except TypeError:
        layout = make(list(players))
    return tables, layout


def model_for(
    game: str,
    players_by_colour: Mapping[str, str],
    scene_for: Callable[[State], Scene] | None = None,
    layout: Any = None,
) -> TableModel:
    """The inference model of a game. ``scene_for`` overrides the table layout (tests, other tables)."""
    is_back = back_predicate(game)
    if scene_for is None:
        colours = list(players_by_colour)
        players = list(players_by_colour.values())
        if layout is None:
            tables, layout = table_layout(game, players, colours)
        else:
            tables = importlib.import_module(f"vision.tables.{module_name(game)}")
        chosen = layout

        def layout_scene(state: State) -> Scene:
            scene: Scene = tables.scene_for(state, chosen)
            return scene

        scene_for = layout_scene
    try:
        module = importlib.import_module(f"companion.infer.{module_name(game)}")
    except ModuleNotFoundError as error:
        if error.name != f"companion.infer.{module_name(game)}":
            raise
        return TableModel(scene_for, is_back, players_by_colour)
    factory: Callable[..., TableModel] = module.make_model
    return factory(scene_for, is_back, players_by_colour, layout)
