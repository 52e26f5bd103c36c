"""Isla Nublar moves of the main phase: playing a card (for one of its actions, its amber or boxes, a client),
buying, the box points spent (placing and moving boxes, setting up camps, stocking up) and ending the turn.
Each queues the tasks that follow (:mod:`engines.isla_nublar.tasks`); the state's ``apply`` runs them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.core import Action, refusal
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
from engines.isla_nublar.board import DIRECTIONS
from engines.isla_nublar.components import CAMP_COST, HAND_SIZE, STACK_LIMIT, add
from engines.isla_nublar.dinosaurs import DinosaurMove, FinishTurn, RevealDinosaurCard
from engines.isla_nublar.tasks import (
    ChooseScoringCard,
    DivertDinosaur,
    DrawCards,
    ImproveCard,
    MoveOwnCamp,
    RemoveOneCard,
    RemoveOwnCamp,
    RetrieveCard,
    RevealPileCard,
    SelectCards,
    SwapFigures,
    need_player,
)
from engines.isla_nublar.unseen import holds, keep_without, take_from_hand

if TYPE_CHECKING:
    from engines.isla_nublar.state import IslaNublarState

#: a dinosaur whisperer's moves: the directions and the default most fields
WHISPERS: dict[str, tuple[tuple[str, ...], int]] = {
    "south": (("S",), 4), "any": (DIRECTIONS, 2), "north": (("N",), 3),
}


def apply_main(state: IslaNublarState, action: Action) -> None:
    p = state.active_player
    need_player(state, action, p)
    if isinstance(action, PlayCard):
        play_card(state, p, action)
    elif isinstance(action, Buy):
        pile = state.piles.get(action.pile)
        if pile is None or pile["top"] is None:
            raise state.illegal("IN-BUY", "there is no card on a %(pile)s-amber pile", pile=action.pile)
        if state.amber < action.pile:
            raise state.illegal("IN-SURPLUS", "%(amber)s amber played, the card costs %(cost)s",
                                amber=state.amber, cost=action.pile)
        state.amber -= action.pile
        add(state.zones[p]["discard"], pile["top"])
        pile["top"] = None
        if pile["rest"]:
            state.tasks.append(RevealPileCard(pile=action.pile))
    elif isinstance(action, BuyScoring):
        if not state.options["individual_ratings"]:
            raise state.illegal(
                "IN-BUY", "scoring cards are bought only in the Individual ratings variant"
            )
        if not 0 <= action.slot < 5 or state.row[action.slot] is None:
            raise state.illegal("IN-INDIVIDUAL", "no scoring card in slot %(slot)s", slot=action.slot)
        card_id = str(state.row[action.slot])
        if state.amber < state.card(card_id).cost:
            raise state.illegal(
                "IN-SURPLUS", "%(amber)s amber played, %(card)s costs %(cost)s", amber=state.amber,
                card=card_id, cost=state.card(card_id).cost
            )
        state.amber -= state.card(card_id).cost
        state.gain(p, "scoring cards", state.scoring_card_points(card_id, p))
        add(state.zones[p]["discard"], card_id)
        state.row[action.slot] = None
    elif isinstance(action, PlaceBox | MoveBox | BuildCamp | StockUp):
        box_action(state, p, action)
    elif isinstance(action, EndTurn):
        if state.red_in_hand(p):
            if any(state.card(c).red for c in state.zones[p]["hand"]):
                raise state.illegal("IN-RED", "a red card (dinosaur egg or dinosaur card) is still in hand")
            raise state.illegal("IN-RED", "every hand the table allows holds a red card (dinosaur egg or "
                                "dinosaur card): lay it face up")
        if state.unknown_left_in_hand(p):
            raise state.illegal(
                "IN-DRAW", "%(cards)s card(s) still in hand: the hand is played out, so lay each face up "
                "(played without its action) before the turn ends", cards=state.unknown_left_in_hand(p))
        keep_without(state, p, state.red_cards())  # the turn ends: no red card was left in the hand
        zones = state.zones[p]
        # "you play out your hand": blue cards still in hand count as played without their action
        zones_out = (
            ("played", "hand")
            if state.options.get("unplayed_cards", "discard") == "discard"
            else ("played",)
        )
        for zone in zones_out:
            for card_id, n in zones[zone].items():
                add(zones["discard"], card_id, n)
            zones[zone] = {}
        state.tasks.append(DrawCards(player=p, n=HAND_SIZE))
        state.tasks.append(FinishTurn(player=p))
    else:
        raise state.illegal("IN-PHASE", "%(kind)s is not a move of the main phase", kind=action.kind)


def play_card(state: IslaNublarState, p: str, action: PlayCard) -> None:
    zones = state.zones[p]
    if action.card not in state.cards.cards or not holds(state, p, action.card):
        raise state.illegal("IN-TURN", "%(card)s is not in %(player)s's hand", card=action.card, player=p)
    allowed = state.uses(p, action.card)
    if action.use not in allowed:
        card = state.card(action.card)
        rule = (
            "IN-RED"
            if card.red
            else "IN-CLIENTS"
            if action.use == "influence"
            else ("IN-CHANGE" if action.use == "amber-as-boxes" else "IN-ONE-ACTION")
        )
        if action.use == "defence":
            rule = "IN-DEFENCE"
        raise state.illegal(rule, "%(card)s cannot be used for %(use)s now (allowed: %(allowed)s)",
                            card=action.card, use=repr(action.use), allowed=", ".join(allowed))
    card = state.card(action.card)
    if not take_from_hand(state, p, action.card):
        raise state.illegal("IN-TURN", "%(card)s is not in %(player)s's hand", card=action.card, player=p)
    add(zones["played"], action.card)
    use = action.use
    if use == "amber":
        state.amber += int(card.value("amber") or 0)
    elif use == "amber-as-boxes":
        state.box_points += int(card.value("amber") or 0)
        if state.options.get("necessary_change", "board") == "board":
            state.change_boxes += int(card.value("amber") or 0)
    elif use == "boxes":
        state.box_points += int(card.value("boxes") or 0)
    elif use == "change":
        state.change = True
    elif use == "replenish":
        state.tasks.append(DrawCards(player=p, n=int(card.value("replenish") or 0)))
    elif use == "hideout":
        state.tasks.append(SelectCards(player=p, purpose="hideout"))
    elif use == "inventory":
        state.tasks.append(SelectCards(player=p, purpose="inventory", extra=1))
    elif use == "wear":
        state.tasks.append(RemoveOneCard(player=p, purpose="wear"))
    elif use == "diversion":
        state.tasks.append(DivertDinosaur(player=p))
    elif use == "improve":
        # the reading: "your played cards" are the others (option improve_itself: this one too)
        exclude = None if state.options.get("improve_itself", False) else action.card
        state.tasks.append(ImproveCard(player=p, extra=2, exclude=exclude))
    elif use == "move_camp":
        state.tasks.append(MoveOwnCamp(player=p))
    elif use == "egg":
        state.tasks.append(RevealDinosaurCard(player=p))
    elif use == "dinosaur":
        state.tasks.append(DinosaurMove(player=p, dino=card.figure))
    elif use == "scoring":
        state.gain(p, "scoring cards", state.scoring_card_points(action.card, p))
    elif use == "influence":
        influence(state, p, str(card.client))


def box_action(state: IslaNublarState, p: str, action: Action) -> None:
    if state.box_points < 1:
        raise state.illegal("IN-SURPLUS", "no box points left this turn (play a card with the box symbol)")
    fields = state.board.fields
    if isinstance(action, StockUp | MoveBox) and state.box_points - state.change_boxes < 1:
        raise state.illegal(
            "IN-CHANGE",
            "box points made from amber (the necessary change) only bring boxes or camps to the board",
        )
    if isinstance(action, StockUp):
        piece = {"box": "boxes", "camp": "camps"}.get(action.piece)
        if piece is None:
            raise state.illegal("IN-STOCK", "a piece is 'box' or 'camp', not %(piece)s",
                                piece=repr(action.piece))
        if state.general[p][piece] < 1:
            none_left = refusal("no box of %(player)s in the general supply") if piece == "boxes" \
                else refusal("no camp of %(player)s in the general supply")
            raise state.illegal("IN-STOCK", none_left, player=p)
        state.general[p][piece] -= 1
        state.personal[p][piece] += 1
        state.box_points -= 1
        return
    target = action.target if isinstance(action, MoveBox) else getattr(action, "field", "")
    if target not in fields:
        raise state.illegal("IN-BOXES", "unknown field %(field)s", field=repr(target))
    if fields[target].volcano:
        raise state.illegal(
            "IN-CAMP" if isinstance(action, BuildCamp) else "IN-BOXES", "%(field)s is a volcano", field=target
        )
    if state.has_dino(target):
        rule = {MoveBox: "IN-DEFENCE", BuildCamp: "IN-CAMP"}.get(type(action), "IN-BOXES")
        raise state.illegal(rule, "a dinosaur stands on %(field)s", field=target)
    if isinstance(action, PlaceBox):
        if state.personal[p]["boxes"] < 1:
            raise state.illegal("IN-BOXES", "%(player)s has no box in the personal supply", player=p)
        state.personal[p]["boxes"] -= 1
        held = state.boxes.setdefault(target, {})
        held[p] = held.get(p, 0) + 1
        state.box_points -= 1
        state.change_boxes = max(0, state.change_boxes - 1)
    elif isinstance(action, MoveBox):
        origin = action.origin
        if origin not in fields or state.boxes.get(origin, {}).get(p, 0) < 1:
            raise state.illegal("IN-BOXES", "%(player)s has no box on %(field)s", player=p, field=origin)
        if origin == target:
            raise state.illegal("IN-BOXES", "a box moves from one field to another")
        if state.has_dino(origin):
            raise state.illegal("IN-DEFENCE", "a dinosaur stands on %(field)s: nothing may leave it",
                                field=origin)
        take_boxes(state, origin, p, 1)
        held = state.boxes.setdefault(target, {})
        held[p] = held.get(p, 0) + 1
        state.box_points -= 1
    elif isinstance(action, BuildCamp):
        if state.personal[p]["camps"] < 1:
            raise state.illegal("IN-CAMP", "%(player)s has no camp in the personal supply", player=p)
        stack = state.camps.get(target, [])
        if len(stack) >= STACK_LIMIT:
            raise state.illegal("IN-CAMP", "%(field)s already holds %(most)s camps",
                                field=target, most=STACK_LIMIT)
        own = state.boxes.get(target, {}).get(p, 0)
        if not 0 <= action.take_back <= own:
            raise state.illegal(
                "IN-CAMP-SAVE", "%(player)s has %(own)s boxes on %(field)s, cannot take back %(back)s",
                player=p, own=own, field=target, back=action.take_back
            )
        cost = max(0, CAMP_COST - action.take_back)
        if cost > state.box_points:
            raise state.illegal("IN-CAMP", "a camp costs %(cost)s more box points, %(left)s left", cost=cost,
                                left=state.box_points)
        take_boxes(state, target, p, action.take_back)
        state.personal[p]["boxes"] += action.take_back
        state.box_points -= cost
        state.change_boxes = max(0, state.change_boxes - cost)
        state.camps.setdefault(target, []).append(p)
        state.personal[p]["camps"] -= 1
        state.gain(p, "camp areas", state.board.camp_points[fields[target].area])
        if state.personal[p]["camps"] == 0 and not state.ending:
            state.ending = f"{p} set up the last camp of the personal supply"
        if not state.options["individual_ratings"] and any(state.row[:3]):
            state.tasks.append(ChooseScoringCard(player=p))


def take_boxes(state: IslaNublarState, field: str, p: str, n: int) -> None:
    """Lift ``n`` of ``p``'s boxes off ``field`` (the caller has checked there are that many)."""
    if n == 0:
        return
    held = state.boxes[field]
    held[p] -= n
    if not held[p]:
        del held[p]
    if not held:
        del state.boxes[field]


def influence(state: IslaNublarState, p: str, client: str) -> None:
    position = state.influence[p].get(client, 0) + 1
    state.influence[p][client] = position
    tile = state.cards.tiles[state.tracks[client][position - 1]]
    effect, params = tile.effect, tile.params
    if effect == "finish":
        state.gain(p, "clients", int(params.get("points", 10)))
        state.personal[p]["boxes"] += 1
    elif effect == "done_here":
        state.tasks.append(RemoveOwnCamp(player=p))
    elif effect == "not_rubbish":
        state.tasks.append(RetrieveCard(player=p))
    elif effect == "remove_for_cost":
        state.tasks.append(RemoveOneCard(player=p, purpose="for-cost"))
    elif effect == "remove_three":
        state.tasks.append(SelectCards(player=p, purpose="three"))
    elif effect == "draw2_remove":
        state.tasks.append(DrawCards(player=p, n=2))
        state.tasks.append(SelectCards(player=p, purpose="remove-any"))
    elif effect == "amber":
        state.amber += int(params["n"])
    elif effect == "boxes":
        state.box_points += int(params["n"])
    elif effect == "inventory":
        state.tasks.append(SelectCards(player=p, purpose="inventory", extra=int(params.get("extra", 2))))
    elif effect == "improve":
        state.tasks.append(ImproveCard(player=p, extra=int(params.get("extra", 3))))
    elif effect == "whisper":
        mode = params["mode"]
        if mode == "move":
            state.tasks.append(DinosaurMove(player=p, dino=None, optional=True))
        elif mode in WHISPERS:
            dirs, most = WHISPERS[mode]
            steps = int(params.get("max", most))
            state.tasks.append(DinosaurMove(player=p, dirs=list(dirs), most=steps, optional=True))
        elif mode == "swap":
            state.tasks.append(SwapFigures(player=p))
        elif mode == "return":
            state.tasks.append(DivertDinosaur(player=p, draw=1))
