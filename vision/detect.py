"""One frame in, one :class:`~vision.observation.Observation` out, for one game.

Steps: check the calibration (markers where they were), decode QR codes (the whole frame, or only some
regions with the rest carried over from a base observation), validate payloads against the game's
manifest, map tag centres and angles to table mm, assign zones, fit the play-area lattice, then look
for coloured pieces where the lattice predicts them (pegs on the gaps between tiles; camps and boxes on
a board's fields). What the play area looks like comes in as :class:`GeometryHints` from the game's kit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from vision import geometry, qr, tags
from vision.calibration import Calibration, CalibrationError, CalibrationMonitor, calibrate, corner_layout
from vision.observation import (
    CalibrationStatus,
    LatticeFit,
    LatticeKind,
    Observation,
    PegReading,
    TagReading,
    cell_key,
)
from vision.pegs import ColourModel, find_pegs

Point = tuple[float, float]
Rect = tuple[int, int, int, int]


PegSpots = Literal["gaps", "fields"]


@dataclass(frozen=True)
class GeometryHints:
    """What the game's table layout says about the play area (from its kit; fits estimate what is missing).

    ``lattice``: how the play area is fitted: ``hex`` or ``square`` (tiles of ``lattice_kinds`` on a
    lattice), ``boards`` (pieces on the cells of 3x3 boards whose centre tags are of ``board_kind``) or
    ``island`` (a board frame from the corner tags ``island_corners``, NW NE SE SW; pieces of
    ``figure_kind`` on its fields); None: no lattice. ``pegs``: where coloured pegs are looked for: on the
    ``gaps`` between neighbouring lattice tiles, or on the island's free ``fields`` (a camp at the centre,
    boxes on ``box_ring``). ``tile_turn``: the angle step of a tile's turns (60 on a hex lattice).

    ``prior``: nominal lattice (origin of cell (0, 0), pitch, angle) so cells match the engine's;
    ``pitch``: cell spacing when there is no prior; ``peg_radius_mm``: radius of a peg seen from above;
    ``island_size`` (w, h) between the island's corner tags and ``island_fields`` (column, row) ->
    board-frame mm from the NW corner tag; ``play_zone``: only tags in this zone belong to the lattice
    (None: every lattice-kind tag); ``table_size``: marker 0 to marker 2 in mm (for calibrating from a
    frame); ``camp_radius_mm`` and ``box_ring`` (offsets in board-frame mm from a field's centre);
    ``look_again``: re-read lattice holes enlarged (tiles too small in the picture to read at once).
    """

    lattice: LatticeKind | None = None
    lattice_kinds: tuple[str, ...] = ()
    pegs: PegSpots | None = None
    tile_turn: float = 90.0
    prior: LatticeFit | None = None
    pitch: float | None = None
    peg_radius_mm: float = 4.0
    board_kind: str = "board"
    figure_kind: str = "figure"
    island_corners: tuple[str, ...] = ()
    island_size: tuple[float, float] | None = None
    island_fields: Mapping[tuple[int, int], Point] | None = None
    play_zone: str | None = "play"
    table_size: tuple[float, float] | None = None
    camp_radius_mm: float = 9.0
    box_ring: tuple[Point, ...] = ()
    look_again: bool = True


@dataclass
class Detector:
    """Reads frames of one game: the tags of its printed set (``manifest``) and the geometry its kit
    describes (``hints``). Keep one per camera: it carries the calibration monitor and the last lattice fit
    (so coordinates stay anchored from frame to frame)."""

    manifest: tags.Manifest
    calibration: Calibration | None = None
    hints: GeometryHints = field(default_factory=GeometryHints)
    colours: ColourModel | None = None
    backend: qr.QRBackend | None = None
    bump_tolerance_px: float = 6.0

    def __post_init__(self) -> None:
        self.game = self.manifest.game
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
        lattice = self._fit(readings) if status.usable else None
        if lattice is not None and self.calibration is not None and self.hints.look_again:
            # Holes in the lattice (an empty cell with tiles all round) are most likely tiles too small
            # in the picture to read at once: read just those places again, enlarged.
            extra = self._look_again(gray, lattice, readings, validator, status)
            if extra:
                lattice = self._fit(readings)
        pegs = self._pegs(image, lattice, readings) if status.usable else ()
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
        if self.calibration is not None and status.usable:
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
        if self.calibration is not None and status.usable:
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
        module_mm = self.manifest.printed_mm / 21.0
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
        kind = self.hints.lattice
        if kind in ("hex", "square"):
            return self._fit_lattice(readings, kind == "hex")
        if kind == "boards":
            return self._fit_boards(readings)
        if kind == "island":
            return self._fit_island(readings)
        return None

    def _kind_of(self, reading: TagReading) -> str | None:
        entry = self.manifest.entry(reading.component_id)
        return None if entry is None else entry.kind

    def _fit_lattice(self, readings: Mapping[str, TagReading], hexes: bool) -> LatticeFit:
        prior = self.last_fit or self.hints.prior
        centres = {
            r.component_id: r.center_mm
            for r in readings.values()
            if r.center_mm is not None and self._in_play(r) and self._kind_of(r) in self.hints.lattice_kinds
        }
        fitter = geometry.fit_hex if hexes else geometry.fit_square
        fit = fitter(centres, prior, self.hints.pitch)
        if centres:
            self.last_fit = LatticeFit(fit.kind, fit.origin, fit.pitch, fit.angle)
        return fit

    def _fit_boards(self, readings: Mapping[str, TagReading]) -> LatticeFit:
        board = self.hints.board_kind
        boards = {
            r.component_id: (r.center_mm, r.angle)
            for r in readings.values()
            if r.center_mm is not None and self._kind_of(r) == board
        }
        pieces = {
            r.component_id: r.center_mm
            for r in readings.values()
            if r.center_mm is not None and self._kind_of(r) != board and self._in_play(r)
        }
        pitch = self.hints.pitch or (self.hints.prior.pitch if self.hints.prior else 62.0)
        return geometry.fit_boards(boards, pieces, pitch, self.hints.prior)

    def _fit_island(self, readings: Mapping[str, TagReading]) -> LatticeFit:
        names = self.hints.island_corners
        corners = {
            r.component_id: r.center_mm
            for r in readings.values()
            if r.center_mm is not None and r.component_id in names
        }
        pieces = {
            r.component_id: r.center_mm
            for r in readings.values()
            if r.center_mm is not None and self._kind_of(r) == self.hints.figure_kind
        }
        size = self.hints.island_size or _corner_span(corners, names)
        return geometry.fit_island(corners, size, self.hints.island_fields or {}, pieces, names)

    def _pegs(
        self, image: np.ndarray, lattice: LatticeFit | None, readings: Mapping[str, TagReading]
    ) -> list[PegReading]:
        if lattice is None or self.calibration is None:
            return []
        if self.hints.pegs == "gaps" and lattice.cells:
            return self._pegs_on_gaps(image, lattice, readings)
        island = lattice.kind == "island" and "scale" in lattice.extra
        if self.hints.pegs == "fields" and island and self.hints.island_fields:
            return self._pegs_on_fields(image, lattice)
        return []

    def _pegs_on_gaps(
        self, image: np.ndarray, lattice: LatticeFit, readings: Mapping[str, TagReading]
    ) -> list[PegReading]:
        """Chisels: a peg on the gap between two neighbouring tiles of a hex lattice."""
        assert self.calibration is not None
        model = self.colours or ColourModel.nominal()
        radius_px = max(1.5, 0.5 * self.hints.peg_radius_mm * self.calibration.px_per_mm(lattice.origin))
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
            self.calibration.to_pixels,
            model,
            radius_px,
            "chisel",
            self.calibration.zone_at,
            targets_px=targets_px,
        )

    def _pegs_on_fields(self, image: np.ndarray, lattice: LatticeFit) -> list[PegReading]:
        """A figure's base covers its field; elsewhere a camp stands at the centre (its top camp's colour
        is what the camera sees) and boxes on a ring round it."""
        assert self.calibration is not None and self.hints.island_fields is not None
        model = self.colours or ColourModel.nominal()
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
        to_px, zone_at = self.calibration.to_pixels, self.calibration.zone_at
        found = find_pegs(image, camps, to_px, model, camp_px, "camp", zone_at)
        for peg in find_pegs(image, boxes, to_px, model, box_px, "box", zone_at):
            found.append(replace(peg, on=(peg.on or "").split("#")[0]))
        return found


def _inside(point: Point, roi: Rect) -> bool:
    x, y, w, h = roi
    return x <= point[0] < x + w and y <= point[1] < y + h


def _corner_span(corners: Mapping[str, Point], names: Sequence[str]) -> tuple[float, float]:
    """Board size when the layout does not say: from opposite corner tags (``names``: NW NE SE SW)."""
    if len(names) == 4:
        nw, ne, se, sw = names
        if nw in corners and se in corners:
            (x0, y0), (x1, y1) = corners[nw], corners[se]
            return (abs(x1 - x0), abs(y1 - y0))
        if ne in corners and sw in corners:
            (x0, y0), (x1, y1) = corners[sw], corners[ne]
            return (abs(x1 - x0), abs(y1 - y0))
    return (1.0, 1.0)


def auto_calibration(image: np.ndarray, table_size: tuple[float, float] | None = None) -> Calibration | None:
    """Calibrate from the frame itself (all four markers visible), or None."""
    try:
        layout = corner_layout(*table_size) if table_size else None
        return calibrate(image, layout)
    except CalibrationError:
        return None


def observe(
    manifest: tags.Manifest,
    image: np.ndarray,
    calibration: Calibration | None = None,
    hints: GeometryHints | None = None,
    colours: ColourModel | None = None,
    **options: Any,
) -> Observation:
    """One-shot reading (a fresh :class:`Detector`)."""
    detector = Detector(manifest, calibration, hints or GeometryHints(), colours, **options)
    return detector.observe(image)
