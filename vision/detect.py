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
from typing import Any

import cv2
import numpy as np

from vision import geometry, qr, tags
from vision.boards import BoardFit, OpenLattice, Seen
from vision.calibration import Calibration, CalibrationError, CalibrationMonitor, calibrate, corner_layout
from vision.covered import Cover, Expected, read_covered, square
from vision.observation import (
    CalibrationStatus,
    LatticeFit,
    Observation,
    PegReading,
    TagReading,
)
from vision.pegs import ColourModel, Standing, find_pegs
from vision.places import EVERYWHERE, Places

Point = tuple[float, float]
Rect = tuple[int, int, int, int]
#: what a piece found hides is taken this much wider than the kit's piece (it leans, it blurs)
COVER_MARGIN = 1.35
#: a code given fewer pixels a module than this is read again enlarged where the lattice expects a tile:
#: under a lamp (shade across it, the lens's blur before the gamma curve) 3-4 px a module is often missed
SMALL_MODULE_PX = 4.0


@dataclass(frozen=True)
class GeometryHints:
    """What the game's table layout says about the play area (from its kit; fits estimate what is missing).

    ``board``: how the play area is fitted and where coloured pieces are looked for on it (a
    :class:`~vision.boards.BoardFit`; None: no play area, tags only). ``tile_turn``: the angle step of a
    tile's turns (60 on a hex lattice). ``play_zone``: only tags in this zone belong to the play area
    (None: every tag the board's fit takes); ``table_size``: marker 0 to marker 2 in mm (for calibrating
    from a frame); ``look_again``: re-read empty lattice cells enlarged (tiles too small in the picture to
    read at once) and codes a standing piece covers part of; ``card_mm``: how far the stickers lie above
    the markers' plane (the thickness of the tiles they are stuck on: a tilted camera sees them moved);
    ``places``: what each zone means and how far a piece may lie from its place (the kit's reading), by
    which the tracker tells a changed table from the same one.
    """

    board: BoardFit | None = None
    tile_turn: float = 90.0
    play_zone: str | None = "play"
    table_size: tuple[float, float] | None = None
    look_again: bool = True
    card_mm: float = 0.0
    places: Places = EVERYWHERE


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
            self.colours = ColourModel.seats(self.calibration.colours, shades=self.calibration.shades)
        self.last_fit: LatticeFit | None = None
        #: lattice cells of this frame where a tile shows but its code was not read
        self._unread: set[tuple[int, int]] = set()
        #: what the pieces found in this frame hide
        self._covers: list[Cover] = []

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
        self._unread.clear()
        if lattice is not None and self.calibration is not None and self.hints.look_again:
            # Holes in the lattice (an empty cell with tiles all round) are most likely tiles too small
            # in the picture to read at once: read just those places again, enlarged.
            extra = self._look_again(gray, lattice, readings, validator, status)
            if extra:
                lattice = self._fit(readings)
        pegs = self._pegs(image, lattice, readings) if status.usable else []
        if pegs and lattice is not None and self.hints.look_again and self._read_covered(
                gray, lattice, readings, validator, status):
            lattice = self._fit(readings)  # the tiles read again have gaps of their own to look at
            if lattice is not None and self._look_again(gray, lattice, readings, validator, status):
                lattice = self._fit(readings)  # and holes beside them, read enlarged or marked unread
            pegs = self._pegs(image, lattice, readings)
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
            mapped = list(self.calibration.to_table_at(points, self.hints.card_mm).reshape(-1, 5, 2))
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
                mm = self.calibration.to_table_at([code.center, *code.corners], self.hints.card_mm)
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
        board = self.hints.board
        if not isinstance(board, OpenLattice) or len(lattice.cells) < 3:
            return 0
        steps = board.open_cells()
        calibration = self.calibration
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
            centres_mm = board.centres(lattice, candidates)
            chosen, places, enlarge = [], [], []
            for cell, (x, y) in zip(candidates, centres_mm):
                around = sum((cell[0] + a, cell[1] + b) in occupied for a, b in steps)
                small = module_mm * calibration.px_per_mm((float(x), float(y))) < SMALL_MODULE_PX
                if self._in_play_mm((float(x), float(y))) and (small or around >= 2):
                    chosen.append((float(x), float(y)))
                    places.append(cell)
                    enlarge.append(small or around >= len(steps) - 2)
            if not chosen:
                break
            half = 0.5 * lattice.pitch * calibration.px_per_mm(lattice.origin) * 1.05
            rects = []
            for cell, wanted, (x, y) in zip(places, enlarge, calibration.to_pixels(chosen)):
                # An empty cell shows plain table in its middle; a tag there shows contrast.
                core = image[
                    int(y - half / 2) : int(y + half / 2) : 2, int(x - half / 2) : int(x + half / 2) : 2
                ]
                if core.size and float(core.std()) > 20.0:
                    self._unread.add((int(cell[0]), int(cell[1])))
                    if wanted:
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

    def _seen(self, readings: Mapping[str, TagReading]) -> Seen:
        return Seen(readings, self._kind_of, self._in_play, frozenset(self._unread))

    def _fit(self, readings: Mapping[str, TagReading]) -> LatticeFit | None:
        if self.hints.board is None:
            return None
        fit = self.hints.board.fit(self._seen(readings), self.last_fit)
        if fit.cells:  # anchors the next frame's fit
            self.last_fit = LatticeFit(fit.kind, fit.origin, fit.pitch, fit.angle)
        return fit

    def _kind_of(self, reading: TagReading) -> str | None:
        entry = self.manifest.entry(reading.component_id)
        return None if entry is None else entry.kind

    def _pegs(
        self, image: np.ndarray, lattice: LatticeFit | None, readings: Mapping[str, TagReading]
    ) -> list[PegReading]:
        if lattice is None or self.calibration is None or self.hints.board is None:
            return []
        model = self.colours or ColourModel.nominal()
        scale = self.calibration.px_per_mm(lattice.origin)
        to_px, zone_at = self.calibration.to_pixels, self.calibration.zone_at
        found: list[PegReading] = []
        eye = self.calibration.viewpoint
        self._covers = []
        for search in self.hints.board.peg_searches(lattice, self._seen(readings)):
            radius_px = max(1.5, 0.5 * search.radius_mm * scale)
            standing = Standing(search.height_mm, eye) if search.height_mm > 0 and eye is not None else None
            for peg in find_pegs(image, search.targets, to_px, model, radius_px, search.kind, zone_at,
                                 targets_px=search.targets_px or None, standing=standing,
                                 along=search.along or None):
                found.append(replace(peg, on=peg.on.split("#")[0]) if peg.on and "#" in peg.on else peg)
                self._covers.append(self._cover(peg.center_mm, search.radius_mm, standing))
        return found

    def _cover(self, center_mm: Point, radius_mm: float, standing: Standing | None) -> Cover:
        """What a piece found hides of the table: its foot, and its top where it stands up."""
        assert self.calibration is not None
        reach = COVER_MARGIN * radius_mm  # a piece is seldom exactly as wide as the kit says
        ring = np.array([(center_mm[0] + reach * math.cos(a), center_mm[1] + reach * math.sin(a))
                         for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)])
        if standing is not None:
            ring = np.vstack([ring, standing.viewpoint.apparent(ring, standing.height_mm)])
        pixels = self.calibration.to_pixels(ring).astype(np.float32)
        return Cover(cv2.convexHull(pixels).reshape(-1, 2))

    def _read_covered(self, gray: np.ndarray, lattice: LatticeFit, readings: dict[str, TagReading],
                      validator: tags.TagValidator, status: CalibrationStatus) -> int:
        """Read the codes expected where a tile shows unread and a piece found covers part of it."""
        board = self.hints.board
        assert self.calibration is not None and self.backend is not None
        if not isinstance(board, OpenLattice) or not self._unread or not self._covers:
            return 0
        taken = {tuple(int(v) for v in key.split(",")) for key in lattice.cells.values()}
        cells = sorted(cell for cell in self._unread if cell not in taken)
        if not cells:
            return 0
        calibration, card = self.calibration, self.hints.card_mm
        eye = calibration.viewpoint
        turns = max(1, round(360.0 / self.hints.tile_turn))
        expected = []
        for modules in sorted({17 + 4 * qr.version_for(text) for text in self.manifest.payloads()}):
            side = self.manifest.printed_mm * modules / 21.0
            for (x, y) in board.centres(lattice, cells):
                corners = [square((float(x), float(y)), side, lattice.angle + k * self.hints.tile_turn)
                           for k in range(turns)]
                if card and eye is not None:
                    corners = [[tuple(p) for p in eye.apparent(c, card)] for c in corners]
                expected.append(Expected(corners, modules))

        def fresh(text: str) -> bool:  # a code of this set not read yet (the validator counts once)
            parsed = tags.parse_payload(text)
            return (not isinstance(parsed, str) and parsed.game == self.manifest.game
                    and parsed.component_id in self.manifest and parsed.component_id not in readings)

        unseen = [text for text in self.manifest.payloads() if fresh(text)]
        added = 0
        for code in read_covered(gray, expected, self._covers, calibration.to_pixels, self.backend, fresh,
                                 unseen):
            accepted = validator.check(code.text)
            if accepted is not None and accepted.component_id not in readings:
                readings[accepted.component_id] = self._reading(code, accepted, status)
                added += 1
        return added


def _inside(point: Point, roi: Rect) -> bool:
    x, y, w, h = roi
    return x <= point[0] < x + w and y <= point[1] < y + h


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
