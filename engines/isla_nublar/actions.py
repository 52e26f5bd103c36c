"""Actions of Isla Nublar: typed, frozen, JSON round-trippable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Action, ActionCodec


@dataclass(frozen=True)
class PlayCard(Action):
    """Play a card from hand, using one of its actions (``use``), or ``"none"``.

    ``use`` is a card action (amber, boxes, hideout, ...), ``"change"``-enabled ``"amber-as-boxes"``,
    ``"egg"``/``"dinosaur"`` for red cards, ``"influence"`` (The Clients) or ``"scoring"`` (Individual
    ratings).
    """

    kind: ClassVar[str] = "play"
    player: str
    card: str
    use: str


@dataclass(frozen=True)
class Buy(Action):
    """Buy the top card of the action pile with this price."""

    kind: ClassVar[str] = "buy"
    player: str
    pile: int


@dataclass(frozen=True)
class BuyScoring(Action):
    """Individual ratings: buy the face-up scoring card in this slot (0..4)."""

    kind: ClassVar[str] = "buy-scoring"
    player: str
    slot: int


@dataclass(frozen=True)
class PlaceBox(Action):
    kind: ClassVar[str] = "place-box"
    player: str
    field: str


@dataclass(frozen=True)
class MoveBox(Action):
    kind: ClassVar[str] = "move-box"
    player: str
    origin: str
    target: str


@dataclass(frozen=True)
class BuildCamp(Action):
    """Set up a camp on ``field``, taking back ``take_back`` of your boxes there (each saves 1 box point)."""

    kind: ClassVar[str] = "build-camp"
    player: str
    field: str
    take_back: int = 0


@dataclass(frozen=True)
class StockUp(Action):
    """Take one of your boxes or camps (``piece``: box/camp) from the general to your personal supply."""

    kind: ClassVar[str] = "stock-up"
    player: str
    piece: str


@dataclass(frozen=True)
class EndTurn(Action):
    kind: ClassVar[str] = "end-turn"
    player: str


@dataclass(frozen=True)
class Select(Action):
    """Pick one more card for the pending hideout / inventory / removal choice."""

    kind: ClassVar[str] = "select"
    player: str
    card: str


@dataclass(frozen=True)
class Finish(Action):
    """Close the pending choice (or decline an optional one)."""

    kind: ClassVar[str] = "finish"
    player: str


@dataclass(frozen=True)
class Divert(Action):
    """Put a dinosaur figure back on an empty volcano (Diversion; a whisperer's return)."""

    kind: ClassVar[str] = "divert"
    player: str
    dinosaur: str
    volcano: str


@dataclass(frozen=True)
class Improve(Action):
    """Remove a played card; take the top card of pile ``pile`` (0: take none)."""

    kind: ClassVar[str] = "improve"
    player: str
    card: str
    pile: int


@dataclass(frozen=True)
class MoveCamp(Action):
    """Move your camp at ``level`` (0 = bottom) of ``origin`` onto ``target`` (same field: to the top)."""

    kind: ClassVar[str] = "move-camp"
    player: str
    origin: str
    level: int
    target: str


@dataclass(frozen=True)
class RemoveCamp(Action):
    """The Clients, "We're done here": your camp at ``level`` of ``field`` goes to the general supply."""

    kind: ClassVar[str] = "remove-camp"
    player: str
    field: str
    level: int


@dataclass(frozen=True)
class Retrieve(Action):
    """The Clients, "That's not rubbish!": a played or discarded card back into hand."""

    kind: ClassVar[str] = "retrieve"
    player: str
    card: str
    origin: str


@dataclass(frozen=True)
class MoveDinosaur(Action):
    kind: ClassVar[str] = "move-dinosaur"
    player: str
    dinosaur: str
    steps: int
    direction: str = "S"


@dataclass(frozen=True)
class SwapDinosaurs(Action):
    kind: ClassVar[str] = "swap-dinosaurs"
    player: str
    first: str
    second: str


@dataclass(frozen=True)
class Defend(Action):
    """Play a defensive-measures card from hand when a dinosaur would take your pieces."""

    kind: ClassVar[str] = "defend"
    player: str
    card: str


@dataclass(frozen=True)
class Decline(Action):
    kind: ClassVar[str] = "decline"
    player: str


@dataclass(frozen=True)
class ReturnDinosaur(Action):
    """Place a dinosaur that took pieces or left the island on an empty volcano."""

    kind: ClassVar[str] = "return-dinosaur"
    player: str
    volcano: str


@dataclass(frozen=True)
class ChooseScoring(Action):
    """Basic game: after setting up a camp, score one of the 3 active scoring cards (slot 0..2)."""

    kind: ClassVar[str] = "choose-scoring"
    player: str
    slot: int


# -- chance: what a face-down card turned out to be ---------------------------------------------------------
@dataclass(frozen=True)
class Draw(Action):
    kind: ClassVar[str] = "draw"
    player: str
    card: str


@dataclass(frozen=True)
class RevealDinosaur(Action):
    kind: ClassVar[str] = "reveal-dinosaur"
    card: str


@dataclass(frozen=True)
class RevealPile(Action):
    kind: ClassVar[str] = "reveal-pile"
    pile: int
    card: str


@dataclass(frozen=True)
class RevealScoring(Action):
    kind: ClassVar[str] = "reveal-scoring"
    slot: int
    card: str


@dataclass(frozen=True)
class PlaceDinosaurs(Action):
    """Set-up at a real table: the four figures stood on the red volcanoes at random, as the table shows
    them; ``figures`` names them in the order of the board's volcanoes, separated by spaces."""

    kind: ClassVar[str] = "place-dinosaurs"
    figures: str


ACTION_TYPES: list[type[Action]] = [
    PlayCard,
    Buy,
    BuyScoring,
    PlaceBox,
    MoveBox,
    BuildCamp,
    StockUp,
    EndTurn,
    Select,
    Finish,
    Divert,
    Improve,
    MoveCamp,
    RemoveCamp,
    Retrieve,
    MoveDinosaur,
    SwapDinosaurs,
    Defend,
    Decline,
    ReturnDinosaur,
    ChooseScoring,
    Draw,
    RevealDinosaur,
    RevealPile,
    RevealScoring,
    PlaceDinosaurs,
]
CODEC = ActionCodec(ACTION_TYPES)
