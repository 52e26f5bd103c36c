"""A Jurassik square a group dealt and laid itself, for the tests: the group's own choice of dinosaurs
and action tiles (a seed of the group's, not the companion's), laid wherever on the play area they put it,
each tile a few millimetres off its place and turned a little, as hands lay tiles."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from companion.kits import kit_for
from companion.kits.jurassik import table as tables
from companion.kits.tabletop import offset, rotate
from engines.core import get_game
from engines.jurassik import JurassikState, RemoveStart, Take
from vision.scene import Scene, Shape, Tag

JURASSIK = get_game("jurassik")


def by_hand(scene: Scene, jitter_mm: float, turn_deg: float, zone: str = "play") -> Scene:
    """``scene`` with each tile in ``zone`` laid by hand: moved and turned by its own small amount (the
    same each time it is drawn, as a tile stays where a hand left it)."""
    moves: dict[str, tuple[float, float, float]] = {}
    for tag in scene.tags:
        if scene.zone_at(tag.center) != zone:
            continue
        rng = random.Random(tag.payload)
        moves[tag.payload.rsplit(":", 1)[-1]] = (rng.uniform(-jitter_mm, jitter_mm),
                                                  rng.uniform(-jitter_mm, jitter_mm),
                                                  rng.uniform(-turn_deg, turn_deg))
    tags = []
    for tag in scene.tags:
        move = moves.get(tag.payload.rsplit(":", 1)[-1])
        tags.append(tag if move is None else Tag(tag.payload, offset(tag.center, move[:2]),
                                                 (tag.angle + move[2]) % 360.0, tag.size))
    shapes = []
    for shape in scene.shapes:
        move = moves.get(shape.label)
        if move is None:
            shapes.append(shape)
            continue
        cx = sum(p[0] for p in shape.polygon) / len(shape.polygon)
        cy = sum(p[1] for p in shape.polygon) / len(shape.polygon)
        polygon = tuple(offset(offset((cx, cy), rotate((x - cx, y - cy), move[2])), move[:2])
                        for x, y in shape.polygon)
        shapes.append(Shape(polygon, shape.fill, shape.outline, shape.label))
    return replace(scene, tags=tags, shapes=shapes)


@dataclass
class GroupTable:
    """The group's own square: ``deal`` seeds their shuffle, ``shift`` (mm) is where they laid it from the
    companion's default place."""

    players: tuple[str, ...]
    colours: tuple[str, ...]
    deal: int
    shift: tuple[float, float] = (0.0, 0.0)
    jitter_mm: float = 4.0
    turn_deg: float = 3.0
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        state = JURASSIK.new_initial_state(self.players, random.Random(self.deal), self.options)
        assert isinstance(state, JurassikState)
        self.state: JurassikState = state
        base = kit_for("jurassik").layout(list(self.colours))
        self.layout = replace(base, grid_center=offset(base.grid_center, self.shift))
        self.ids = tables.JurassikIds()

    def scene(self, state: JurassikState | None = None) -> Scene:
        drawn = tables.scene_for(state or self.state, self.layout, ids=self.ids)
        return by_hand(drawn, self.jitter_mm, self.turn_deg)

    def grid(self, state: JurassikState | None = None) -> list[list[str | None]]:
        shown = state or self.state
        return [list(shown.cells[r * shown.cols:(r + 1) * shown.cols]) for r in range(shown.rows)]

    def moves(self, count: int, start: JurassikState | None = None) -> list[tuple[Any, JurassikState]]:
        """The group's own game on: the start tile lifted, then a dinosaur tile taken each turn (the
        first accessible one), each with the state it leads to."""
        played: list[tuple[Any, JurassikState]] = []
        state = start or self.state
        for _ in range(count):
            action: Any = RemoveStart(state.current_player()) if state.phase == "start" else next(
                a for a in state.legal_actions()
                if isinstance(a, Take) and str(state.cells[a.row * state.cols + a.col]).startswith("D"))
            after = state.apply(action)
            assert isinstance(after, JurassikState)
            played.append((action, after))
            state = after
        return played
