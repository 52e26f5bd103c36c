"""The :class:`Kit` every game's kit package provides (see :mod:`companion.kits`)."""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from companion.drawing import DiagramSpots
from companion.i18n import LANGUAGES, LazyText, Said, gettext, lazy_gettext
from companion.kits.reading import TableReading
from companion.kits.tabletop import TableAreaError
from companion.privacy import STRICT, Privacy
from engines.core import Game, GameInfo, State, get_game
from vision.detect import GeometryHints
from vision.observation import Observation
from vision.scene import Scene, Zone
from vision.tags import DEFAULT_SEED, Manifest, PrintedSet, TagInventory, build_printed_set

if TYPE_CHECKING:
    from companion.infer import TableModel


class TableLayout(Protocol):
    """Where a game lies on the table: its size in mm (marker 0 to marker 2) and what each layout adds."""

    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...


def printed_set(inventory: TagInventory, tag_mm: Mapping[str, float], seed: int = DEFAULT_SEED) -> PrintedSet:
    """The printed set of a kit's inventory, each kind's codes ``tag_mm[kind]`` wide, for ``seed``."""
    return _printed_set(inventory, tuple(sorted(tag_mm.items())), seed)


@lru_cache(maxsize=64)
def _printed_set(inventory: TagInventory, sizes: tuple[tuple[str, float], ...], seed: int) -> PrintedSet:
    return build_printed_set(inventory, dict(sizes), seed)


class Kit(abc.ABC):
    """One game at the table: tags, layout, scene, vision hints, inference, diagram."""

    #: the game this kit seats, as its engine declares it (a subclass sets only this; ``name`` is its)
    info: ClassVar[GameInfo]
    name: ClassVar[str]
    #: seat colours of a demo table
    demo_colours: ClassVar[tuple[str, ...]] = ("red", "blue", "green")
    #: how its table is read: zones and places, tag sizes, which chance a person taps or nobody sees
    reading: ClassVar[TableReading]
    #: which moves name something the shared view hides (the strict rule unless the rulebook is open)
    privacy: ClassVar[Privacy] = STRICT
    #: engine options a real table plays with (a synthetic table is dealt by the engine, which knows all)
    real_table_options: ClassVar[Mapping[str, Any]] = {}
    #: what the rules leave to a group that lays its own set-up, as the options a group chooses it by
    #: (the people benchmark's groups choose so)
    group_choices: ClassVar[Mapping[str, Any]] = {}
    #: the language the game's box and rulebook are printed in (an ``edition`` option names another's)
    language: ClassVar[str] = "en"
    #: why the companion cannot play a seat of this game at a real table (empty: it can)
    no_companion_at_real_table: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if isinstance(info, GameInfo):
            cls.name = info.name

    @property
    def game(self) -> Game:
        return get_game(self.name)

    # -- tags -----------------------------------------------------------------------------------------
    @abc.abstractmethod
    def inventory(self) -> TagInventory:
        """What the components carry (from the engine's component data)."""

    def printed_set(self, seed: int = DEFAULT_SEED) -> PrintedSet:
        """A printed set with its front-back pairing: for the sheet printer and the simulation only."""
        return printed_set(self.inventory(), self.reading.tag_mm, seed)

    def manifest(self, seed: int = DEFAULT_SEED) -> Manifest:
        """The manifest the companion loads: nothing in it pairs a back with its front."""
        return self.printed_set(seed).manifest

    def is_back(self, component_id: str) -> bool:
        """Whether a tag id of the default printed set is an opaque (face-down) back."""
        backs = self.__dict__.get("_backs")
        if backs is None:  # asked for every tag of every scene inference draws: kept once per kit
            backs = frozenset(e.component_id for e in self.manifest().entries.values() if e.face == "back")
            self.__dict__["_backs"] = backs
        return component_id in backs

    # -- the table ------------------------------------------------------------------------------------
    @abc.abstractmethod
    def layout(self, colours: Sequence[str]) -> TableLayout:
        """The default table layout for players in these seat colours (clockwise)."""

    @abc.abstractmethod
    def scene(self, state: State, layout: Any = None) -> Scene:
        """What the table shows in ``state`` (the default layout for its players when none is given)."""

    def hints(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        """What vision reads the table with: the kit's :meth:`geometry` and its reading's places."""
        return replace(self.geometry(layout, state), places=self.reading.places)

    @abc.abstractmethod
    def geometry(self, layout: Any = None, state: State | None = None) -> GeometryHints:
        """The table's geometry for vision; ``state`` places cells as the engine numbers them."""

    def zones(self, seats: int) -> list[Zone]:
        """The named zones of the default layout for ``seats`` players (empty where they need a state)."""
        return []

    def table_size(self) -> tuple[float, float] | None:
        """The default table area, marker 0 to marker 2, mm."""
        return self.hints().table_size

    def layout_for_area(self, colours: Sequence[str], width: float, height: float) -> Any:
        """The table laid out on the ``width`` x ``height`` mm area the markers mark (the seats along its
        edges, the play in its middle); :class:`TableAreaError` saying what does not fit. This default knows
        only the area its layout is drawn for."""
        size = self.table_size()
        # within 2 %: an area measured from the markers' printed size is the drawn one
        near = size is not None and all(abs(a - b) <= 0.02 * b for a, b in zip((width, height), size))
        if near:
            return self.layout(colours)
        drawn = "" if size is None else f" {size[0]:.0f} x {size[1]:.0f} mm"
        raise TableAreaError(f"the {self.game.title} layout is drawn for{drawn} only: mark a{drawn} area")

    def layout_zones(self, layout: Any) -> list[Zone]:
        """The named zones of a layout (for calibration; empty where they need a state)."""
        return []

    @property
    def table_privacy(self) -> Privacy:
        """The game's privacy at the table: :attr:`privacy` with the chance a person taps listed openly."""
        return self.privacy.with_tapped_chance(self.reading.tapped_chance)

    # -- inference ------------------------------------------------------------------------------------
    def model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        """The inference model for a table whose seats are ``{colour: player}``, reading the table by the
        kit's :attr:`reading` (its places and their tolerance) and its privacy."""
        model = self.make_model(players_by_colour, layout)
        model.read_by(self.reading.places, self.table_privacy)
        return model

    @abc.abstractmethod
    def make_model(self, players_by_colour: Mapping[str, str], layout: Any = None) -> TableModel:
        """The game's own inference model (:meth:`model` gives it the kit's reading)."""

    # -- the page -------------------------------------------------------------------------------------
    @abc.abstractmethod
    def diagram(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
        """The table as an SVG picture, from the shared view only."""

    @staticmethod
    def places_to_mark(snapshot: Mapping[str, Any], zone: str = "play") -> list[tuple[float, float]]:
        """Where in ``zone`` the table must change for what the page asks now (a set-up step, an
        objection, the companion's move to be made for it): the place each missing or moved piece belongs,
        where a stray one lies, and where a piece to be moved lies now (table mm), for a diagram to ring
        the places its list names: a move shows the piece and where it goes."""
        pending = snapshot.get("pending") or snapshot.get("companion") or {}
        if not isinstance(pending, Mapping):
            return []
        checklist = pending.get("checklist") or {}
        differences = list(pending.get("differences") or [])
        if isinstance(checklist, Mapping):
            differences += list(checklist.get("differences") or [])
        places: list[tuple[float, float]] = []
        for difference in differences:
            if not isinstance(difference, Mapping):
                continue
            change = difference.get("change")
            ends = {"appeared": ("seen",), "moved": ("expected", "seen")}.get(str(change), ("expected",))
            for end in ends:
                place = difference.get(end)
                if not isinstance(place, Mapping) or place.get("zone") != zone:
                    continue
                at = place.get("at")
                if isinstance(at, list | tuple) and len(at) == 2:
                    places.append((float(at[0]), float(at[1])))
        return places

    def cell_words(self, view: Mapping[str, Any], cell: Sequence[int]) -> str | None:
        """A cell of the board as players say it (and as the diagram numbers it), or None where the
        game has no such words (the page then shows the engine's coordinates)."""
        return None

    def table_options(self, companion_seats: Sequence[str]) -> dict[str, Any]:
        """The engine options of a real table at which the companion plays ``companion_seats`` (its
        :attr:`real_table_options`; a game whose cards the engine deals to the companion's seats adds
        which)."""
        return dict(self.real_table_options)

    def companion_aside(self, move: Mapping[str, Any], options: Mapping[str, Any]) -> str | None:
        """What the people do for the companion besides making its ``move`` (in the reader's language), or
        None: nothing. A game whose engine deals the companion's cards says where a card it takes goes."""
        return None

    def edition_language(self, options: Mapping[str, Any]) -> str:
        """The language of the edition on the table: a page with no other choice speaks it."""
        edition = options.get("edition") if isinstance(options, Mapping) else None
        return edition if isinstance(edition, str) and edition in LANGUAGES else self.language

    def chance_words(self, view: Mapping[str, Any], setting_up: bool = False) -> str | None:
        """What is being turned face up for everyone and who does it, when the game can say."""
        return None

    #: each move's kind as a phrase of the history's sentences ("took the tile at {place}"; the action's
    #: fields in the game's words fill the braces, see :func:`companion.words.field_words`)
    move_words: ClassVar[Mapping[str, str | LazyText]] = {}
    #: each move's kind as the buttons' group heading names it ("place chisel"); the kind itself else
    kind_words: ClassVar[Mapping[str, str | LazyText]] = {}
    #: what the game calls the coloured pieces vision reads as pegs
    peg_words: ClassVar[str | LazyText] = lazy_gettext("piece")
    #: what the page calls a piece lying face down (its back tells nothing more)
    back_words: ClassVar[str | LazyText] = lazy_gettext("a face-down piece")

    #: why a game ends, as its engine says it (a pattern, its named groups the values) and as players read
    #: it (a sentence filled with those values, in the reader's language)
    end_reasons: ClassVar[Sequence[tuple[re.Pattern[str], LazyText]]] = ()

    def reason_words(self, reason: str) -> str:
        """Why the game ended, in the reader's language; as the engine says it when no pattern fits."""
        for pattern, sentence in self.end_reasons:
            found = pattern.fullmatch(reason)
            if found:
                # a value may be a reason itself (Isla Nublar's "...; the round was played to its end")
                values = found.groupdict().items()
                return str(sentence) % {key: self.reason_words(value) for key, value in values}
        return reason

    def zone_words(self, zone: str) -> str:
        """A table zone as players call it (the play area, a seat's area), for a place no finer words name."""
        return {"play": gettext("the play area")}.get(zone, zone.replace("-", " "))

    def place_words(self, view: Mapping[str, Any], layout: Any, zone: str | None,
                    at: Sequence[float]) -> str | None:
        """Where a table point (mm, in ``zone``) lies as players say it ("between row 2, tile 3 and row 3,
        tile 3") on ``layout`` (:meth:`table_layout`); None to say it by zone and millimetres."""
        return None

    def table_layout(self, snapshot: Mapping[str, Any]) -> Any:
        """The layout of the table a snapshot shows: its seats, and the play area where the players laid
        it (``snapshot["laid"]``) in a game whose set-up they lay themselves."""
        colours = [str(p.get("colour", "")) for p in snapshot.get("players") or []]
        layout = self.layout(colours)
        placement = snapshot.get("laid")
        if isinstance(placement, Mapping) and isinstance(self, ReadsSetup):
            layout = self.laid_layout(layout, placement)
        return layout

    def diagram_spots(self, view: Mapping[str, Any], snapshot: Mapping[str, Any]) -> DiagramSpots | None:
        """The places on :meth:`diagram`'s picture of ``snapshot`` where a tap makes a legal move (the
        page lays them over the picture); None where the picture has none."""
        return None

    def component_words(self, name: str) -> str | None:
        """What players call a component, field or score part the engine names by id (``DINO-2`` ->
        "Velociraptor"), from the engine's own data; None to show the id as it is."""
        return None


@runtime_checkable
class HiddenMoves(Protocol):
    """A kit of a game whose moves can name what the shared view hides (a tile or card from a hand): a
    capability a kit has, not a member every kit carries; :func:`hand_moves` asks it of any kit."""

    def catalogue_moves(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        """Moves ``player`` may make that name something the shared view hides (a card from the hand),
        built from the game's catalogue and the shared view only, never from the hand: the page offers
        them to tap, and the engine refuses one the player cannot make."""


@runtime_checkable
class HandPicker(Protocol):
    """A kit of a game whose real table shows the cards a player may hold: the page's hand picker;
    :func:`hand_cards` asks it of any kit."""

    def hand_cards(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        """At a real table, the components ``player`` may hold for what is asked now, as the table showed
        them: each ``{"card", "name", "known", "moves": [{"action", "words"}]}``."""

    def face_svg(self, component: str) -> str:
        """A small picture of a component's face for the hand picker (inline SVG), or nothing."""


def hand_moves(kit: object, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """The hidden-hand moves the page offers ``player`` (none for a game without hands)."""
    return kit.catalogue_moves(view, player) if isinstance(kit, HiddenMoves) else []


def hand_cards(kit: object, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
    """The cards ``player`` may hold for what is asked now, each with its face's picture (none for a game
    without hands)."""
    if not isinstance(kit, HandPicker):
        return []
    cards = kit.hand_cards(view, player)
    for card in cards:
        card["face"] = kit.face_svg(str(card["card"]))
    return cards


@dataclass(frozen=True)
class TableAsLaid:
    """What the camera sees of a set-up the players laid themselves: ``laid``, the engine's set-up
    document (None while the table cannot be one yet); ``placement``, where on the table it lies (the kit's
    own JSON, kept with the game); ``steps``, what to do to the table first, in the diagram's words; and
    how many ``pieces`` were seen laid out."""

    laid: Mapping[str, Any] | None
    placement: Mapping[str, Any]
    steps: tuple[str | Said, ...] = ()
    pieces: int = 0


@runtime_checkable
class ReadsSetup(Protocol):
    """A kit of a game the players deal and lay themselves (the engine is a
    :class:`engines.core.LaidByPlayers`): the camera's picture of the set-up read as the game, wherever
    and however the rules let the group lay it."""

    def read_setup(self, observation: Observation, layout: Any) -> TableAsLaid:
        """The set-up on the table in ``observation``, for a table laid out by ``layout`` by default."""

    def laid_layout(self, layout: Any, placement: Mapping[str, Any]) -> Any:
        """``layout`` with the play area where the group laid it (``placement`` from :meth:`read_setup`)."""
