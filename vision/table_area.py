"""Whether the table area the markers mark is the one the game's layout was drawn for, and what to change.

The markers' printed size fixes the scale (:func:`vision.calibration.estimate_layout` measures the area
they mark); a layout drawn for another area would put every zone, seat and cell in the wrong place, so such
a calibration is not trusted. The camera's height and view are estimated from how large a millimetre of
the table looks (a pinhole camera with a known horizontal field of view)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vision.sentences import Sentence, said

#: how far the measured area may differ from the layout's: printing and a marker stuck a little off (the
#: area is measured through the lens: the fitted one, else the bend the markers themselves show)
AREA_TOLERANCE = 0.03
#: with an unfitted lens the measurement is less certain by about half its bend, up to this much: beyond,
#: the picture is bent so far that nothing is read until the lens is fitted
MAX_TOLERANCE = 0.10
#: Camera Module 3's standard lens, horizontal field of view in degrees (the wide lens: 102)
CAMERA_HFOV_DEGREES = 66.0


@dataclass(frozen=True)
class AreaCheck:
    """``tolerance``: the share the measurement may be off (wider while an unfitted lens bends it)."""

    measured: tuple[float, float]
    expected: tuple[float, float]
    camera_height_mm: float | None
    camera_view_mm: tuple[float, float] | None
    tolerance: float = AREA_TOLERANCE

    @property
    def fits(self) -> bool:
        pairs = zip(self.measured, self.expected, strict=True)
        return all(abs(m - e) <= self.tolerance * e for m, e in pairs)

    def problem(self) -> str | None:
        """What is wrong, in the words of the person setting up, or None."""
        sentence = self.problem_said()
        return None if sentence is None else str(sentence)

    def problem_said(self) -> Sentence | None:
        """:meth:`problem` for readers of any language."""
        if self.fits:
            return None
        (mw, mh), (ew, eh) = self.measured, self.expected
        sentence = said("markers 0-1 are %(width).0f mm apart and 1-2 %(height).0f mm, but the game's layout "
                        "is drawn for %(layout_width).0f x %(layout_height).0f mm: put the markers at the "
                        "corners of a %(layout_width).0f x %(layout_height).0f mm area", width=mw, height=mh,
                        layout_width=ew, layout_height=eh)
        if self.tolerance > AREA_TOLERANCE:
            sentence = sentence.and_then(said("the lens is not fitted, and it bends the picture: fit it "
                                              "first, then measure again"))
        view = self.camera_view_mm
        if view is not None and self.camera_height_mm is not None and (view[0] < ew or view[1] < eh):
            higher = self.camera_height_mm * max(ew / view[0], eh / view[1]) * 1.05
            sentence = sentence.and_then(said(
                "at about %(height).0f cm the camera sees about %(width).0f x %(depth).0f mm: raise the "
                "camera to about %(higher).0f cm", height=self.camera_height_mm / 10, width=view[0],
                depth=view[1], higher=higher / 10))
        return sentence

    def to_dict(self) -> dict[str, Any]:
        sentence = self.problem_said()
        return {
            "measured_mm": [round(v, 1) for v in self.measured],
            "layout_mm": [round(v, 1) for v in self.expected],
            "fits": self.fits,
            "camera_height_mm": None if self.camera_height_mm is None else round(self.camera_height_mm),
            "camera_view_mm": (None if self.camera_view_mm is None
                               else [round(v) for v in self.camera_view_mm]),
            "problem": None if sentence is None else str(sentence),
            "problem_said": None if sentence is None else sentence.to_dict(),
        }


def size_of(layout: Mapping[int, tuple[float, float]]) -> tuple[float, float]:
    """The area marked by markers 0..3 (centres clockwise from the top left)."""
    (x0, y0), (x1, _), (_, y2) = layout[0], layout[1], layout[2]
    return abs(x1 - x0), abs(y2 - y0)


View = tuple[float, float]


def camera_estimate(px_per_mm: float, image_size: tuple[int, int], hfov_degrees: float = CAMERA_HFOV_DEGREES,
                    focal_px: float | None = None) -> tuple[float | None, View | None]:
    """The camera's height above the table and the area its frame covers, from the table's scale at the
    frame centre (with the fitted lens's focal length when there is one, else the nominal lens's); (None,
    None) without a usable scale."""
    width, height = image_size
    if px_per_mm <= 0 or width <= 0 or height <= 0:
        return None, None
    if focal_px is None:
        focal_px = width / (2 * math.tan(math.radians(hfov_degrees) / 2))
    return focal_px / px_per_mm, (width / px_per_mm, height / px_per_mm)


def check_area(measured: tuple[float, float], expected: tuple[float, float], px_per_mm: float,
               image_size: tuple[int, int], focal_px: float | None = None,
               unfitted_bend: float = 0.0) -> AreaCheck:
    """The measured area against the layout's. ``unfitted_bend``: how much an unfitted lens bends the
    picture at the corners (the markers' own estimate): the measurement is only that much less certain."""
    height, view = camera_estimate(px_per_mm, image_size, focal_px=focal_px)
    tolerance = min(MAX_TOLERANCE, AREA_TOLERANCE + unfitted_bend / 2)
    return AreaCheck(measured, expected, height, view, tolerance)
