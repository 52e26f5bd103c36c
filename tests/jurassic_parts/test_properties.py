"""Property tests and random-playout conformance: nothing is created or lost, the engine's bookkeeping
matches a recomputation, the split ruling agrees with brute-force connectivity, games end."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import InputError, random_playout
from engines.jurassic_parts import GAME, JurassicPartsState, Layout, PlaceChisel, split_ruling
from engines.jurassic_parts.board import NO_CHISEL
from engines.jurassic_parts.components import KIND_NAMES, PLANT, PTERO
from engines.jurassic_parts.moves import PHASE_NAMES

PLAYERS = ["red", "blue", "green", "yellow", "purple", "orange"]


def check_invariants(state: JurassicPartsState, jp: SimpleNamespace, start_tiles: int,
                     views: bool = True) -> None:
    tiles, amber, chisels = jp.totals(state)
    assert tiles == start_tiles
    assert amber == 20
    assert chisels == [12] * len(state.players)
    assert all(x >= 0 for x in (*state.dull, *state.sharp, *state.amber, state.supply))
    layout = state.layout
    open_gaps = {g for g, (a, b) in enumerate(layout.gaps)
                 if state.owner[g] == NO_CHISEL and state.on_slab[a] and state.on_slab[b]}
    assert state.open_gaps == open_gaps
    assert all(state.on_slab[a] and state.on_slab[b] for g, (a, b) in enumerate(layout.gaps)
               if state.owner[g] != NO_CHISEL)  # no chisel outside or along the edge of the slab
    assert state.slab_count == sum(state.on_slab)
    parts = layout.parts(state.on_slab, state.owner)
    assert len(parts) == (2 if PHASE_NAMES[state.phase] == "award" else min(1, state.slab_count))
    if not views:
        return
    for viewer in state.players:
        seen = state.view(viewer)
        for name, seat in seen["seats"].items():
            if name != viewer:
                assert set(seat["loose"]) <= {KIND_NAMES[PLANT], KIND_NAMES[PTERO]}


def check_split_against_brute_force(before: JurassicPartsState, action: Any,
                                    after: JurassicPartsState) -> None:
    """The part the engine awarded is the smaller of the two parts a brute-force search finds."""
    layout = before.layout
    owner = before.owner[:]
    if isinstance(action, PlaceChisel):
        gap = layout.gap_between(action.a, action.b)
        assert gap is not None
        owner[gap] = 0
    cells = [layout.cells[s] for s in range(layout.size) if before.on_slab[s]]
    cracked = {frozenset({layout.cells[a], layout.cells[b]}) for g, (a, b) in enumerate(layout.gaps)
               if owner[g] != NO_CHISEL}
    parts = brute_parts(cells, cracked)
    assert len(parts) == 2
    awarded = {tuple(c) for c in after.last_split["awarded"]}  # type: ignore[index]
    sizes = sorted(len(p) for p in parts)
    as_cells = [{cells[i] for i in part} for part in parts]
    assert awarded in as_cells
    assert len(awarded) == sizes[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 6), steps=st.integers(1, 400))
def test_nothing_is_created_or_lost(jp: SimpleNamespace, seed: int, n_players: int, steps: int) -> None:
    rng = random.Random(seed)
    options = {"resource_cards": rng.randint(0, 2)}
    state = GAME.new_initial_state(PLAYERS[:n_players], rng=rng, options=options)
    start = jp.totals(state)[0]
    assert start == 58
    for step in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        new = state.apply(action)
        assert isinstance(new, JurassicPartsState)
        if new.last_split is not state.last_split and new.last_split is not None:
            check_split_against_brute_force(state, action, new)
        state = new
        check_invariants(state, jp, start, views=step % 50 == 0)


def brute_parts(cells: list[tuple[int, int]], cracked: set[frozenset[tuple[int, int]]]) -> list[set[int]]:
    label = list(range(len(cells)))
    index = {c: i for i, c in enumerate(cells)}
    changed = True
    while changed:
        changed = False
        for (q, r), i in index.items():
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                j = index.get((q + dq, r + dr))
                crack = frozenset({(q, r), (q + dq, r + dr)})
                if j is not None and crack not in cracked and label[i] != label[j]:
                    label[i] = label[j] = min(label[i], label[j])
                    changed = True
    groups: dict[int, set[int]] = {}
    for i, root in enumerate(label):
        groups.setdefault(root, set()).add(i)
    return list(groups.values())


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 58), density=st.floats(0.0, 0.6))
def test_split_ruling_agrees_with_brute_force(seed: int, size: int, density: float) -> None:
    rng = random.Random(seed)
    cells = [(0, 0)]
    while len(cells) < size:  # a random connected blob
        q, r = rng.choice(cells)
        dq, dr = rng.choice(((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)))
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    ids = {c: f"F{i + 1:02d}" for i, c in enumerate(cells)}
    layout = Layout(cells)
    players = PLAYERS[: rng.randint(2, 6)]
    cracked: set[frozenset[tuple[int, int]]] = set()
    chisels = []
    left = dict.fromkeys(players, 12)  # each player owns 12 chisels
    for a, b in layout.gaps:
        if rng.random() < density and any(left.values()):
            ca, cb = layout.cells[a], layout.cells[b]
            cracked.add(frozenset({ca, cb}))
            who = rng.choice([p for p in players if left[p]])
            left[who] -= 1
            chisels.append({"a": ids[ca], "b": ids[cb], "player": who})
    data = {"players": players, "current": rng.choice(players),
            "tiles": [{"id": ids[c], "q": c[0], "r": c[1]} for c in cells], "chisels": chisels}
    parts = brute_parts(cells, cracked)
    if len(parts) > 2:
        with pytest.raises(InputError):
            split_ruling(data)
        return
    ruling = split_ruling(data)
    if len(parts) == 1:
        assert ruling == {"split": False, "rules": ["JP-SPLIT"]}
        return
    small, large = sorted(parts, key=len)
    expected = [sorted(ids[cells[i]] for i in part) for part in (small, large)]
    if len(small) == len(large):
        assert ruling["equal"] and sorted(o["smaller"] for o in ruling["options"]) == sorted(expected)
    else:
        assert not ruling["equal"] and ruling["options"][0]["smaller"] == expected[0]
    for option in ruling["options"]:
        border = sum(option["returned_dull"].values())
        assert border == sum(e["chisels"] for e in option["ranking"])
        assert sum(e["takes"] for e in option["ranking"]) + option["field_leader"] == len(option["smaller"])
        assert all(e["takes"] <= 6 for e in option["ranking"])


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_random_playouts_reach_the_end(n_players: int, jp: SimpleNamespace) -> None:
    for seed in range(3):
        steps = 0

        def count(before: Any, action: Any, after: Any) -> None:
            nonlocal steps
            steps += 1

        final = random_playout(GAME, PLAYERS[:n_players], random.Random(seed * 10 + n_players),
                               options={"resource_cards": seed % 3}, on_step=count)
        assert isinstance(final, JurassicPartsState)
        outcome = final.outcome()
        assert outcome is not None and set(outcome.scores) == set(PLAYERS[:n_players])
        assert outcome.winners and final.slab_count == 0 and not final.pool
        check_invariants(final, jp, 58)
        for name in outcome.scores:
            assert outcome.scores[name] == sum(outcome.breakdown[name].values())


@pytest.mark.parametrize(("n_players", "seed"), [(2, 106), (3, 108), (6, 101)])
def test_playout_round_trips_through_json_at_every_step(n_players: int, seed: int) -> None:
    """Whole games (seeds picked for short games, to stay within the test budget) saved and restored
    through JSON after every action."""
    steps = 0

    def round_trip(before: Any, action: Any, after: Any) -> None:
        nonlocal steps
        steps += 1
        data = json.loads(json.dumps(after.to_dict()))
        again = GAME.state_from_dict(data)
        assert again.to_dict() == data
        assert again.current_player() == after.current_player()
        assert GAME.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action

    final = random_playout(GAME, PLAYERS[:n_players], random.Random(seed), on_step=round_trip)
    assert final.is_terminal() and steps > 100


def test_playouts_are_reproducible() -> None:
    first = random_playout(GAME, PLAYERS[:3], random.Random(5))
    second = random_playout(GAME, PLAYERS[:3], random.Random(5))
    assert first.to_dict() == second.to_dict()


JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=6),
                        st.sampled_from(["F01", "F02", "red", "blue", "PLANT", "BONES:TREX-1", "TREX-1"]))
JSONISH = st.recursive(JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["players", "current", "tiles", "chisels", "id", "q", "r", "a", "b", "player", "name", "amber",
         "kind", "cell", "fossil", "part", "tile"]), inner, max_size=5)), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(data=JSONISH)
def test_rulings_refuse_garbage_with_input_errors_only(data: Any) -> None:
    for ruling in (split_ruling, GAME.score_report):
        try:
            result = ruling(data)
        except InputError as error:
            assert "\n" not in str(error)
        else:
            assert isinstance(result, dict)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=JSONISH, kind=st.sampled_from(sorted(GAME.codec.kinds)))
def test_garbage_actions_are_refused_by_rule(jp: SimpleNamespace, data: Any, kind: str) -> None:
    from engines.core import IllegalAction, StateFormatError

    state = jp.build(["red", "blue"], [(q, r, "*") for q, r in jp.hexagon(1)])
    before = json.dumps(state.to_dict(), sort_keys=True)
    payload = {**data, "kind": kind} if isinstance(data, dict) else {"kind": kind}
    try:
        action = GAME.action_from_dict(payload)
    except StateFormatError as error:  # not an action at all: said in one line
        assert str(error) and "\n" not in str(error)
        return
    try:
        state.apply(action)
    except IllegalAction as error:  # an action the rules forbid: the rule that forbids it is named
        assert error.rule.rule_id and error.detail
    else:  # accepted: only a listed legal action may be
        assert action in state.legal_actions(), payload
    assert json.dumps(state.to_dict(), sort_keys=True) == before  # and the state is untouched


@pytest.mark.parametrize("n_players", [2, 4, 6])
def test_bot_playouts_end_and_conserve(n_players: int, jp: SimpleNamespace) -> None:
    from engines.jurassic_parts import bot_policy

    final = random_playout(GAME, PLAYERS[:n_players], random.Random(n_players), policy=bot_policy)
    assert isinstance(final, JurassicPartsState) and final.is_terminal()
    check_invariants(final, jp, 58)


def test_a_restored_game_continues_exactly_like_the_original() -> None:
    rng = random.Random(21)
    state: Any = GAME.new_initial_state(PLAYERS[:4], rng=rng)
    for _ in range(150):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    restored: Any = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    finals = []
    for start in (state, restored):
        again = random.Random(99)
        current = start
        while not current.is_terminal():
            if current.is_chance_node():
                outcomes = current.chance_outcomes()
                action = again.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
            else:
                action = again.choice(current.legal_actions())
            current = current.apply(action)
        finals.append(current.to_dict())
    assert finals[0] == finals[1]


@pytest.mark.slow
def test_whole_games_with_every_option_hold_every_invariant(jp: SimpleNamespace) -> None:
    """30 whole games (2-6 players, every house rule, uniform and bot play): invariants after every
    action, every split against brute force, a JSON round trip every few actions."""
    from engines.jurassic_parts import bot_policy

    splits = 0
    for game in range(30):
        rng = random.Random(5000 + game)
        options = {"resource_cards": game % 3, "slab_purchase": ("any", "face-up")[game % 2],
                   "end_bones": ("optimal", "loose")[(game // 2) % 2]}
        state: Any = GAME.new_initial_state(PLAYERS[: 2 + game % 5], rng=rng, options=options)
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0]
            elif game % 3 == 0:
                action = bot_policy(state, state.legal_actions(), rng)
            else:
                action = rng.choice(state.legal_actions())
            new = state.apply(action)
            if new.last_split is not state.last_split and new.last_split is not None:
                check_split_against_brute_force(state, action, new)
                splits += 1
            state = new
            step += 1
            check_invariants(state, jp, 58, views=step % 97 == 0)
            if step % 53 == 0:
                saved = json.loads(json.dumps(state.to_dict()))
                assert GAME.state_from_dict(saved).to_dict() == state.to_dict()
        assert state.outcome() is not None
    assert splits > 300
