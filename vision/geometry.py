"""Play-area geometry fitted from tag centres in table millimetres.

- :func:`fit_hex`: tiles on pointy-top hexes in axial (q, r), pitch, rotation and origin estimated;
  robust to missing tiles and placement noise.
- :func:`fit_square`: tiles on a square grid, (col, row).
- :func:`fit_boards`: free-placed 3x3 boards from their centre tags (one at each board's centre cell);
  cells are integer (x, y) on the common grid.
- :func:`fit_island`: one board framed by four corner tags; fields by (column, row).

The strategies of :mod:`vision.boards` choose among them; a kit chooses the strategy.

Every fit returns a :class:`vision.observation.LatticeFit`. Coordinates are anchored: with a ``prior``
fit (the layout's nominal geometry, or the previous frame's fit) cell (0, 0) stays where the prior put
it; without one, (0, 0) is the cell nearest the centroid of the tags.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from vision.observation import LatticeFit, cell_key

Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)


def rotate(vector: Point, angle: float) -> Point:
    """Rotate a table vector ``angle`` degrees counter-clockwise as seen from above (y points south)."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    x, y = vector
    return (x * c + y * s, -x * s + y * c)


def _nearest_spacing(points: np.ndarray) -> float:
    diff = points[:, None, :] - points[None, :, :]
    dist = np.sqrt((diff**2).sum(axis=2))
    np.fill_diagonal(dist, np.inf)
    return float(np.median(dist.min(axis=1)))


def _dominant_angle(points: np.ndarray, pitch: float, symmetry: int) -> float:
    """The lattice rotation (degrees, in (-180/symmetry, 180/symmetry]) from neighbour directions."""
    diff = points[:, None, :] - points[None, :, :]
    dist = np.sqrt((diff**2).sum(axis=2))
    near = (dist > 0.75 * pitch) & (dist < 1.25 * pitch)
    if not near.any():
        return 0.0
    vx, vy = diff[..., 0][near], diff[..., 1][near]
    angles = np.arctan2(-vy, vx) * symmetry  # CCW as seen; y points south
    mean = math.atan2(float(np.sin(angles).sum()), float(np.cos(angles).sum())) / symmetry
    return math.degrees(mean)


def _similarity(src: np.ndarray, dst: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Least-squares dst ~ t + s * R(angle) src (angle CCW as seen); returns (scale, angle, t)."""
    mu_s, mu_d = src.mean(axis=0), dst.mean(axis=0)
    a, b = src - mu_s, dst - mu_d
    # Work in standard math orientation (y up) by flipping y, then convert the angle back.
    a_m = a * [1, -1]
    b_m = b * [1, -1]
    dot = float((a_m * b_m).sum())
    cross = float((a_m[:, 0] * b_m[:, 1] - a_m[:, 1] * b_m[:, 0]).sum())
    angle = math.atan2(cross, dot)
    norm = float((a_m**2).sum())
    scale = math.hypot(dot, cross) / norm if norm > 0 else 1.0
    rot = np.array([rotate((1.0, 0.0), math.degrees(angle)), rotate((0.0, 1.0), math.degrees(angle))]).T
    t = mu_d - scale * (rot @ mu_s)
    return scale, math.degrees(angle), t


class _Lattice:
    """A 2-D lattice with a basis in lattice units; cell (i, j) sits at ``basis @ (i, j)`` (unit pitch)."""

    def __init__(self, basis: np.ndarray, symmetry: int):
        self.basis = basis
        self.inverse = np.linalg.inv(basis)
        self.symmetry = symmetry

    def unit(self, cells: np.ndarray) -> np.ndarray:
        result: np.ndarray = cells @ self.basis.T
        return result

    def cells(self, unit_points: np.ndarray) -> np.ndarray:
        raw = unit_points @ self.inverse.T
        if self.symmetry == 6:
            return _axial_round(raw)
        return np.round(raw).astype(int)


def _axial_round(raw: np.ndarray) -> np.ndarray:
    q, r = raw[:, 0], raw[:, 1]
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return np.stack([rq, rr], axis=1).astype(int)


HEX = _Lattice(np.array([[1.0, 0.5], [0.0, SQRT3 / 2]]), 6)
SQUARE = _Lattice(np.array([[1.0, 0.0], [0.0, 1.0]]), 4)


def _rotation(angle: float) -> np.ndarray:
    """Matrix of :func:`rotate` (row vectors multiply it from the left: ``v @ M``)."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    return np.array([[c, -s], [s, c]])


def _to_unit(points: np.ndarray, origin: np.ndarray, pitch: float, angle: float) -> np.ndarray:
    rel = (np.asarray(points, dtype=np.float64).reshape(-1, 2) - origin) / pitch
    result: np.ndarray = rel @ _rotation(-angle)
    return result


def _from_unit(units: np.ndarray, origin: np.ndarray, pitch: float, angle: float) -> np.ndarray:
    rotated = np.asarray(units, dtype=np.float64).reshape(-1, 2) @ _rotation(angle)
    result: np.ndarray = origin + pitch * rotated
    return result


def _fit_lattice(
    centres: Mapping[str, Point],
    lattice: _Lattice,
    kind: str,
    prior: LatticeFit | None,
    pitch_hint: float | None,
) -> LatticeFit:
    ids = sorted(centres)
    if not ids:
        if prior is not None:
            return LatticeFit(kind, prior.origin, prior.pitch, prior.angle, {}, 0.0)
        return LatticeFit(kind, (0.0, 0.0), pitch_hint or 0.0, 0.0, {}, 0.0)
    if prior is not None and prior.pitch > 0 and len(ids) >= 3:
        guided = _fit_core(centres, lattice, kind, prior, pitch_hint)
        if guided.residual > 0.15 * guided.pitch:
            # The tiles do not sit where the layout says (another print, another table): fit freely and keep
            # the prior's origin only as the anchor of cell (0, 0); take whichever fits better.
            free = _reanchor(_fit_lattice(centres, lattice, kind, None, None), lattice, prior.origin)
            if free.residual / free.pitch < guided.residual / guided.pitch:
                return free
        return guided
    return _fit_core(centres, lattice, kind, prior, pitch_hint)


def _fit_core(
    centres: Mapping[str, Point],
    lattice: _Lattice,
    kind: str,
    prior: LatticeFit | None,
    pitch_hint: float | None,
) -> LatticeFit:
    ids = sorted(centres)
    points = np.array([centres[i] for i in ids], dtype=np.float64)
    symmetry_span = 360.0 / lattice.symmetry
    if prior is not None and prior.pitch > 0:
        pitch, angle, origin = prior.pitch, prior.angle, np.array(prior.origin, dtype=np.float64)
        if len(ids) >= 3:
            measured = _dominant_angle(points, pitch, lattice.symmetry)
            delta = (measured - angle + symmetry_span / 2) % symmetry_span - symmetry_span / 2
            angle += delta
    else:
        pitch = pitch_hint or (_nearest_spacing(points) if len(ids) >= 2 else 1.0)
        angle = _dominant_angle(points, pitch, lattice.symmetry) if len(ids) >= 2 else 0.0
        centroid = points.mean(axis=0)
        origin = points[int(np.argmin(((points - centroid) ** 2).sum(axis=1)))].copy()
    # Assign cells, then refine origin/pitch/angle by a similarity fit; twice is plenty.
    cells = lattice.cells(_to_unit(points, origin, pitch, angle))
    for _ in range(2):
        if len(ids) >= 3 or (len(ids) == 2 and pitch_hint is None and prior is None):
            scale, fitted_angle, t = _similarity(lattice.unit(cells.astype(float)), points)
            if 0.7 * pitch < scale < 1.3 * pitch:
                pitch, angle, origin = scale, fitted_angle, t
        elif len(ids) >= 1:
            # Too few tags to fit a rotation or scale: keep them, only recentre on the nearest cells.
            predicted = _from_unit(lattice.unit(cells.astype(float)), origin, pitch, angle)
            shift = (points - predicted).mean(axis=0)
            if np.linalg.norm(shift) < pitch / 2:
                origin = origin + shift
        cells = lattice.cells(_to_unit(points, origin, pitch, angle))
    predicted = _from_unit(lattice.unit(cells.astype(float)), origin, pitch, angle)
    residual = float(np.sqrt(np.mean(np.sum((points - predicted) ** 2, axis=1))))
    by_id = {tag_id: cell_key(cell) for tag_id, cell in zip(ids, cells.tolist())}
    angle = (angle + symmetry_span / 2) % symmetry_span - symmetry_span / 2
    clashes = _clashes(by_id)
    extra = {"clashes": clashes} if clashes else {}
    return LatticeFit(kind, (float(origin[0]), float(origin[1])), pitch, angle, by_id, residual, extra)


def _reanchor(fit: LatticeFit, lattice: _Lattice, anchor: Point) -> LatticeFit:
    """The same fit with cell (0, 0) moved to the lattice point nearest ``anchor``."""
    unit = _to_unit(np.array([anchor]), np.array(fit.origin), fit.pitch, fit.angle)
    shift = lattice.cells(unit)[0]
    origin = _from_unit(
        lattice.unit(shift[None, :].astype(float)), np.array(fit.origin), fit.pitch, fit.angle
    )[0]
    cells = {}
    for tag_id, key in fit.cells.items():
        a, b = (int(v) for v in key.split(","))
        cells[tag_id] = cell_key((a - int(shift[0]), b - int(shift[1])))
    return LatticeFit(
        fit.kind, (float(origin[0]), float(origin[1])), fit.pitch, fit.angle, cells, fit.residual, fit.extra
    )


def _clashes(cells: Mapping[str, str]) -> dict[str, list[str]]:
    """Cells claimed by more than one tag (two tiles on one cell: the observation says so)."""
    seen: dict[str, list[str]] = {}
    for tag_id, key in cells.items():
        seen.setdefault(key, []).append(tag_id)
    return {key: ids for key, ids in seen.items() if len(ids) > 1}


def fit_hex(
    centres: Mapping[str, Point], prior: LatticeFit | None = None, pitch: float | None = None
) -> LatticeFit:
    """Axial (q, r) of every tile on a pointy-top hex lattice from its tag centre."""
    return _fit_lattice(centres, HEX, "hex", prior, pitch)


def fit_square(
    centres: Mapping[str, Point], prior: LatticeFit | None = None, pitch: float | None = None
) -> LatticeFit:
    """(col, row) of every tile on a square grid."""
    return _fit_lattice(centres, SQUARE, "square", prior, pitch)


def hex_centres(fit: LatticeFit, cells: Sequence[Sequence[int]]) -> np.ndarray:
    """Table positions (N, 2) of many axial cells at once."""
    units = HEX.unit(np.asarray(cells, dtype=np.float64).reshape(-1, 2))
    return _from_unit(units, np.array(fit.origin), fit.pitch, fit.angle)


def cell_of_point(fit: LatticeFit, point: Point) -> tuple[int, int]:
    """The lattice cell under a table point."""
    lattice = HEX if fit.kind == "hex" else SQUARE
    unit = _to_unit(np.array([point]), np.array(fit.origin), fit.pitch, fit.angle)
    q, r = lattice.cells(unit)[0]
    return (int(q), int(r))


def square_centres(fit: LatticeFit, cells: Sequence[Sequence[int]]) -> np.ndarray:
    """Table positions (N, 2) of many square-grid cells at once."""
    units = np.asarray(cells, dtype=np.float64).reshape(-1, 2)
    return _from_unit(units, np.array(fit.origin), fit.pitch, fit.angle)


HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_gaps(cells: Sequence[Sequence[int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every pair of adjacent occupied cells (each gap once, lower cell first)."""
    present = {(int(c[0]), int(c[1])) for c in cells}
    gaps = []
    for q, r in sorted(present):
        for dq, dr in HEX_DIRECTIONS:
            other = (q + dq, r + dr)
            if other in present and (q, r) < other:
                gaps.append(((q, r), other))
    return gaps


def tile_rotation(tag_angle: float, lattice_angle: float = 0.0) -> int:
    """A hex tile's rotation rho (sixth turns CCW, 0..5) from its tag angle on the table."""
    return round(float((tag_angle - lattice_angle) / 60.0)) % 6


# ---------------------------------------------------------------------------------------- 3x3 boards
def fit_boards(
    board_tags: Mapping[str, tuple[Point, float]],
    pieces: Mapping[str, Point],
    pitch: float,
    prior: LatticeFit | None = None,
) -> LatticeFit:
    """Pieces on 3x3 boards laid freely side by side: every piece gets its integer (x, y) cell on the
    boards' common grid; ``board_tags`` maps each board's centre tag id to (centre mm, tag angle) for the
    boards whose centre tag is visible (a token or figure on the centre cell hides it) and gives each
    board's place and quarter turns. With a ``prior`` (the layout: cell (0, 0)'s centre, pitch, angle)
    cells are the engine's; without one the grid is aligned with the first visible board and (0, 0) is its
    north-west cell."""
    if prior is None:
        if board_tags:
            first_centre, first_angle = board_tags[sorted(board_tags)[0]]
            angle = ((first_angle + 45.0) % 90.0) - 45.0
            origin = np.array(first_centre) + np.array(rotate((-pitch, -pitch), angle))
            prior = LatticeFit("square", (float(origin[0]), float(origin[1])), pitch, angle)
        elif pieces:
            prior = None
        else:
            return LatticeFit("boards", (0.0, 0.0), pitch, 0.0)
    points = dict(pieces)
    for name, (centre, _) in board_tags.items():
        points[name] = centre
    square = fit_square(points, prior, pitch)
    origin, angle = np.array(square.origin), square.angle
    boards: dict[str, dict[str, object]] = {}
    board_cells: dict[tuple[int, int], str] = {}
    for name in sorted(board_tags):
        centre, tag_angle = board_tags[name]
        unit = _to_unit(np.array([centre]), origin, square.pitch, angle)[0]
        cx, cy = round(float(unit[0])), round(float(unit[1]))
        turn = round(((tag_angle - angle) % 360.0) / 90.0) % 4
        boards[name] = {
            "centre_cell": [cx, cy],
            "quarter_turns": turn,
            "centre_mm": [round(c, 2) for c in centre],
        }
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                board_cells[(cx + dx, cy + dy)] = name
    cells = {piece_id: key for piece_id, key in square.cells.items() if piece_id in pieces}
    extra: dict[str, object] = {
        "boards": boards,
        "board_of_cell": {cell_key(c): b for c, b in sorted(board_cells.items())},
    }
    if "clashes" in square.extra:
        extra["clashes"] = square.extra["clashes"]
    return LatticeFit("boards", square.origin, square.pitch, angle, cells, square.residual, extra)


# ------------------------------------------------------------------------------- a board with corners
def flat_top_field_centre(column: int, row: int, pitch: float) -> Point:
    """Board-frame position (mm from the board's NW tag) of a field: flat-top hexes in columns, odd columns
    half a field lower (the engine's default board geometry); ``pitch`` is the centre distance."""
    return (column * pitch * SQRT3 / 2, (row + 0.5 * (column % 2)) * pitch)


def fit_island(
    corner_tags: Mapping[str, Point],
    board_size: tuple[float, float],
    fields: Mapping[tuple[int, int], Point],
    pieces: Mapping[str, Point],
    corner_names: Sequence[str],
    max_distance: float | None = None,
) -> LatticeFit:
    """A board frame from the board's corner tags (``corner_names``: the NW, NE, SE and SW tag ids; any two
    suffice), then every piece is assigned the nearest field (``fields``: (column, row) -> board-frame mm
    from the NW tag)."""
    width, height = board_size
    nominal = dict(zip(corner_names, ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))))
    seen = [name for name in corner_names if name in corner_tags]
    if len(seen) < 2:
        missing = [n for n in corner_names if n not in seen]
        return LatticeFit("island", (0.0, 0.0), 0.0, 0.0, {}, 0.0, {"missing_corners": missing})
    src = np.array([nominal[n] for n in seen])
    dst = np.array([corner_tags[n] for n in seen])
    scale, angle, t = _similarity(src, dst)

    def to_board(point: Point) -> np.ndarray:
        result: np.ndarray = _to_unit(np.array([point]), t, scale, angle)[0]
        return result

    ids = list(fields)
    field_points = np.array([fields[i] for i in ids]) if ids else np.zeros((0, 2))
    spacing = _nearest_spacing(field_points) if len(ids) >= 2 else 1.0
    limit = max_distance if max_distance is not None else 0.6 * spacing
    cells: dict[str, str] = {}
    residuals = []
    for piece_id, point in sorted(pieces.items()):
        if not ids:
            break
        local = to_board(point)
        dist = np.sqrt(((field_points - local) ** 2).sum(axis=1))
        best = int(np.argmin(dist))
        if dist[best] <= limit:
            cells[piece_id] = cell_key(ids[best])
            residuals.append(float(dist[best]))
    fitted = _from_unit(src, t, scale, angle)
    corner_error = float(np.sqrt(np.mean(np.sum((fitted - dst) ** 2, axis=1))))
    extra = {"corners_seen": seen, "scale": round(scale, 5), "corner_residual": round(corner_error, 3)}
    residual = float(np.sqrt(np.mean(np.square(residuals)))) if residuals else 0.0
    return LatticeFit("island", (float(t[0]), float(t[1])), spacing, angle, cells, residual, extra)


def island_field_centre(fit: LatticeFit, board_point: Point) -> Point:
    """Table position of a board-frame point under an island fit."""
    scale = float(fit.extra.get("scale", 1.0))
    x, y = _from_unit(np.array([board_point]), np.array(fit.origin), scale, fit.angle)[0]
    return (float(x), float(y))


CentreFn = Callable[[LatticeFit, Sequence[int]], Point]
