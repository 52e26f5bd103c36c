"""One frame in, one :class:`~vision.observation.Observation` out, for one game.

Steps: check the calibration (markers where they were), decode QR codes (the whole frame, or only some
regions with the rest carried over from a base observation), validate payloads against the game's
manifest, map tag centres and angles to table mm, assign zones, fit the play-area lattice, then look
for coloured pieces where the lattice predicts them (Jurassic Parts chisels on gaps; Isla Nublar camps
and boxes on fields).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision import geometry, qr, tags
from vision.calibration import Calibration, CalibrationError, CalibrationMonitor, calibrate, corner_layout
from vision.observation import (
    CalibrationStatus,
    LatticeFit,
    Observation,
    PegReading,
    TagReading,
    cell_key,
)
from vision.pegs import ColourModel, find_pegs

Point = tuple[float, float]
Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class GeometryHints:
    """What the table layout says about the play area (all optional; fits estimate what is missing).

    ``prior``: nominal lattice (origin of cell (0, 0), pitch, angle) so cells match the engine's;
    ``pitch``: cell spacing when there is no prior (Brunch needs one: its boards' cell size);
    ``peg_radius_mm``: radius of chisels/camps seen from above; ``island_size`` (w, h) between the
    island's corner tags and ``island_fields`` (column, row) -> board-frame mm from the NW corner tag.
    ``play_zone``: only tags in this zone belong to the lattice (None: every lattice-kind tag);
    ``table_size``: marker 0 to marker 2 in mm (for calibrating from a frame); ``camp_radius_mm`` and
    ``box_ring`` (offsets in board-frame mm from a field's centre where equipment boxes stand): Isla Nublar;
    ``look_again``: re-read lattice holes enlarged (tiles too small in the picture to read at once).
    """

    prior: LatticeFit | None = None
    pitch: float | None = None
    peg_radius_mm: float = 4.0
    island_size: tuple[float, float] | None = None
    island_fields: Mapping[tuple[int, int], Point] | None = None
    play_zone: str | None = "play"
    table_size: tuple[float, float] | None = None
    camp_radius_mm: float = 9.0
    box_ring: tuple[Point, ...] = ()
    look_again: bool = True


LATTICE_KINDS = {"JP": ("tile",), "JK": ("tile", "action")}


@dataclass
class Detector:
    """Reads frames of one game. Keep one per camera: it carries the calibration monitor and the last
    lattice fit (so coordinates stay anchored from frame to frame)."""

    game: str
    calibration: Calibration | None = None
    hints: GeometryHints = field(default_factory=GeometryHints)
    colours: ColourModel | None = None
    backend: qr.QRBackend | None = None
    seed: int = tags.DEFAULT_SEED
    bump_tolerance_px: float = 6.0

    def __post_init__(self) -> None:
        self.game = tags.game_code(self.game)
        self.manifest = tags.manifest_for(self.game, self.seed)
        self.backend = self.backend or qr.get_backend()
        self.monitor = (
            CalibrationMonitor(self.calibration, self.bump_tolerance_px) if self.calibration else None
        )
        if self.colours is None and self.calibration is not None and self.calibration.colours:
            self.colours = ColourModel.seats(self.calibration.colours)
        self.last_fit: LatticeFit | None = None

    # ------------------------------------------------------------------------------------------ api
    def observe(
        self,
        image: np.ndarray,
        frame_index: int = 0,
        timestamp: float = 0.0,
        rois: Sequence[Rect] | None = None,
        base: Observation | None = None,
        check_calibration: bool = True,
        refresh: Sequence[Rect] | None = None,
    ) -> Observation:
        """Read ``image``. With ``rois`` only those regions are decoded and the tags of ``base`` whose
        centre lies outside ``refresh`` (default: the ``rois``) are carried over (the tracker's focused
        reading); a carried tag decoded again is replaced by the new reading."""
        status = self._calibration_status(image, check_calibration)
        gray = qr.to_gray(image)  # once: the decoders and the second looks share it
        codes = qr.decode(gray, self.backend, rois)
        validator = tags.TagValidator(self.manifest)
        readings: dict[str, TagReading] = {}
        if rois is not None and base is not None:
            # Carry over what lies outside the re-read regions; what is decoded again replaces it.
            inner = refresh if refresh is not None else rois
            for reading in base.tags.values():
                if not any(_inside(reading.center_px, roi) for roi in inner):
                    readings[reading.component_id] = reading
        accepted_codes = [(code, accepted) for code in codes if (accepted := validator.check(code.text))]
        for reading in self._readings(accepted_codes, status):
            readings[reading.component_id] = reading
        lattice = self._fit(readings) if status.trusted else None
        if lattice is not None and self.calibration is not None and self.hints.look_again:
            # Holes in the lattice (an empty cell with tiles all round) are most likely tiles too small
            # in the picture to read at once: read just those places again, enlarged.
            extra = self._look_again(gray, lattice, readings, validator, status)
            if extra:
                lattice = self._fit(readings)
        pegs = self._pegs(image, lattice, readings) if status.trusted else ()
        zones: dict[str, list[str]] = {}
        for reading in readings.values():
            if reading.zone is not None:
                zones.setdefault(reading.zone, []).append(reading.component_id)
        return Observation(
            frame_index=frame_index,
            timestamp=timestamp,
            game=self.game,
            tags=readings,
            pegs=tuple(pegs),
            zones={name: tuple(sorted(ids)) for name, ids in zones.items()},
            rejected=dict(validator.rejected),
            duplicates=tuple(validator.duplicates),
            calibration=status,
            lattice=lattice,
        )

    # ---------------------------------------------------------------------------------------- steps
    def _calibration_status(self, image: np.ndarray, check: bool) -> CalibrationStatus:
        if self.calibration is None or self.monitor is None:
            return CalibrationStatus("uncalibrated", (), 0.0, "no calibration: pixel positions only")
        if not check:
            return self.monitor.last
        return self.monitor.check(image)

    def _readings(
        self, accepted: Sequence[tuple[qr.QRCode, tags.Validated]], status: CalibrationStatus
    ) -> list[TagReading]:
        """Tag readings for accepted codes, their table positions mapped in one go."""
        if not accepted:
            return []
        mapped: list[np.ndarray | None] = [None] * len(accepted)
        if self.calibration is not None and status.trusted:
            points = [p for code, _ in accepted for p in (code.center, *code.corners)]
            mapped = list(self.calibration.to_table(points).reshape(-1, 5, 2))
        return [self._reading(code, ok, status, mm) for (code, ok), mm in zip(accepted, mapped)]

    def _reading(
        self,
        code: qr.QRCode,
        accepted: tags.Validated,
        status: CalibrationStatus,
        mm: np.ndarray | None = None,
    ) -> TagReading:
        center_mm: Point | None = None
        angle = code.angle
        zone = None
        if self.calibration is not None and status.trusted:
            if mm is None:
                mm = self.calibration.to_table([code.center, *code.corners])
            center_mm = (float(mm[0][0]), float(mm[0][1]))
            tl, tr, br, bl = mm[1], mm[2], mm[3], mm[4]
            dx = (tr[0] - tl[0]) + (br[0] - bl[0])
            dy = (tr[1] - tl[1]) + (br[1] - bl[1])
            angle = math.degrees(math.atan2(-dy, dx))
            zone = self.calibration.zone_at(center_mm)
        return TagReading(
            payload=code.text,
            game=self.game,
            component_id=accepted.component_id,
            face="back" if accepted.face == "back" else "front",
            center_px=code.center,
            corners_px=code.corners,
            angle=angle % 360.0,
            module_px=code.module_px,
            center_mm=center_mm,
            zone=zone,
        )

    def _look_again(
        self,
        image: np.ndarray,
        lattice: LatticeFit,
        readings: dict[str, TagReading],
        validator: tags.TagValidator,
        status: CalibrationStatus,
    ) -> int:
        """Read again, enlarged, the empty cells where a tile is likely but was too small to read: holes
        (an empty cell with most neighbours present), and cells next to read tiles where the picture gives
        a tag fewer than 3 px per module (the far side of a tilted view), ring by ring."""
        assert self.calibration is not None and self.backend is not None
        if lattice.kind not in ("hex", "square") or len(lattice.cells) < 3:
            return 0
        calibration = self.calibration
        steps = geometry.HEX_DIRECTIONS if lattice.kind == "hex" else ((1, 0), (-1, 0), (0, 1), (0, -1))
        centre_of = geometry.hex_centres if lattice.kind == "hex" else geometry.square_centres
        module_mm = max(e.tag_mm for e in self.manifest.entries.values()) / 21.0
        occupied = {tuple(int(v) for v in key.split(",")) for key in lattice.cells.values()}
        tried: set[tuple[int, ...]] = set()
        added = 0
        for _ in range(4):
            candidates = []
            for q, r in occupied:
                for dq, dr in steps:
                    cell = (q + dq, r + dr)
                    if cell not in occupied and cell not in tried:
                        tried.add(cell)
                        candidates.append(cell)
            if not candidates:
                break
            centres_mm = centre_of(lattice, candidates)
            chosen = []
            for cell, (x, y) in zip(candidates, centres_mm):
                around = sum((cell[0] + a, cell[1] + b) in occupied for a, b in steps)
                small = module_mm * calibration.px_per_mm((float(x), float(y))) < 3.0
                inside = self._in_play_mm((float(x), float(y)))
                if inside and (small or around >= len(steps) - 2):
                    chosen.append((float(x), float(y)))
            if not chosen:
                break
            half = 0.5 * lattice.pitch * calibration.px_per_mm(lattice.origin) * 1.05
            rects = []
            for x, y in calibration.to_pixels(chosen):
                # An empty cell shows plain table in its middle; a tag there shows contrast.
                core = image[
                    int(y - half / 2) : int(y + half / 2) : 2, int(x - half / 2) : int(x + half / 2) : 2
                ]
                if core.size and float(core.std()) > 20.0:
                    rects.append((int(x - half), int(y - half), int(2 * half), int(2 * half)))
            if not rects:
                break
            found = 0
            for code in qr.decode_enlarged(image, self.backend, rects, (2.0, 1.5, 2.6)):
                accepted = validator.check(code.text)
                if accepted is not None and accepted.component_id not in readings:
                    reading = self._reading(code, accepted, status)
                    readings[accepted.component_id] = reading
                    if reading.center_mm is not None:
                        unit = geometry.cell_of_point(lattice, reading.center_mm)
                        occupied.add(unit)
                    found += 1
            added += found
            if not found:
                break
        return added

    def _in_play_mm(self, point: Point) -> bool:
        zone = self.hints.play_zone
        if zone is None or self.calibration is None or not self.calibration.zones:
            return True
        return self.calibration.zone_at(point) == zone

    def _in_play(self, reading: TagReading) -> bool:
        zone = self.hints.play_zone
        if zone is None or self.calibration is None or not self.calibration.zones:
            return True
        return reading.zone == zone

    def _fit(self, readings: Mapping[str, TagReading]) -> LatticeFit | None:
        prior = self.last_fit or self.hints.prior
        kinds = LATTICE_KINDS.get(self.game)
        fit: LatticeFit | None = None
        if kinds is not None:
            centres = {
                r.component_id: r.center_mm
                for r in readings.values()
                if r.center_mm is not None
                and self._in_play(r)
                and (entry := self.manifest.entry(r.component_id)) is not None
                and entry.kind in kinds
            }
            if self.game == "JP":
                fit = geometry.fit_hex(centres, prior, self.hints.pitch)
            else:
                fit = geometry.fit_square(centres, prior, self.hints.pitch)
            if centres:
                self.last_fit = LatticeFit(fit.kind, fit.origin, fit.pitch, fit.angle)
        elif self.game == "JB":
            boards = {
                r.component_id: (r.center_mm, r.angle)
                for r in readings.values()
                if r.center_mm is not None and r.component_id.startswith("BOARD-")
            }
            pieces = {
                r.component_id: r.center_mm
                for r in readings.values()
                if r.center_mm is not None and not r.component_id.startswith("BOARD-") and self._in_play(r)
            }
            pitch = self.hints.pitch or (self.hints.prior.pitch if self.hints.prior else 62.0)
            fit = geometry.fit_boards(boards, pieces, pitch, self.hints.prior)
        elif self.game == "IN":
            corners = {
                r.component_id: r.center_mm
                for r in readings.values()
                if r.center_mm is not None and r.component_id in geometry.ISLAND_CORNERS
            }
            pieces = {
                r.component_id: r.center_mm
                for r in readings.values()
                if r.center_mm is not None and r.component_id.startswith("DINO-")
            }
            size = self.hints.island_size or _corner_span(corners)
            fields = self.hints.island_fields or {}
            fit = geometry.fit_island(corners, size, fields, pieces)
        return fit

    def _pegs(
        self, image: np.ndarray, lattice: LatticeFit | None, readings: Mapping[str, TagReading]
    ) -> list[PegReading]:
        if lattice is None or self.calibration is None:
            return []
        model = self.colours or ColourModel.nominal()
        radius_px = 0.5 * self.hints.peg_radius_mm * self.calibration.px_per_mm(lattice.origin)
        radius_px = max(1.5, radius_px)
        if self.game == "JP" and lattice.cells:
            cells = [tuple(int(v) for v in key.split(",")) for key in set(lattice.cells.values())]
            gaps = geometry.hex_gaps(cells)
            targets: dict[str, Point] = {}
            targets_px: dict[str, Point] = {}
            tag_at = {key: tag_id for tag_id, key in sorted(lattice.cells.items(), reverse=True)}
            if gaps:
                ends = geometry.hex_centres(lattice, [cell for gap in gaps for cell in gap]).reshape(-1, 2, 2)
                middles = ends.mean(axis=1)
                for (a, b), (x, y) in zip(gaps, middles):
                    # hex_gaps gives each gap lower cell first: gap_key's own order, built directly
                    key_a, key_b = f"{a[0]},{a[1]}", f"{b[0]},{b[1]}"
                    key = f"{key_a}|{key_b}"
                    targets[key] = (float(x), float(y))
                    first, second = readings.get(tag_at.get(key_a, "")), readings.get(tag_at.get(key_b, ""))
                    if first is not None and second is not None:
                        # Midway between the two tiles' codes as seen: exact even where the lens bends lines.
                        targets_px[key] = (
                            (first.center_px[0] + second.center_px[0]) / 2.0,
                            (first.center_px[1] + second.center_px[1]) / 2.0,
                        )
            return find_pegs(
                image,
                targets,
                self.calibration.inverse,
                model,
                radius_px,
                "chisel",
                self.calibration.zone_at,
                targets_px=targets_px,
            )
        island = self.game == "IN" and lattice.kind == "island" and "scale" in lattice.extra
        if island and self.hints.island_fields:
            # A figure's base covers its field; elsewhere a camp stands at the centre (its top camp's colour
            # is what the camera sees) and boxes on a ring round it.
            occupied = set(lattice.cells.values())
            scale = self.calibration.px_per_mm(lattice.origin)
            camp_px = max(1.5, 0.5 * self.hints.camp_radius_mm * scale)
            box_px = max(1.5, 0.5 * self.hints.peg_radius_mm * scale)
            camps: dict[str, Point] = {}
            boxes: dict[str, Point] = {}
            for cell, point in self.hints.island_fields.items():
                key = cell_key(cell)
                if key in occupied:
                    continue
                camps[key] = geometry.island_field_centre(lattice, point)
                for index, (dx, dy) in enumerate(self.hints.box_ring):
                    spot = (point[0] + dx, point[1] + dy)
                    boxes[f"{key}#{index}"] = geometry.island_field_centre(lattice, spot)
            to_px, zone_at = self.calibration.inverse, self.calibration.zone_at
            found = find_pegs(image, camps, to_px, model, camp_px, "camp", zone_at)
            for peg in find_pegs(image, boxes, to_px, model, box_px, "box", zone_at):
                found.append(replace(peg, on=(peg.on or "").split("#")[0]))
            return found
        return []


def _inside(point: Point, roi: Rect) -> bool:
    x, y, w, h = roi
    return x <= point[0] < x + w and y <= point[1] < y + h


def _corner_span(corners: Mapping[str, Point]) -> tuple[float, float]:
    """Island board size when the layout does not say: from the corner tags seen (needs opposite ones)."""
    if "BOARD-NW" in corners and "BOARD-SE" in corners:
        (x0, y0), (x1, y1) = corners["BOARD-NW"], corners["BOARD-SE"]
        return (abs(x1 - x0), abs(y1 - y0))
    if "BOARD-NE" in corners and "BOARD-SW" in corners:
        (x0, y0), (x1, y1) = corners["BOARD-SW"], corners["BOARD-NE"]
        return (abs(x1 - x0), abs(y1 - y0))
    return (1.0, 1.0)


def table_size_for(game: str) -> tuple[float, float] | None:
    """The table area (marker 0 to marker 2) of the game's default layout in :mod:`vision.tables`."""
    return hints_for(game).table_size


def hints_for(game: str, state: Any = None, layout: Any = None) -> GeometryHints:
    """Geometry hints from the game's table layout in :mod:`vision.tables` (the one ``scene_for`` draws
    with), so fitted cells are the engine's: JP slab origin and pitch; JK grid (needs the state's rows and
    columns to place cell (0, 0)); JB grid origin and pitch (from the state's area when given)."""
    code = tags.game_code(game)
    try:
        from vision import tables
    except ImportError:
        return GeometryHints()
    size = (float(tables.TABLE_WIDTH), float(tables.TABLE_HEIGHT))
    try:
        if code == "JP":
            from vision.tables.jurassic_parts import JurassicPartsLayout

            jp = layout or JurassicPartsLayout()
            prior = LatticeFit("hex", jp.slab_origin, jp.pitch, 0.0)
            return GeometryHints(prior, jp.pitch, jp.chisel_radius, table_size=(jp.width, jp.height))
        if code == "JK":
            from vision.tables.jurassik import JurassikLayout

            jk = layout or JurassikLayout()
            grid: LatticeFit | None = None
            if state is not None:
                rows, cols = int(state.rows), int(state.cols)
                grid = LatticeFit("square", jk.cell_center(0, 0, rows, cols), jk.pitch, 0.0)
            return GeometryHints(grid, jk.pitch, table_size=(jk.width, jk.height))
        if code == "JB":
            from vision.tables.jurassic_brunch import BrunchLayout

            jb = layout or (BrunchLayout.for_area(state.area) if state is not None else BrunchLayout())
            prior = LatticeFit("square", jb.origin, jb.pitch, 0.0)
            return GeometryHints(prior, jb.pitch, table_size=(jb.width, jb.height))
        if code == "IN":
            from vision.tables.isla_nublar import IslaNublarLayout

            if state is None:
                import random

                from engines.core import get_game

                # The board is the engine's (its default data file): any fresh game has it.
                state = get_game("isla-nublar").new_initial_state(["a", "b"], random.Random(0))
            isl = layout or IslaNublarLayout(seats=len(state.players))
            return island_hints(state.board, isl)
    except (ImportError, KeyError):
        pass
    return GeometryHints(table_size=size)


def island_hints(board: Any, layout: Any) -> GeometryHints:
    """Isla Nublar: the corner tags' span and every field's centre in the board frame (mm from the NW
    corner tag, x along the board's east), from the engine's board and the table layout's pitch."""
    x0, y0, x1, y1 = board.extent()
    margin = 0.95  # the layout puts the corner tags this many pitches outside the fields' extent
    pitch = float(layout.pitch)
    fields = {
        (int(field.column), int(field.row)): (
            (board.centre(field_id)[0] - (x0 - margin)) * pitch,
            (board.centre(field_id)[1] - (y0 - margin)) * pitch,
        )
        for field_id, field in board.fields.items()
    }
    ring = 0.30 * pitch
    box_ring = tuple(
        (ring * math.cos(math.radians(30 + 60 * i)), -ring * math.sin(math.radians(30 + 60 * i)))
        for i in range(6)
    )
    return GeometryHints(
        pitch=pitch,
        peg_radius_mm=float(layout.box_radius),
        island_size=((x1 - x0 + 2 * margin) * pitch, (y1 - y0 + 2 * margin) * pitch),
        island_fields=fields,
        table_size=(float(layout.width), float(layout.height)),
        camp_radius_mm=float(layout.camp_radius),
        box_ring=box_ring,
    )


def zones_for(game: str, seats: int = 4) -> list[Any]:
    """The named zones of the game's default layout for ``seats`` players (empty when unknown)."""
    code = tags.game_code(game)
    try:
        if code == "JP":
            from vision.tables.jurassic_parts import JurassicPartsLayout

            return list(JurassicPartsLayout(seats=seats).zones())
        if code == "JK":
            from vision.tables.jurassik import JurassikLayout

            return list(JurassikLayout(seats=seats).zones())
    except (ImportError, ValueError):
        pass
    return []


def auto_calibration(image: np.ndarray, table_size: tuple[float, float] | None = None) -> Calibration | None:
    """Calibrate from the frame itself (all four markers visible), or None."""
    try:
        layout = corner_layout(*table_size) if table_size else None
        return calibrate(image, layout)
    except CalibrationError:
        return None


def observe(
    game: str,
    image: np.ndarray,
    calibration: Calibration | None = None,
    hints: GeometryHints | None = None,
    colours: ColourModel | None = None,
    **options: Any,
) -> Observation:
    """One-shot reading (a fresh :class:`Detector`)."""
    detector = Detector(game, calibration, hints or GeometryHints(), colours, **options)
    return detector.observe(image)
