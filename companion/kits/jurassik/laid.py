"""The square as the group laid it: the tiles the camera sees in the play area fitted to a square of the
tiles' own pitch wherever it lies, read cell by cell (north row first, west column first) into the
engine's set-up document, with what to do first where the table cannot be one yet (a tile turned the
wrong way up, two on one place, one out of line)."""

from __future__ import annotations

import cmath
import math
from collections.abc import Iterable
from functools import partial

from companion.i18n import Said, gettext, pgettext, said, said_everywhere
from companion.kits.jurassik.table import JurassikLayout
from companion.kits.jurassik.words import FACE_WORDS, jurassik_words, piece_of
from companion.kits.kit import TableAsLaid
from companion.kits.tabletop import OUT_OF_LINE, SAME_PLACE_MM
from companion.words import grid_place
from engines.jurassik.components import FACE_BY_TAG, START
from vision.observation import Observation, TagReading

#: the largest square any edition lays (8 x 8): where a group may lay its own
LARGEST_SIDE = 8


def _phase(values: Iterable[float], pitch: float) -> float:
    """Where the lattice lines fall along one axis (mm, modulo the pitch): the circular mean of the
    tiles' positions, so a tile or two out of line barely moves it."""
    total = sum((cmath.exp(2j * math.pi * v / pitch) for v in values), 0j)
    return (cmath.phase(total) / (2.0 * math.pi)) * pitch if total else 0.0


def _name(reading: TagReading) -> str:
    return jurassik_words(reading.component_id) or pgettext("jurassik", "a face-down tile")


def _names(readings: list[TagReading]) -> str:
    return gettext(" and ").join(_name(r) for r in readings)


def in_play_area(reading: TagReading, layout: JurassikLayout) -> bool:
    """Laid where a square may lie: within the largest square's area, not in a seat zone, on the reveal
    spot or in the box."""
    if reading.center_mm is None or (reading.zone or "").startswith(("seat", "reveal", "box")):
        return False
    x0, y0, x1, y1 = layout.grid_rect(LARGEST_SIDE, LARGEST_SIDE)
    x, y = reading.center_mm
    return x0 <= x <= x1 and y0 <= y <= y1


def _token(reading: TagReading) -> tuple[str, bool]:
    """The engine's token for a tile in the square, and whether it lies the wrong way up."""
    tile = reading.component_id
    piece = piece_of(tile)
    if piece is not None:
        dinosaur, number, living = piece
        return f"D{dinosaur}-{number}", living
    if reading.face == "back" or tile == START:
        return tile, False
    return tile, FACE_BY_TAG.get(tile.split("-", 1)[0]) is not None


def _step_words(pieces: list[TagReading], place: tuple[int, int]) -> dict[str, str]:
    """The words a set-up step is filled with: the pieces, what to turn, the place (in the language being
    spoken)."""
    return {"pieces": _names(pieces), "step": _turn_words(pieces[0]), "place": grid_place(*place)}


def _turn_words(reading: TagReading) -> str:
    """What to do first with a tile lying the wrong way up, in the language being spoken."""
    piece = piece_of(reading.component_id)
    if piece is not None:
        return pgettext("jurassik", "turn dinosaur %(dinosaur)d, piece %(piece)d skeleton side up") % {
            "dinosaur": piece[0], "piece": piece[1]}
    face = FACE_BY_TAG.get(reading.component_id.split("-", 1)[0])
    if face is None:
        return ""
    return pgettext("jurassik", "turn the %(face)s tile face down (question mark up)") % {
        "face": FACE_WORDS[face]}


def read_square(observation: Observation, layout: JurassikLayout) -> TableAsLaid:
    """The tiles in the play area as one square (see the module's note)."""
    readings = [r for r in observation.tags.values() if in_play_area(r, layout)]
    pitch = layout.pitch
    if not readings:
        return TableAsLaid(None, {}, (said("lay the tiles face down in a square in the middle of the "
                                           "table"),), 0)
    points = [r.center_mm for r in readings if r.center_mm is not None]
    phase_x = _phase((p[0] for p in points), pitch)
    phase_y = _phase((p[1] for p in points), pitch)
    placed: dict[tuple[int, int], list[tuple[TagReading, float]]] = {}
    for reading, (x, y) in zip(readings, points):
        col, row = round((x - phase_x) / pitch), round((y - phase_y) / pitch)
        off = math.hypot(x - (phase_x + col * pitch), y - (phase_y + row * pitch))
        placed.setdefault((row, col), []).append((reading, off))
    top, left = min(r for r, _ in placed), min(c for _, c in placed)
    bottom, right = max(r for r, _ in placed), max(c for _, c in placed)
    rows, cols = bottom - top + 1, right - left + 1
    centre = (phase_x + (left + right) / 2.0 * pitch, phase_y + (top + bottom) / 2.0 * pitch)
    if math.dist(centre, layout.grid_center) <= SAME_PLACE_MM:
        centre = layout.grid_center  # laid where the companion lays it: its zones and lattice stay
    placement = {"grid_center": [round(centre[0], 1), round(centre[1], 1)]}
    grid: list[list[str | None]] = [[None] * cols for _ in range(rows)]
    steps: list[Said] = []
    for (row, col), found in sorted(placed.items()):
        here = (row - top, col - left)
        if len(found) > 1:
            steps.append(said_everywhere("%(pieces)s lie on one place (%(place)s): one tile a place",
                                         partial(_step_words, [r for r, _ in found], here)))
            continue
        reading, off = found[0]
        token, turn = _token(reading)
        grid[row - top][col - left] = token
        if turn:
            steps.append(said_everywhere("%(step)s (%(place)s)", partial(_step_words, [reading], here)))
        elif off > OUT_OF_LINE * pitch:
            steps.append(said_everywhere("push %(pieces)s into line with the square (%(place)s)",
                                         partial(_step_words, [reading], here)))
    if rows > LARGEST_SIDE or cols > LARGEST_SIDE:
        steps.insert(0, said("the tiles spread over %(rows)d rows and %(cols)d columns: lay them in one "
                             "square", rows=rows, cols=cols))
    laid = None if steps else {"grid": grid}
    return TableAsLaid(laid, placement, tuple(steps), len(readings))

