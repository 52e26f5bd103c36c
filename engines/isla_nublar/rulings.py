"""Command-line rulings: ``companion legal isla-nublar FILE`` (a state, or ``{"state", "action"}``: is the
action legal, and why) and ``companion score isla-nublar FILE`` (a state or a typed ``{"position": ...}``:
the score track and what every scoring card would give each player). Bad input is an InputError naming
the JSON path of the value that is wrong."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import InputError, StateFormatError
from engines.core.schema import Node
from engines.isla_nublar.codec import state_from_dict
from engines.isla_nublar.components import add, take
from engines.isla_nublar.scoring import RULE_OF_KIND
from engines.isla_nublar.state import IslaNublarState

if TYPE_CHECKING:
    from engines.isla_nublar.game import IslaNublarGame


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


def _state(game: IslaNublarGame, data: Any) -> IslaNublarState:
    try:
        return state_from_dict(game, data)
    except StateFormatError as error:
        raise InputError(_one_line(error)) from None


def _state_for_report(game: IslaNublarGame, data: Any) -> tuple[IslaNublarState, Any]:
    if not isinstance(data, Mapping):
        raise InputError('$: expected a JSON object: an isla-nublar state, a {"position": ...} or '
                         '{"state": ..., "action": ...}')
    if "position" in data:
        return state_from_position(game, data["position"]), None
    if "state" in data and "game" not in data:
        return _state(game, data["state"]), data.get("action")
    return _state(game, data), None


def report_state(game: IslaNublarGame, data: Any) -> IslaNublarState:
    if isinstance(data, Mapping) and "position" in data and "game" not in data:
        return state_from_position(game, data["position"])
    return _state(game, data)


def _place_pieces(state: IslaNublarState, fields: Node) -> None:
    """Camps (bottom to top) and boxes on fields, taken from the owners' personal supplies; camps go on from
    the general supply once the personal one is empty (camps taken back there by a dinosaur's hit)."""
    for fid, pieces in fields.members():
        if fid not in state.board.fields:
            pieces.fail(f"unknown field {fid!r}")
        pieces.only({"camps", "boxes"})
        camps = [owner.choice(state.players) for owner in pieces.get("camps", []).items_of(0, 3)]
        for owner in camps:
            supply = state.personal[owner] if state.personal[owner]["camps"] else state.general[owner]
            supply["camps"] -= 1
        if camps:
            state.camps[fid] = camps
        for owner, count in pieces.get("boxes", {}).members():
            if owner not in state.players:
                count.fail(f"{owner!r} is not a player")
            n = count.integer(low=0)
            state.personal[owner]["boxes"] -= n
            if n:
                state.boxes.setdefault(fid, {})[owner] = n
    for owner in state.players:
        for piece in ("camps", "boxes"):
            if state.personal[owner][piece] < 0 or state.general[owner][piece] < 0:
                fields.fail(f"{owner} has more {piece} on the board than the game provides")


def _score_track(state: IslaNublarState, score: Node) -> None:
    for owner, points in score.only(state.players).members():
        if isinstance(points.value, int) and not isinstance(points.value, bool):
            state.score[owner] = {"track": points.integer(low=0)}
        else:
            state.score[owner] = {part: n.integer(low=0) for part, n in points.members()}


def _scoring_row(state: IslaNublarState, row: Node) -> None:
    known = sorted(c.card_id for c in state.cards.of_group("scoring"))
    cards = [card.choice(known) for card in row.items_of(5, 5)]
    if len(set(cards)) != 5:
        row.fail("lists 5 different scoring cards")
    pool = state.scoring_deck if state.options["individual_ratings"] else state.box
    for card in state.row:
        if card is not None:
            add(pool, card)
    for card in cards:
        take(pool, card)
    state.row = list(cards)


def state_from_position(game: IslaNublarGame, position: Any) -> IslaNublarState:
    """A scoring position typed by hand: players, pieces on fields, optional score track, scoring row and
    figures. Everything not given is the seeded setup's (hands, decks)."""
    node = Node(position, "$.position", InputError).only(
        {"players", "options", "fields", "score", "scoring_row", "dinosaurs"}
    )
    players = [name.text() for name in node["players"].items_of()]
    try:
        state = game.new_initial_state(players, random.Random(0), node.get("options").value)
    except StateFormatError as error:
        node.fail(_one_line(error))
    _place_pieces(state, node.get("fields", {}))
    _score_track(state, node.get("score", {}))
    if node.get("scoring_row").value is not None:
        _scoring_row(state, node["scoring_row"])
    dinos = node.get("dinosaurs")
    if dinos.value is not None:
        if set(dinos.mapping()) != set(state.dinos):
            dinos.fail("places DINO-1..DINO-4 on fields")
        for dino, at in dinos.members():
            state.dinos[dino] = at.choice(sorted(game.board.fields))
    try:
        return state_from_dict(game, state.to_dict())
    except StateFormatError as error:
        node.fail(_one_line(error))


def legal_report(game: IslaNublarGame, data: Any) -> dict[str, Any]:
    """The legal actions in a state (and, with ``{"state", "action"}``, whether that action is legal and
    why)."""
    if isinstance(data, Mapping) and "position" in data:
        raise InputError(
            "$.position: legal needs a full isla-nublar state (a position has no hands or decks)"
        )
    state, action_data = _state_for_report(game, data)
    player = state.current_player()
    report: dict[str, Any] = {
        "game": game.name,
        "to_play": None if player.startswith("<") else player,
        "player": player,  # the older names of to_play
        "to_move": player,
        "pending": state.tasks[0].kind if state.tasks else ("over" if state.over else "main"),
    }
    if state.is_chance_node():
        report["chance"] = [
            {"action": a.to_dict(), "probability": round(w, 6)} for a, w in state.chance_outcomes()
        ]
    legal = state.legal_actions()
    report["count"] = len(legal)
    report["actions"] = [a.to_dict() for a in legal]  # the key every game's legal ruling uses
    if action_data is not None:
        try:
            action = game.action_from_dict(action_data)
        except StateFormatError as error:
            raise InputError(f"$.action: {_one_line(error)}") from None
        try:
            report["explanation"] = state.explain(action).to_dict()
        except StateFormatError as error:  # a correction carrying a broken state
            raise InputError(f"the corrected state $.action.state: {_one_line(error)}") from None
    return report


def score_report(game: IslaNublarGame, data: Any) -> dict[str, Any]:
    """Scores on the track, and what each scoring card would give each player on the board right now."""
    state, _ = _state_for_report(game, data)
    outcome = state.scores()
    cards: dict[str, Any] = {}
    for card in game.cards.of_group("scoring"):
        cards[card.card_id] = {
            "kind": card.scoring["kind"],
            "rule": RULE_OF_KIND[card.scoring["kind"]],
            "in_row": [i for i, c in enumerate(state.row) if c == card.card_id],
            "points": {p: state.scoring_card_points(card.card_id, p) for p in state.players},
        }
    return {
        "game": game.name,
        "over": state.over,
        "ending": state.ending,
        **outcome.to_dict(),
        "scoring_row": list(state.row),
        "active_scoring": [c for c in state.row[:3] if c is not None]
        if not state.options["individual_ratings"]
        else [],
        "scoring_cards": cards,
    }
