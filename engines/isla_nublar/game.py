"""The Isla Nublar Game: options (expert variants and house rules) and the seeded setup."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Action, Game, Policy, StateFormatError
from engines.core.game import GameInfo, Option
from engines.isla_nublar import bots
from engines.isla_nublar.actions import CODEC
from engines.isla_nublar.board import Board, default_board
from engines.isla_nublar.codec import state_from_dict
from engines.isla_nublar.components import (
    BOXES_PER_PLAYER,
    CAMPS_PER_PLAYER,
    CLIENTS,
    HAND_SIZE,
    SCORE_MARKERS,
    CardSet,
    add,
    default_cards,
    take,
)
from engines.isla_nublar.dinosaurs import BoxScoringCards, PlaceDinosaurFigures
from engines.isla_nublar.rules import RULEBOOK
from engines.isla_nublar.rulings import legal_report, report_state, score_report, state_from_position
from engines.isla_nublar.state import IslaNublarState
from engines.isla_nublar.tasks import RevealPileCard, RevealScoringCard
from engines.isla_nublar.unseen import dealt_seats, every_draw, settle

#: declared action field types that action_from_dict checks, and how an error names them
_FIELD_TYPES: dict[str, type] = {"str": str, "int": int}
_FIELD_NAMES: dict[type, str] = {str: "text", int: "a whole number"}

#: camps each player puts in the general supply at setup, by player count
GENERAL_CAMPS = {2: 2, 3: 1, 4: 0}


def _draw(zone: dict[str, int], rng: random.Random) -> str:
    cards = sorted(zone)
    card = rng.choices(cards, weights=[zone[c] for c in cards], k=1)[0]
    take(zone, card)
    return card


class IslaNublarGame(Game):
    info = GameInfo("isla-nublar", "IN", "Jurassic World: Rückkehr zur Isla Nublar",
                    aliases=("nublar", "isla"))
    min_players = 2
    max_players = 4

    def __init__(self, board: Board | None = None, cards: CardSet | None = None) -> None:
        self.board = board or default_board()
        self.cards = cards or default_cards()
        self.rulebook = RULEBOOK
        self.codec = CODEC
        self.options = (
            Option("clients", False, (False, True), "expert variant The Clients (development tiles)"),
            Option(
                "individual_ratings",
                False,
                (False, True),
                "expert variant Individual ratings (scoring cards are bought; a new camp scores nothing)",
            ),
            Option(
                "table_cards",
                "engine",
                ("engine", "table"),
                "who shuffles and draws the cards: the engine (a simulated table: every card is known) or "
                "the players at a real table (a drawn card is unknown until it is laid face up; the top of "
                "each buy pile and the scoring row are told as the game is set up)",
            ),
            Option(
                "dealt_seats",
                (),
                (),
                "at a real table, the seats whose cards the engine deals and shuffles unseen (the "
                "companion's: nobody handles its deck; the others' are drawn at the table)",
            ),
            Option(
                "unplayed_cards",
                "discard",
                ("discard", "keep"),
                "blue cards left in hand at the end of a turn: discarded as played (the reading of 'you play "
                "out your hand') or kept in hand (5 cards are drawn either way)",
                house_rule=True,
            ),
            Option(
                "necessary_change",
                "board",
                ("board", "any"),
                "box points made from amber after the necessary change: only to bring boxes or camps to the "
                "board (the rulebook's words) or, as a house rule, for every box use (moving boxes, "
                "stocking up)",
                house_rule=True,
            ),
            Option(
                "individual_buried_camps",
                False,
                (False, True),
                "Individual ratings: camps under other camps score too (reading the rulebook's 'Attention: "
                "This rule does not apply in this variant' as the top-camp rule; the engine reads it as the "
                "automatic scoring when setting up a camp)",
                house_rule=True,
            ),
            Option(
                "improve_itself",
                False,
                (False, True),
                "Improvement: the improvement card may remove itself (the reading: it removes another of "
                "the played cards)",
                house_rule=True,
            ),
            Option(
                "river_own_field",
                False,
                (False, True),
                "river scoring card: a camp standing on a river field counts too (the reading counts only "
                "camps next to a river field)",
                house_rule=True,
            ),
        )

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The common check, and true/false options must be true or false (1 == True would slip through)."""
        resolved = super().resolve_options(given)
        for option in self.options:
            value = resolved[option.name]
            if isinstance(option.default, bool) and not isinstance(value, bool):
                raise StateFormatError(f"option {option.name!r} must be true or false, not {value!r}")
        seats = resolved["dealt_seats"]
        if isinstance(seats, str) or not isinstance(seats, Sequence) or not all(
                isinstance(name, str) for name in seats):
            raise StateFormatError(f"option 'dealt_seats' must be a list of player names, not {seats!r:.60}")
        resolved["dealt_seats"] = tuple(sorted(set(seats)))  # one form, whichever way it was given
        return resolved

    def with_board(self, board: Board) -> IslaNublarGame:
        return IslaNublarGame(board, self.cards)

    # -- setup ------------------------------------------------------------------------------------------
    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> IslaNublarState:
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        rng = rng or random.Random(0)
        state = IslaNublarState(self, names, resolved)
        figures = ["DINO-1", "DINO-2", "DINO-3", "DINO-4"]
        rng.shuffle(figures)
        state.dinos = dict(sorted(zip(figures, self.board.volcanoes, strict=True)))
        cards = self.cards
        for card in cards.of_group("dinosaur"):
            add(state.dino_deck, card.card_id, card.count)
        scoring: dict[str, int] = {}
        for card in cards.of_group("scoring"):
            add(scoring, card.card_id, card.count)
        at_table = resolved["table_cards"] == "table"
        dealt = dealt_seats(resolved, names)
        state.row = [None if at_table else _draw(scoring, rng) for _ in range(5)]
        if resolved["individual_ratings"] or at_table:
            state.scoring_deck = scoring
        else:
            state.box = scoring
        for price, ids in cards.piles.items():
            rest: dict[str, int] = {}
            for card_id in ids:
                add(rest, card_id, cards.cards[card_id].count)
            state.piles[price] = {"top": None if at_table else _draw(rest, rng), "rest": rest}
        general = GENERAL_CAMPS[len(names)]
        on_tracks = len(CLIENTS) if resolved["clients"] else 0
        for p in names:
            deck: dict[str, int] = {}
            for card in cards.of_group("starting"):
                add(deck, card.card_id, card.count)
            hand: dict[str, int] = {}
            drawn_at_table = at_table and p not in dealt
            for _ in range(0 if drawn_at_table else HAND_SIZE):
                add(hand, _draw(deck, rng))
            state.zones[p]["hand"] = hand
            state.zones[p]["draw"] = deck
            if drawn_at_table:  # five cards drawn unseen: any five of the deck
                state.worlds[p] = every_draw(deck, HAND_SIZE)
                settle(state, p)
            state.personal[p] = {
                "boxes": BOXES_PER_PLAYER - on_tracks,
                "camps": CAMPS_PER_PLAYER - SCORE_MARKERS - general,
            }
            state.general[p] = {"boxes": 0, "camps": general}
        if resolved["clients"]:
            a_tiles = sorted(t.tile_id for t in cards.tiles.values() if t.tile_set == "A")
            b_tiles = sorted(t.tile_id for t in cards.tiles.values() if t.tile_set == "B")
            rng.shuffle(a_tiles)
            rng.shuffle(b_tiles)
            for i, client in enumerate(CLIENTS):
                finish = next(
                    t.tile_id for t in cards.tiles.values() if t.tile_set == "finish" and t.client == client
                )
                state.tracks[client] = [*a_tiles[3 * i : 3 * i + 3], *b_tiles[2 * i : 2 * i + 2], finish]
        if at_table:  # what the players lay is told as the table is set up: the figures on the volcanoes,
            # each pile's top, the scoring row
            state.dinos = dict.fromkeys(state.dinos)
            state.tasks = [PlaceDinosaurFigures(),
                           *(RevealPileCard(pile=price) for price in sorted(state.piles)),
                           *(RevealScoringCard(slot=slot) for slot in range(5)), BoxScoringCards()]
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> IslaNublarState:
        return state_from_dict(self, data)

    def action_from_dict(self, data: Any) -> Action:
        """An action from JSON, with every field of the type it declares (str or int, never a bool)."""
        action = self.codec.from_dict(data)
        for spec in dataclasses.fields(action):
            value = getattr(action, spec.name)
            wanted = _FIELD_TYPES.get(str(spec.type))
            if wanted is None:
                continue
            if not isinstance(value, wanted) or isinstance(value, bool):
                raise StateFormatError(
                    f"action {action.kind!r}: {spec.name} must be {_FIELD_NAMES[wanted]}, not {value!r}"
                )
        return action

    # -- rulings for the CLI ----------------------------------------------------------------------------
    def state_from_position(self, position: Any) -> IslaNublarState:
        return state_from_position(self, position)

    def report_state(self, data: Any) -> IslaNublarState:
        """A full engine state, or ``{"position": ...}`` (a drawn board, no hands)."""
        return report_state(self, data)

    def bot_policy(self) -> Policy:
        return bots.bot_policy

    def legal_report(self, data: Any) -> dict[str, Any]:
        return legal_report(self, data)

    def score_report(self, data: Any) -> dict[str, Any]:
        return score_report(self, data)
