"""Reading and validating the Isla Nublar state JSON (``IslaNublarState.to_dict()``, documented in
docs/isla-nublar.md). Every error names the JSON path of the value that is wrong; a state that reads has
every camp, box, card and figure somewhere exactly once, and a move to make."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engines.core import StateFormatError
from engines.core.schema import Node, read_document
from engines.isla_nublar.board import DIRECTIONS, board_from_dict
from engines.isla_nublar.components import (
    BOXES_PER_PLAYER,
    CAMPS_PER_PLAYER,
    EGG,
    SCORE_MARKERS,
    STACK_LIMIT,
    ZONES,
    Zone,
    add,
    size,
)
from engines.isla_nublar.dinosaurs import TASK_TYPES, run_automatic_tasks
from engines.isla_nublar.state import IslaNublarState
from engines.isla_nublar.tasks import SELECT_PURPOSES, Task
from engines.isla_nublar.unseen import (
    UNSEEN,
    Bounds,
    Reckoning,
    counts,
    dealt_seats,
    fits,
    from_counts,
    picks_possible,
)

#: an older state's counts of unseen cards (read as every way they allow)
OLD_COUNTS = ("hand", "hidden", "pool_hand", "pool_hidden")

if TYPE_CHECKING:
    from engines.isla_nublar.game import IslaNublarGame

FIGURES = ["DINO-1", "DINO-2", "DINO-3", "DINO-4"]


def _zone(node: Node, known: Mapping[str, Any]) -> Zone:
    zone: Zone = {}
    for card, count in node.members():
        if card not in known:
            count.fail(f"unknown card {card!r}")
        n = count.integer(low=0)
        if n:
            zone[card] = n
    return zone


def _read_pools(state: IslaNublarState, doc: Node) -> None:
    state.active = state.players.index(doc["active"].choice(state.players))
    state.turn = doc.get("turn", 1).integer(low=1)
    state.ending = doc.get("ending", "").text(allow_empty=True, max_len=400)
    state.over = doc.get("over", False).boolean()
    pools = doc.get("pools", {})
    state.amber = pools.get("amber", 0).integer(low=0)
    state.box_points = pools.get("boxes", 0).integer(low=0)
    state.change_boxes = pools.get("boxes_from_amber", 0).integer(0, state.box_points)
    state.change = pools.get("necessary_change", False).boolean()


def _read_fields(state: IslaNublarState, node: Node) -> None:
    fields = state.board.fields
    names = state.players
    for fid, pieces in node.members():
        if fid not in fields:
            pieces.fail(f"unknown field {fid!r}")
        pieces.only({"camps", "boxes"})
        camps = [camp.choice(names) for camp in pieces.get("camps", []).items_of()]
        if len(camps) > STACK_LIMIT:
            pieces["camps"].fail(f"at most {STACK_LIMIT} camps in a stack")
        held = {}
        for owner, count in pieces.get("boxes", {}).members():
            if owner not in names:
                count.fail(f"unknown player {owner!r}")
            n = count.integer(0, BOXES_PER_PLAYER)
            if n:
                held[owner] = n
        if (camps or held) and fields[fid].volcano:
            pieces.fail("no pieces stand on a volcano")
        if camps:
            state.camps[fid] = list(camps)
        if held:
            state.boxes[fid] = held


def _read_dinosaurs(state: IslaNublarState, node: Node) -> None:
    if sorted(node.mapping()) != FIGURES:
        node.fail(f"must place the figures {', '.join(FIGURES)}")
    for dino, at in node.members():
        state.dinos[dino] = at.optional(lambda n: str(n.choice(state.board.fields)))


def _read_players(state: IslaNublarState, doc: Node) -> None:
    known = state.cards.cards
    supply, score, cards = doc["supply"], doc.get("score", {}), doc["cards"]
    influence = doc.get("clients", {}).get("influence", {})
    for p in state.players:
        entry = supply[p]
        for where, target in (("personal", state.personal), ("general", state.general)):
            part = entry[where].only({"boxes", "camps"})
            target[p] = {k: part.get(k, 0).integer(low=0) for k in ("boxes", "camps")}
        state.score[p] = {part: points.integer(low=0) for part, points in score.get(p, {}).members()}
        zones = cards[p].only((*ZONES, "worlds", "bounds", "unseen", "pool"))
        state.zones[p] = {z: _zone(zones.get(z, {}), known) for z in ZONES}
        state.worlds[p] = _read_worlds(zones, state.zones[p]["draw"], known)
        state.influence[p] = {
            client: n for client, node in influence.get(p, {}).members() if (n := node.integer(low=0))
        }


#: the most worlds a saved state may list (the engine keeps far fewer, and bounds past them)
MAX_READ_WORLDS = 20_000


def _read_worlds(zones: Node, pot: dict[str, int], known: Mapping[str, Any]) -> Reckoning:
    """How the unseen cards may lie, each world within the draw zone's cards (``pot``). An older state's
    counts (``unseen``, ``pool``) are read as every way they allow; its pool joins the draw zone."""
    if zones.has("worlds"):
        found: set[Any] = set()
        for node in zones["worlds"].items_of(1, MAX_READ_WORLDS):
            world = node.only(("hand", "hidden"))
            hand, hidden = _zone(world.get("hand", {}), known), _zone(world.get("hidden", {}), known)
            _within(node, pot, hand, hidden)
            found.add((counts(hand), counts(hidden)))
        if len({(sum(n for _, n in hand), sum(n for _, n in hidden)) for hand, hidden in found}) != 1:
            zones["worlds"].fail("the worlds disagree on how many cards are unseen")
        return frozenset(found)
    if zones.has("bounds"):
        node = zones["bounds"].only(("hand", "hidden", "in_hand", "in_hideout", "floor"))
        hand, hidden = _zone(node.get("hand", {}), known), _zone(node.get("hidden", {}), known)
        floor = _zone(node.get("floor", {}), known)
        in_hand, in_hideout = node["in_hand"].integer(low=0), node["in_hideout"].integer(low=0)
        if in_hand > size(hand) or in_hideout > size(hidden) or in_hand + in_hideout > size(pot):
            node.fail("the bounds allow fewer cards than are unseen")
        bounds = Bounds(counts(hand), counts(hidden), in_hand, in_hideout, counts(floor))
        if not fits(bounds, pot):
            node.fail("no hand and hideout lie within the bounds")
        return bounds
    unseen = zones.get("unseen", {}).only(OLD_COUNTS)
    counted = {count: unseen.get(count, 0).integer(low=0) for count in OLD_COUNTS}
    pool = _zone(zones.get("pool", {}), known)
    _need(size(pool) == counted["pool_hand"] + counted["pool_hidden"],
          "a pool names as many cards as its unseen pool_hand and pool_hidden")
    _need(size(pot) >= counted["hand"] + counted["hidden"],
          "the draw zone names at least the unseen hand and hidden cards drawn from it")
    worlds = from_counts(pot, pool, counted)  # over the draw zone and the pool together
    for card, n in pool.items():
        add(pot, card, n)
    return worlds


def _within(node: Node, pot: Mapping[str, int], hand: Mapping[str, int], hidden: Mapping[str, int]) -> None:
    both = dict(hand)
    for card, n in hidden.items():
        add(both, card, n)
    if any(pot.get(card, 0) < n for card, n in both.items()):
        node.fail("a world holds cards the draw zone does not name")


def _read_decks(state: IslaNublarState, doc: Node) -> None:
    game_cards = state.cards
    known = game_cards.cards
    piles = doc["piles"]
    if sorted(piles.mapping()) != sorted(str(p) for p in game_cards.piles):
        piles.fail(f"the buy piles are {sorted(game_cards.piles)}")
    for price_text, pile in piles.members():
        price = int(price_text)
        top = pile.get("top").optional(lambda n: n.text())
        rest = _zone(pile.get("rest", {}), known)
        for card in [top, *rest] if top is not None else list(rest):
            if card not in game_cards.piles[price]:
                pile.fail(f"{card!r} does not belong on the {price}-amber pile")
        state.piles[price] = {"top": top, "rest": rest}
    state.dino_deck = _zone(doc.get("dinosaur_deck", {}), known)
    slots = doc["scoring_row"].items_of(5, 5)
    scoring = sorted(card_id for card_id, card in known.items() if card.group == "scoring")
    state.row = [slot.optional(lambda n: str(n.choice(scoring))) for slot in slots]
    state.scoring_deck = _zone(doc.get("scoring_deck", {}), known)
    state.box = _zone(doc.get("box", {}), known)


def _read_clients(state: IslaNublarState, doc: Node) -> None:
    game_cards = state.cards
    tracks = doc.get("clients", {}).get("tracks", {})
    for client, track in tracks.members():
        if client not in game_cards.clients:
            track.fail(f"unknown client {client!r}")
        state.tracks[client] = [tile.choice(game_cards.tiles) for tile in track.items_of()]
    if state.options["clients"] and sorted(state.tracks) != sorted(game_cards.clients):
        tracks.fail("The Clients needs a track per client")
    seen: set[str] = set()
    for client, tiles in state.tracks.items():
        finishing = [t for t in tiles if game_cards.tiles[t].tile_set == "finish"]
        if not tiles or finishing != [tiles[-1]] or game_cards.tiles[tiles[-1]].client != client:
            tracks[client].fail(f"must end with the {client} finishing tile (and hold no other)")
        if seen & set(tiles) or len(set(tiles)) != len(tiles):
            tracks[client].fail("a development tile is dealt twice")
        seen |= set(tiles)
    for p in state.players:
        for client, position in state.influence[p].items():
            if client not in state.tracks or position > len(state.tracks[client]):
                doc["clients"]["influence"][p][client].fail("is off the track")


def _read_task(state: IslaNublarState, node: Node) -> Task:
    kind = node["t"].choice(TASK_TYPES)
    task_type = TASK_TYPES[kind]
    json_key = {attribute: key for key, attribute in task_type.json_names.items()}
    node.only({"t", *(json_key.get(item.name, item.name) for item in dataclasses.fields(task_type))})
    values: dict[str, Any] = {}
    if kind not in ("reveal-pile", "reveal-scoring", "box-scoring", "pass", "place-dinosaurs") or node.has(
            "player"):
        values["player"] = node["player"].choice(state.players)
    read = _TASK_FIELDS.get(kind)
    if read is not None:
        values.update(read(state, node, values.get("player", "")))
    return task_type(**values)


def _dino_move(state: IslaNublarState, node: Node, player: str) -> dict[str, Any]:
    dino = node.get("dino").optional(lambda n: n.choice(sorted(state.dinos)))
    dirs = [d.choice(DIRECTIONS) for d in node["dirs"].items_of(1)]
    return {"dino": dino, "dirs": dirs, "most": node["max"].integer(low=1),
            "optional": node.get("optional", False).boolean()}


def _improve(state: IslaNublarState, node: Node, player: str) -> dict[str, Any]:
    exclude = node.get("exclude").optional(lambda n: n.text())
    if exclude is not None and state.zones[player]["played"].get(exclude, 0) < 1:
        node["exclude"].fail("must be null or a card the player has played")
    return {"extra": node.get("extra", 2).integer(low=0), "exclude": exclude}


def _pickable(state: IslaNublarState) -> Mapping[str, Any]:
    return {**state.cards.cards, UNSEEN: None}  # a hideout pick may be a card laid face down unnamed


_TASK_FIELDS = {
    "draw": lambda state, node, p: {"n": node["n"].integer(low=0)},
    "reveal-pile": lambda state, node, p: {"pile": node["pile"].choice(sorted(state.piles))},
    "reveal-scoring": lambda state, node, p: {"slot": node["slot"].integer(0, 4)},
    "dino-move": _dino_move,
    "defence": lambda state, node, p: {"field": node["field"].choice(state.board.fields),
                                       "dino": node["dino"].choice(sorted(state.dinos))},
    "hit": lambda state, node, p: {"field": node["field"].choice(state.board.fields),
                                   "dino": node["dino"].choice(sorted(state.dinos))},
    "return": lambda state, node, p: {"dino": node["dino"].choice(sorted(state.dinos))},
    "select": lambda state, node, p: {"purpose": node["purpose"].choice(SELECT_PURPOSES),
                                      "chosen": _zone(node.get("chosen", {}), _pickable(state)),
                                      "extra": node.get("extra", 0).integer(low=0)},
    "remove-one": lambda state, node, p: {"purpose": node["purpose"].choice(("wear", "for-cost"))},
    "divert": lambda state, node, p: {"draw": node.get("draw", 0).integer(low=0)},
    "improve": _improve,
}


def state_from_dict(game: IslaNublarGame, data: Any) -> IslaNublarState:
    doc = read_document(data)
    doc.mapping()
    game.check_format(data)
    board_node = doc.get("board", "default")
    if board_node.value != "default":
        board = board_from_dict(board_node.value)
        if board is not game.board:
            game = game.with_board(board)
    names = game.check_players([name.text() for name in doc["players"].items_of()])
    state = IslaNublarState(game, names, game.resolve_options(doc.get("options").value))
    dealt_seats(state.options, names)  # the seats it deals are some of the players
    _read_pools(state, doc)
    _read_fields(state, doc.get("fields", {}))
    _read_dinosaurs(state, doc["dinosaurs"])
    _read_players(state, doc)
    _read_decks(state, doc)
    _read_clients(state, doc)
    state.tasks = [_read_task(state, item) for item in doc.get("tasks", []).items_of()]
    check_conservation(state)
    # a typed state may leave automatic steps pending (a draw from an empty draw pile, a hit): carry them out
    # as apply would, so that a chance node always has outcomes and a player always has a move; states the
    # engine wrote are settled already, for them this changes nothing
    run_automatic_tasks(state)
    if not state.over and not state.legal_actions():
        pending = state.tasks[0].kind if state.tasks else "main"
        raise StateFormatError(f"$: no move is possible in this state (pending: {pending})")
    return state


def _need(condition: object, message: str) -> None:
    if not condition:
        raise StateFormatError(f"$: {message}")


def _counted_cards(state: IslaNublarState) -> dict[str, int]:
    counted: dict[str, int] = {}
    zones: list[Mapping[str, int]] = [z for p in state.players for z in state.zones[p].values()]
    for pile in state.piles.values():
        zones.append(pile["rest"])
        if pile["top"] is not None:
            zones.append({pile["top"]: 1})
    zones += [state.dino_deck, state.scoring_deck, state.box]
    zones += [{card: 1} for card in state.row if card is not None]
    for zone in zones:
        for card, n in zone.items():
            counted[card] = counted.get(card, 0) + n
    return counted


def check_conservation(state: IslaNublarState) -> None:
    """Every camp, box, card and figure is somewhere, exactly once."""
    names = state.players
    for p in names:
        boxes = state.personal[p]["boxes"] + state.general[p]["boxes"]
        boxes += sum(held.get(p, 0) for held in state.boxes.values())
        boxes += sum(1 for c, track in state.tracks.items() if state.influence[p].get(c, 0) < len(track))
        _need(boxes == BOXES_PER_PLAYER, f"{p} has {boxes} equipment boxes in play, not {BOXES_PER_PLAYER}")
        camps = state.personal[p]["camps"] + state.general[p]["camps"] + SCORE_MARKERS
        camps += sum(stack.count(p) for stack in state.camps.values())
        _need(camps == CAMPS_PER_PLAYER,
              f"{p} has {camps} camps (with the score marker), not {CAMPS_PER_PLAYER}")
    starting = [card for card in state.cards.cards.values() if card.group == "starting"]
    for p in names:
        # each player's starting cards show the player's colour, and the egg never leaves the game
        held: dict[str, int] = {}
        for zone in state.zones[p].values():
            for card_id, n in zone.items():
                held[card_id] = held.get(card_id, 0) + n
        _need(held.get(EGG, 0) == 1, f"{p} has {held.get(EGG, 0)} dinosaur eggs; the one egg never leaves")
        for card in starting:
            _need(
                held.get(card.card_id, 0) <= card.count,
                f"{p} has {held.get(card.card_id, 0)} {card.card_id} cards, a starting deck {card.count}",
            )
    counted = _counted_cards(state)
    for card in state.cards.cards.values():
        expected = card.count * (len(names) if card.group == "starting" else 1)
        _need(
            counted.get(card.card_id, 0) == expected,
            f"card {card.card_id}: {counted.get(card.card_id, 0)} in play, the game has {expected}",
        )
    for task in state.tasks:
        if task.kind == "select":
            chosen = dict(getattr(task, "chosen", {}))
            unnamed = chosen.pop(UNSEEN, 0)
            _need(picks_possible(state, task.player, chosen, unnamed),
                  f"select task: no hand {task.player} may hold has the cards chosen")
    off = {d for d, at in state.dinos.items() if at is None}
    waiting = {getattr(t, "dino", None) for t in state.tasks if t.kind == "return"}
    if any(t.kind == "place-dinosaurs" for t in state.tasks):
        waiting |= set(state.dinos)  # the table is being set up: the figures are not stood yet
    _need(off <= waiting, "a dinosaur is off the island without waiting to return to a volcano")
    # two figures may share a volcano ("Multiple dinosaur figures are allowed to stand on one field"): a
    # whisperer's move towards the volcanoes can end on one that is taken

