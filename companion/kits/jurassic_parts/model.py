"""Jurassic Parts at the table: chisels on gaps, tiles leaving the slab, tiles turned up.

- A chisel peg standing on a gap (found by colour at the gap midpoint) is a ``place-chisel`` of that
  colour's player; a peg gone from a gap is a ``pick-up-chisel``.
- A split is the engine's business: the table shows the awarded part's face-down tiles being turned up
  (each a chance ``reveal``, read from the front tag that appears: its printed id names the tile, whose
  fossil is in the component list), then contributors taking tiles from the slab into their seat zones
  (``take-tile``), the Field Leader's share, and finally the last two tiles (``keep-tile``).
- Purchases, selling, committing a Pile of Bones, choosing the awarded part and ending the turn change
  little or nothing the camera can tell apart and come by the buttons or the web page.

Tiles of the same fossil are interchangeable in a holder's area (the engine counts them), so fronts are
compared by fossil; on the slab their place tells them apart. The search is narrowed to actions whose
gap or cell lies where the table changed (the slab has hundreds of legal chisel placements).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.infer import Difference, LaidOutModel
from companion.kits.jurassic_parts import identities
from companion.kits.jurassic_parts import table as tables
from engines.core import Action, IllegalAction, State, sample_chance
from engines.jurassic_parts import components
from engines.jurassic_parts.actions import PlaceChisel, Reveal
from engines.jurassic_parts.bots import bot_policy
from vision.observation import Observation
from vision.scene import Point, Scene


class JurassicPartsModel(LaidOutModel):
    def __init__(
        self,
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        layout: Any = None,
    ) -> None:
        self.tables = tables
        self.components = components
        colours = tuple(players_by_colour)
        self.layout = layout or tables.JurassicPartsLayout(seats=len(colours), colours=colours)
        super().__init__(is_back, players_by_colour, identities.JurassicPartsIds(), self.layout.pitch * 0.35)
        self.slab_fronts: dict[tuple[int, int], str] = {}
        self.seen_fronts: list[str] = []

    # -- scenes ---------------------------------------------------------------------------------------
    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        scene: Scene = self.tables.scene_for(state, self.layout, ids=ids, sketch=extra.get("sketch", False))
        return scene

    def fossil(self, component_id: str) -> str | None:
        component = self.components.COMPONENT_BY_ID.get(component_id)
        return None if component is None else str(component.fossil)

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        if zone == "supply":  # a tile put down on the amber supply is out of play; the amber counts
            return None
        if is_back:
            return "back"
        fossil = self.fossil(component_id)
        return f"fossil:{fossil}" if fossil is not None else component_id

    def seen(self, observation: Observation) -> Any:
        fronts: dict[tuple[int, int], str] = {}
        for component_id, reading in observation.tags.items():
            if reading.face == "front" and reading.zone == "play" and reading.center_mm is not None:
                fronts[self.layout.mm_to_axial(reading.center_mm)] = component_id
        self.slab_fronts = fronts
        self.seen_fronts = [cid for cid, reading in observation.tags.items() if reading.face == "front"]
        return super().seen(observation)

    # -- the search -----------------------------------------------------------------------------------
    def _where(self, action: Action) -> list[Point]:
        a, b, cell = getattr(action, "a", None), getattr(action, "b", None), getattr(action, "cell", None)
        if a is not None and b is not None:
            try:
                return [self.layout.gap_midpoint(tuple(a), tuple(b))]
            except ValueError:
                return []
        if cell is not None:
            return [self.layout.axial_to_mm(*cell)]
        return []

    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        actions = state.legal_actions()
        if state.is_chance_node():
            return self._reveals(state, actions)
        points = [
            p.at for d in differences for p in (d.expected, d.seen) if p is not None and p.zone == "play"
        ]
        reach = self.tolerance * 1.5
        chosen = []
        for action in actions:
            where = self._where(action)
            # either equal half may be the one awarded: the chisels sent back look alike for both
            whole_part = action.kind == "award-part"
            if not where or whole_part or any(math.dist(w, p) <= reach for w in where for p in points):
                chosen.append(action)
        # chisels gone from the slab with nothing placed where they stood: a split sent them back, and the
        # chisel that made it may stand anywhere on the cut (it went back too): placements nearest first
        returned = [d.expected.at for d in differences
                    if d.what == "peg" and d.change == "vanished" and d.expected is not None]
        if returned:
            placements = [a for a in actions if a.kind == "place-chisel" and a not in chosen]
            placements.sort(key=lambda a: min(math.dist(w, r) for w in self._where(a) or [(1e9, 1e9)]
                                              for r in returned))
            chosen += placements
        return chosen

    def _reveals(self, state: State, outcomes: list[Action]) -> list[Action]:
        """The reveal the camera saw: the fossil of the front now lying at the cell, with its printed id;
        when the tile has already left the slab (a one-tile part goes straight to its taker), a front seen
        anywhere that the game does not know yet."""
        known = {tile for tile in getattr(state, "tile_id", ()) if tile}
        chosen: list[Action] = []
        for outcome in outcomes:
            cell = tuple(getattr(outcome, "cell", ()))
            if len(cell) != 2:
                continue
            fossil = str(getattr(outcome, "fossil", ""))
            at_cell = self.slab_fronts.get((int(cell[0]), int(cell[1])))
            if at_cell is not None:
                ids = [at_cell] if self.fossil(at_cell) == fossil else []
            else:
                ids = [t for t in self.seen_fronts if t not in known and self.fossil(t) == fossil]
            for tile in ids:
                named = Reveal(cell=(int(cell[0]), int(cell[1])), fossil=fossil, tile=tile)
                if state.is_legal(named):
                    chosen.append(named)
        return chosen

    def attempted_actions(
        self, state: State, differences: Sequence[Difference], actor: str | None
    ) -> list[Action]:
        """A chisel that appeared on a gap: the placement its colour's player tried."""
        attempts: list[Action] = []
        slab = getattr(state, "layout", None)
        gaps = getattr(slab, "gaps", ())
        cells = getattr(slab, "cells", ())
        for difference in differences:
            if difference.what != "peg" or difference.change != "appeared" or difference.seen is None:
                continue
            player = self.players_by_colour.get(difference.item, actor or state.current_player())
            for a, b in gaps:
                midpoint = self.layout.gap_midpoint(cells[a], cells[b])
                if math.dist(midpoint, difference.seen.at) <= self.tolerance:
                    attempts.append(PlaceChisel(player, tuple(cells[a]), tuple(cells[b])))
        return attempts

    def split_shares(self, state: State) -> list[tuple[str, int]] | None:
        ranking = getattr(state, "ranking", ())
        names = getattr(state, "names", ())
        if not ranking or not names:
            return None
        return [(names[p], int(take)) for p, _, take in ranking]


    # -- bots -----------------------------------------------------------------------------------------
    def chance_outcome(self, state: State, rng: random.Random) -> Action:
        """The physical table decides a reveal: the tile really lying behind the back (bot games deal the
        default set), or a drawn fossil when that tile is unknown."""
        pending = getattr(state, "pending", ())
        slab = getattr(state, "layout", None)
        if pending and slab is not None:
            truth = identities.true_reveal(state, slab.cells[pending[0]])
            if truth is not None:
                try:
                    state.apply(truth)
                    return truth  # type: ignore[no-any-return]
                except IllegalAction:
                    pass
        drawn = sample_chance(state, rng)
        # name the printed tile the table shows for it, so that the camera's reading is this very action
        cell = tuple(getattr(drawn, "cell", ()))
        slot = slab.slot_of.get(cell) if slab is not None else None
        if slot is not None and not getattr(drawn, "tile", ""):
            printed = identities.printed_tiles(state.apply(drawn), identities.JurassicPartsIds())
            tile = printed.slab.get(slot)
            if tile is not None:
                named = Reveal(
                    cell=(int(cell[0]), int(cell[1])), fossil=str(getattr(drawn, "fossil", "")), tile=tile
                )
                if state.is_legal(named):
                    return named
        return drawn

    def bot_policy(self) -> Any:
        return bot_policy
