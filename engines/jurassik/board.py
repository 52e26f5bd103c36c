"""The excavation zone's geometry: a grid of cells (row-major flat indices) and who borders whom."""

from __future__ import annotations

from functools import lru_cache

#: the largest grid side a state may have (the longest setup is 8x8)
MAX_GRID_SIDE = 20


def place_words(row: int, col: int) -> str:
    """A cell as players and the diagram say it: rows from the north, columns from the west, from 1."""
    return f"row {row + 1}, column {col + 1}"


@lru_cache(maxsize=64)
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every cell (flat indices); the table edge has none."""
    table = []
    for r in range(rows):
        for c in range(cols):
            near = []
            if r > 0:
                near.append((r - 1) * cols + c)
            if r < rows - 1:
                near.append((r + 1) * cols + c)
            if c > 0:
                near.append(r * cols + c - 1)
            if c < cols - 1:
                near.append(r * cols + c + 1)
            table.append(tuple(near))
    return tuple(table)
