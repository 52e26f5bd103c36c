"""The slab: tiles at axial hex cells, the gaps between neighbours, rocks, and split detection.

A :class:`Layout` is built once per observed (or generated) slab and shared by every state of that game:
cells, neighbours, gap indices, rocky sides and crack costs never change while tiles are taken away. What
changes (which tiles are still on the slab, which gaps hold a chisel) lives in the state as flat lists that
the functions here read: ``on_slab[slot]`` and ``owner[gap]`` (``-1`` for an uncracked gap).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil
from typing import Any

#: direction k (counter-clockwise from east) -> axial (dq, dr); the opposite of k is (k + 3) % 6
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
NO_CHISEL = -1

Cell = tuple[int, int]


def rotate_rocks(rocks: Sequence[bool], rotation: int) -> tuple[bool, ...]:
    """Rocks at table direction k for a tile turned ``rotation`` sixth turns counter-clockwise."""
    return tuple(bool(rocks[(k - rotation) % 6]) for k in range(6))


class Layout:
    """The fixed geometry of one slab: slots (tiles) at cells, gaps between neighbouring slots."""

    __slots__ = (
        "action_cache",
        "adjacency",
        "backs",
        "base_rocks",
        "cells",
        "cost",
        "fingerprint",
        "gap_of",
        "gaps",
        "neighbours",
        "ring_gaps",
        "rocks",
        "rocky_sides",
        "rotations",
        "slot_of",
        "wings",
    )

    def __init__(
        self,
        cells: Sequence[Cell],
        base_rocks: Sequence[Sequence[bool]] | None = None,
        rotations: Sequence[int] | None = None,
        backs: Sequence[str | None] | None = None,
    ) -> None:
        """``base_rocks[slot]``: the tile's rocks at its rotation 0 (as listed for the side that is up);
        ``rotations[slot]``: sixth turns counter-clockwise; ``backs[slot]``: back id of a face-down tile."""
        self.cells: tuple[Cell, ...] = tuple((int(q), int(r)) for q, r in cells)
        self.slot_of: dict[Cell, int] = {cell: slot for slot, cell in enumerate(self.cells)}
        if len(self.slot_of) != len(self.cells):
            raise ValueError("two tiles on one cell")
        n = len(self.cells)
        self.base_rocks: tuple[tuple[bool, ...], ...] = tuple(
            tuple(bool(x) for x in r) for r in base_rocks) if base_rocks is not None else ((False,) * 6,) * n
        self.rotations: tuple[int, ...] = tuple(int(r) % 6 for r in rotations) if rotations else (0,) * n
        self.backs: tuple[str | None, ...] = tuple(backs) if backs is not None else (None,) * n
        #: one string naming this geometry (states' fingerprints carry it; strings cache their hash)
        self.fingerprint = repr((self.cells, self.base_rocks, self.rotations, self.backs))
        #: rocks per table direction k
        self.rocks: tuple[tuple[bool, ...], ...] = tuple(
            rotate_rocks(r, rot) for r, rot in zip(self.base_rocks, self.rotations))
        gaps: list[tuple[int, int]] = []
        gap_of: dict[tuple[int, int], int] = {}
        neighbours: list[list[tuple[int, int]]] = [[(-1, -1)] * 6 for _ in range(n)]
        cost: list[int] = []
        rocky: list[int] = []
        for slot, (q, r) in enumerate(self.cells):
            for k, (dq, dr) in enumerate(DIRECTIONS):
                other = self.slot_of.get((q + dq, r + dr))
                if other is None:
                    continue
                if other > slot:
                    gap = len(gaps)
                    gaps.append((slot, other))
                    gap_of[(slot, other)] = gap
                    gap_of[(other, slot)] = gap
                    sides = int(self.rocks[slot][k]) + int(self.rocks[other][(k + 3) % 6])
                    rocky.append(sides)
                    cost.append(1 + sides)
                neighbours[slot][k] = (other, gap_of[(slot, other)])
        self.gaps: tuple[tuple[int, int], ...] = tuple(gaps)
        self.gap_of = gap_of
        self.cost: tuple[int, ...] = tuple(cost)
        self.rocky_sides: tuple[int, ...] = tuple(rocky)
        self.neighbours: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(row) for row in neighbours)
        self.adjacency: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(pair for pair in row if pair[0] >= 0) for row in neighbours
        )
        # ring_gaps[slot][k]: the gap between the neighbours in directions k and k+1 (they touch), or -1
        ring: list[tuple[int, ...]] = []
        for slot in range(n):
            row = []
            for k in range(6):
                a = neighbours[slot][k][0]
                b = neighbours[slot][(k + 1) % 6][0]
                row.append(gap_of.get((a, b), -1) if a >= 0 and b >= 0 else -1)
            ring.append(tuple(row))
        self.ring_gaps: tuple[tuple[int, ...], ...] = tuple(ring)
        # wings[gap]: the tiles touching both ends of a gap, with the two gaps linking them to the ends
        wings: list[tuple[tuple[int, int, int], ...]] = []
        for a, b in gaps:
            k = next(k for k in range(6) if neighbours[a][k][0] == b)
            row2 = []
            for side in ((k + 1) % 6, (k - 1) % 6):
                c, gap_ac = neighbours[a][side]
                if c >= 0:
                    row2.append((c, gap_ac, gap_of[(c, b)]))
            wings.append(tuple(row2))
        self.wings: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(wings)
        #: action objects built once per slab and reused by every state (legal-move lists are long)
        self.action_cache: dict[Any, Any] = {}

    @property
    def size(self) -> int:
        return len(self.cells)

    def gap_between(self, a: Cell, b: Cell) -> int | None:
        sa = self.slot_of.get(a)
        sb = self.slot_of.get(b)
        if sa is None or sb is None:
            return None
        return self.gap_of.get((sa, sb))

    # -- connectivity over uncracked gaps between slots still on the slab ---------------------------------

    def connected(self, start: int, goal: int, on_slab: Sequence[bool], owner: Sequence[int]) -> bool:
        """Whether ``goal`` is reachable from ``start`` through uncracked gaps."""
        return start == goal or self._reach(start, goal, on_slab, owner) is None

    def cut_off(self, gap: int, on_slab: Sequence[bool], owner: Sequence[int]) -> set[int] | None:
        """After a chisel on ``gap``: None if its two tiles still hold together, else the part of the first.

        Most cracks leave a tile touching both ends with two uncracked gaps (a "wing"), checked first."""
        for c, gap_a, gap_b in self.wings[gap]:
            if owner[gap_a] == NO_CHISEL and owner[gap_b] == NO_CHISEL and on_slab[c]:
                return None
        a, b = self.gaps[gap]
        return self._reach(a, b, on_slab, owner)

    def _reach(self, start: int, goal: int, on_slab: Sequence[bool], owner: Sequence[int]) -> set[int] | None:
        """Breadth-first from ``start``: None as soon as ``goal`` is reached, else everything reached."""
        adjacency = self.adjacency
        seen = {start}
        queue = [start]
        index = 0
        while index < len(queue):
            slot = queue[index]
            index += 1
            for other, gap in adjacency[slot]:
                if owner[gap] == NO_CHISEL and other not in seen and on_slab[other]:
                    if other == goal:
                        return None
                    seen.add(other)
                    queue.append(other)
        return seen

    def component(self, start: int, on_slab: Sequence[bool], owner: Sequence[int],
                  without: int = -1) -> set[int]:
        """Slots reachable from ``start`` through uncracked gaps (pretending ``without`` is gone)."""
        adjacency = self.adjacency
        seen = {start}
        stack = [start]
        while stack:
            slot = stack.pop()
            for other, gap in adjacency[slot]:
                if owner[gap] == NO_CHISEL and other not in seen and other != without and on_slab[other]:
                    seen.add(other)
                    stack.append(other)
        return seen

    def parts(self, on_slab: Sequence[bool], owner: Sequence[int]) -> list[set[int]]:
        """The slab's parts: connected components of the slots on the slab."""
        found: list[set[int]] = []
        seen: set[int] = set()
        for slot in range(len(self.cells)):
            if on_slab[slot] and slot not in seen:
                part = self.component(slot, on_slab, owner)
                seen |= part
                found.append(part)
        return found

    def articulation_points(self, on_slab: Sequence[bool], owner: Sequence[int]) -> set[int]:
        """Tiles whose removal would split the (connected) slab: one iterative Tarjan pass."""
        n = len(self.cells)
        start = next((s for s in range(n) if on_slab[s]), -1)
        if start < 0:
            return set()
        adjacency = self.adjacency
        disc = [0] * n
        low = [0] * n
        disc[start] = low[start] = 1
        timer = 1
        cut: set[int] = set()
        root_children = 0
        stack = [(start, -1, iter(adjacency[start]))]
        while stack:
            v, parent_gap, edges = stack[-1]
            for w, gap in edges:
                if gap == parent_gap or owner[gap] != NO_CHISEL or not on_slab[w]:
                    continue
                if disc[w]:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                else:
                    timer += 1
                    disc[w] = low[w] = timer
                    stack.append((w, gap, iter(adjacency[w])))
                    break
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] >= disc[u]:
                        if len(stack) > 1:
                            cut.add(u)
                        else:
                            root_children += 1
        if root_children > 1:
            cut.add(start)
        return cut

    def removal_splits(self, slot: int, on_slab: Sequence[bool], owner: Sequence[int]) -> bool:
        """Whether taking ``slot`` away would leave the rest of the slab in more than one part."""
        row = self.neighbours[slot]
        linked = [False] * 6
        count = 0
        for k in range(6):
            other, gap = row[k]
            if other >= 0 and on_slab[other] and owner[gap] == NO_CHISEL:
                linked[k] = True
                count += 1
        if count <= 1:
            return False
        # fast path: the linked neighbours hold together around the ring without this tile
        ring = self.ring_gaps[slot]
        groups = 0
        for k in range(6):
            if linked[k]:
                previous = (k - 1) % 6
                if not (linked[previous] and owner[ring[previous]] == NO_CHISEL):
                    groups += 1
        if groups <= 1:  # 0: all six linked in an unbroken ring
            return False
        targets = {row[k][0] for k in range(6) if linked[k]}
        start = targets.pop()
        # breadth-first from one neighbour, without this tile, until every other neighbour is reached
        adjacency = self.adjacency
        seen = {start, slot}
        queue = [start]
        index = 0
        while index < len(queue):
            current = queue[index]
            index += 1
            for other, gap in adjacency[current]:
                if owner[gap] == NO_CHISEL and other not in seen and on_slab[other]:
                    targets.discard(other)
                    if not targets:
                        return False
                    seen.add(other)
                    queue.append(other)
        return True


# -- split arithmetic shared by the engine and the command-line ruling -------------------------------------


def shares(size: int, contributors: int, cap: int = 6) -> tuple[list[int], int]:
    """Tiles each ranked contributor takes (ceil(left/2), at most ``cap``) and the Field Leader's rest."""
    takes = []
    left = size
    for _ in range(contributors):
        take = min(cap, ceil(left / 2))
        takes.append(take)
        left -= take
    return takes, left


def rank_contributors(counts: Sequence[int], active: int) -> list[int]:
    """Player indices with at least one border chisel: more chisels first, ties clockwise from ``active``."""
    n = len(counts)
    ranked = [p for p in range(n) if counts[p] > 0]
    ranked.sort(key=lambda p: (-counts[p], (p - active) % n))
    return ranked
