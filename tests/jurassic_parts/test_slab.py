"""Slab geometry: gaps, rocks with rotation, crack cost, split detection against brute force."""

from __future__ import annotations

import random
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.jurassic_parts import Layout, rank_contributors, shares
from engines.jurassic_parts.board import NO_CHISEL, rotate_rocks


def brute_parts(layout: Layout, on_slab: list[bool], owner: list[int]) -> list[set[int]]:
    """Connected components by repeated union over uncracked gaps (independent of the engine's search)."""
    label = {s: s for s in range(layout.size) if on_slab[s]}
    changed = True
    while changed:
        changed = False
        for gap, (a, b) in enumerate(layout.gaps):
            if owner[gap] == NO_CHISEL and on_slab[a] and on_slab[b] and label[a] != label[b]:
                low = min(label[a], label[b])
                label[a] = label[b] = low
                changed = True
    groups: dict[int, set[int]] = {}
    for slot, root in label.items():
        groups.setdefault(root, set()).add(slot)
    return sorted(groups.values(), key=min)


def test_gaps_are_shared_edges_only(jp: SimpleNamespace) -> None:
    layout = Layout(jp.hexagon(1))
    assert layout.size == 7 and len(layout.gaps) == 12  # 6 spokes + 6 rim edges; no outer gaps
    centre = layout.slot_of[(0, 0)]
    assert len(layout.adjacency[centre]) == 6
    assert layout.gap_between((1, 0), (-1, 0)) is None
    assert layout.gap_between((1, 0), (1, -1)) is not None


def test_rocks_turn_with_the_tile() -> None:
    rocks = (True, False, False, False, False, False)  # rocky east edge at rotation 0
    assert rotate_rocks(rocks, 0)[0]
    assert rotate_rocks(rocks, 1) == (False, True, False, False, False, False)  # now north-east
    assert rotate_rocks(rocks, 3)[3]  # half a turn: west
    # two tiles side by side, east of (0,0) is (1,0): direction 0 from the left tile, 3 from the right
    plain = Layout([(0, 0), (1, 0)], [rocks, (False,) * 6], [0, 0])
    assert plain.cost[0] == 2 and plain.rocky_sides[0] == 1
    turned = Layout([(0, 0), (1, 0)], [rocks, (False,) * 6], [1, 0])
    assert turned.cost[0] == 1
    both = Layout([(0, 0), (1, 0)], [rocks, rocks], [0, 3])  # the right tile's rock turned to face west
    assert both.cost[0] == 3 and both.rocky_sides[0] == 2


def test_share_examples_from_the_rulebook() -> None:
    assert shares(9, 3) == ([5, 2, 1], 1)
    assert shares(19, 5) == ([6, 6, 4, 2, 1], 0)
    assert shares(1, 2) == ([1, 0], 0)
    assert shares(5, 1) == ([3], 2)
    assert shares(20, 1) == ([6], 14)


def test_ranking_more_chisels_first_then_clockwise_from_the_active_player() -> None:
    # players 0..4, active 2: ties go 2, 3, 4, 0, 1
    assert rank_contributors([1, 1, 0, 1, 3], active=2) == [4, 3, 0, 1]
    assert rank_contributors([2, 0, 2, 0], active=3) == [0, 2]
    assert rank_contributors([0, 0], active=0) == []


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), density=st.floats(0.1, 0.7))
def test_split_search_agrees_with_brute_force(seed: int, density: float) -> None:
    rng = random.Random(seed)
    cells = [(q, r) for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4]
    rng.shuffle(cells)
    layout = Layout(cells[: rng.randint(2, len(cells))])
    on_slab = [True] * layout.size
    owner = [rng.randrange(3) if rng.random() < density else NO_CHISEL for _ in layout.gaps]
    expected = brute_parts(layout, on_slab, owner)
    assert sorted(layout.parts(on_slab, owner), key=min) == expected
    for gap, (a, b) in enumerate(layout.gaps):
        same = any(a in part and b in part for part in expected)
        assert layout.connected(a, b, on_slab, owner) == same
        if owner[gap] != NO_CHISEL:
            cut = layout.cut_off(gap, on_slab, owner)
            assert (cut is None) == same
            if cut is not None:
                assert cut == next(part for part in expected if a in part)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), density=st.floats(0.0, 0.5))
def test_articulation_points_agree_with_removing_each_tile(seed: int, density: float) -> None:
    rng = random.Random(seed)
    layout = Layout([(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3])
    on_slab = [rng.random() < 0.85 for _ in range(layout.size)]
    owner = [rng.randrange(2) if rng.random() < density else NO_CHISEL for _ in layout.gaps]
    parts = brute_parts(layout, on_slab, owner)
    if len(parts) != 1:
        return  # only a whole slab is asked about
    cut = layout.articulation_points(on_slab, owner)
    for slot in parts[0]:
        rest = on_slab[:]
        rest[slot] = False
        splits = len(brute_parts(layout, rest, owner)) > 1
        assert (slot in cut) == splits
        assert layout.removal_splits(slot, on_slab, owner) == splits
