"""One playthrough of Isla Nublar: board pieces, decks, the turn and its pending tasks, the legal actions,
scores, and the state as JSON (reading it is :mod:`engines.isla_nublar.codec`').

Pending work is an ordered list of typed tasks (:mod:`engines.isla_nublar.tasks` and
:mod:`engines.isla_nublar.dinosaurs`; the first decides who acts); the main phase's moves are
:mod:`engines.isla_nublar.moves`'.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, IllegalAction, Outcome, Rule, State
from engines.isla_nublar import actions as act
from engines.isla_nublar import redeal
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    BuyScoring,
    EndTurn,
    MoveBox,
    PlaceBox,
    PlayCard,
    StockUp,
)
from engines.isla_nublar.board import Board, default_board
from engines.isla_nublar.components import CAMP_COST, EGG, STACK_LIMIT, ZONES, Zone, size
from engines.isla_nublar.dinosaurs import check_end, run_automatic_tasks
from engines.isla_nublar.moves import apply_main
from engines.isla_nublar.scoring import score_card
from engines.isla_nublar.tasks import Task
from engines.isla_nublar.unseen import (
    NO_WORLD,
    UNSEEN,
    Bounds,
    Reckoning,
    at_table,
    could_hold,
    hand_size,
    may_hold,
    must_hold_one,
    physical_draw,
    unseen_hidden,
    unseen_in_hand,
)

if TYPE_CHECKING:
    from engines.isla_nublar.game import IslaNublarGame


class IslaNublarState(State):
    """Full state (engine's view). ``view(player)`` gives what one player may see."""

    def __init__(self, game: IslaNublarGame, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        self.game = game
        self._players = players
        self.options: dict[str, Any] = dict(options)
        self.board = game.board
        self.cards = game.cards
        self.camps: dict[str, list[str]] = {}
        self.boxes: dict[str, dict[str, int]] = {}
        self.dinos: dict[str, str | None] = {}
        self.zones: dict[str, dict[str, Zone]] = {p: {z: {} for z in ZONES} for p in players}
        self.personal: dict[str, dict[str, int]] = {p: {"boxes": 0, "camps": 0} for p in players}
        self.general: dict[str, dict[str, int]] = {p: {"boxes": 0, "camps": 0} for p in players}
        #: how the cards drawn at the table unseen may lie (:mod:`engines.isla_nublar.unseen`)
        self.worlds: dict[str, Reckoning] = {p: frozenset({NO_WORLD}) for p in players}
        self.score: dict[str, dict[str, int]] = {p: {} for p in players}
        self.piles: dict[int, dict[str, Any]] = {}
        self.dino_deck: Zone = {}
        self.row: list[str | None] = [None] * 5
        self.scoring_deck: Zone = {}
        self.box: Zone = {}
        self.tracks: dict[str, list[str]] = {}
        self.influence: dict[str, dict[str, int]] = {p: {} for p in players}
        self.active = 0
        self.turn = 1
        self.amber = 0
        self.box_points = 0
        #: the part of box_points made from amber after the necessary change: only for bringing boxes or
        #: camps to the board (placing, setting up), spent first there
        self.change_boxes = 0
        self.change = False
        self.ending = ""
        self.over = False
        self.tasks: list[Task] = []

    # -- basics -----------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def active_player(self) -> str:
        return self._players[self.active]

    def current_player(self) -> str:
        if self.over:
            return TERMINAL
        if self.tasks:
            task = self.tasks[0]
            return CHANCE if task.chance else task.player
        return self.active_player

    def clone(self) -> IslaNublarState:
        new = IslaNublarState.__new__(IslaNublarState)
        new.game = self.game
        new._players = self._players
        new.options = self.options
        new.board = self.board
        new.cards = self.cards
        new.camps = {f: s.copy() for f, s in self.camps.items()}
        new.boxes = {f: b.copy() for f, b in self.boxes.items()}
        new.dinos = self.dinos.copy()
        new.zones = {
            p: {
                "hand": zs["hand"].copy(),
                "draw": zs["draw"].copy(),
                "discard": zs["discard"].copy(),
                "played": zs["played"].copy(),
                "hidden": zs["hidden"].copy(),
            }
            for p, zs in self.zones.items()
        }
        new.personal = {p: s.copy() for p, s in self.personal.items()}
        new.general = {p: s.copy() for p, s in self.general.items()}
        new.worlds = dict(self.worlds)  # frozen: shared until replaced
        new.score = {p: s.copy() for p, s in self.score.items()}
        new.piles = {k: {"top": v["top"], "rest": v["rest"].copy()} for k, v in self.piles.items()}
        new.dino_deck = self.dino_deck.copy()
        new.row = self.row.copy()
        new.scoring_deck = self.scoring_deck.copy()
        new.box = self.box.copy()
        new.tracks = self.tracks
        new.influence = {p: i.copy() for p, i in self.influence.items()}
        new.active = self.active
        new.turn = self.turn
        new.amber = self.amber
        new.box_points = self.box_points
        new.change_boxes = self.change_boxes
        new.change = self.change
        new.ending = self.ending
        new.over = self.over
        new.tasks = [task.copy() for task in self.tasks]
        return new

    def illegal(self, rule_id: str, detail: str, **params: object) -> IllegalAction:
        return self.game.illegal(rule_id, detail, **params)

    def game_over_rule(self) -> Rule:
        return self.game.rule("IN-END")

    def total(self, player: str) -> int:
        return sum(self.score[player].values())

    def gain(self, player: str, part: str, points: int) -> None:
        if points:
            self.score[player][part] = self.score[player].get(part, 0) + points

    def has_dino(self, field: str) -> bool:
        return any(at == field for at in self.dinos.values())

    def occupied(self, field: str) -> bool:
        return bool(self.camps.get(field)) or any(n > 0 for n in self.boxes.get(field, {}).values())

    def card(self, card_id: str) -> Any:
        return self.cards.cards[card_id]

    def table_view(self) -> dict[str, Any]:
        """What a camera looking down can check: per occupied field the top camp's colour, the stack
        height and the boxes by colour; the field of each dinosaur figure (None while off the island)."""
        fields: dict[str, Any] = {}
        for fid in self.board.fields:
            stack = self.camps.get(fid, [])
            held = self.boxes.get(fid, {})
            if stack or held:
                fields[fid] = {"top": stack[-1] if stack else None, "height": len(stack), "boxes": dict(held)}
        return {"fields": fields, "dinosaurs": dict(self.dinos)}

    # -- scores -----------------------------------------------------------------------------------------
    def scores(self) -> Outcome:
        totals = {p: self.total(p) for p in self._players}
        best = max(totals.values())
        winners = tuple(p for p in self._players if totals[p] == best)
        reason = ""
        if self.over:
            reason = f"{self.ending}; the round was played to its end"
        elif self.ending:
            reason = f"ending: {self.ending}; the round is being finished"
        return Outcome(
            scores=totals,
            breakdown={p: dict(sorted(self.score[p].items())) for p in self._players},
            winners=winners,
            reason=reason,
            tiebreak={"rule": "IN-TIE", "shared": list(winners)} if len(winners) > 1 else {},
        )

    def scoring_card_points(self, card_id: str, player: str) -> int:
        card = self.card(card_id)
        river_own = bool(self.options.get("river_own_field", False))
        buried = bool(
            self.options["individual_ratings"] and self.options.get("individual_buried_camps", False)
        )
        return score_card(self.board, card.scoring, self.camps, self.boxes, player, river_own, buried)

    # -- chance -----------------------------------------------------------------------------------------
    # -- legal actions ----------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.tasks or not self.tasks[0].chance:
            return []
        return self.tasks[0].outcomes(self)

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        if self.tasks:
            task = self.tasks[0]
            return [action for action, _ in task.outcomes(self)] if task.chance else list(task.choices(self))
        return self._main_actions()

    def _main_actions(self) -> list[Action]:
        p = self.active_player
        found: list[Action] = []
        for card_id in sorted(could_hold(self, p)):
            for use in self.uses(p, card_id):
                found.append(_play_card(p, card_id, use))
        if self.amber:
            for price, pile in self.piles.items():
                if pile["top"] is not None and price <= self.amber:
                    found.append(Buy(player=p, pile=price))
            if self.options["individual_ratings"]:
                for slot, in_slot in enumerate(self.row):
                    if in_slot is not None and self.card(in_slot).cost <= self.amber:
                        found.append(BuyScoring(player=p, slot=slot))
        if self.box_points:
            self._add_box_actions(p, found)
        if not self.red_in_hand(p) and not self.unknown_left_in_hand(p):
            found.append(EndTurn(player=p))
        return found

    def _add_box_actions(self, p: str, found: list[Action]) -> None:
        """Append the box-point actions in a fixed order: place, move, set up a camp, stock up.

        Fields are in board order; the actions over all of the land come from caches and are filtered only
        when a dinosaur stands on the land (nothing may be placed there).
        """
        board = self.board
        land = board.land
        blocked = {at for at in self.dinos.values() if at is not None and at in board.land_index}
        if self.personal[p]["boxes"]:
            places = _place_boxes(p, land)
            found.extend(places if not blocked else [a for a in places if a.field not in blocked])
        free = self.box_points - self.change_boxes  # points that may also move boxes or stock up
        boxes = self.boxes
        if free:
            origins = [f for f, held in boxes.items() if held.get(p, 0) > 0 and f not in blocked]
            origins.sort(key=board.land_index.__getitem__)
            for origin in origins:
                moves = _move_boxes(p, origin, land)
                found.extend(moves if not blocked else [a for a in moves if a.target not in blocked])
        if self.personal[p]["camps"]:
            camps = self.camps
            points = self.box_points
            plain = _camps_without_saved_boxes(p, land)
            for index, f in enumerate(land):
                if f in blocked:
                    continue
                stack = camps.get(f)
                if stack and len(stack) >= STACK_LIMIT:
                    continue
                held = boxes.get(f)
                own = held.get(p, 0) if held else 0
                if not own:
                    if points >= CAMP_COST:
                        found.append(plain[index])
                    continue
                for back in range(own + 1):
                    if max(0, CAMP_COST - back) <= points:
                        found.append(_build_camp(p, f, back))
        if free:
            general = self.general[p]
            if general["boxes"]:
                found.append(_stock_up(p, "box"))
            if general["camps"]:
                found.append(_stock_up(p, "camp"))

    def uses(self, p: str, card_id: str) -> list[str]:
        """The ways ``p`` may play ``card_id`` from hand right now (main phase)."""
        card = self.card(card_id)
        if card.group == "dinosaur":
            return ["dinosaur"]
        if card_id == EGG:
            return ["egg"]
        found = ["none"]
        if card.group == "scoring":
            if self.options["individual_ratings"]:
                found.append("scoring")
            return found
        for do, _ in card.actions:
            if do != "defence":
                found.append(do)
        if self.change and card.value("amber"):
            found.append("amber-as-boxes")
        if self.options["clients"] and card.client and self._can_influence(p, card.client):
            found.append("influence")
        return found

    def _can_influence(self, p: str, client: str) -> bool:
        return self.influence[p].get(client, 0) < len(self.tracks.get(client, ()))

    def red_cards(self) -> set[str]:
        return {card_id for card_id, card in self.cards.cards.items() if card.red}

    def red_in_hand(self, p: str) -> bool:
        """Whether every hand the table allows holds a red card (the turn cannot end)."""
        return must_hold_one(self, p, self.red_cards())

    def red_maybe_in_hand(self, p: str) -> bool:
        """Whether some hand the table allows holds a red card the engine cannot see (the page says: if
        you hold a red card, play it)."""
        return not self.red_in_hand(p) and may_hold(self, p, self.red_cards())

    def unknown_left_in_hand(self, p: str) -> int:
        """Cards drawn unseen still in hand when the turn would end by playing out the hand (each must be
        laid face up first, so that the engine knows what goes to the discards)."""
        if self.options.get("unplayed_cards", "discard") != "discard":
            return 0
        return unseen_in_hand(self, p)

    def empty_volcanoes(self) -> list[str]:
        taken = set(self.dinos.values())
        return [v for v in self.board.volcanoes if v not in taken]

    def dino_path(self, dino: str, steps: int, direction: str) -> tuple[str, str | None] | str:
        """Where ``steps`` straight steps take ``dino``: ("stop"|"hit", field), ("off", None), or why not."""
        here = self.dinos.get(dino)
        if here is None:
            return f"{dino} is not on the island"
        for step in range(1, steps + 1):
            nxt = self.board.next_field(here, direction)
            if nxt is None:
                if direction in ("S", "SE", "SW") and self.board.fields[here].area == 4:
                    if step == steps:
                        return ("off", None)
                    return f"{dino} leaves the island with step {step}; the move ends there"
                return (
                    f"{dino} reaches the island's edge at {here} after {step - 1} steps; the move ends there"
                )
            here = nxt
            if self.occupied(here) and step < steps:
                return f"{dino} may not skip the occupied field {here}"
        return ("hit" if self.occupied(here) else "stop", here)

    # -- applying ---------------------------------------------------------------------------------------
    def _apply_in_place(self, action: Action) -> None:
        if self.tasks:
            self.tasks[0].apply(self, action)
        else:
            apply_main(self, action)
        run_automatic_tasks(self)
        check_end(self)

    # -- pending decisions ------------------------------------------------------------------------------
    # -- views and serialization ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def view(self, player: str | None = None) -> dict[str, Any]:
        return state_view(self, player)

    def resample_from_view(self, player: str, rng: random.Random) -> IslaNublarState:
        if player not in self._players:
            raise ValueError(f"{player!r} is not a player of this game")
        return redeal.resample(self, player, rng)

    def rules_for(self, action: Action) -> list[Rule]:
        return [self.game.rule(r) for r in rules_for_action(action)]

    def losers(self, field: str) -> list[str]:
        """Who would lose pieces if a dinosaur ends on ``field``: all box owners, else the top camp's."""
        held = self.boxes.get(field, {})
        if held:
            return [q for q in self._players if held.get(q, 0) > 0]
        stack = self.camps.get(field)
        return [stack[-1]] if stack else []

    # -- automatic steps --------------------------------------------------------------------------------
    # -- views and serialization ------------------------------------------------------------------------

# Listing legal actions builds thousands of identical small objects per game; they are frozen, so share them.
_build_camp = lru_cache(maxsize=1 << 16)(BuildCamp)
_play_card = lru_cache(maxsize=1 << 16)(PlayCard)
_stock_up = lru_cache(maxsize=64)(StockUp)


# keyed by the board's land (a tuple of field ids), so a state carrying its own board gets its own entries
@lru_cache(maxsize=64)
def _place_boxes(p: str, land: tuple[str, ...]) -> tuple[PlaceBox, ...]:
    return tuple(PlaceBox(player=p, field=f) for f in land)


@lru_cache(maxsize=1 << 12)
def _move_boxes(p: str, origin: str, land: tuple[str, ...]) -> tuple[MoveBox, ...]:
    return tuple(MoveBox(player=p, origin=origin, target=t) for t in land if t != origin)


@lru_cache(maxsize=64)
def _camps_without_saved_boxes(p: str, land: tuple[str, ...]) -> tuple[BuildCamp, ...]:
    return tuple(BuildCamp(player=p, field=f, take_back=0) for f in land)


def _sorted_zone(zone: Mapping[str, int]) -> dict[str, int]:
    return {card: zone[card] for card in sorted(zone)}


def saved_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as a saved state keeps them: JSON's lists, and no ``dealt_seats`` where the engine deals
    no seat at a real table (the states saved before there was such an option read the same)."""
    saved = {name: list(value) if isinstance(value, tuple) else value for name, value in options.items()}
    if not saved.get("dealt_seats"):
        saved.pop("dealt_seats", None)
    return saved


def state_to_dict(state: IslaNublarState) -> dict[str, Any]:
    board = state.board
    return {
        **state.header(),
        "board": "default" if _is_default(board) else board.to_dict(),
        "players": list(state.players),
        "options": saved_options(state.options),
        "active": state.active_player,
        "turn": state.turn,
        "ending": state.ending,
        "over": state.over,
        "pools": {
            "amber": state.amber,
            "boxes": state.box_points,
            "boxes_from_amber": state.change_boxes,
            "necessary_change": state.change,
        },
        "fields": {
            fid: {
                **({"camps": list(state.camps[fid])} if state.camps.get(fid) else {}),
                **({"boxes": _sorted_zone(state.boxes[fid])} if state.boxes.get(fid) else {}),
            }
            for fid in board.fields
            if state.camps.get(fid) or state.boxes.get(fid)
        },
        "dinosaurs": dict(sorted(state.dinos.items())),
        "supply": {
            p: {"personal": dict(state.personal[p]), "general": dict(state.general[p])} for p in state.players
        },
        "score": {p: _sorted_zone(state.score[p]) for p in state.players},
        "cards": {p: _cards_of(state, p) for p in state.players},
        "piles": {
            str(price): {"top": pile["top"], "rest": _sorted_zone(pile["rest"])}
            for price, pile in state.piles.items()
        },
        "dinosaur_deck": _sorted_zone(state.dino_deck),
        "scoring_row": list(state.row),
        "scoring_deck": _sorted_zone(state.scoring_deck),
        "box": _sorted_zone(state.box),
        "clients": {
            "tracks": {c: list(t) for c, t in state.tracks.items()},
            "influence": {p: dict(sorted(state.influence[p].items())) for p in state.players},
        },
        "tasks": [task.to_dict() for task in state.tasks],
    }


def _cards_of(state: IslaNublarState, p: str) -> dict[str, Any]:
    cards: dict[str, Any] = {z: _sorted_zone(state.zones[p][z]) for z in ZONES}
    found = state.worlds[p]
    if isinstance(found, Bounds):
        cards["bounds"] = {"hand": dict(found.hand), "hidden": dict(found.hidden),
                           "in_hand": found.in_hand, "in_hideout": found.in_hideout}
        if found.floor:
            cards["bounds"]["floor"] = dict(found.floor)
    elif found != frozenset({NO_WORLD}):
        cards["worlds"] = [{"hand": dict(hand), "hidden": dict(hidden)} for hand, hidden in sorted(found)]
    return cards


def _is_default(board: Board) -> bool:
    """The shipped board (or an unchanged copy of it); a corrected copy keeping the header is not."""
    shipped = default_board()
    return board is shipped or board.to_dict() == shipped.to_dict()


def state_view(state: IslaNublarState, player: str | None) -> dict[str, Any]:
    """What ``player`` may see: hands and hideouts of others, every draw pile and face-down deck as counts."""
    data = state_to_dict(state)
    for p, zones in data["cards"].items():
        zones.pop("worlds", None)
        zones.pop("bounds", None)  # what the unseen cards may be: the engine's reckoning, nobody's view
        if p == player and unseen_in_hand(state, p):
            zones["unseen"] = unseen_in_hand(state, p)
        if p != player:
            zones["hand"] = {"count": hand_size(state, p)}
            zones["hidden"] = {"count": size(zones["hidden"]) + unseen_hidden(state, p)}
        zones["draw"] = {"count": physical_draw(state, p)}
    for pile in data["piles"].values():
        pile["rest"] = {"count": size(pile["rest"])}
    data["dinosaur_deck"] = {"count": size(data["dinosaur_deck"])}
    data["scoring_deck"] = {"count": size(data["scoring_deck"])}
    data["box"] = {"count": size(data["box"])}
    for task in data["tasks"]:
        # cards being picked are still in the hand: only their number shows until they leave it
        if task["t"] == "select" and task["player"] != player:
            task["chosen"] = {"count": size(task["chosen"])}
    if player is None and at_table(state) and not state.over:
        data["table_hand"] = table_hand(state)
    data["viewer"] = player
    return data


#: the moves that take a card from the hand (the others naming a card name one lying face up)
HAND_KINDS = frozenset({"play", "select", "defend"})


def table_hand(state: IslaNublarState) -> dict[str, Any] | None:
    """At a real table the engine knows no more than the table showed: the cards the deciding player's
    hand may hold (those every way agrees on first), the moves naming one of them, and whether a red card
    may or must still be played before the turn ends. Nothing here is hidden from anyone at the table."""
    if state.tasks and state.tasks[0].chance:
        return None
    p = state.tasks[0].player if state.tasks else state.active_player
    if not at_table(state, p):  # a seat the engine deals: its hand is its own, shown to nobody
        return None
    known = state.zones[p]["hand"]
    moves = [data for action in state.legal_actions() if (data := action.to_dict())["kind"] in HAND_KINDS]
    # the cards the table showed first, then "a card face down" (a hideout pick), then what the unseen may be
    moves.sort(key=lambda m: 0 if m["card"] in known else 1 if m["card"] == UNSEEN else 2)
    return {"player": p, "known": _sorted_zone(known), "moves": moves,
            "red_certain": not state.tasks and state.red_in_hand(p),
            "red_maybe": not state.tasks and state.red_maybe_in_hand(p)}


RULES_OF_KIND = {
    "play": ["IN-ONE-ACTION"],
    "buy": ["IN-BUY", "IN-SURPLUS"],
    "buy-scoring": ["IN-INDIVIDUAL"],
    "place-box": ["IN-BOXES"],
    "move-box": ["IN-BOXES"],
    "build-camp": ["IN-CAMP", "IN-CAMP-SAVE", "IN-AREA", "IN-SCORING"],
    "stock-up": ["IN-STOCK"],
    "end-turn": ["IN-DRAW", "IN-RED", "IN-END"],
    "select": ["IN-PHASE"],
    "finish": ["IN-PHASE"],
    "divert": ["IN-DIVERSION"],
    "improve": ["IN-IMPROVE"],
    "move-camp": ["IN-MOVE-CAMP"],
    "remove-camp": ["IN-CLIENTS"],
    "retrieve": ["IN-CLIENTS"],
    "move-dinosaur": ["IN-DINO-MOVE", "IN-DINO-END"],
    "swap-dinosaurs": ["IN-CLIENTS"],
    "defend": ["IN-DEFENCE"],
    "decline": ["IN-DEFENCE"],
    "return-dinosaur": ["IN-DINO-END"],
    "choose-scoring": ["IN-SCORING", "IN-TOP-CAMP"],
    "draw": ["IN-DRAW"],
    "reveal-dinosaur": ["IN-EGG"],
    "place-dinosaurs": ["IN-SETUP"],
    "reveal-pile": ["IN-BUY"],
    "reveal-scoring": ["IN-INDIVIDUAL"],
}
USE_RULES = {
    "hideout": "IN-HIDEOUT",
    "inventory": "IN-INVENTORY",
    "wear": "IN-WEAR",
    "replenish": "IN-REPLENISH",
    "change": "IN-CHANGE",
    "amber-as-boxes": "IN-CHANGE",
    "improve": "IN-IMPROVE",
    "move_camp": "IN-MOVE-CAMP",
    "diversion": "IN-DIVERSION",
    "egg": "IN-EGG",
    "dinosaur": "IN-DINO-MOVE",
    "influence": "IN-CLIENTS",
    "scoring": "IN-INDIVIDUAL",
    "amber": "IN-SURPLUS",
    "boxes": "IN-SURPLUS",
}


def rules_for_action(action: Action) -> list[str]:
    rules = list(RULES_OF_KIND.get(action.kind, []))
    if isinstance(action, act.PlayCard) and action.use in USE_RULES:
        rules.append(USE_RULES[action.use])
    return rules
