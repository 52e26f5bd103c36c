"""Move inference: observation vs engine state -> the action(s) that explain it, a question or an objection.

:mod:`companion.infer.common` holds the game-independent search; one module per game
(``companion.infer.jurassic_parts`` ...) refines the :class:`TableModel` (which actions to try first, how to
name the rule an attempted move breaks, the split shares). :func:`model_for` picks the game's module, or the
common model over the game's table layout (``vision.tables.<game>``) when a game has no module of its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
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


def model_for(
    game: str,
    players_by_colour: Mapping[str, str],
    scene_for: Callable[[State], Scene] | None = None,
    layout: Any = None,
) -> TableModel:
    """The inference model of a game: its own module's when there is one, else the common model over the
    game's table layout (``vision.tables.<game>.scene_for``). ``scene_for`` overrides the layout."""
    is_back = back_predicate(game)
    name = module_name(game)
    try:
        module = importlib.import_module(f"companion.infer.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"companion.infer.{name}":
            raise
        module = None
    if module is not None:
        factory: Callable[..., TableModel] = module.make_model
        return factory(scene_for, is_back, players_by_colour, layout)
    if scene_for is None:
        tables = importlib.import_module(f"vision.tables.{name}")  # ImportError: no table layout yet

        def layout_scene(state: State) -> Scene:
            scene: Scene = tables.scene_for(state, layout)
            return scene

        scene_for = layout_scene
    return TableModel(scene_for, is_back, players_by_colour)
