"""Command-line rulings: ``companion score jurassic-brunch FILE`` (tokens held and triceratops on the area
at the end, or a full engine state) and ``companion legal jurassic-brunch FILE`` (a drawn position, or a
full engine state). Bad input is an InputError naming the JSON path of the value that is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import EngineError, InputError
from engines.core.schema import Node, read_document
from engines.jurassic_brunch.board import COLOURS, MAX_AREA_CELLS, Cell, PlayingArea
from engines.jurassic_brunch.codec import state_from_dict
from engines.jurassic_brunch.components import (
    HIDEOUT,
    HIDEOUT_CAPACITY,
    SUPER_YUMMY,
    TOKEN_COUNTS,
    TOKEN_KINDS,
    TRICERATOPS_PER_PLAYER,
    normalise_kind,
)
from engines.jurassic_brunch.scoring import rank
from engines.jurassic_brunch.state import HOUSE_RULES, BrunchState

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

POSITION_KEYS = {
    "cells", "grass", "triceratops", "raptor", "current", "actions_left", "raptor_moved",
    "tokens", "hidden", "options",
}
BOTH_GONE = "both teams have no triceratops on the area, but the game ends when the first has none"


def _token_list(node: Node) -> dict[str, int]:
    counts = dict.fromkeys(TOKEN_KINDS, 0)
    for item in node.items_of():
        try:
            counts[normalise_kind(item.value)] += 1
        except ValueError as error:
            item.fail(str(error))
    return counts


def _check_box(where: Node, holdings: Mapping[str, Mapping[str, int]]) -> None:
    for kind in TOKEN_KINDS:
        total = sum(held[kind] for held in holdings.values())
        if total > TOKEN_COUNTS[kind]:
            where.fail(f"{total} {kind} tokens listed but the box has only {TOKEN_COUNTS[kind]}")


def parse_score_input(data: Any) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """{"players": [{"name": "blue", "tokens": [...], "on_area": 3}, ...]} -> holdings, on_area."""
    root = read_document(data, InputError).only({"players"})
    entries = root["players"].items_of(2, 2)
    holdings: dict[str, dict[str, int]] = {}
    on_area: dict[str, int] = {}
    for entry in entries:
        entry.only({"name", "tokens", "on_area"})
        name = str(entry["name"].choice(COLOURS))
        if name in holdings:
            entry["name"].fail(f"{name} is listed twice: the players are blue and orange, once each")
        holdings[name] = _token_list(entry["tokens"])
        on_area[name] = entry["on_area"].integer(0, TRICERATOPS_PER_PLAYER)
    _check_box(root["players"], holdings)
    if not any(on_area.values()):
        root["players"].fail(BOTH_GONE)
    return {player: holdings[player] for player in COLOURS}, {player: on_area[player] for player in COLOURS}


def _engine_state(game: JurassicBrunch, data: Any) -> BrunchState:
    try:
        return state_from_dict(game, data)
    except EngineError as error:
        raise InputError(f"bad engine state: {error}") from None


def score_report(game: JurassicBrunch, data: Any) -> dict[str, Any]:
    """Scores and winners with the tie-break that decided them (fewer tokens among equal scores)."""
    if isinstance(data, Mapping) and "game" in data:
        state = _engine_state(game, data)
        holdings = {player: state.holding(player) for player in COLOURS}
        on_area = {player: state.on_area(player) for player in COLOURS}
    else:
        holdings, on_area = parse_score_input(data)
    outcome = rank(holdings, [player for player in holdings if on_area[player] == 0])
    return {
        "players": {
            player: {"total": outcome.scores[player], "breakdown": dict(outcome.breakdown[player])}
            for player in holdings
        },
        "winners": list(outcome.winners),
        "tiebreak": dict(outcome.tiebreak),
        "reason": _why(outcome.scores, list(outcome.winners), dict(outcome.tiebreak)),
    }


def _why(scores: Mapping[str, int], winners: list[str], tiebreak: Mapping[str, Any]) -> str:
    """Why the winners won, in words: the most points, the tie broken by fewer tokens, or a team with no
    triceratops on the playing area losing outright."""
    losers = list(tiebreak.get("outright_losers") or [])
    if losers:
        return f"{', '.join(losers)} has no triceratops on the playing area and loses outright"
    if not winners:
        return "no winner"
    best = scores[winners[0]]
    tied = [player for player, score in scores.items() if score == best]
    tokens = tiebreak.get("tokens") or {}
    if len(tied) > 1 and tokens:
        counts = " against ".join(str(tokens.get(player, 0)) for player in tied)
        verb = "wins" if len(winners) == 1 else "share the win"
        return (f"{' and '.join(tied)} tie on {best} points; {' and '.join(winners)} {verb} with fewer "
                f"tokens ({counts})")
    if len(winners) > 1:
        return f"{' and '.join(winners)} tie on {best} points and on tokens: they share the win"
    return f"{winners[0]} has the most points ({best})"


def report_state(game: JurassicBrunch, data: Any) -> BrunchState:
    if isinstance(data, Mapping) and "game" in data:
        return _engine_state(game, data)
    return state_from_position(game, data)


def legal_report(game: JurassicBrunch, data: Any) -> dict[str, Any]:
    state = report_state(game, data)
    player = state.current_player()
    return {"to_play": None if player.startswith("<") else player,
            "actions": [action.to_dict() for action in state.legal_actions()]}


class _Position:
    """Reads a drawn position into a playable state, part by part."""

    def __init__(self, game: JurassicBrunch, doc: Node) -> None:
        self.doc = doc
        raw = doc["cells"].items_of(1, MAX_AREA_CELLS)
        cells = [item.pair() for item in raw]
        if len(set(cells)) != len(cells):
            doc["cells"].fail("a playing-area cell is listed twice")
        self.area = set(cells)
        options = doc.get("options", {}).only(HOUSE_RULES)
        house_rules = {name: options.get(name, False).boolean() for name in HOUSE_RULES}
        self.state = BrunchState(game, PlayingArea.from_cells(cells), house_rules)
        self.state.turn = 2  # anything that fell asleep or was gained did so in an earlier turn

    def on_area(self, node: Node) -> Cell:
        cell = node.pair()
        if cell not in self.area:
            node.fail(f"{list(cell)} is not a playing-area cell")
        return cell

    def pieces(self) -> None:
        state = self.state
        for item in self.doc["grass"].items_of():
            cell = self.on_area(item)
            if cell in state.grass:
                item.fail(f"two grass tokens on {list(cell)}")
            state.grass.add(cell)
        for item in self.doc["triceratops"].items_of():
            item.only({"owner", "at", "asleep"})
            owner = str(item["owner"].choice(COLOURS))
            cell = self.on_area(item["at"])
            if cell in state.triceratops:
                item.fail(f"two triceratops on {list(cell)}")
            if cell in state.grass:
                item.fail(f"the triceratops on {list(cell)} stands on a grass token")
            state.triceratops[cell] = (owner, 1 if item.get("asleep", False).boolean() else None)
        if not state.triceratops:
            self.doc["triceratops"].fail(BOTH_GONE)
        for player in COLOURS:
            count = state.on_area(player)
            if count > TRICERATOPS_PER_PLAYER:
                self.doc["triceratops"].fail(
                    f"{player} has {count} triceratops on the area; a team has {TRICERATOPS_PER_PLAYER}"
                )
            state.pool[player] = TRICERATOPS_PER_PLAYER - count
        raptor = self.doc.get("raptor")
        if raptor.value is not None:
            state.raptor = self.on_area(raptor)
            if state.raptor in state.triceratops or state.raptor in state.grass:
                raptor.fail(f"the raptor shares {list(state.raptor)} with another piece")

    def turn(self) -> None:
        state = self.state
        state.current = str(self.doc["current"].choice(COLOURS))
        state.actions_left = self.doc.get("actions_left", 2).integer(0, 2 + TOKEN_COUNTS[SUPER_YUMMY])
        state.raptor_moved = self.doc.get("raptor_moved", False).boolean()

    def per_player(self, key: str) -> dict[str, dict[str, int]]:
        node = self.doc.get(key, {})
        if node.value is None:
            return {player: dict.fromkeys(TOKEN_KINDS, 0) for player in COLOURS}
        node.only(COLOURS)
        return {player: _token_list(node.get(player, [])) for player in COLOURS}

    def tokens(self) -> None:
        state = self.state
        state.tokens = self.per_player("tokens")
        state.hidden = self.per_player("hidden")
        for player in COLOURS:
            if state.hidden[player][HIDEOUT]:
                self.doc["hidden"].fail("a Hideout does not go inside a Hideout")
            if sum(state.hidden[player].values()) > HIDEOUT_CAPACITY * state.tokens[player][HIDEOUT]:
                self.doc["hidden"].fail(f"{player} hides more tokens than the Hideouts hold (3 each)")
        holdings = {player: state.holding(player) for player in COLOURS}
        _check_box(self.doc, holdings)
        left = {kind: TOKEN_COUNTS[kind] - sum(h[kind] for h in holdings.values()) for kind in TOKEN_KINDS}
        if len(state.grass) > sum(left.values()):
            self.doc["grass"].fail(
                f"{len(state.grass)} grass tokens on the area but only {sum(left.values())} are not held"
            )
        # the mix of face-down tokens does not change the legal actions; fill the bag from what is not held
        remaining = len(state.grass)
        for kind in TOKEN_KINDS:
            take = min(left[kind], remaining)
            state.bag[kind] = take
            remaining -= take


def state_from_position(game: JurassicBrunch, data: Any) -> BrunchState:
    """A playable state from a drawn position; sleepers and Super Yummies count as from earlier turns."""
    doc = read_document(data, InputError).only(POSITION_KEYS)
    position = _Position(game, doc)
    position.pieces()
    position.turn()
    position.tokens()
    state = position.state
    if not state.grass or any(state.on_area(player) == 0 for player in COLOURS):
        state.result = {"reason": "the position is over by an end condition", "rule": "JB-END"}
    return state
