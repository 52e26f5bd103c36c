"""One playthrough of Isla Nublar: board pieces, decks, the turn and its pending choices.

Pending work is an ordered task list (``tasks``; the first task decides who acts). Chance tasks (drawing from
a face-down pile, revealing a dinosaur card or the next card of a buy pile) make the state a chance node;
decision tasks (how far a dinosaur runs, who defends, which scoring card to use, which cards to hide...) let
only their choices through; automatic tasks (finishing a turn, a dinosaur hit) run as soon as they are first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, IllegalAction, Outcome, Rule, State
from engines.isla_nublar.actions import (
    BuildCamp,
    Buy,
    BuyScoring,
    ChooseScoring,
    Decline,
    Defend,
    Divert,
    Draw,
    EndTurn,
    Finish,
    Improve,
    MoveBox,
    MoveCamp,
    MoveDinosaur,
    PlaceBox,
    PlayCard,
    RemoveCamp,
    Retrieve,
    ReturnDinosaur,
    RevealDinosaur,
    RevealPile,
    RevealScoring,
    Select,
    StockUp,
    SwapDinosaurs,
)
from engines.isla_nublar.board import DIRECTIONS
from engines.isla_nublar.cards import EGG
from engines.isla_nublar.scoring import score_card

if TYPE_CHECKING:
    from engines.isla_nublar.game import IslaNublarGame

Zone = dict[str, int]
ZONES = ("hand", "draw", "discard", "played", "hidden")
BOXES_PER_PLAYER = 6
CAMPS_PER_PLAYER = 9
HAND_SIZE = 5
CAMP_COST = 4
STACK_LIMIT = 3
SCORE_MARKERS = 1
CHANCE_TASKS = ("draw", "reveal-dino", "reveal-pile", "reveal-scoring")
AUTO_TASKS = ("hit", "finish-turn", "pass")
OPTIONAL_TASKS = ("select", "remove-one", "divert", "improve", "move-camp", "remove-camp", "retrieve", "swap")


def add(zone: Zone, card: str, count: int = 1) -> None:
    zone[card] = zone.get(card, 0) + count


def take(zone: Zone, card: str, count: int = 1) -> None:
    left = zone.get(card, 0) - count
    if left < 0:
        raise KeyError(card)
    if left:
        zone[card] = left
    else:
        del zone[card]


def size(zone: Mapping[str, int]) -> int:
    return sum(zone.values())


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
        self.tasks: list[dict[str, Any]] = []

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
            if task["t"] in CHANCE_TASKS:
                return CHANCE
            return str(task["player"])
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
        new.tasks = [_copy_task(t) for t in self.tasks]
        return new

    def illegal(self, rule_id: str, detail: str) -> IllegalAction:
        return self.game.illegal(rule_id, detail)

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
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.tasks or self.tasks[0]["t"] not in CHANCE_TASKS:
            return []
        task = self.tasks[0]
        kind = task["t"]
        if kind == "draw":
            pool = self.zones[task["player"]]["draw"]
            n = size(pool)
            return [(Draw(player=task["player"], card=c), k / n) for c, k in sorted(pool.items())]
        if kind == "reveal-dino":
            n = size(self.dino_deck)
            return [(RevealDinosaur(card=c), k / n) for c, k in sorted(self.dino_deck.items())]
        if kind == "reveal-pile":
            rest = self.piles[task["pile"]]["rest"]
            n = size(rest)
            return [(RevealPile(pile=task["pile"], card=c), k / n) for c, k in sorted(rest.items())]
        n = size(self.scoring_deck)
        return [
            (RevealScoring(slot=task["slot"], card=c), k / n) for c, k in sorted(self.scoring_deck.items())
        ]

    # -- legal actions ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        if self.tasks:
            if self.tasks[0]["t"] in CHANCE_TASKS:
                return [action for action, _ in self.chance_outcomes()]
            return list(self._task_actions(self.tasks[0]))
        return self._main_actions()

    def _main_actions(self) -> list[Action]:
        p = self.active_player
        hand = self.zones[p]["hand"]
        found: list[Action] = []
        for card_id in sorted(hand):
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
        if not self._red_in_hand(p):
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

    def _red_in_hand(self, p: str) -> bool:
        return any(self.card(c).red for c in self.zones[p]["hand"])

    def _task_actions(self, task: dict[str, Any]) -> Iterator[Action]:
        kind = task["t"]
        p = task["player"]
        if kind in OPTIONAL_TASKS and self._may_finish(task):
            yield Finish(player=p)
        if kind == "dino-move":
            if task["optional"]:
                yield Finish(player=p)
            yield from self._dino_moves(task)
        elif kind == "defence":
            for card_id in sorted(self.zones[p]["hand"]):
                if self.card(card_id).value("defence") is not None:
                    yield Defend(player=p, card=card_id)
            yield Decline(player=p)
        elif kind == "return":
            for v in self._empty_volcanoes():
                yield ReturnDinosaur(player=p, volcano=v)
        elif kind == "choose-scoring":
            for slot in range(3):
                if self.row[slot] is not None:
                    yield ChooseScoring(player=p, slot=slot)
        elif kind == "select":
            if task["purpose"] == "three" and size(task["chosen"]) >= 3:
                return
            for card_id in sorted(self._selectable(task)):
                yield Select(player=p, card=card_id)
        elif kind == "remove-one":
            for card_id in sorted(self.zones[p]["hand"]):
                if card_id != EGG:
                    yield Select(player=p, card=card_id)
        elif kind == "divert":
            for dino in sorted(self.dinos):
                for v in self._empty_volcanoes():
                    yield Divert(player=p, dinosaur=dino, volcano=v)
        elif kind == "improve":
            for card_id in sorted(self._improvable(task)):
                yield Improve(player=p, card=card_id, pile=0)
                cost = self.card(card_id).cost
                for price, pile in self.piles.items():
                    if pile["top"] is not None and self.card(pile["top"]).cost <= cost + task["extra"]:
                        yield Improve(player=p, card=card_id, pile=price)
        elif kind == "move-camp":
            targets = [f for f, fl in self.board.fields.items() if not fl.volcano and not self.has_dino(f)]
            for origin in targets:
                stack = self.camps.get(origin, [])
                for level, owner in enumerate(stack):
                    if owner != p:
                        continue
                    if level < len(stack) - 1:
                        yield MoveCamp(player=p, origin=origin, level=level, target=origin)
                    for target in targets:
                        if target != origin and len(self.camps.get(target, ())) < STACK_LIMIT:
                            yield MoveCamp(player=p, origin=origin, level=level, target=target)
        elif kind == "remove-camp":
            for f, stack in sorted(self.camps.items()):
                for level, owner in enumerate(stack):
                    if owner == p and not self.has_dino(f):
                        yield RemoveCamp(player=p, field=f, level=level)
        elif kind == "retrieve":
            for origin in ("played", "discard"):
                for card_id in sorted(self.zones[p][origin]):
                    yield Retrieve(player=p, card=card_id, origin=origin)
        elif kind == "swap":
            names = sorted(self.dinos)
            for i, first in enumerate(names):
                for second in names[i + 1 :]:
                    yield SwapDinosaurs(player=p, first=first, second=second)

    @staticmethod
    def _may_finish(task: dict[str, Any]) -> bool:
        return task["t"] != "select" or task["purpose"] != "three" or size(task["chosen"]) in (0, 3)

    def _selectable(self, task: dict[str, Any]) -> Zone:
        hand = dict(self.zones[task["player"]]["hand"])
        if task["purpose"] in ("three", "remove-any"):
            hand.pop(EGG, None)
            if task["purpose"] == "three" and size(hand) < 3:
                return {}  # exactly 3 cannot be removed: only declining is left
        for card_id, n in task["chosen"].items():
            take(hand, card_id, n)
        return hand

    def _improvable(self, task: dict[str, Any]) -> list[str]:
        played = dict(self.zones[task["player"]]["played"])
        if task.get("exclude"):
            take(played, task["exclude"])
        played.pop(EGG, None)
        return list(played)

    def _empty_volcanoes(self) -> list[str]:
        taken = set(self.dinos.values())
        return [v for v in self.board.volcanoes if v not in taken]

    def _dino_moves(self, task: dict[str, Any]) -> Iterator[Action]:
        p = task["player"]
        dinos = [task["dino"]] if task["dino"] else sorted(self.dinos)
        for dino in dinos:
            if self.dinos.get(dino) is None:
                continue
            for direction in task["dirs"]:
                for steps in range(1, task["max"] + 1):
                    outcome = self.dino_path(dino, steps, direction)
                    if isinstance(outcome, str):
                        break
                    yield MoveDinosaur(player=p, dinosaur=dino, steps=steps, direction=direction)
                    if outcome[0] != "stop":
                        break

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
            task = self.tasks[0]
            if task["t"] in CHANCE_TASKS:
                self._apply_chance(task, action)
            else:
                self._apply_task(task, action)
        else:
            self._apply_main(action)
        self._settle()

    def _need_player(self, action: Action, expected: str) -> None:
        who = getattr(action, "player", None)
        if who != expected:
            raise self.illegal("IN-TURN", f"it is {expected}'s move, not {who!r}'s")

    def _apply_chance(self, task: dict[str, Any], action: Action) -> None:
        kind = task["t"]
        if kind == "draw" and isinstance(action, Draw) and action.player == task["player"]:
            zones = self.zones[action.player]
            if zones["draw"].get(action.card, 0) < 1:
                raise self.illegal("IN-DRAW", f"{action.card} is not in {action.player}'s draw pile")
            take(zones["draw"], action.card)
            add(zones["hand"], action.card)
            task["n"] -= 1
            if task["n"] <= 0:
                self.tasks.pop(0)
            return
        if kind == "reveal-dino" and isinstance(action, RevealDinosaur):
            if self.dino_deck.get(action.card, 0) < 1:
                raise self.illegal("IN-EGG", f"{action.card} is not in the dinosaur deck")
            take(self.dino_deck, action.card)
            p = task["player"]
            add(self.zones[p]["played"], action.card)
            self.tasks[0] = self._dino_task(p, str(self.card(action.card).figure))
            return
        if kind == "reveal-pile" and isinstance(action, RevealPile) and action.pile == task["pile"]:
            pile = self.piles[action.pile]
            if pile["rest"].get(action.card, 0) < 1:
                raise self.illegal("IN-BUY", f"{action.card} is not in the {action.pile}-amber pile")
            take(pile["rest"], action.card)
            pile["top"] = action.card
            self.tasks.pop(0)
            return
        if kind == "reveal-scoring" and isinstance(action, RevealScoring) and action.slot == task["slot"]:
            if self.scoring_deck.get(action.card, 0) < 1:
                raise self.illegal("IN-INDIVIDUAL", f"{action.card} is not in the face-down scoring pile")
            take(self.scoring_deck, action.card)
            self.row[action.slot] = action.card
            self.tasks.pop(0)
            return
        raise self.illegal("IN-PHASE", f"a face-down card must be revealed first ({kind}), not {action.kind}")

    def _dino_task(
        self,
        p: str,
        figure: str | None,
        dirs: tuple[str, ...] = ("S",),
        most: int = 3,
        optional: bool = False,
    ) -> dict[str, Any]:
        return {
            "t": "dino-move",
            "player": p,
            "dino": figure,
            "dirs": list(dirs),
            "max": most,
            "optional": optional,
        }

    def _apply_main(self, action: Action) -> None:
        p = self.active_player
        self._need_player(action, p)
        if isinstance(action, PlayCard):
            self._play(p, action)
        elif isinstance(action, Buy):
            pile = self.piles.get(action.pile)
            if pile is None or pile["top"] is None:
                raise self.illegal("IN-BUY", f"there is no card on a {action.pile}-amber pile")
            if self.amber < action.pile:
                raise self.illegal("IN-SURPLUS", f"{self.amber} amber played, the card costs {action.pile}")
            self.amber -= action.pile
            add(self.zones[p]["discard"], pile["top"])
            pile["top"] = None
            if pile["rest"]:
                self.tasks.append({"t": "reveal-pile", "pile": action.pile})
        elif isinstance(action, BuyScoring):
            if not self.options["individual_ratings"]:
                raise self.illegal(
                    "IN-BUY", "scoring cards are bought only in the Individual ratings variant"
                )
            if not 0 <= action.slot < 5 or self.row[action.slot] is None:
                raise self.illegal("IN-INDIVIDUAL", f"no scoring card in slot {action.slot}")
            card_id = str(self.row[action.slot])
            if self.amber < self.card(card_id).cost:
                raise self.illegal(
                    "IN-SURPLUS", f"{self.amber} amber played, {card_id} costs {self.card(card_id).cost}"
                )
            self.amber -= self.card(card_id).cost
            self.gain(p, "scoring cards", self.scoring_card_points(card_id, p))
            add(self.zones[p]["discard"], card_id)
            self.row[action.slot] = None
        elif isinstance(action, PlaceBox | MoveBox | BuildCamp | StockUp):
            self._box_action(p, action)
        elif isinstance(action, EndTurn):
            if self._red_in_hand(p):
                raise self.illegal("IN-RED", "a red card (dinosaur egg or dinosaur card) is still in hand")
            zones = self.zones[p]
            # "you play out your hand": blue cards still in hand count as played without their action
            zones_out = (
                ("played", "hand")
                if self.options.get("unplayed_cards", "discard") == "discard"
                else ("played",)
            )
            for zone in zones_out:
                for card_id, n in zones[zone].items():
                    add(zones["discard"], card_id, n)
                zones[zone] = {}
            self.tasks.append({"t": "draw", "player": p, "n": HAND_SIZE})
            self.tasks.append({"t": "finish-turn", "player": p})
        else:
            raise self.illegal("IN-PHASE", f"{action.kind} is not a move of the main phase")

    def _play(self, p: str, action: PlayCard) -> None:
        zones = self.zones[p]
        if action.card not in self.cards.cards or zones["hand"].get(action.card, 0) < 1:
            raise self.illegal("IN-TURN", f"{action.card} is not in {p}'s hand")
        allowed = self.uses(p, action.card)
        if action.use not in allowed:
            card = self.card(action.card)
            rule = (
                "IN-RED"
                if card.red
                else "IN-CLIENTS"
                if action.use == "influence"
                else ("IN-CHANGE" if action.use == "amber-as-boxes" else "IN-ONE-ACTION")
            )
            if action.use == "defence":
                rule = "IN-DEFENCE"
            raise self.illegal(
                rule, f"{action.card} cannot be used for {action.use!r} now (allowed: {', '.join(allowed)})"
            )
        card = self.card(action.card)
        take(zones["hand"], action.card)
        add(zones["played"], action.card)
        use = action.use
        if use == "amber":
            self.amber += int(card.value("amber") or 0)
        elif use == "amber-as-boxes":
            self.box_points += int(card.value("amber") or 0)
            if self.options.get("necessary_change", "board") == "board":
                self.change_boxes += int(card.value("amber") or 0)
        elif use == "boxes":
            self.box_points += int(card.value("boxes") or 0)
        elif use == "change":
            self.change = True
        elif use == "replenish":
            self.tasks.append({"t": "draw", "player": p, "n": int(card.value("replenish") or 0)})
        elif use == "hideout":
            self.tasks.append({"t": "select", "player": p, "purpose": "hideout", "chosen": {}, "extra": 0})
        elif use == "inventory":
            self.tasks.append({"t": "select", "player": p, "purpose": "inventory", "chosen": {}, "extra": 1})
        elif use == "wear":
            self.tasks.append({"t": "remove-one", "player": p, "purpose": "wear"})
        elif use == "diversion":
            self.tasks.append({"t": "divert", "player": p, "draw": 0})
        elif use == "improve":
            # the reading: "your played cards" are the others (option improve_itself: this one too)
            exclude = None if self.options.get("improve_itself", False) else action.card
            self.tasks.append({"t": "improve", "player": p, "extra": 2, "exclude": exclude})
        elif use == "move_camp":
            self.tasks.append({"t": "move-camp", "player": p})
        elif use == "egg":
            self.tasks.append({"t": "reveal-dino", "player": p})
        elif use == "dinosaur":
            self.tasks.append(self._dino_task(p, card.figure))
        elif use == "scoring":
            self.gain(p, "scoring cards", self.scoring_card_points(action.card, p))
        elif use == "influence":
            self._influence(p, str(card.client))

    def _box_action(self, p: str, action: Action) -> None:
        if self.box_points < 1:
            raise self.illegal("IN-SURPLUS", "no box points left this turn (play a card with the box symbol)")
        fields = self.board.fields
        if isinstance(action, StockUp | MoveBox) and self.box_points - self.change_boxes < 1:
            raise self.illegal(
                "IN-CHANGE",
                "box points made from amber (the necessary change) only bring boxes or camps to the board",
            )
        if isinstance(action, StockUp):
            piece = {"box": "boxes", "camp": "camps"}.get(action.piece)
            if piece is None:
                raise self.illegal("IN-STOCK", f"a piece is 'box' or 'camp', not {action.piece!r}")
            if self.general[p][piece] < 1:
                raise self.illegal("IN-STOCK", f"no {action.piece} of {p} in the general supply")
            self.general[p][piece] -= 1
            self.personal[p][piece] += 1
            self.box_points -= 1
            return
        target = action.target if isinstance(action, MoveBox) else getattr(action, "field", "")
        if target not in fields:
            raise self.illegal("IN-BOXES", f"unknown field {target!r}")
        if fields[target].volcano:
            raise self.illegal(
                "IN-CAMP" if isinstance(action, BuildCamp) else "IN-BOXES", f"{target} is a volcano"
            )
        if self.has_dino(target):
            rule = {MoveBox: "IN-DEFENCE", BuildCamp: "IN-CAMP"}.get(type(action), "IN-BOXES")
            raise self.illegal(rule, f"a dinosaur stands on {target}")
        if isinstance(action, PlaceBox):
            if self.personal[p]["boxes"] < 1:
                raise self.illegal("IN-BOXES", f"{p} has no box in the personal supply")
            self.personal[p]["boxes"] -= 1
            held = self.boxes.setdefault(target, {})
            held[p] = held.get(p, 0) + 1
            self.box_points -= 1
            self.change_boxes = max(0, self.change_boxes - 1)
        elif isinstance(action, MoveBox):
            origin = action.origin
            if origin not in fields or self.boxes.get(origin, {}).get(p, 0) < 1:
                raise self.illegal("IN-BOXES", f"{p} has no box on {origin!r}")
            if origin == target:
                raise self.illegal("IN-BOXES", "a box moves from one field to another")
            if self.has_dino(origin):
                raise self.illegal("IN-DEFENCE", f"a dinosaur stands on {origin}: nothing may leave it")
            self._take_boxes(origin, p, 1)
            held = self.boxes.setdefault(target, {})
            held[p] = held.get(p, 0) + 1
            self.box_points -= 1
        elif isinstance(action, BuildCamp):
            if self.personal[p]["camps"] < 1:
                raise self.illegal("IN-CAMP", f"{p} has no camp in the personal supply")
            stack = self.camps.get(target, [])
            if len(stack) >= STACK_LIMIT:
                raise self.illegal("IN-CAMP", f"{target} already holds {STACK_LIMIT} camps")
            own = self.boxes.get(target, {}).get(p, 0)
            if not 0 <= action.take_back <= own:
                raise self.illegal(
                    "IN-CAMP-SAVE", f"{p} has {own} boxes on {target}, cannot take back {action.take_back}"
                )
            cost = max(0, CAMP_COST - action.take_back)
            if cost > self.box_points:
                raise self.illegal("IN-CAMP", f"a camp costs {cost} more box points, {self.box_points} left")
            self._take_boxes(target, p, action.take_back)
            self.personal[p]["boxes"] += action.take_back
            self.box_points -= cost
            self.change_boxes = max(0, self.change_boxes - cost)
            self.camps.setdefault(target, []).append(p)
            self.personal[p]["camps"] -= 1
            self.gain(p, "camp areas", self.board.camp_points[fields[target].area])
            if self.personal[p]["camps"] == 0 and not self.ending:
                self.ending = f"{p} set up the last camp of the personal supply"
            if not self.options["individual_ratings"] and any(self.row[:3]):
                self.tasks.append({"t": "choose-scoring", "player": p})

    def _take_boxes(self, field: str, p: str, n: int) -> None:
        """Lift ``n`` of ``p``'s boxes off ``field`` (the caller has checked there are that many)."""
        if n == 0:
            return
        held = self.boxes[field]
        held[p] -= n
        if not held[p]:
            del held[p]
        if not held:
            del self.boxes[field]

    def _influence(self, p: str, client: str) -> None:
        position = self.influence[p].get(client, 0) + 1
        self.influence[p][client] = position
        tile = self.cards.tiles[self.tracks[client][position - 1]]
        effect, params = tile.effect, tile.params
        if effect == "finish":
            self.gain(p, "clients", int(params.get("points", 10)))
            self.personal[p]["boxes"] += 1
        elif effect == "done_here":
            self.tasks.append({"t": "remove-camp", "player": p})
        elif effect == "not_rubbish":
            self.tasks.append({"t": "retrieve", "player": p})
        elif effect == "remove_for_cost":
            self.tasks.append({"t": "remove-one", "player": p, "purpose": "for-cost"})
        elif effect == "remove_three":
            self.tasks.append({"t": "select", "player": p, "purpose": "three", "chosen": {}, "extra": 0})
        elif effect == "draw2_remove":
            self.tasks.append({"t": "draw", "player": p, "n": 2})
            self.tasks.append({"t": "select", "player": p, "purpose": "remove-any", "chosen": {}, "extra": 0})
        elif effect == "amber":
            self.amber += int(params["n"])
        elif effect == "boxes":
            self.box_points += int(params["n"])
        elif effect == "inventory":
            self.tasks.append(
                {
                    "t": "select",
                    "player": p,
                    "purpose": "inventory",
                    "chosen": {},
                    "extra": int(params.get("extra", 2)),
                }
            )
        elif effect == "improve":
            self.tasks.append(
                {"t": "improve", "player": p, "extra": int(params.get("extra", 3)), "exclude": None}
            )
        elif effect == "whisper":
            mode = params["mode"]
            if mode == "move":
                self.tasks.append(self._dino_task(p, None, optional=True))
            elif mode == "south":
                self.tasks.append(self._dino_task(p, None, ("S",), int(params.get("max", 4)), True))
            elif mode == "any":
                self.tasks.append(self._dino_task(p, None, DIRECTIONS, int(params.get("max", 2)), True))
            elif mode == "north":
                self.tasks.append(self._dino_task(p, None, ("N",), int(params.get("max", 3)), True))
            elif mode == "swap":
                self.tasks.append({"t": "swap", "player": p})
            elif mode == "return":
                self.tasks.append({"t": "divert", "player": p, "draw": 1})

    # -- pending decisions ------------------------------------------------------------------------------
    def _apply_task(self, task: dict[str, Any], action: Action) -> None:
        p = task["player"]
        self._need_player(action, p)
        kind = task["t"]
        if isinstance(action, Finish):
            if kind not in OPTIONAL_TASKS and not (kind == "dino-move" and task["optional"]):
                raise self.illegal(
                    "IN-RED" if kind == "dino-move" else "IN-PHASE", f"the pending {kind} choice must be made"
                )
            if kind == "select":
                if not self._may_finish(task):
                    raise self.illegal(
                        "IN-CLIENTS", f"exactly 3 cards are removed, {size(task['chosen'])} chosen"
                    )
                self._finish_select(task)
            else:
                self.tasks.pop(0)
            return
        if kind == "dino-move" and isinstance(action, MoveDinosaur):
            self._move_dino(task, action)
        elif kind == "defence" and isinstance(action, Defend | Decline):
            self._defence(task, action)
        elif kind == "return" and isinstance(action, ReturnDinosaur):
            if action.volcano not in self._empty_volcanoes():
                raise self.illegal("IN-DINO-END", f"{action.volcano} is not an empty volcano")
            self.dinos[task["dino"]] = action.volcano
            self.tasks.pop(0)
        elif kind == "choose-scoring" and isinstance(action, ChooseScoring):
            if action.slot not in (0, 1, 2) or self.row[action.slot] is None:
                raise self.illegal("IN-SCORING", f"slot {action.slot} is not an active scoring card")
            card_id = str(self.row[action.slot])
            self.gain(p, "scoring cards", self.scoring_card_points(card_id, p))
            self.row = [*self.row[: action.slot], *self.row[action.slot + 1 :], card_id]
            self.tasks.pop(0)
        elif kind == "select" and isinstance(action, Select):
            if self._selectable(task).get(action.card, 0) < 1:
                removing = task["purpose"] in ("three", "remove-any")
                rule = "IN-EGG" if removing and action.card == EGG else self._select_rule(task)
                raise self.illegal(rule, f"{action.card} cannot be chosen from the hand")
            if task["purpose"] == "three" and size(task["chosen"]) >= 3:
                raise self.illegal("IN-CLIENTS", "exactly 3 cards are removed")
            add(task["chosen"], action.card)
        elif kind == "remove-one" and isinstance(action, Select):
            hand = self.zones[p]["hand"]
            if action.card == EGG:
                raise self.illegal("IN-EGG", "the dinosaur egg card may never leave the game")
            if hand.get(action.card, 0) < 1:
                rule = "IN-WEAR" if task["purpose"] == "wear" else "IN-CLIENTS"
                raise self.illegal(rule, f"{action.card} is not in {p}'s hand")
            take(hand, action.card)
            add(self.box, action.card)
            if task["purpose"] == "for-cost":
                self.gain(p, "clients", self.card(action.card).cost)
            self.tasks.pop(0)
        elif kind == "divert" and isinstance(action, Divert):
            if action.dinosaur not in self.dinos or action.volcano not in self._empty_volcanoes():
                raise self.illegal("IN-DIVERSION", f"{action.dinosaur} cannot go to {action.volcano}")
            self.dinos[action.dinosaur] = action.volcano
            self.tasks.pop(0)
            if task["draw"]:
                self.tasks.insert(0, {"t": "draw", "player": p, "n": task["draw"]})
        elif kind == "improve" and isinstance(action, Improve):
            self._improve(task, action)
        elif kind == "move-camp" and isinstance(action, MoveCamp):
            self._move_camp(p, action)
            self.tasks.pop(0)
        elif kind == "remove-camp" and isinstance(action, RemoveCamp):
            stack = self.camps.get(action.field, [])
            if not 0 <= action.level < len(stack) or stack[action.level] != p:
                raise self.illegal("IN-CLIENTS", f"{p} has no camp at level {action.level} of {action.field}")
            if self.has_dino(action.field):
                raise self.illegal("IN-DEFENCE", f"a dinosaur stands on {action.field}: nothing may leave it")
            del stack[action.level]
            if not stack:
                del self.camps[action.field]
            self.general[p]["camps"] += 1
            self.gain(p, "clients", 6)
            self.tasks.pop(0)
        elif kind == "retrieve" and isinstance(action, Retrieve):
            if (
                action.origin not in ("played", "discard")
                or self.zones[p][action.origin].get(action.card, 0) < 1
            ):
                raise self.illegal("IN-CLIENTS", f"{action.card} is not among {p}'s {action.origin} cards")
            take(self.zones[p][action.origin], action.card)
            add(self.zones[p]["hand"], action.card)
            self.tasks.pop(0)
        elif kind == "swap" and isinstance(action, SwapDinosaurs):
            if {action.first, action.second} - set(self.dinos) or action.first == action.second:
                raise self.illegal("IN-CLIENTS", "swap two different dinosaur figures")
            d = self.dinos
            d[action.first], d[action.second] = d[action.second], d[action.first]
            self.tasks.pop(0)
        else:
            raise self.illegal("IN-PHASE", f"{action.kind} does not answer the pending {kind} choice")

    def _select_rule(self, task: dict[str, Any]) -> str:
        return {"hideout": "IN-HIDEOUT", "inventory": "IN-INVENTORY"}.get(task["purpose"], "IN-CLIENTS")

    def _finish_select(self, task: dict[str, Any]) -> None:
        p = task["player"]
        chosen: Zone = task["chosen"]
        zones = self.zones[p]
        purpose = task["purpose"]
        if purpose == "three" and size(chosen) not in (0, 3):
            raise self.illegal("IN-CLIENTS", f"exactly 3 cards are removed, {size(chosen)} chosen")
        self.tasks.pop(0)
        for card_id, n in chosen.items():
            take(zones["hand"], card_id, n)
            if purpose == "hideout":
                add(zones["hidden"], card_id, n)
            elif purpose == "inventory":
                add(zones["discard"], card_id, n)
            else:
                add(self.box, card_id, n)
        if purpose == "inventory":
            self.tasks.insert(0, {"t": "draw", "player": p, "n": size(chosen) + task["extra"]})
        elif purpose == "three" and size(chosen) == 3:
            self.gain(p, "clients", 6)

    def _improve(self, task: dict[str, Any], action: Improve) -> None:
        p = task["player"]
        if action.card not in self._improvable(task):
            rule = "IN-EGG" if action.card == EGG else "IN-IMPROVE"
            raise self.illegal(rule, f"{action.card} is not a played card that may leave the game")
        if action.pile:
            pile = self.piles.get(action.pile)
            if pile is None or pile["top"] is None:
                raise self.illegal("IN-IMPROVE", f"no card on a {action.pile}-amber pile")
            limit = self.card(action.card).cost + task["extra"]
            if self.card(pile["top"]).cost > limit:
                raise self.illegal("IN-IMPROVE", f"{pile['top']} costs more than {limit} amber")
        take(self.zones[p]["played"], action.card)
        add(self.box, action.card)
        self.tasks.pop(0)
        if action.pile:
            pile = self.piles[action.pile]
            add(self.zones[p]["discard"], pile["top"])
            pile["top"] = None
            if pile["rest"]:
                self.tasks.insert(0, {"t": "reveal-pile", "pile": action.pile})

    def _move_camp(self, p: str, action: MoveCamp) -> None:
        fields = self.board.fields
        stack = self.camps.get(action.origin, [])
        if not 0 <= action.level < len(stack) or stack[action.level] != p:
            raise self.illegal("IN-MOVE-CAMP", f"{p} has no camp at level {action.level} of {action.origin}")
        if self.has_dino(action.origin):
            raise self.illegal("IN-DEFENCE", f"a dinosaur stands on {action.origin}: nothing may leave it")
        if action.target == action.origin:
            if action.level == len(stack) - 1:
                raise self.illegal("IN-MOVE-CAMP", "that camp is already on top")
            del stack[action.level]
            stack.append(p)
            return
        if action.target not in fields or fields[action.target].volcano:
            raise self.illegal("IN-CAMP", f"{action.target!r} is not a field for a camp")
        if self.has_dino(action.target):
            raise self.illegal("IN-CAMP", f"a dinosaur stands on {action.target}")
        if len(self.camps.get(action.target, ())) >= STACK_LIMIT:
            raise self.illegal("IN-CAMP", f"{action.target} already holds {STACK_LIMIT} camps")
        del stack[action.level]
        if not stack:
            del self.camps[action.origin]
        self.camps.setdefault(action.target, []).append(p)

    def _move_dino(self, task: dict[str, Any], action: MoveDinosaur) -> None:
        if task["dino"] and action.dinosaur != task["dino"]:
            raise self.illegal("IN-DINO-MOVE", f"this card moves {task['dino']}, not {action.dinosaur}")
        if action.dinosaur not in self.dinos:
            raise self.illegal("IN-DINO-MOVE", f"unknown dinosaur {action.dinosaur!r}")
        if action.direction not in task["dirs"]:
            raise self.illegal(
                "IN-DINO-MOVE", f"the move goes {'/'.join(task['dirs'])}, not {action.direction}"
            )
        if not 1 <= action.steps <= task["max"]:
            raise self.illegal("IN-DINO-MOVE", f"a dinosaur moves 1-{task['max']} fields, not {action.steps}")
        outcome = self.dino_path(action.dinosaur, action.steps, action.direction)
        if isinstance(outcome, str):
            raise self.illegal("IN-DINO-END", outcome)
        self.tasks.pop(0)
        end, field = outcome
        if end == "stop":
            self.dinos[action.dinosaur] = field
            return
        if end == "off":
            self.dinos[action.dinosaur] = None
            self.tasks.insert(0, {"t": "return", "player": task["player"], "dino": action.dinosaur})
            return
        assert field is not None
        self.dinos[action.dinosaur] = field
        losers = self.losers(field)
        order = [self._players[(self.active + i) % len(self._players)] for i in range(len(self._players))]
        candidates = [q for q in order if q in losers]
        follow: list[dict[str, Any]] = [
            {"t": "defence", "player": q, "field": field, "dino": action.dinosaur} for q in candidates
        ]
        follow.append({"t": "hit", "player": task["player"], "field": field, "dino": action.dinosaur})
        self.tasks[0:0] = follow

    def losers(self, field: str) -> list[str]:
        """Who would lose pieces if a dinosaur ends on ``field``: all box owners, else the top camp's."""
        held = self.boxes.get(field, {})
        if held:
            return [q for q in self._players if held.get(q, 0) > 0]
        stack = self.camps.get(field)
        return [stack[-1]] if stack else []

    def _defence(self, task: dict[str, Any], action: Defend | Decline) -> None:
        self.tasks.pop(0)
        if isinstance(action, Decline):
            return
        p = task["player"]
        hand = self.zones[p]["hand"]
        if hand.get(action.card, 0) < 1 or self.card(action.card).value("defence") is None:
            self.tasks.insert(0, task)
            raise self.illegal("IN-DEFENCE", f"{action.card} is not a defensive-measures card in {p}'s hand")
        take(hand, action.card)
        add(self.zones[p]["discard"], action.card)
        # the dinosaur stays as if it had ended on an empty field: drop the other offers and the hit
        while (
            self.tasks
            and self.tasks[0]["t"] in ("defence", "hit")
            and self.tasks[0]["field"] == task["field"]
        ):
            self.tasks.pop(0)

    # -- automatic steps --------------------------------------------------------------------------------
    def _settle(self) -> None:
        self._run_automatic_tasks()
        self._check_end()

    def _run_automatic_tasks(self) -> None:
        while self.tasks and not self.over:
            task = self.tasks[0]
            kind = task["t"]
            if kind == "draw":
                zones = self.zones[task["player"]]
                if task["n"] <= 0:
                    self.tasks.pop(0)
                    continue
                if not zones["draw"]:
                    if not zones["discard"]:
                        self.tasks.pop(0)
                        continue
                    zones["draw"], zones["discard"] = zones["discard"], {}
                return
            if kind == "reveal-dino" and not self.dino_deck:
                self.tasks.pop(0)
                continue
            if kind == "reveal-pile" and not self.piles[task["pile"]]["rest"]:
                self.tasks.pop(0)
                continue
            if kind == "reveal-scoring" and not self.scoring_deck:
                self.tasks.pop(0)
                continue
            if kind == "dino-move" and not any(True for _ in self._dino_moves(task)):
                self.tasks.pop(0)  # nowhere to go (at the edge of an upper area): no effect
                continue
            if kind == "return":
                empty = self._empty_volcanoes()
                if len(empty) == 1:
                    self.dinos[task["dino"]] = empty[0]
                    self.tasks.pop(0)
                    continue
                return
            if kind == "hit":
                self.tasks.pop(0)
                self._hit(task)
                continue
            if kind == "finish-turn":
                self.tasks.pop(0)
                self._finish_turn(task["player"])
                continue
            if kind == "pass":
                self.tasks.pop(0)
                self._pass()
                continue
            return

    def _hit(self, task: dict[str, Any]) -> None:
        field = task["field"]
        held = self.boxes.pop(field, {})
        if held:
            for q, n in held.items():
                self.general[q]["boxes"] += n
        else:
            stack = self.camps.get(field)
            if stack:
                q = stack.pop()
                self.general[q]["camps"] += 1
                if not stack:
                    del self.camps[field]
        self.tasks.insert(0, {"t": "return", "player": task["player"], "dino": task["dino"]})

    def _finish_turn(self, p: str) -> None:
        zones = self.zones[p]
        for card_id, n in zones["hidden"].items():
            add(zones["hand"], card_id, n)
        zones["hidden"] = {}
        self.amber = 0
        self.box_points = 0
        self.change_boxes = 0
        self.change = False
        follow: list[dict[str, Any]] = []
        if self.options["individual_ratings"]:
            # the cards move forward (the rulebook's "to the right", towards slot 0 as in the basic game) to
            # fill the gaps; new cards go on the empty spaces at the back ("the empty left space")
            kept = [c for c in self.row if c is not None]
            self.row = kept + [None] * (5 - len(kept))
            follow = [{"t": "reveal-scoring", "slot": s} for s in range(len(kept), 5)]
        follow.append({"t": "pass"})
        self.tasks[0:0] = follow
        self._check_end()

    def _pass(self) -> None:
        nxt = (self.active + 1) % len(self._players)
        if self.ending and nxt == 0:
            self.over = True
            return
        self.active = nxt
        if nxt == 0:
            self.turn += 1

    def _check_end(self) -> None:
        if self.ending:
            return
        if not self.dino_deck:
            self.ending = "the dinosaur deck is empty"
            return
        empty = [price for price, pile in self.piles.items() if pile["top"] is None and not pile["rest"]]
        names = [f"{price}-amber" for price in empty]
        if self.options["individual_ratings"] and not self.scoring_deck:
            names.append("scoring-card")
        if len(names) >= 2:
            self.ending = f"2 buy piles are empty ({', '.join(names)})"

    # -- views and serialization ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        from engines.isla_nublar.serial import state_to_dict

        return state_to_dict(self)

    def view(self, player: str | None = None) -> dict[str, Any]:
        from engines.isla_nublar.serial import state_view

        return state_view(self, player)

    def rules_for(self, action: Action) -> list[Rule]:
        from engines.isla_nublar.serial import rules_for_action

        return [self.game.rule(r) for r in rules_for_action(action)]


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


def _copy_task(task: dict[str, Any]) -> dict[str, Any]:
    copy = dict(task)
    if "chosen" in copy:
        copy["chosen"] = dict(copy["chosen"])
    if "dirs" in copy:
        copy["dirs"] = list(copy["dirs"])
    return copy
