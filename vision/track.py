"""Temporal tracking: turn a stream of per-frame readings into stable observations.

- **Nothing changed** (the cheap path): every frame is reduced to a small grey image (a strided view and one
  resize: ~0.2 ms for 2304x1296); if no block differs from the previous frame beyond noise and no change is
  pending, the last result is returned without decoding anything.
- **Hands and arms**: the small image is compared with the one of the last committed state; a large changed
  blob that reaches the frame's edge (an arm always does) or is mostly skin-coloured is an occluder: the
  tracker holds the last stable state (``held=True``, the region in ``occluded``) and reads nothing.
  A hold never lasts for ever: once the picture has been still for ``release_frames`` frames, the table is
  read whole, and where no piece of the stable state is missing from it (or no skin shows where the hand
  was) the difference was in the committed picture itself (a hand in the first picture kept): the hold is
  let go and what the table shows settles as any change does.
- **Focused reading**: when a change is small, only the changed regions (padded by a tag's size) are
  decoded and every other tag is carried over; the engine's expectations (regions that can change)
  narrow this further. Large changes get a full reading.
- **Bumped camera**: a reading whose calibration check says the markers moved is not trusted: the last
  stable state is held with that calibration status (``stable=False``) until the markers are back or the
  camera is recalibrated.
- **Settling**: a reading that differs from the stable state becomes *pending*; it is committed only when
  the same reading (tags, cells, faces, rotations, zones, pegs) has been read in ``window`` consecutive
  frames (each of them read again, focused on the change), so a tag that failed to decode once or a
  half-placed piece never becomes a change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.detect import Detector
from vision.observation import CalibrationStatus, Observation, OccludedRegion, PegReading
from vision.places import Place

Rect = tuple[int, int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class TrackerConfig:
    """``window``: frames a new reading must repeat before it is committed (``vanish_factor`` times as many
    when ``vanish_count`` or more tags vanished at once). ``step``: the small image takes
    every ``step``-th pixel before a further /2 resize. ``noise``: grey-level difference in the small image
    treated as no change. ``hand_area``: a changed blob larger than this fraction of the frame is a hand
    candidate; ``skin_fraction`` of skin-coloured pixels, or touching the edge, makes it one.
    ``full_every``: re-read the full frame every so many frames even when nothing changed (0: never).
    ``focus_limit``: changed area (fraction of frame) above which a full reading is done.
    ``release_frames``: still frames after which a hold is checked against a reading of the whole table."""

    window: int = 3
    vanish_count: int = 3
    vanish_factor: int = 3
    step: int = 4
    noise: float = 14.0
    min_blob_px: int = 6
    hand_area: float = 0.012
    skin_fraction: float = 0.35
    full_every: int = 0
    focus_limit: float = 0.25
    pad_px: int = 40
    release_frames: int = 30


@dataclass(frozen=True)
class Expectations:
    """What the engine says can change next: regions where a legal move would show, as pixel rectangles
    or as table polygons in mm (e.g. the cells of the tiles that can be taken, a seat zone)."""

    regions_px: tuple[Rect, ...] = ()
    regions_mm: tuple[tuple[Point, ...], ...] = ()

    def pixel_regions(self, to_pixels: object = None) -> tuple[Rect, ...]:
        """All regions as pixel rectangles (``to_pixels``: a calibration's ``to_pixels``)."""
        rects = list(self.regions_px)
        if self.regions_mm and callable(to_pixels):
            for polygon in self.regions_mm:
                corners = np.asarray(to_pixels(polygon), dtype=np.float64)
                x0, y0 = corners.min(axis=0)
                x1, y1 = corners.max(axis=0)
                rects.append((int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1))
        return tuple(rects)


@dataclass
class TrackStats:
    frames: int = 0
    unchanged: int = 0
    held: int = 0
    focused: int = 0
    full: int = 0
    commits: int = 0


def small_gray(image: np.ndarray, step: int = 4) -> np.ndarray:
    """A cheap low-resolution grey image: every ``step``-th green sample, then halved by area averaging."""
    view = image[::step, ::step, 1] if image.ndim == 3 else image[::step, ::step]
    h, w = view.shape[:2]
    small: np.ndarray = cv2.resize(view, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    return small


def _skin_mask(image: np.ndarray) -> np.ndarray:
    """Skin-like pixels (YCrCb box, a classic rule): warm, moderately saturated."""
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    mask: np.ndarray = cv2.inRange(ycrcb, np.array([40, 135, 85]), np.array([250, 175, 130])) > 0
    return mask


class Tracker:
    """Feeds frames to a :class:`~vision.detect.Detector` and reports only settled changes."""

    def __init__(self, detector: Detector, config: TrackerConfig | None = None) -> None:
        self.detector = detector
        self.config = config or TrackerConfig()
        self.stable: Observation | None = None
        self.pending: Observation | None = None
        self.pending_count = 0
        self.stats = TrackStats()
        self.last_path = ""
        self._previous_small: np.ndarray | None = None
        self._reference_small: np.ndarray | None = None
        self._held = False
        self._still = 0  # frames the picture has not changed while held
        self._occluded: tuple[OccludedRegion, ...] = ()
        self._last_result: Observation | None = None
        self._alert: CalibrationStatus | None = None

    # ------------------------------------------------------------------------------------------ api
    def update(
        self,
        image: np.ndarray,
        frame_index: int = 0,
        timestamp: float = 0.0,
        expectations: Expectations | None = None,
        lores: np.ndarray | None = None,
    ) -> Observation:
        """The stable observation after this frame (``stable=False`` while a change is settling,
        ``held=True`` while a hand is over the table). ``lores``: the camera's own low-resolution grey
        image of the same instant (picamera2's lores stream), used for change detection when given."""
        config = self.config
        self.stats.frames += 1
        if lores is not None:
            height, width = image.shape[:2]
            size = (max(1, width // config.step // 2), max(1, height // config.step // 2))
            small = cv2.resize(lores, size, interpolation=cv2.INTER_AREA)
        else:
            small = small_gray(image, config.step)
        scale = image.shape[1] / small.shape[1]
        unchanged = (
            self._previous_small is not None
            and self._previous_small.shape == small.shape
            and not self._changed(self._previous_small, small).any()
        )
        self._previous_small = small
        periodic = config.full_every > 0 and self.stats.frames % config.full_every == 0
        # A pending change is confirmed by reading it again (a tag that failed to decode once must not
        # become a removal just because the next frames look the same), so only settled frames are cheap.
        settled = self.pending is None or self._held
        self._still = self._still + 1 if unchanged and self._held else 0
        if self._still >= config.release_frames:
            self._still = 0
            released = self._release(image, frame_index, timestamp)
            if released is None:
                self.last_path = "held on"  # read whole: a hand still lies over pieces
                return self._result(frame_index, timestamp)
            return self._consider(released, small, frame_index, timestamp, initial=True)
        if unchanged and settled and self._last_result is not None and not periodic:
            self.stats.unchanged += 1
            self.last_path = "unchanged"
            return self._result(frame_index, timestamp)

        if self.stable is None or self._reference_small is None:
            self.stats.full += 1
            self.last_path = "full"
            first = self.detector.observe(image, frame_index, timestamp)
            return self._consider(first, small, frame_index, timestamp, initial=True)

        changed = self._changed(self._reference_small, small)
        blobs = self._blobs(changed)
        lighting = float(changed.mean()) > 0.6  # the whole picture changed: light, not a hand
        hands = (
            []
            if lighting
            else [rect for rect, area, touches in blobs if self._is_hand(image, rect, area, touches, scale)]
        )
        if hands:
            self.stats.held += 1
            self.last_path = "held"
            self._held = True
            self.pending, self.pending_count = None, 0
            self._occluded = tuple(self._region(rect, scale) for rect in hands)
            return self._result(frame_index, timestamp)
        self._held = False
        self._occluded = ()
        changed_fraction = float(changed.mean())
        if not blobs and not periodic:
            # Back to the stable picture (a hand left without moving anything): nothing to read.
            self.pending, self.pending_count = None, 0
            self._reference_small = small
            self._alert = None  # the picture is the committed one again: the markers are back in place
            self.last_path = "restored"
            return self._result(frame_index, timestamp)
        if periodic or changed_fraction > config.focus_limit or self.stable is None:
            self.stats.full += 1
            self.last_path = "full"
            reading = self.detector.observe(image, frame_index, timestamp)
        else:
            self.stats.focused += 1
            self.last_path = "focused"
            inner = [self._pad(rect, scale, image.shape, 0) for rect, _, _ in blobs]
            calibration = self.detector.calibration
            expected = (
                expectations.pixel_regions(calibration.to_pixels if calibration is not None else None)
                if expectations is not None
                else ()
            )
            if expected:
                inner = self._focus(inner, expected)
            # Decode a tag's size beyond the changed regions so a tag centred inside is never cut.
            rois = [_grow(rect, self._tag_px(), image.shape) for rect in inner]
            # Markers are looked for again only when their own corners of the picture changed.
            reading = self.detector.observe(
                image,
                frame_index,
                timestamp,
                rois=rois,
                base=self.stable,
                refresh=inner,
                check_calibration=self._markers_changed(changed, scale),
            )
        return self._consider(reading, small, frame_index, timestamp)

    def _release(self, image: np.ndarray, frame_index: int, timestamp: float) -> Observation | None:
        """A hold over a still picture: the whole table read, and the hold let go (the reading returned)
        where nothing stable is missing from it or no skin shows where the hand was; None to hold on."""
        self.stats.full += 1
        self.last_path = "release"
        reading = self.detector.observe(image, frame_index, timestamp)
        stable_tags = self.stable.tags if self.stable is not None else {}
        nothing_missing = all(tag_id in reading.tags for tag_id in stable_tags)
        skin = any(self._skin_in(image, region.bbox_px) for region in self._occluded)
        if skin and not nothing_missing:
            return None  # a hand lies still over pieces
        self._held, self._occluded = False, ()
        self._reference_small = None  # the committed picture had the hand in it: the next commit replaces it
        return reading

    def _skin_in(self, image: np.ndarray, rect: Rect) -> bool:
        x, y, w, h = rect
        patch = image[y : y + h : 4, x : x + w : 4]
        return bool(patch.size) and float(
            _skin_mask(np.ascontiguousarray(patch)).mean()) > self.config.skin_fraction

    def recalibrate(self, image: np.ndarray) -> None:
        """Refit the calibration from this frame (after the camera moved) and read the table afresh."""
        monitor = self.detector.monitor
        if monitor is None:
            raise ValueError("the detector has no calibration to refit")
        self.detector.calibration = monitor.recalibrate(image)
        self._alert = None
        self._reference_small = None
        self._previous_small = None
        self.pending, self.pending_count = None, 0

    # ---------------------------------------------------------------------------------------- steps
    def _changed(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        diff = cv2.absdiff(before, after)
        mask: np.ndarray = diff > self.config.noise
        return mask

    def _blobs(self, changed: np.ndarray) -> list[tuple[Rect, int, bool]]:
        """Connected changed regions in the small image: (x, y, w, h), area, touches the frame edge."""
        if not changed.any():
            return []
        mask = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        h, w = mask.shape
        blobs = []
        for index in range(1, count):
            x, y, bw, bh, area = (int(v) for v in stats[index])
            if area < self.config.min_blob_px:
                continue
            touches = x <= 0 or y <= 0 or x + bw >= w or y + bh >= h
            blobs.append(((x, y, bw, bh), area, touches))
        return blobs

    def _markers_changed(self, changed: np.ndarray, scale: float) -> bool:
        calibration = self.detector.calibration
        if calibration is None:
            return False
        h, w = changed.shape
        for corners in calibration.markers_px.values():
            x0, y0 = np.floor(corners.min(axis=0) / scale).astype(int) - 2
            x1, y1 = np.ceil(corners.max(axis=0) / scale).astype(int) + 2
            if changed[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)].any():
                return True
        return False

    def _is_hand(self, image: np.ndarray, rect: Rect, area: int, touches: bool, scale: float) -> bool:
        small_area = (image.shape[0] / scale) * (image.shape[1] / scale)
        if area < self.config.hand_area * small_area:
            return False
        if touches:
            return True
        x, y, w, h = (int(v * scale) for v in rect)
        return self._skin_in(image, (x, y, w, h))

    def _pad(self, rect: Rect, scale: float, shape: Sequence[int], extra: int = 0) -> Rect:
        pad = self.config.pad_px + extra
        x, y, w, h = rect
        x0 = max(0, int(x * scale) - pad)
        y0 = max(0, int(y * scale) - pad)
        x1 = min(int(shape[1]), int((x + w) * scale) + pad)
        y1 = min(int(shape[0]), int((y + h) * scale) + pad)
        return (x0, y0, x1 - x0, y1 - y0)

    def _tag_px(self) -> int:
        """The largest tag side seen (so a tag cut by a region's edge is still decoded whole)."""
        if self.stable is None or not self.stable.tags:
            return 120
        sides = [
            max(math.dist(r.corners_px[0], r.corners_px[2]), math.dist(r.corners_px[1], r.corners_px[3]))
            for r in self.stable.tags.values()
        ]
        return int(max(sides)) + 8

    @staticmethod
    def _focus(rois: list[Rect], expected: Sequence[Rect]) -> list[Rect]:
        """Changes inside the expected regions are read there only; a change elsewhere is read as is
        (an unexpected change must be seen, not ignored)."""
        focused: list[Rect] = []
        for roi in rois:
            inside = [region for region in expected if _contains(region, _centre(roi))]
            focused.extend(inside or [roi])
        return list(dict.fromkeys(focused))

    def _region(self, rect: Rect, scale: float) -> OccludedRegion:
        x, y, w, h = (int(v * scale) for v in rect)
        polygon: tuple[Point, ...] = ()
        calibration = self.detector.calibration
        if calibration is not None:
            corners = calibration.to_table([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
            polygon = tuple((float(px), float(py)) for px, py in corners)
        return OccludedRegion("hand", (x, y, w, h), polygon)

    def _same_table(self, a: Observation, b: Observation) -> bool:
        """Whether two readings show one table: every tag in the same place (the kit's rule: its zone, its
        cell, where it lies in a zone where that matters) with the same face and turn, and the same pieces
        in the same places."""
        if a.calibration.usable != b.calibration.usable or a.tags.keys() != b.tags.keys():
            return False
        places = self.detector.hints.places
        turn = self.detector.hints.tile_turn
        turns = round(360 / turn)
        for tag_id, one in a.tags.items():
            other = b.tags[tag_id]
            if one.face != other.face or round(one.angle / turn) % turns != round(other.angle / turn) % turns:
                return False
            if not places.same(self._tag_place(a, tag_id), self._tag_place(b, tag_id)):
                return False
        return self._same_pieces(a, b)

    def _tag_place(self, observation: Observation, tag_id: str) -> Place:
        reading = observation.tags[tag_id]
        cell = observation.lattice.cells.get(tag_id) if observation.lattice is not None else None
        return self.detector.hints.places.place(reading.zone, reading.center_mm, cell)

    def _same_pieces(self, a: Observation, b: Observation) -> bool:
        """The same pieces: the kind counts (a box taken back for a camp of its colour on the same field is
        a move); a piece on a gap or field is there, any other is matched to one within the tolerance."""
        places = self.detector.hints.places

        def key(peg: PegReading) -> tuple[str, str, str]:
            return (peg.kind, peg.on or "", peg.colour or "")

        if sorted(map(key, a.pegs)) != sorted(map(key, b.pegs)):
            return False
        loose = [peg for peg in b.pegs if peg.on is None]
        for peg in (peg for peg in a.pegs if peg.on is None):
            place = places.place(peg.zone, peg.center_mm)
            match = next((i for i, other in enumerate(loose) if key(other) == key(peg)
                          and places.same(place, places.place(other.zone, other.center_mm))), None)
            if match is None:
                return False
            loose.pop(match)
        return True

    def _consider(
        self,
        reading: Observation,
        small: np.ndarray,
        frame_index: int,
        timestamp: float,
        initial: bool = False,
    ) -> Observation:
        misfit = reading.calibration.state == "misfit"  # the markers mark another area: nothing is trusted
        if misfit or (self.stable is not None and reading.calibration.state == "bumped"):
            # The camera moved: what it reads now is in the wrong place. Hold the last stable state and
            # say why, until the markers are back in place or the camera is recalibrated.
            self._alert = reading.calibration
            self.pending, self.pending_count = None, 0
            return self._result(frame_index, timestamp)
        self._alert = None
        if self.stable is not None and self._same_table(reading, self.stable):
            # Same table (light drift, noise, a hand that left): refresh the reference, nothing pending.
            self.pending, self.pending_count = None, 0
            self._reference_small = small
            return self._result(frame_index, timestamp)
        if self.pending is not None and self._same_table(reading, self.pending):
            self.pending_count += 1
        else:
            self.pending, self.pending_count = reading, 1
        if self.pending_count >= self._window_for(reading):
            return self._commit(reading, small, frame_index, timestamp)
        return self._result(frame_index, timestamp)

    def _window_for(self, reading: Observation) -> int:
        """Frames a reading must last: longer when many tags vanished at once (an arm lying still over the
        table that the picture test did not catch looks like that; a real removal of many tiles only waits
        a little longer)."""
        if self.stable is None:
            return self.config.window
        vanished = sum(1 for tag_id in self.stable.tags if tag_id not in reading.tags)
        if vanished >= self.config.vanish_count:
            return self.config.window * self.config.vanish_factor
        return self.config.window

    def _commit(
        self, reading: Observation, small: np.ndarray, frame_index: int, timestamp: float
    ) -> Observation:
        self.stable = replace(reading, stable=True, held=False, occluded=())
        self.pending, self.pending_count = None, 0
        self._reference_small = small
        self.stats.commits += 1
        return self._result(frame_index, timestamp)

    def _result(self, frame_index: int, timestamp: float) -> Observation:
        if self.stable is None:
            base = self.pending or Observation(frame_index, timestamp, self.detector.game)
            result = replace(base, frame_index=frame_index, timestamp=timestamp, stable=False)
            if self._alert is not None:
                result = replace(result, calibration=self._alert)
        else:
            result = replace(
                self.stable,
                frame_index=frame_index,
                timestamp=timestamp,
                stable=self.pending is None and not self._held and self._alert is None,
                held=self._held,
                occluded=self._occluded,
            )
            if self._alert is not None:
                result = replace(result, calibration=self._alert)
        self._last_result = result
        return result


def _grow(rect: Rect, by: int, shape: Sequence[int]) -> Rect:
    x, y, w, h = rect
    x0, y0 = max(0, x - by), max(0, y - by)
    x1, y1 = min(int(shape[1]), x + w + by), min(int(shape[0]), y + h + by)
    return (x0, y0, x1 - x0, y1 - y0)


def _centre(rect: Rect) -> Point:
    x, y, w, h = rect
    return (x + w / 2.0, y + h / 2.0)


def _contains(rect: Rect, point: Point) -> bool:
    x, y, w, h = rect
    return x <= point[0] <= x + w and y <= point[1] <= y + h
