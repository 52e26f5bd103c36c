"""What vision reports about one camera frame: the contract between the vision pipeline and the companion.

An :class:`Observation` is built by :func:`vision.detect.observe` from one frame and smoothed over time by
:mod:`vision.track`. Everything is a frozen value object with ``to_dict()`` (JSON-ready, stable key order)
and ``from_dict()`` (the store keeps observations in its event log).

Conventions (see :mod:`vision.scene`): table positions in millimetres, x east, y south,
origin at calibration marker 0; angles in degrees counter-clockwise seen from above, 0 = tag top edge north.
Pixel positions are (x, y) in the camera frame.

Keys used to name lattice places (strings, so that they survive JSON):

- a cell: :func:`cell_key` ``"q,r"`` (axial hex coordinates; ``"col,row"`` on a square grid or a framed
  board; ``"board,col,row"`` on small boards);
- a gap between two adjacent cells: :func:`gap_key` ``"q1,r1|q2,r2"`` with the two cells sorted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
Face = Literal["front", "back"]
Cell = tuple[int, ...]

FRONT: Face = "front"
BACK: Face = "back"


def cell_key(cell: Iterable[int]) -> str:
    """``(2, -1)`` -> ``"2,-1"``."""
    return ",".join(str(int(value)) for value in cell)


def parse_cell_key(key: str) -> Cell:
    """``"2,-1"`` -> ``(2, -1)``; raises ValueError on anything else."""
    return tuple(int(part) for part in key.split(","))


def gap_key(a: Iterable[int], b: Iterable[int]) -> str:
    """The key of the gap (shared edge) between two adjacent cells; order-independent."""
    first, second = sorted((tuple(int(v) for v in a), tuple(int(v) for v in b)))
    return f"{cell_key(first)}|{cell_key(second)}"


def parse_gap_key(key: str) -> tuple[Cell, Cell]:
    left, right = key.split("|")
    return parse_cell_key(left), parse_cell_key(right)


def _point(value: Any) -> Point:
    x, y = value
    return (float(x), float(y))


def _opt_point(value: Any) -> Point | None:
    return None if value is None else _point(value)


def _round(value: float, digits: int = 2) -> float:
    return round(float(value), digits)


def _point_out(point: Point | None, digits: int = 2) -> list[float] | None:
    # inlined rounding: every move stores its observation's ~500 points before the table is answered
    return None if point is None else [round(float(point[0]), digits), round(float(point[1]), digits)]


def _freeze(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class TagReading:
    """One valid tag of the current game, as read in one frame.

    ``component_id`` is the id part of the payload (``"F07"``; an opaque back id for a face-down tile).
    ``angle`` is the tag's rotation on the table (degrees CCW, 0 = top edge north) when calibrated,
    otherwise in the image (same sense, image y pointing down). ``module_px`` is the side of one QR module
    in pixels (reading margin: >= 3 px is the design target). ``zone`` is the table zone of the centre.
    """

    payload: str
    game: str
    component_id: str
    face: Face
    center_px: Point
    corners_px: Quad
    angle: float
    module_px: float
    center_mm: Point | None = None
    zone: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "payload": self.payload,
            "game": self.game,
            "id": self.component_id,
            "face": self.face,
            "center_px": _point_out(self.center_px, 1),
            "corners_px": [_point_out(corner, 1) for corner in self.corners_px],
            "center_mm": _point_out(self.center_mm),
            "angle": _round(self.angle, 1),
            "module_px": _round(self.module_px),
            "zone": self.zone,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TagReading:
        corners = tuple(_point(corner) for corner in data["corners_px"])
        if len(corners) != 4:
            raise ValueError("a tag has four corners")
        face = data["face"]
        if face not in (FRONT, BACK):
            raise ValueError(f"face must be front or back, not {face!r}")
        return cls(
            payload=str(data["payload"]),
            game=str(data["game"]),
            component_id=str(data["id"]),
            face=face,
            center_px=_point(data["center_px"]),
            corners_px=(corners[0], corners[1], corners[2], corners[3]),
            angle=float(data["angle"]),
            module_px=float(data["module_px"]),
            center_mm=_opt_point(data.get("center_mm")),
            zone=data.get("zone"),
        )


PegKind = Literal["chisel", "camp", "box", "piece"]


@dataclass(frozen=True)
class PegReading:
    """A small coloured piece found by colour: a peg on a gap between tiles, a camp or box on a field.

    ``colour`` is a seat colour name or None when no learned colour is close enough (then ``confidence``
    is 0). ``on`` names what it sits on: a :func:`gap_key` for a chisel, a :func:`cell_key` for a field.
    """

    center_mm: Point
    colour: str | None
    confidence: float
    on: str | None = None
    kind: PegKind = "chisel"
    center_px: Point | None = None
    zone: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "colour": self.colour,
            "confidence": _round(self.confidence, 3),
            "on": self.on,
            "center_mm": _point_out(self.center_mm),
            "center_px": _point_out(self.center_px, 1),
            "zone": self.zone,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PegReading:
        return cls(
            center_mm=_point(data["center_mm"]),
            colour=data.get("colour"),
            confidence=float(data["confidence"]),
            on=data.get("on"),
            kind=data.get("kind", "chisel"),
            center_px=_opt_point(data.get("center_px")),
            zone=data.get("zone"),
        )


@dataclass(frozen=True)
class OccludedRegion:
    """Part of the table vision cannot see (a hand, an arm): why, bounding box in px, polygon in mm."""

    reason: str
    bbox_px: tuple[int, int, int, int]
    polygon_mm: tuple[Point, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "bbox_px": list(self.bbox_px),
            "polygon_mm": [_point_out(point) for point in self.polygon_mm],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OccludedRegion:
        x, y, w, h = (int(v) for v in data["bbox_px"])
        return cls(
            reason=str(data["reason"]),
            bbox_px=(x, y, w, h),
            polygon_mm=tuple(_point(p) for p in data.get("polygon_mm", ())),
        )


CalibrationState = Literal["ok", "uncalibrated", "bumped", "markers-hidden", "misfit", "imprecise"]


@dataclass(frozen=True)
class CalibrationStatus:
    """Whether table millimetres can be trusted for this frame.

    ``state``: ``ok`` (homography valid and markers where expected), ``uncalibrated`` (no homography:
    positions are pixels only), ``bumped`` (markers moved beyond tolerance: the camera moved; positions
    are not trusted until recalibrated), ``markers-hidden`` (too few markers visible to re-check; the last
    homography is used), ``misfit`` (the markers mark another table area than the layout's, measured from
    their printed size, or the lens bends the picture so far that a tile may land in the wrong cell: not
    used until mended), ``imprecise`` (read, but tiles may lie more than a few mm from where they are read:
    never called ok or trusted). ``drift_px`` is the largest marker displacement seen.
    """

    state: CalibrationState = "uncalibrated"
    markers_seen: tuple[int, ...] = ()
    drift_px: float = 0.0
    message: str = ""

    @property
    def trusted(self) -> bool:
        return self.state in ("ok", "markers-hidden")

    @property
    def usable(self) -> bool:
        """Positions are read (trusted, or ``imprecise``: read, but tiles may lie a few mm off)."""
        return self.trusted or self.state == "imprecise"

    def to_dict(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "trusted": self.trusted,
            "usable": self.usable,
            "markers_seen": list(self.markers_seen),
            "drift_px": _round(self.drift_px),
            "message": self.message,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CalibrationStatus:
        return cls(
            state=data.get("state", "uncalibrated"),
            markers_seen=tuple(int(m) for m in data.get("markers_seen", ())),
            drift_px=float(data.get("drift_px", 0.0)),
            message=str(data.get("message", "")),
        )


#: the board fit that made a lattice: ``hex``, ``square``, ``boards``, ``island`` or a game's own
LatticeKind = str


@dataclass(frozen=True)
class LatticeFit:
    """The play-area geometry fitted from tag centres.

    ``kind``: the board fit that made it (:mod:`vision.boards`): ``hex`` (axial q, r), ``square`` (col,
    row), ``boards`` (board number, col, row on that board), ``island`` (col, row of one framed board).
    ``origin`` is the table position of cell (0, 0) (for ``boards`` the first board's centre),
    ``pitch`` the cell spacing in mm, ``angle`` the lattice rotation in degrees. ``cells`` maps tag
    ids to their cell key; ``residual`` is the RMS distance (mm) of tag centres to their fitted cells.
    ``extra`` carries kind-specific parameters (e.g. each small board's centre and rotation).
    """

    kind: LatticeKind
    origin: Point
    pitch: float
    angle: float
    cells: Mapping[str, str] = field(default_factory=dict)
    residual: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _freeze(self.cells))
        object.__setattr__(self, "extra", _freeze(self.extra))

    def cell_of(self, component_id: str) -> Cell | None:
        key = self.cells.get(component_id)
        return None if key is None else parse_cell_key(key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "origin": _point_out(self.origin),
            "pitch": _round(self.pitch, 3),
            "angle": _round(self.angle, 2),
            "residual": _round(self.residual, 3),
            "cells": dict(sorted(self.cells.items())),
            "extra": dict(self.extra),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LatticeFit:
        return cls(
            kind=data["kind"],
            origin=_point(data["origin"]),
            pitch=float(data["pitch"]),
            angle=float(data["angle"]),
            cells={str(k): str(v) for k, v in data.get("cells", {}).items()},
            residual=float(data.get("residual", 0.0)),
            extra=dict(data.get("extra", {})),
        )


@dataclass(frozen=True)
class Observation:
    """Everything vision read from one frame (or, from :mod:`vision.track`, the last stable state).

    - ``tags``: valid tags of the current game by component id (a duplicated id keeps its first reading
      and is listed in ``duplicates``);
    - ``pegs``: coloured pieces found where the geometry predicts them;
    - ``zones``: zone name -> ids of the tags whose centre lies in it (zones of the calibrated scene);
    - ``rejected``: reason -> count of payloads read but not trusted (other game, unknown id, malformed...);
    - ``occluded``: regions hidden by hands or arms;
    - ``calibration``: whether table millimetres are trusted;
    - ``lattice``: the fitted play-area geometry with a cell per tag;
    - ``stable``: False while :mod:`vision.track` waits for a change to settle; ``held``: True when the
      tracker is holding the last stable state because the table is occluded.
    """

    frame_index: int
    timestamp: float
    game: str
    tags: Mapping[str, TagReading] = field(default_factory=dict)
    pegs: tuple[PegReading, ...] = ()
    zones: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rejected: Mapping[str, int] = field(default_factory=dict)
    duplicates: tuple[str, ...] = ()
    occluded: tuple[OccludedRegion, ...] = ()
    calibration: CalibrationStatus = field(default_factory=CalibrationStatus)
    lattice: LatticeFit | None = None
    stable: bool = True
    held: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", _freeze(self.tags))
        object.__setattr__(self, "zones", _freeze({k: tuple(v) for k, v in self.zones.items()}))
        object.__setattr__(self, "rejected", _freeze(self.rejected))
        object.__setattr__(self, "pegs", tuple(self.pegs))
        object.__setattr__(self, "duplicates", tuple(self.duplicates))
        object.__setattr__(self, "occluded", tuple(self.occluded))

    # -- convenience for the companion --------------------------------------------------------------
    def cell_of(self, component_id: str) -> Cell | None:
        """The fitted lattice cell of a tag (None when not on the lattice or no lattice)."""
        return None if self.lattice is None else self.lattice.cell_of(component_id)

    def zone_of(self, component_id: str) -> str | None:
        reading = self.tags.get(component_id)
        return None if reading is None else reading.zone

    def pegs_on(self) -> dict[str, PegReading]:
        """Pegs by the gap or cell they sit on (those placed on nothing are left out)."""
        return {peg.on: peg for peg in self.pegs if peg.on is not None}

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame_index": self.frame_index,
            "timestamp": _round(self.timestamp, 3),
            "game": self.game,
            "stable": self.stable,
            "held": self.held,
            "calibration": self.calibration.to_dict(),
            "tags": {key: self.tags[key].to_dict() for key in sorted(self.tags)},
            "pegs": [peg.to_dict() for peg in self.pegs],
            "zones": {name: list(ids) for name, ids in sorted(self.zones.items())},
            "lattice": None if self.lattice is None else self.lattice.to_dict(),
            "rejected": dict(sorted(self.rejected.items())),
            "duplicates": list(self.duplicates),
            "occluded": [region.to_dict() for region in self.occluded],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Observation:
        lattice = data.get("lattice")
        return cls(
            frame_index=int(data["frame_index"]),
            timestamp=float(data["timestamp"]),
            game=str(data["game"]),
            tags={str(k): TagReading.from_dict(v) for k, v in data.get("tags", {}).items()},
            pegs=tuple(PegReading.from_dict(p) for p in data.get("pegs", ())),
            zones={str(k): tuple(v) for k, v in data.get("zones", {}).items()},
            rejected={str(k): int(v) for k, v in data.get("rejected", {}).items()},
            duplicates=tuple(str(d) for d in data.get("duplicates", ())),
            occluded=tuple(OccludedRegion.from_dict(r) for r in data.get("occluded", ())),
            calibration=CalibrationStatus.from_dict(data.get("calibration", {})),
            lattice=None if lattice is None else LatticeFit.from_dict(lattice),
            stable=bool(data.get("stable", True)),
            held=bool(data.get("held", False)),
        )
