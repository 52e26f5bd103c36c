"""Jurassic Brunch at the table: figures and tokens by their tags on the boards' cells and in the seat
zones. The generic search compares pictures; the game needs no narrowing of its own (a turn has few legal
moves), only its scenes, drawn as sketches for the hypotheses it tries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.infer import LaidOutModel
from companion.kits.jurassic_brunch import table
from engines.core import State
from vision.scene import Scene


class BrunchModel(LaidOutModel):
    def __init__(self, is_back: Callable[[str], bool], players_by_colour: Mapping[str, str],
                 layout: Any = None) -> None:
        self.layout = layout
        super().__init__(is_back, players_by_colour)

    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        scene: Scene = table.scene_for(state, self.layout, ids=ids, sketch=extra.get("sketch", False))
        return scene
