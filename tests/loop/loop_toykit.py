"""The toy game's kit, defined in the tests only: what a fifth game adds beside its engine to be played at
the table and on the page (tags, layout, scene, hints, model, diagram, words, privacy), with no line of
shared code changed. Registered by a fixture and removed after it, so no other test sees it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loop_toygame import SLOT_PITCH, TOY_PLACES, TOY_PRIVACY, Grab, GrabState, grab_scene, is_back

from companion.drawing import attr, colour_of, rgb
from companion.infer import TableModel
from companion.kits.kit import Kit
from companion.kits.reading import TableReading
from engines.core import State
from vision.detect import GeometryHints
from vision.scene import Scene
from vision.tags import ManifestEntry, TagInventory


@dataclass(frozen=True)
class ToyLayout:
    """The row of slots above the seats (as ``grab_scene`` lays it out)."""

    slots: int = 8

    @property
    def width(self) -> float:
        return 60 + SLOT_PITCH * self.slots

    @property
    def height(self) -> float:
        return 300.0


class ToyKit(Kit):
    info = Grab.info
    demo_colours = ("red", "blue")
    privacy = TOY_PRIVACY
    reading = TableReading(places=TOY_PLACES, tag_mm={"tile": 12.0})

    def inventory(self) -> TagInventory:
        fronts = [ManifestEntry(f"F{n}", "front", "tile", f"front {n}") for n in range(8)]
        return TagInventory(code=self.info.code, name=self.info.name, faces=tuple(fronts))

    def layout(self, colours: Sequence[str]) -> ToyLayout:
        return ToyLayout()

    def scene(self, state: State, layout: Any = None) -> Scene:
        return grab_scene(state, ["red", "blue"])

    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        return GeometryHints()

    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        colours = list(players_by_colour)
        return TableModel(lambda s: grab_scene(s, colours), is_back, dict(players_by_colour))

    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        row = list(view.get("row") or [])
        players = snapshot.get("players") or []
        cells = "".join(
            f'<rect x="{10 + 40 * i}" y="10" width="34" height="34" rx="4" '
            f'fill="{"#d8b878" if present else "#eee"}" class="slot"/>'
            f'<text x="{27 + 40 * i}" y="33" font-size="14" text-anchor="middle">{i + 1}</text>'
            for i, present in enumerate(row))
        current = snapshot.get("current")
        footer = (f'<circle cx="18" cy="66" r="7" fill="{rgb(colour_of(players, str(current)))}"/>'
                  f'<text x="32" y="71" font-size="14">{attr(current)} to play</text>') if current else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {20 + 40 * len(row)} 90" role="img" '
                f'aria-label="the row of tiles">{cells}{footer}</svg>')

    def cell_words(self, view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
        return None

    def component_words(self, name: str) -> str | None:
        return f"tile {int(name[1:]) + 1}" if name.startswith("F") and name[1:].isdigit() else None


def toy_state(state: State) -> GrabState:
    assert isinstance(state, GrabState)
    return state
