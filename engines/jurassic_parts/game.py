"""The Jurassic Parts :class:`Game`: setup (random for bots, or as observed), validation, and rulings."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import Game, InputError, StateFormatError
from engines.core.game import Option
from engines.jurassic_parts import state as st
from engines.jurassic_parts.actions import CODEC
from engines.jurassic_parts.components import (
    BONES,
    BOX_COUNTS,
    CARD_BY_ID,
    COMMITTED,
    COMPONENT_BY_ID,
    COMPONENTS,
    FRONT_KINDS,
    KIND_NAMES,
    KIND_OF,
    N_KINDS,
    N_PARTS,
    PTERO,
    RESOURCE_CARDS,
    SPECIES,
    real_kind,
)
from engines.jurassic_parts.rules import RULEBOOK
from engines.jurassic_parts.rulings import brief
from engines.jurassic_parts.scoring import score_holding, winners
from engines.jurassic_parts.slab import NO_CHISEL, Cell, Layout
from engines.jurassic_parts.state import JurassicPartsState

SPECIES_INDEX = {species.name: i for i, species in enumerate(SPECIES)}
BACK_ROCKS = {c.back: c.back_rocks for c in COMPONENTS}


def hex_distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def default_cells(count: int, rng: random.Random) -> list[Cell]:
    """A hex-ish blob of ``count`` cells around (0, 0): whole rings, then a random part of the next ring."""
    cells: list[Cell] = [(0, 0)]
    radius = 0
    while len(cells) < count:
        radius += 1
        ring = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                if hex_distance(q, r) == radius]
        if len(cells) + len(ring) > count:
            ring = rng.sample(ring, count - len(cells))
        cells.extend(sorted(ring))
    return cells


def random_layout(rng: random.Random) -> list[dict[str, Any]]:
    """The rulebook's setup with a seeded shuffle: a Pile of Bones face up in the centre, the other 57 tiles
    shuffled, nearly half of them turned face down, laid in a hex blob with random rotations.

    Face-down entries carry only what the table shows: the back id and the rocks seen on the back."""
    bones = [c for c in COMPONENTS if c.fossil == "BONES"]
    centre = bones[0]
    rest = [c for c in COMPONENTS if c is not centre]
    rng.shuffle(rest)
    face_down = len(rest) // 2 + rng.randint(0, 1)
    down_ids = {c.tile_id for c in rest[:face_down]}
    rng.shuffle(rest)
    cells = default_cells(len(COMPONENTS), rng)
    tiles: list[dict[str, Any]] = [
        {"cell": list(cells[0]), "id": centre.tile_id, "rotation": rng.randrange(6), "face_up": True}
    ]
    for cell, comp in zip(cells[1:], rest):
        rotation = rng.randrange(6)
        if comp.tile_id in down_ids:
            tiles.append({"cell": list(cell), "id": None, "back": comp.back, "rotation": rotation,
                          "rocks": list(comp.back_rocks), "face_up": False})
        else:
            tiles.append({"cell": list(cell), "id": comp.tile_id, "rotation": rotation, "face_up": True})
    return tiles


# -- small validators ---------------------------------------------------------------------------------------


def _printable(name: str) -> bool:
    """Whether ``name`` can be written back as JSON text (a lone surrogate from a \\u escape cannot)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fail(message: str) -> StateFormatError:
    return StateFormatError(message)


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    if (not isinstance(value, int) or isinstance(value, bool) or value < low
            or (high is not None and value > high)):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise _fail(f"{what} must be an integer {bound}, not {value!r}")
    return value


def _cell(value: Any, what: str) -> Cell:
    if (not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise _fail(f"{what} must be a cell [q, r] of two integers, not {value!r}")
    return (value[0], value[1])


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must be an object")
    return value


def _kind_counts(value: Any, what: str, kinds: range) -> list[int]:
    counts = [0] * N_KINDS
    for name, count in _mapping(value, what).items():
        kind = KIND_OF.get(name)
        if kind is None or kind not in kinds:
            raise _fail(f"{what}: unknown fossil {name!r}")
        counts[kind] = _int(count, f"{what}[{name}]")
    return counts


class JurassicPartsGame(Game):
    name = "jurassic-parts"
    code = "JP"
    aliases = ("parts",)
    title = "Jurassic Parts"
    min_players = 2
    max_players = 6

    def __init__(self) -> None:
        self.rulebook = RULEBOOK
        self.codec = CODEC
        self.options = (
            Option("resource_cards", 0, (0, 1, 2),
                   "resource cards dealt to each player from the cards whose text is known (the Backpack)"),
            Option("slab_purchase", "any", ("any", "face-up"),
                   "which slab tiles may be bought: any (a face-down one is turned up first; a Pile of Bones "
                   "stays and nothing is paid), or face-up tiles only", house_rule=True),
            Option("sell_pterodactyls", "never", ("never", "unpaid"),
                   "selling a Pterodactyl: never (it is always a complete dinosaur: the reading in "
                   "RULES-NOTES), or one that earned no amber (bought from the Field Leader, or taken while "
                   "the supply was empty), since the rulebook only forbids a tile of a complete dinosaur "
                   "\"after amber is collected for it\"", house_rule=True),
            Option("end_bones", "optimal", ("optimal", "loose"),
                   "Piles of Bones not committed by the end: placed where they score most (the reading in "
                   "RULES-NOTES), or left as loose tiles worth 1 each", house_rule=True),
        )

    # -- factories ------------------------------------------------------------------------------------
    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> JurassicPartsState:
        """A bot game: the default random slab (seeded), start bonuses, resource cards dealt."""
        rng = rng or random.Random()
        return self.state_from_layout(players, random_layout(rng), options=options, rng=rng)

    def state_from_layout(
        self,
        players: Sequence[str],
        tiles: Sequence[Mapping[str, Any]],
        first_player: str | None = None,
        options: Mapping[str, Any] | None = None,
        cards: Mapping[str, Sequence[str]] | None = None,
        rng: random.Random | None = None,
    ) -> JurassicPartsState:
        """The start of play on a slab as observed: each tile ``{"cell": [q, r], "rotation": 0-5,
        "face_up": bool, "id": "F07" | None, "back": id | None, "rocks": [6 bools] | None}``.

        A face-up tile needs its ``id`` (its rocks default to the component list's); a face-down tile's
        fossil is unknown, its rocks are those seen on its back (default: none)."""
        names = self.check_players(players)
        resolved = self.resolve_options(options)
        if not isinstance(tiles, Sequence) or not 2 <= len(tiles) <= len(COMPONENTS):
            raise _fail(f"a slab has 2 to {len(COMPONENTS)} tiles")
        cells: list[Cell] = []
        base_rocks: list[tuple[bool, ...]] = []
        rotations: list[int] = []
        backs: list[str | None] = []
        fossils: list[int] = []
        ids: list[str | None] = []
        for index, tile in enumerate(tiles):
            entry = _mapping(tile, f"tile {index}")
            cells.append(_cell(entry.get("cell"), f"tile {index} cell"))
            rotations.append(_int(entry.get("rotation", 0), f"tile {index} rotation", 0, 5))
            face_up = entry.get("face_up", True)
            if not isinstance(face_up, bool):
                raise _fail(f"tile {index} face_up must be true or false")
            tile_id = entry.get("id")
            comp = COMPONENT_BY_ID.get(tile_id) if isinstance(tile_id, str) else None
            if tile_id is not None and comp is None:
                raise _fail(f"tile {index}: unknown tile id {tile_id!r}")
            if face_up and comp is None:
                raise _fail(f"tile {index} is face up but has no tile id")
            rocks = entry.get("rocks")
            back = entry.get("back")
            if rocks is None:
                if comp is not None and face_up:
                    rocks = comp.rocks
                elif isinstance(back, str) and back in BACK_ROCKS:
                    rocks = BACK_ROCKS[back]  # the rocks printed on a known back (not its front's identity)
                else:
                    rocks = (False,) * 6
            if (not isinstance(rocks, Sequence) or len(rocks) != 6
                    or not all(isinstance(x, bool) for x in rocks)):
                raise _fail(f"tile {index} rocks must be six booleans")
            base_rocks.append(tuple(rocks))
            if back is not None and not isinstance(back, str):
                raise _fail(f"tile {index} back must be a text id")
            backs.append(back)
            ids.append(tile_id if face_up else None)
            fossils.append(comp.kind if face_up and comp is not None else -1)
        known = [i for i in ids if i is not None]
        if len(set(known)) != len(known):
            raise _fail("a tile id appears twice on the slab")
        try:
            layout = Layout(cells, base_rocks, rotations, backs)
        except ValueError as error:
            raise _fail(str(error)) from error
        if len(layout.parts([True] * layout.size, [NO_CHISEL] * len(layout.gaps))) > 1:
            raise _fail("the slab must be one piece of neighbouring tiles")
        first = names.index(first_player) if first_player is not None else 0
        dealt = self._deal(names, resolved, cards, rng, first)
        state = self._blank(names, first, resolved, layout, fossils, ids, dealt)
        # start bonuses by seat, counted clockwise from the first player
        n = len(names)
        for seat in range(1, n):
            p = (first + seat) % n
            if seat in (1, 3, 4, 5):
                state.dull[p] -= 1
                state.sharp[p] += 1
            if seat >= 2 and state.supply > 0:
                state.supply -= 1
                state.amber[p] += 1
        state.turn_number = 0
        state._start_turn(first)
        return state

    def _deal(self, names: tuple[str, ...], options: Mapping[str, Any],
              cards: Mapping[str, Sequence[str]] | None, rng: random.Random | None,
              first: int) -> list[tuple[str, ...]]:
        if cards is not None:
            dealt = []
            for name in names:
                held = tuple(cards.get(name, ()))
                unknown = [c for c in held if c not in CARD_BY_ID]
                if unknown:
                    raise _fail(f"unknown resource card {unknown[0]!r}")
                dealt.append(held)
            return dealt
        per_player = int(options["resource_cards"])
        deck = [card.card_id for card in RESOURCE_CARDS]
        (rng or random.Random(0)).shuffle(deck)
        hands: list[list[str]] = [[] for _ in names]
        for _ in range(per_player):
            for seat in range(len(names)):
                if deck:
                    hands[(first + seat) % len(names)].append(deck.pop())
        return [tuple(hand) for hand in hands]

    def _blank(self, names: tuple[str, ...], first: int, options: dict[str, Any], layout: Layout,
               fossils: list[int], ids: list[str | None], cards: list[tuple[str, ...]]) -> JurassicPartsState:
        n = len(names)
        state = object.__new__(JurassicPartsState)
        state.game = self
        state.layout = layout
        state.names = names
        state.options = options
        state.first = first
        state.on_slab = [True] * layout.size
        state.slab_count = layout.size
        state.fossil = fossils
        state.tile_id = ids
        state.owner = [NO_CHISEL] * len(layout.gaps)
        state.open_gaps = set(range(len(layout.gaps)))
        state.dull = [st.CHISELS_PER_PLAYER] * n
        state.sharp = [0] * n
        state.on_board = [0] * n
        state.amber = [0] * n
        state.unpaid_ptero = [0] * n
        state.supply = st.AMBER_SUPPLY
        state.loose = [st.EMPTY_HOLDING] * n
        state.in_sets = [st.EMPTY_HOLDING] * n
        state.complete = [st.EMPTY_COMPLETE] * n
        state.leader = st.EMPTY_LEADER
        state.cards = list(cards)
        state.revealed_cards = [()] * n
        state.active = first
        state.phase = st.MAIN
        state.need = 0
        state.purchases = 0
        state.sold = False
        state.ignore_rocks = 0
        state.final = False
        state.turn_number = 1
        state.award_options = ()
        state.pool = []
        state.ranking = ()
        state.rank_pos = 0
        state.taken = 0
        state.pending = []
        state.after_reveal = st.TAKE
        state._buying = -1
        state.last_split = None
        return state

    # -- validation -----------------------------------------------------------------------------------
    def state_from_dict(self, data: Mapping[str, Any]) -> JurassicPartsState:
        try:
            return self._state_from_dict(data)
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise StateFormatError(f"corrupt jurassic-parts state: {type(error).__name__}: {error}") from None

    def _state_from_dict(self, data: Mapping[str, Any]) -> JurassicPartsState:
        self.check_format(data)
        players = data["players"]
        if not isinstance(players, list):
            raise _fail("players must be a list")
        names = self.check_players(players)
        if not all(_printable(name) for name in names):
            raise _fail("player names must be printable text")
        n = len(names)
        first_name = data["first_player"]
        if first_name not in names:
            raise _fail(f"first_player {first_name!r} is not playing")
        options = self.resolve_options(_mapping(data.get("options", {}), "options"))
        slab = data["slab"]
        if not isinstance(slab, list) or not slab:
            raise _fail("slab must be a non-empty list of tiles")
        cells, rocks, rotations, backs, fossils, ids, where = [], [], [], [], [], [], []
        for index, raw in enumerate(slab):
            tile = _mapping(raw, f"slab[{index}]")
            cells.append(_cell(tile["cell"], f"slab[{index}].cell"))
            rotations.append(_int(tile.get("rotation", 0), f"slab[{index}].rotation", 0, 5))
            tile_rocks = tile.get("rocks", [False] * 6)
            if not isinstance(tile_rocks, list) or len(tile_rocks) != 6 or not all(
                    isinstance(x, bool) for x in tile_rocks):
                raise _fail(f"slab[{index}].rocks must be six booleans")
            rocks.append(tuple(tile_rocks))
            back = tile.get("back")
            if back is not None and not isinstance(back, str):
                raise _fail(f"slab[{index}].back must be text")
            backs.append(back)
            face_up = tile.get("face_up")
            fossil = tile.get("fossil")
            if not isinstance(face_up, bool) or face_up != (fossil is not None):
                raise _fail(f"slab[{index}]: a tile is face up exactly when its fossil is known")
            kind = -1
            if fossil is not None:
                kind = KIND_OF.get(fossil, -1) if isinstance(fossil, str) else -1
                if not 0 <= kind < len(FRONT_KINDS):
                    raise _fail(f"slab[{index}]: unknown fossil {fossil!r}")
            tile_id = tile.get("id")
            if tile_id is not None:
                comp = COMPONENT_BY_ID.get(tile_id) if isinstance(tile_id, str) else None
                if comp is None:
                    raise _fail(f"slab[{index}]: unknown tile id {tile_id!r}")
                if comp.kind != kind:
                    raise _fail(f"slab[{index}]: tile {tile_id} shows {comp.fossil}, not {fossil}")
            fossils.append(kind)
            ids.append(tile_id)
            place = tile.get("where", "slab")
            if place not in ("slab", "pool", "gone"):
                raise _fail(f"slab[{index}].where must be slab, pool or gone")
            if place == "gone" and kind < 0:
                raise _fail(f"slab[{index}]: a tile that left the slab is face up")
            where.append(place)
        known_ids = [i for i in ids if i is not None]
        if len(set(known_ids)) != len(known_ids):
            raise _fail("a tile id appears twice")
        try:
            layout = Layout(cells, rocks, rotations, backs)
        except ValueError as error:
            raise _fail(str(error)) from error
        cards: list[tuple[str, ...]] = []
        seats = _mapping(data["seats"], "seats")
        state = self._blank(names, names.index(first_name), options, layout, fossils, ids, [()] * n)
        state.on_slab = [w == "slab" for w in where]
        state.slab_count = sum(state.on_slab)
        # chisels
        state.open_gaps = set()
        chisels = data.get("chisels", [])
        if not isinstance(chisels, list):
            raise _fail("chisels must be a list")
        for index, raw in enumerate(chisels):
            chisel = _mapping(raw, f"chisels[{index}]")
            a = layout.slot_of.get(_cell(chisel["a"], f"chisels[{index}].a"))
            b = layout.slot_of.get(_cell(chisel["b"], f"chisels[{index}].b"))
            if a is None or b is None or not state.on_slab[a] or not state.on_slab[b]:
                raise _fail(f"chisels[{index}] is not between two tiles on the slab")
            gap = layout.gap_of.get((a, b))
            if gap is None:
                raise _fail(f"chisels[{index}] lies between tiles that are not neighbours")
            if state.owner[gap] != NO_CHISEL:
                raise _fail(f"chisels[{index}]: two chisels on one gap")
            if chisel["player"] not in names:
                raise _fail(f"chisels[{index}]: unknown player {chisel['player']!r}")
            state.owner[gap] = names.index(chisel["player"])
        state.open_gaps = {
            g for g, (a, b) in enumerate(layout.gaps)
            if state.owner[g] == NO_CHISEL and state.on_slab[a] and state.on_slab[b]
        }
        # seats
        if set(seats) != set(names):
            raise _fail("seats must list exactly the players")
        for p, name in enumerate(names):
            seat = _mapping(seats[name], f"seats[{name}]")
            state.dull[p] = _int(seat["dull"], f"{name} dull chisels")
            state.sharp[p] = _int(seat["sharp"], f"{name} sharp chisels")
            state.on_board[p] = sum(1 for who in state.owner if who == p)
            on_slab = _int(seat.get("on_slab", state.on_board[p]), f"{name} chisels on the slab")
            if on_slab != state.on_board[p]:
                raise _fail(f"{name}: on_slab does not match the chisels on the slab")
            if state.dull[p] + state.sharp[p] + state.on_board[p] != st.CHISELS_PER_PLAYER:
                raise _fail(f"{name} must have {st.CHISELS_PER_PLAYER} chisels in all")
            state.amber[p] = _int(seat["amber"], f"{name} amber")
            state.loose[p] = tuple(_kind_counts(seat.get("loose", {}), f"{name} loose", range(N_KINDS)))
            in_sets = _kind_counts(seat.get("in_complete", {}), f"{name} in_complete", range(N_KINDS))
            complete = [0] * len(SPECIES)
            for species_name, count in _mapping(seat.get("complete", {}), f"{name} complete").items():
                if species_name not in SPECIES_INDEX:
                    raise _fail(f"{name}: unknown dinosaur {species_name!r}")
                complete[SPECIES_INDEX[species_name]] = _int(count, f"{name} complete {species_name}")
            for i, species in enumerate(SPECIES):
                for part in species.parts:
                    if in_sets[part] + in_sets[COMMITTED + part] != complete[i]:
                        raise _fail(f"{name}: the tiles in complete dinosaurs do not match the dinosaurs")
            if any(in_sets[k] for k in FRONT_KINDS if k >= N_PARTS):
                raise _fail(f"{name}: only dinosaur parts can be in complete dinosaurs")
            state.in_sets[p] = tuple(in_sets)
            state.complete[p] = tuple(complete)
            state.unpaid_ptero[p] = _int(seat.get("unpaid_pterodactyls", 0), f"{name} unpaid_pterodactyls",
                                         0, state.loose[p][PTERO])
            held_cards = seat.get("cards", [])
            shown = seat.get("revealed_cards", [])
            if not isinstance(held_cards, list) or not all(c in CARD_BY_ID for c in held_cards):
                raise _fail(f"{name}: unknown resource card")
            if not isinstance(shown, list) or not all(c in held_cards for c in shown):
                raise _fail(f"{name}: a revealed card must be held")
            cards.append(tuple(held_cards))
            state.revealed_cards[p] = tuple(shown)
        state.cards = cards
        leader = _mapping(data["field_leader"], "field_leader")
        state.leader = tuple(_kind_counts(leader.get("tiles", {}), "field leader tiles", range(BONES + 1))[
            : len(FRONT_KINDS)])
        state.supply = _int(leader["amber"], "field leader amber")
        if state.supply + sum(state.amber) != st.AMBER_SUPPLY:
            raise _fail(f"amber must add up to {st.AMBER_SUPPLY} (players + supply)")
        # turn
        turn = _mapping(data["turn"], "turn")
        if turn["active"] not in names:
            raise _fail(f"turn.active {turn['active']!r} is not playing")
        state.active = names.index(turn["active"])
        if turn["phase"] not in st.PHASE_OF:
            raise _fail(f"unknown phase {turn['phase']!r}")
        state.phase = st.PHASE_OF[turn["phase"]]
        state.turn_number = _int(turn.get("number", 1), "turn.number", 1)
        state.need = _int(turn.get("pickups_needed", 0), "turn.pickups_needed", 0, 3)
        state.purchases = _int(turn.get("purchases", 0), "turn.purchases")
        state.ignore_rocks = _int(turn.get("ignore_rocks", 0), "turn.ignore_rocks", 0)
        for flag in ("sold", "final"):
            if not isinstance(turn.get(flag, False), bool):
                raise _fail(f"turn.{flag} must be true or false")
        state.sold = bool(turn.get("sold", False))
        state.final = bool(turn.get("final", False))
        if state.phase == st.PICKUP and not 0 < state.need <= state.on_board[state.active]:
            raise _fail("pick-up phase needs 1..3 chisels the active player has on the slab")
        if state.phase != st.PICKUP and state.need:
            raise _fail("turn.pickups_needed must be 0 outside the pick-up phase")
        if state.phase == st.OVER and not state.final:
            raise _fail("a game over needs turn.final (the last tiles kept)")
        if state.final and (state.slab_count or any(w == "pool" for w in where)):
            raise _fail("the last tiles have been kept (turn.final), yet tiles are still on the slab")
        if state.final and state.phase not in (st.MAIN, st.OVER):
            raise _fail(f"after the last tiles are kept only the main phase follows, not {turn['phase']!r}")
        # split in progress
        pool_slots = [s for s, w in enumerate(where) if w == "pool"]
        self._read_split(state, data.get("split"), pool_slots)
        last_split = data.get("last_split")
        if last_split is not None and not isinstance(last_split, Mapping):
            raise _fail("last_split must be an object or null")
        state.last_split = copy.deepcopy(dict(last_split)) if last_split is not None else None
        # conservation and hidden-information checks
        known = [0] * len(FRONT_KINDS)
        for slot, kind in enumerate(fossils):
            if kind >= 0 and where[slot] != "gone":
                known[kind] += 1
        for holding in (*state.loose, *state.in_sets):
            for kind, count in enumerate(holding):
                known[real_kind(kind)] += count
        for kind, count in enumerate(state.leader):
            known[kind] += count
        for kind in FRONT_KINDS:
            if known[kind] > BOX_COUNTS[kind]:
                raise _fail(f"more {KIND_NAMES[kind]} tiles than the box holds ({BOX_COUNTS[kind]})")
        hidden = sum(1 for slot, kind in enumerate(fossils) if kind < 0 and where[slot] != "gone")
        if hidden > sum(BOX_COUNTS[k] - known[k] for k in FRONT_KINDS):
            raise _fail("more face-down tiles than fossils not yet seen")
        parts = layout.parts(state.on_slab, state.owner)
        if state.phase == st.AWARD:
            if len(parts) != 2:
                raise _fail("an award of equal halves needs a slab in two parts")
        elif len(parts) > 1:
            raise _fail("the slab is split but no split is being resolved")
        return state

    def _read_split(self, state: JurassicPartsState, split: Any, pool_slots: list[int]) -> None:
        layout = state.layout
        names = state.names
        phase = state.phase
        if phase == st.AWARD:
            split = _mapping(split, "split")
            options = split["options"]
            if not isinstance(options, list) or len(options) != 2:
                raise _fail("split.options must hold the two halves")
            halves = []
            for half in options:
                slots = [layout.slot_of.get(_cell(c, "split option cell")) for c in half]
                if any(s is None or not state.on_slab[s] for s in slots):
                    raise _fail("split.options cells must be slab tiles")
                halves.append(tuple(sorted(s for s in slots if s is not None)))
            if len(halves[0]) != len(halves[1]) or set(halves[0]) & set(halves[1]):
                raise _fail("split.options must be two disjoint equal halves")
            state.award_options = (halves[0], halves[1])
            if pool_slots:
                raise _fail("no tile may be in the pool while the halves are chosen")
            return
        if phase not in (st.REVEAL, st.TAKE, st.KEEP):
            if split is not None or pool_slots:
                raise _fail(f"no split can be pending in phase {st.PHASE_NAMES[phase]}")
            return
        split = _mapping(split, "split")
        if split.get("then") == "buy":
            cells = split.get("reveal")
            slot = None
            if isinstance(cells, list) and len(cells) == 1:
                slot = layout.slot_of.get(_cell(cells[0], "split reveal cell"))
            if (phase != st.REVEAL or slot is None or not state.on_slab[slot] or state.fossil[slot] >= 0
                    or pool_slots or split.get("pool")):
                raise _fail("a purchase waiting for its reveal names one face-down slab tile, nothing else")
            state.pending = [slot]
            state._buying = slot
            state.after_reveal = st.BUY
            return
        pool = [layout.slot_of.get(_cell(c, "split pool cell")) for c in split["pool"]]
        if sorted(s for s in pool if s is not None) != pool_slots or None in pool:
            raise _fail("split.pool must list exactly the tiles marked where=pool")
        state.pool = [s for s in pool if s is not None]
        pending = [layout.slot_of.get(_cell(c, "split reveal cell")) for c in split.get("reveal", [])]
        if None in pending or any(s not in state.pool or state.fossil[s] >= 0
                                  for s in pending if s is not None):
            raise _fail("split.reveal must list face-down tiles of the pool")
        state.pending = [s for s in pending if s is not None]
        if sorted(state.pending) != sorted(s for s in state.pool if state.fossil[s] < 0):
            raise _fail("every face-down tile of the pool must be waiting to be revealed")
        if (phase == st.REVEAL) != bool(state.pending):
            raise _fail("the reveal phase is exactly when face-down tiles wait to be revealed")
        then = split.get("then", "keep" if phase == st.KEEP else "take")
        if then not in ("take", "keep"):
            raise _fail("split.then must be take or keep")
        state.after_reveal = st.KEEP if then == "keep" else st.TAKE
        if phase == st.KEEP and state.after_reveal != st.KEEP:
            raise _fail("keep phase must be followed by keep")
        ranking = []
        for entry in split.get("ranking", []):
            entry = _mapping(entry, "split.ranking entry")
            if entry["player"] not in names:
                raise _fail(f"split.ranking: unknown player {entry['player']!r}")
            ranking.append((names.index(entry["player"]), _int(entry["chisels"], "ranking chisels"),
                            _int(entry["takes"], "ranking takes")))
        state.ranking = tuple(ranking)
        state.rank_pos = _int(split.get("rank_position", 0), "split.rank_position")
        state.taken = _int(split.get("taken", 0), "split.taken")
        if phase == st.TAKE and (state.rank_pos >= len(ranking) or state.taken >= ranking[state.rank_pos][2]
                                 or not state.pool):
            raise _fail("the take phase needs a contributor with tiles still to take")
        if phase == st.KEEP and not state.pool:
            raise _fail("the keep phase needs the last tiles")

    # -- rulings --------------------------------------------------------------------------------------
    def score_report(self, data: Any) -> dict[str, Any]:
        """`companion score jurassic-parts FILE`: players' tiles and amber -> totals, breakdown, winners.

        A full engine state (``to_dict()``) is scored as well."""
        if isinstance(data, Mapping) and data.get("game") == self.name:
            try:
                state = self.state_from_dict(data)
            except StateFormatError as error:
                raise InputError(str(error)) from None
            held = state.holding_scores()
            return {"players": {name: score.to_dict() for name, score in held.items()},
                    "winners": list(winners(held)), "rules": ["JP-SCORE", "JP-BONES", "JP-TIES"]}
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), list) or not data["players"]:
            raise InputError("expected an object with a non-empty \"players\" list")
        count = len(data["players"])
        if count > self.max_players:
            raise InputError(f"{self.title} takes at most {self.max_players} players, not {count}")
        holdings: dict[str, tuple[list[int], int]] = {}
        box = [0] * len(FRONT_KINDS)
        amber_total = 0
        for index, entry in enumerate(data["players"]):
            if not isinstance(entry, Mapping):
                raise InputError(f"players[{index}] must be an object")
            name = entry.get("name")
            if not isinstance(name, str) or not name or not _printable(name):
                raise InputError(f"players[{index}] needs a \"name\" (text)")
            if name in holdings:
                raise InputError(f"duplicate player {brief(name)}")
            missing = [key for key in ("tiles", "amber") if key not in entry]
            if missing:  # required: a misspelt key must not score as an empty holding
                raise InputError(f"{name}: missing \"{missing[0]}\" (use [] or 0 for none)")
            tiles = entry["tiles"]
            if not isinstance(tiles, list):
                raise InputError(f"{name}: \"tiles\" must be a list of fossil names")
            counts = [0] * N_KINDS
            for tile in tiles:
                kind = KIND_OF.get(tile) if isinstance(tile, str) else None
                if kind is None:
                    raise InputError(f"{brief(name)[1:-1]}: unknown tile {brief(tile)}")
                counts[kind] += 1
                box[real_kind(kind)] += 1
            amber = entry["amber"]
            if not isinstance(amber, int) or isinstance(amber, bool) or amber < 0:
                raise InputError(f"{name}: \"amber\" must be a non-negative integer")
            amber_total += amber
            holdings[name] = (counts, amber)
        for kind in FRONT_KINDS:
            if box[kind] > BOX_COUNTS[kind]:
                raise InputError(f"more {KIND_NAMES[kind]} tiles than the box holds ({BOX_COUNTS[kind]})")
        if amber_total > st.AMBER_SUPPLY:
            raise InputError(f"more amber than the supply of {st.AMBER_SUPPLY}")
        no_sets = (0,) * len(SPECIES)
        scores = {name: score_holding(counts, no_sets, amber) for name, (counts, amber) in holdings.items()}
        return {
            "players": {name: score.to_dict() for name, score in scores.items()},
            "winners": list(winners(scores)),
            "rules": ["JP-SCORE", "JP-BONES", "JP-TIES"],
        }

    def legal_report(self, data: Any) -> dict[str, Any]:
        """`companion legal jurassic-parts FILE`: the legal actions in a full engine state."""
        if not isinstance(data, Mapping):
            raise InputError("expected a jurassic-parts state object")
        state = self.state_from_dict(data)
        report: dict[str, Any] = {
            "player": state.current_player(),
            "phase": st.PHASE_NAMES[state.phase],
            "actions": [action.to_dict() for action in state.legal_actions()],
        }
        if state.is_chance_node():
            report["probabilities"] = [weight for _, weight in state.chance_outcomes()]
        return report
