"""A game's table as inference sees it: :class:`TableModel`, which each game's kit refines (the expected
scene of a state, which actions to try first where the table changed, how to name the rule an attempted
move breaks, the split shares, the bots' policy and the physical table's chance)."""

from __future__ import annotations

import abc
import copy
import json
import threading
import zlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from companion.infer.picture import (
    Difference,
    Picture,
    default_namer,
    picture_from_observation,
    picture_from_scene,
)
from companion.privacy import STRICT, Privacy
from engines.core import Action, State, sample_chance
from vision.observation import Observation
from vision.places import EVERYWHERE, Places
from vision.scene import Point, Scene, Zone


class TableModel:
    """What inference needs to know about one game's table. Per-game modules subclass it.

    ``scene_for(state)`` gives the expected scene; ``is_back(component_id)`` tells face-down ids;
    ``tolerance`` is how far (mm) a piece may lie from where it is expected; ``seat_of_colour`` maps seat
    colours to player names (moves out of turn are named by the colour of the zone or peg that changed);
    ``search_budget`` and ``max_change`` bound the work one observation may cost.
    """

    tolerance: float = 12.0
    #: at most this many positions are drawn and compared for one observation (the bound of the search)
    search_budget: int = 48
    #: a change of more differences than this is not searched: too much moved at once
    max_change: int = 24
    #: the table layout its scenes are drawn by (the kit's hints for vision follow it); None: the default
    layout: Any = None
    #: what each zone means (the kit's reading, see :meth:`read_by`); every zone positional until then
    places: Places = EVERYWHERE
    #: which moves the shared view may list (the kit's); the strict rule until :meth:`read_by`
    privacy: Privacy = STRICT

    def __init__(
        self,
        scene_for: Callable[[State], Scene],
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        tolerance: float | None = None,
    ) -> None:
        self._scene_for = scene_for
        self.is_back = is_back
        self.players_by_colour = dict(players_by_colour)
        if tolerance is not None:
            self.tolerance = tolerance
        self._cache: dict[Hashable, Picture] = {}
        self._zones_at: dict[Point, str | None] = {}
        self.zones: list[Zone] = []

    def read_by(self, places: Places, privacy: Privacy = STRICT) -> None:
        """Read the table by a kit's ``places`` (its zones' meanings and its tolerance) and ``privacy``."""
        self.places = places
        self.privacy = privacy
        self.tolerance = places.tolerance_mm
        self._cache.clear()

    def scene(self, state: State) -> Scene:
        scene = self._scene_for(state)
        if scene.zones:
            self.zones = list(scene.zones)
        return scene

    def set_up_stages(self, state: State) -> list[Scene]:
        """The set-up of ``state`` as a group lays it, in the order it is laid (the last: all of it)."""
        return [self.scene(state)]

    def looks_alike(self, before: State, after: State) -> bool:
        """Whether the camera sees one table in both states (a move it cannot see: a purchase, a pass)."""
        return self.expected(after).key(self.tolerance) == self.expected(before).key(self.tolerance)

    def expected(self, state: State, key: Hashable | None = None) -> Picture:
        key = search_key(state) if key is None else key
        picture = self._cache.get(key)
        if picture is None:
            picture = picture_from_scene(
                self.hypothesis_scene(state), self.is_back, self._zones_at, self.name_of, self.places
            )
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[key] = picture
        return picture

    def hypothesis_scene(self, state: State) -> Scene:
        """The scene of a state inference tries out (games whose layouts keep printed ids stable from
        frame to frame use throwaway ids here, so hypotheses never disturb what the table shows)."""
        return self.scene(state)

    def chance_outcome(self, state: State, rng: Any) -> Action:
        """What the physical table turns up at a chance node in a bot game (default: drawn by weight)."""
        return sample_chance(state, rng)

    def bot_policy(self) -> Any:
        """The game's own bot policy for demos (None: uniformly random legal moves)."""
        return None

    def seen(self, observation: Observation) -> Picture:
        return picture_from_observation(observation, self.zones, self.name_of, self.places)

    def name_of(self, component_id: str, is_back: bool, zone: str | None) -> str | None:
        """What a tag counts as (see :func:`default_namer`); games make interchangeable pieces alike."""
        return default_namer(component_id, is_back, zone)

    def display_scene(self, before: State, action: Action, after: State) -> Scene:
        """What the table shows once ``action`` has been made physically (the bot driver shows it). A
        reveal may look different from the settled state after it (the tile lies face up on the reveal
        spot before it goes where the rules send it)."""
        return self.scene(after)

    # -- hooks for the per-game modules ---------------------------------------------------------------
    def candidate_actions(self, state: State, differences: Sequence[Difference]) -> list[Action]:
        """The legal actions worth trying first (all of them unless a game narrows the search)."""
        return state.legal_actions()

    def attempted_actions(
        self, state: State, differences: Sequence[Difference], actor: str | None
    ) -> list[Action]:
        """Actions the players may have tried that the rules refuse (to cite the rule); none by default."""
        return []

    def owner(self, component_id: str) -> str | None:
        """The seat colour whose own piece this is (a figure in a team's colour); None: nobody's."""
        return None

    def actor(self, state: State, differences: Sequence[Difference]) -> str | None:
        """Who made the change (None: unknown): of the players whose seat zone, new peg or own piece it
        involves, the player to act if among them (a move may reach into another's area: a figure sent
        home, a piece taken from there), else the first."""
        involved: list[str] = []
        for difference in differences:
            colours = [place.zone.split(":", 1)[1] for place in (difference.seen, difference.expected)
                       if place is not None and place.zone and place.zone.startswith("seat:")]
            if difference.what == "peg" and difference.change == "appeared":
                colours.append(difference.item)
            elif difference.what == "front" and (owner := self.owner(difference.item)) is not None:
                colours.append(owner)
            for colour in colours:
                player = self.players_by_colour.get(colour)
                if player is not None and player not in involved:
                    involved.append(player)
        if state.current_player() in involved:
            return str(state.current_player())
        return involved[0] if involved else None


class LaidOutModel(TableModel, abc.ABC):
    """A model whose expected scenes are drawn by the game's table layout. ``display_ids`` (None where no
    printed id needs keeping) is the ids object the layout uses to keep printed ids stable for the whole
    game; hypotheses are drawn with a throwaway copy of it so that they never disturb the table shown."""

    def __init__(
        self,
        is_back: Callable[[str], bool],
        players_by_colour: Mapping[str, str],
        display_ids: Any = None,
        tolerance: float | None = None,
    ) -> None:
        self.display_ids = display_ids
        # the table's ids change as scenes are drawn for the camera; hypotheses copy them from another
        # thread (inference runs outside the loop's lock)
        self._ids_lock = threading.RLock()
        super().__init__(self.scene, is_back, players_by_colour, tolerance)

    @abc.abstractmethod
    def draw(self, state: State, ids: Any, **extra: Any) -> Scene:
        """The layout's scene of ``state`` with printed ids from ``ids`` (``sketch=True``: only what
        inference compares, see :class:`companion.kits.tabletop.Sketch`)."""

    def scene(self, state: State, **extra: Any) -> Scene:
        with self._ids_lock:
            scene = self.draw(state, self.display_ids, **extra)
        if scene.zones:
            self.zones = list(scene.zones)
        return scene

    def hypothesis_scene(self, state: State) -> Scene:
        with self._ids_lock:
            ids = copy.deepcopy(self.display_ids)
        scene = self.draw(state, ids, sketch=True)
        if scene.zones and not self.zones:
            self.zones = list(scene.zones)
        return scene


def state_key(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))


def search_key(state: State) -> Hashable:
    """A cheap identity of a state for the search's caches (the engine's fingerprint)."""
    return state.fingerprint()


def state_seed(state: State, salt: int = 0) -> int:
    """A deterministic seed from a state (bots resumed after a crash choose the same move again)."""
    return zlib.crc32(state_key(state).encode()) ^ (salt & 0xFFFFFFFF)


@runtime_checkable
class SharesSplits(Protocol):
    """A model of a game that breaks its board into parts and shares them out (the page's Split card, the
    panel's blinks): a capability a game's model has, not a member every model carries."""

    def split_shares(self, state: State) -> list[tuple[str, int]] | None:
        """The contributors of the split being shared out, in rank order, with their tiles (None: none)."""


def split_shares(model: object, state: State) -> list[tuple[str, int]] | None:
    """The split being shared out on ``model``'s table, or None (no split now, or a game without them)."""
    return model.split_shares(state) if isinstance(model, SharesSplits) else None
