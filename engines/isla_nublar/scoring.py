"""The nine scoring-card kinds, computed from the pieces on the board.

Only the top camp of a stack counts; on a field where a player's camp is on top, that player's boxes do not
add anything (the camp scores). Boxes count one per field, however many there are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.isla_nublar.board import Board

Camps = Mapping[str, Sequence[str]]
Boxes = Mapping[str, Mapping[str, int]]

RULE_OF_KIND = {
    "landscape": "IN-W-LANDSCAPE",
    "adjacent": "IN-W-ADJACENT",
    "variety": "IN-W-VARIETY",
    "stacks": "IN-W-STACKS",
    "connections": "IN-W-CONNECTIONS",
    "columns": "IN-W-COLUMNS",
    "groups": "IN-W-GROUPS",
    "river": "IN-W-RIVER",
    "forefront": "IN-W-FOREFRONT",
}


def camp_fields(camps: Camps, player: str, buried: bool = False) -> set[str]:
    """Fields where ``player``'s camp is on top (``buried``: anywhere in the stack)."""
    if buried:
        return {fid for fid, stack in camps.items() if player in stack}
    return {fid for fid, stack in camps.items() if stack and stack[-1] == player}


def box_fields(boxes: Boxes, player: str) -> set[str]:
    """Fields holding at least one of ``player``'s boxes."""
    return {fid for fid, held in boxes.items() if held.get(player, 0) > 0}


def _camp_or_boxes(
    camps: Camps, boxes: Boxes, player: str, fields: set[str], camp: int, box: int, buried: bool
) -> int:
    mine_camps = camp_fields(camps, player, buried)
    mine_boxes = box_fields(boxes, player)
    total = 0
    for fid in fields:
        if fid in mine_camps:
            total += camp
        elif fid in mine_boxes:
            total += box
    return total


def _components(board: Board, fields: set[str]) -> list[set[str]]:
    seen: set[str] = set()
    groups = []
    for start in sorted(fields):
        if start in seen:
            continue
        group = {start}
        todo = [start]
        seen.add(start)
        while todo:
            here = todo.pop()
            for other in board.fields[here].neighbours:
                if other in fields and other not in seen:
                    seen.add(other)
                    group.add(other)
                    todo.append(other)
        groups.append(group)
    return groups


def score_card(
    board: Board,
    card: Mapping[str, Any],
    camps: Camps,
    boxes: Boxes,
    player: str,
    river_own_field: bool = False,
    buried_camps: bool = False,
) -> int:
    """Points ``player`` scores with one scoring card (its data: kind and numbers) on this board.

    ``river_own_field`` is the house rule under which a camp standing on a river field also counts;
    ``buried_camps`` the one under which camps under others count too (not for the stacks kind, which is about
    the top).
    """
    kind = card["kind"]
    if kind == "landscape":
        fields = {fid for fid, f in board.fields.items() if f.landscape == card["landscape"]}
        return _camp_or_boxes(camps, boxes, player, fields, card["camp"], card["boxes"], buried_camps)
    if kind == "adjacent":
        pictured = {fid for fid, f in board.fields.items() if f.landscape == card["landscape"]}
        fields = {fid for fid, f in board.fields.items() if any(n in pictured for n in f.neighbours)}
        return _camp_or_boxes(camps, boxes, player, fields, card["camp"], card["boxes"], buried_camps)
    mine = camp_fields(camps, player, buried_camps)
    if kind == "variety":
        return int(card["points"]) * len({board.fields[fid].landscape for fid in mine})
    if kind == "stacks":
        on_top = camp_fields(camps, player)
        return int(card["points"]) * sum(1 for fid in on_top if len(camps[fid]) >= 2)
    if kind == "connections":
        occupied = mine | box_fields(boxes, player)
        borders = sum(1 for fid in occupied for other in board.fields[fid].neighbours if other in occupied)
        return int(card["points"]) * (borders // 2)
    if kind == "columns":
        return int(card["points"]) * len({board.fields[fid].column for fid in mine})
    if kind == "groups":
        return int(card["points"]) * sum(1 for group in _components(board, mine) if len(group) >= 2)
    if kind == "river":
        return int(card["points"]) * sum(
            1
            for fid in mine
            if any(board.fields[n].river for n in board.fields[fid].neighbours)
            or (river_own_field and board.fields[fid].river)
        )
    if kind == "forefront":
        total = 0
        for column in board.columns.values():
            front = next(
                (fid for fid in column if camps.get(fid) or any(n > 0 for n in boxes.get(fid, {}).values())),
                None,
            )
            if front is None:
                continue
            stack = camps.get(front, ())
            if stack and (stack[-1] == player or (buried_camps and player in stack)):
                total += int(card["camp"])
            elif boxes.get(front, {}).get(player, 0) > 0:
                total += int(card["boxes"])
        return total
    raise ValueError(f"unknown scoring kind {kind!r}")
