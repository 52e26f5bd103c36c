"""Reading and validating the Jurassic Brunch state JSON (documented in docs/jurassic-brunch.md); every
error names the JSON path of the value that is wrong. The state writes itself (``BrunchState.to_dict``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core.schema import Node, read_document
from engines.jurassic_brunch.board import (
    COLOURS,
    MAX_AREA_CELLS,
    AreaError,
    Cell,
    PlayingArea,
    parse_board,
    parse_eggs,
)
from engines.jurassic_brunch.components import (
    FLOWER,
    HIDEOUT,
    HIDEOUT_CAPACITY,
    RAPTOR,
    SUPER_YUMMY,
    TOKEN_COUNTS,
    TOKEN_KINDS,
    TRICERATOPS_PER_PLAYER,
)
from engines.jurassic_brunch.moves import Pending, Step
from engines.jurassic_brunch.state import HOUSE_RULES, BrunchState

if TYPE_CHECKING:
    from engines.jurassic_brunch.game import JurassicBrunch

RESULT_RULES = ("JB-END-NO-TRICERATOPS", "JB-END-NO-GRASS", "JB-END-QUIET")
TOP_KEYS = {
    "game", "format", "players", "options", "area", "grass", "bag", "triceratops", "pool", "raptor",
    "holdings", "discarded", "turn", "pending", "looks", "result",
}


def _kind_counts(node: Node) -> dict[str, int]:
    counts = dict.fromkeys(TOKEN_KINDS, 0)
    for kind, count in node.members():
        if kind not in TOKEN_COUNTS:
            count.fail(f"unknown token kind {kind!r}")
        counts[kind] = count.integer(0, TOKEN_COUNTS[kind])
    return counts


def _colour(node: Node) -> str:
    return str(node.choice(COLOURS))


def parse_area(node: Node) -> PlayingArea:
    if node.has("cells"):
        node.only({"cells"})
        raw = node["cells"].items_of(1, MAX_AREA_CELLS)
        cells = [item.pair() for item in raw]
        if len(set(cells)) != len(cells):
            node["cells"].fail("area cells are listed twice")
        return PlayingArea.from_cells(cells)
    node.only({"boards", "eggs"})
    boards = node["boards"].items_of()
    try:
        return PlayingArea(
            [parse_board(item.value) for item in boards],
            parse_eggs(node["eggs"].value) if node.has("eggs") else None,
        )
    except AreaError as error:
        node.fail(str(error))


class _Reader:
    """Reads one state document into a fresh state, part by part."""

    def __init__(self, game: JurassicBrunch, doc: Node) -> None:
        self.doc = doc
        options = {name: value.boolean() for name, value in doc["options"].only(HOUSE_RULES).members()}
        self.state = BrunchState(game, parse_area(doc["area"]), game.resolve_options(options))
        self.state.options = {name: self.state.options[name] for name in HOUSE_RULES}

    def on_area(self, node: Node) -> Cell:
        cell = node.pair()
        if cell not in self.state.area.cells:
            node.fail(f"{list(cell)} is not on the playing area")
        return cell

    def grass(self) -> None:
        items = self.doc["grass"].items_of()
        grass = [self.on_area(item) for item in items]
        self.state.grass = set(grass)
        if len(self.state.grass) != len(grass):
            self.doc["grass"].fail("two grass tokens on one cell")
        self.state.bag = _kind_counts(self.doc["bag"])

    def turn(self) -> None:
        state = self.state
        turn = self.doc["turn"].only({"number", "current", "actions_left", "raptor_moved", "progress",
                                      "quiet_turns"})
        state.turn = turn["number"].integer(low=1)
        state.current = _colour(turn["current"])
        state.actions_left = turn["actions_left"].integer(0, 2 + TOKEN_COUNTS[SUPER_YUMMY])
        state.raptor_moved = turn["raptor_moved"].boolean()
        state.progress = turn["progress"].boolean()
        state.quiet_turns = turn["quiet_turns"].integer(0, 2)
        expected = COLOURS[(state.turn - 1) % 2]
        if state.current != expected:
            turn["current"].fail(f"turn {state.turn} belongs to {expected}, not {state.current}")

    def dinosaurs(self) -> None:
        state = self.state
        for item in self.doc["triceratops"].items_of():
            item.only({"owner", "at", "asleep", "asleep_since"})
            cell = self.on_area(item["at"])
            if cell in state.triceratops:
                item.fail(f"two triceratops on {list(cell)}")
            if cell in state.grass:
                item.fail(f"a triceratops stands on the grass token at {list(cell)}")
            since = item.get("asleep_since").optional(lambda n: n.integer(1, state.turn))
            asleep = item.get("asleep", since is not None).boolean()
            if since is None and asleep:
                since = max(1, state.turn - 1)
            if asleep != (since is not None):
                item.fail("asleep and asleep_since disagree")
            state.triceratops[cell] = (_colour(item["owner"]), since)
        pool = self.doc["pool"].only(COLOURS)
        state.pool = {c: pool[c].integer(0, TRICERATOPS_PER_PLAYER) for c in COLOURS}
        raptor = self.doc["raptor"]
        if raptor.value is not None:
            state.raptor = self.on_area(raptor)
            if state.raptor in state.triceratops or state.raptor in state.grass:
                raptor.fail(f"the raptor shares {list(state.raptor)} with another piece")

    def holdings(self) -> None:
        state = self.state
        holdings = self.doc["holdings"].only(COLOURS)
        for player in COLOURS:
            held = holdings[player].only({"tokens", "hidden", "fresh_super_yummy"})
            state.tokens[player] = _kind_counts(held["tokens"])
            state.hidden[player] = _kind_counts(held["hidden"])
            state.fresh_super_yummy[player] = held["fresh_super_yummy"].integer(
                0, state.tokens[player][SUPER_YUMMY]
            )
            if state.hidden[player][HIDEOUT]:
                held["hidden"].fail(f"{player} has a Hideout inside a Hideout")
            if sum(state.hidden[player].values()) > HIDEOUT_CAPACITY * state.tokens[player][HIDEOUT]:
                held["hidden"].fail(f"{player} hides more tokens than the Hideouts hold")
        state.discarded = _kind_counts(self.doc["discarded"])
        if any(kind != SUPER_YUMMY for kind, n in state.discarded.items() if n):
            self.doc["discarded"].fail("only Super Yummy tokens are discarded")

    def pending(self) -> None:
        node = self.doc["pending"]
        if node.value is not None:
            self.state.pending = _pending(self.state, node)
        in_hand = 1 if self.state.pending is not None and self.state.pending.step == Step.REVEAL else 0
        face_down, expected = sum(self.state.bag.values()), len(self.state.grass) + in_hand
        if face_down != expected:
            self.doc["bag"].fail(f"the bag holds {face_down} unknown tokens but {expected} are face down")

    def looks(self) -> None:
        state = self.state
        for item in self.doc["looks"].items_of():
            item.only({"player", "turn", "token", "cells"})
            state.looks.append({
                "player": _colour(item["player"]),
                "turn": item["turn"].integer(1, state.turn),
                "token": str(item["token"].choice(("BIRTH", FLOWER))),
                "cells": [cell.pair() for cell in item["cells"].items_of(0, 2)],
            })


def _pending(state: BrunchState, node: Node) -> Pending:
    step = Step(node["kind"].choice([s.value for s in Step]))
    if step == Step.REVEAL:
        cell = node.only({"kind", "at"})["at"].pair()
        tri = state.triceratops.get(cell)
        if tri is None or tri[0] != state.current or not sum(state.bag.values()):
            node.fail("a pending reveal needs the eater on its cell and a face-down token left")
        return Pending(step, cell)
    if step == Step.STEAL:
        victim = _colour(node.only({"kind", "from"})["from"])
        if victim == state.current or not state.tokens[victim][FLOWER]:
            node.fail("a pending steal follows the Flower offered to the opponent")
        if not state.stealable(victim, offered_flower=True):
            node.fail("a pending steal needs an opponent with a token to take")
        return Pending(step, victim)
    if step == Step.BIRTH:
        node.only({"kind"})
        if not state.pool[state.current] or not state.empty_cells():
            node.fail("a pending birth needs a triceratops in the pool and an empty space")
        return Pending(step, None)
    if step == Step.LOOK:
        token = str(node.only({"kind", "token"})["token"].choice(("BIRTH", FLOWER)))
        if not state.grass:
            node.fail("a pending look needs grass tokens to look at")
        return Pending(step, token)
    node.only({"kind", "dinosaur", "owner", "asleep_since"})
    if node["dinosaur"].choice(("raptor", "triceratops")) == "raptor":
        if state.raptor is not None:
            node.fail("the raptor is both expelled and on the area")
        return Pending(step, (RAPTOR, None))
    since = node.get("asleep_since").optional(lambda n: n.integer(1, state.turn))
    return Pending(step, (_colour(node["owner"]), since))


def _result(state: BrunchState, node: Node) -> None:
    if node.value is None:
        if state.pending is None and (not state.grass or any(state.on_area(c) == 0 for c in COLOURS)):
            node.fail("the game is over by its end conditions but has no result")
        return
    node.only({"reason", "rule", "losers"})
    rule = node["rule"].choice(RESULT_RULES)
    reason = node["reason"].text(max_len=400)
    losers = [_colour(loser) for loser in node.get("losers", []).items_of(0, 2)]
    if (rule == "JB-END-NO-TRICERATOPS") != bool(losers):
        node.fail("losers are named exactly when a player has no triceratops left")
    if state.pending is not None:
        node.fail("a finished game has no pending step")
    without = [colour for colour in COLOURS if state.on_area(colour) == 0]
    if rule == "JB-END-NO-TRICERATOPS" and sorted(losers) != without:
        node.fail(f"the losers {losers} are not the players with no triceratops left {without}")
    if rule == "JB-END-NO-GRASS" and (state.grass or without):
        node.fail("the game ended for lack of grass but grass is left (or a team is gone)")
    if rule == "JB-END-QUIET" and (state.quiet_turns != 2 or without or not state.grass):
        node.fail("the game ended after two quiet turns but the turn record says otherwise")
    state.result = {"reason": reason, "rule": rule, **({"losers": losers} if node.has("losers") else {})}


def state_from_dict(game: JurassicBrunch, data: Mapping[str, Any]) -> BrunchState:
    doc = read_document(data)
    doc.mapping()
    game.check_format(data)
    doc.only(TOP_KEYS)
    if doc["players"].value != list(COLOURS):
        doc["players"].fail("must be ['blue', 'orange']")
    reader = _Reader(game, doc)
    reader.grass()
    reader.turn()
    reader.dinosaurs()
    reader.holdings()
    reader.pending()
    reader.looks()
    _result(reader.state, doc["result"])
    check_conservation(reader.state, doc)
    return reader.state


def check_conservation(state: BrunchState, doc: Node | None = None) -> None:
    """28 tokens and 5 triceratops per player are never created or lost; raises StateFormatError."""
    where = doc or Node(None)
    for kind in TOKEN_KINDS:
        total = (
            state.bag[kind]
            + state.discarded[kind]
            + sum(state.tokens[p][kind] + state.hidden[p][kind] for p in COLOURS)
        )
        if total != TOKEN_COUNTS[kind]:
            where.fail(f"{total} {kind} tokens are accounted for, the box has {TOKEN_COUNTS[kind]}")
    limbo = state.pending.detail if state.pending is not None and state.pending.step == Step.EXPEL else None
    for player in COLOURS:
        total = state.on_area(player) + state.pool[player] + (1 if limbo and limbo[0] == player else 0)
        if total != TRICERATOPS_PER_PLAYER:
            where.fail(f"{player} has {total} triceratops accounted for, not {TRICERATOPS_PER_PLAYER}")
