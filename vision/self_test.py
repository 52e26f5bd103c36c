"""The calibration's self-test, what ``companion calibrate`` prints and the Setup page shows: the markers,
how many pixels the codes get per module, the light on the table, how far tiles may lie from where they are
read, and what to change, each in a sentence a person can follow."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration, detect_markers
from vision.scene import CALIBRATION_MARKER_IDS, Point
from vision.sentences import Sentence, said


def _quiet_zone_samples(gray: np.ndarray, codes: Sequence[Any]) -> list[tuple[float, float, float]]:
    """The grey level of each code's quiet zone (printed white: light, not content), 1.5 modules out from
    its outline at its four corners and four edge midpoints (a 3x3 median each)."""
    h, w = gray.shape[:2]
    samples: list[tuple[float, float, float]] = []
    for code in codes:
        cx, cy = code.center
        corners = list(code.corners)
        edges = zip(corners, corners[1:] + corners[:1])
        points = corners + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in edges]
        for x, y in points:
            dx, dy = x - cx, y - cy
            reach = math.hypot(dx, dy) or 1.0
            px, py = x + dx / reach * 1.5 * code.module_px, y + dy / reach * 1.5 * code.module_px
            ix, iy = round(px), round(py)
            if 1 <= ix < w - 1 and 1 <= iy < h - 1:
                samples.append((px, py, float(np.median(gray[iy - 1:iy + 2, ix - 1:ix + 2]))))
    return samples


def lighting_report(image: np.ndarray, calibration: Calibration | None = None,
                    codes: Sequence[Any] = ()) -> dict[str, Any]:
    """The light on the table, measured on what is printed white: the quiet zones of the codes read
    (``codes``), so that the table's own content (dark pieces, a green cloth) is not taken for a shadow.
    Too few codes: brightness over the table area instead (``measured_on``: what it was measured on)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    whites = _quiet_zone_samples(gray, codes)
    if len(whites) >= 24:
        levels = np.array([v for _, _, v in whites])
        regions = _region_levels(whites, gray.shape[1], gray.shape[0])
        middle = float(np.median(levels))
        uneven = (max(regions) - min(regions)) / max(1.0, max(regions)) if len(regions) >= 2 else 0.0
        measured_on = said("%(codes)d codes' white quiet zones (%(samples)d samples, %(regions)d regions)",
                           codes=len(codes), samples=len(whites), regions=len(regions))
        report: dict[str, Any] = {
            "measured_on": str(measured_on),
            "measured_on_said": measured_on.to_dict(),
            "white_level": round(middle, 1),
            "white_by_region": [round(v, 1) for v in regions],
            "at_full_scale": round(float((levels >= 250).mean()), 4),
            "unevenness": round(uneven, 3),
        }
        problems = []
        if middle < 70:
            problems.append(said("the light is too dark: white reads as dark grey"))
        if uneven > 0.3:
            problems.append(said("the light is uneven: a shadow or a lamp's falloff across the table"))
        return _with_problems(report, problems)
    return _area_lighting(gray, calibration)


def _region_levels(whites: Sequence[tuple[float, float, float]], width: int, height: int) -> list[float]:
    """The median white of each of 5 x 3 parts of the frame that holds half a code's samples or more
    (a shadow shows as a part darker than the others)."""
    cells: dict[tuple[int, int], list[float]] = {}
    for x, y, v in whites:
        cells.setdefault((min(4, int(5 * x / width)), min(2, int(3 * y / height))), []).append(v)
    return [float(np.median(v)) for v in cells.values() if len(v) >= 4]


def _area_lighting(gray: np.ndarray, calibration: Calibration | None) -> dict[str, Any]:
    """Brightness, clipping and unevenness over the table area (the whole frame when uncalibrated)."""
    mask = np.ones(gray.shape, dtype=bool)
    if calibration is not None and calibration.layout:
        centres = np.array(list(calibration.layout.values()))
        hull = cv2.convexHull(calibration.to_pixels(centres).astype(np.float32)).astype(np.int32)
        area = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(area, hull, (1,))
        if area.any():
            mask = area.astype(bool)
    values = gray[mask]
    small = cv2.resize(gray, (8, 8), interpolation=cv2.INTER_AREA).astype(float)
    small_mask = cv2.resize(mask.astype(np.uint8), (8, 8), interpolation=cv2.INTER_NEAREST).astype(bool)
    blocks = small[small_mask] if small_mask.any() else small.ravel()
    mean = float(values.mean())
    uneven = float((blocks.max() - blocks.min()) / max(1.0, blocks.mean()))
    measured_on = said("the table area (too few codes in view to measure on white)")
    report: dict[str, Any] = {
        "measured_on": str(measured_on),
        "measured_on_said": measured_on.to_dict(),
        "mean": round(mean, 1),
        "contrast": round(float(values.std()), 1),
        "clipped_bright": round(float((values >= 250).mean()), 4),
        "clipped_dark": round(float((values <= 5).mean()), 4),
        "unevenness": round(uneven, 3),
    }
    problems = []
    if mean < 60:
        problems.append(said("the light is too dark"))
    if mean > 210:
        problems.append(said("the light is too bright"))
    if report["clipped_bright"] > 0.05:
        problems.append(said("the light clips highlights (glare)"))
    if uneven > 0.6:
        problems.append(said("the light is uneven"))
    return _with_problems(report, problems)


def _with_problems(report: dict[str, Any], problems: Sequence[Sentence]) -> dict[str, Any]:
    """``report`` with its problems in English (``problems``) and for every reader (``problems_said``)."""
    report["ok"] = not problems
    report["problems"] = [str(problem) for problem in problems]
    report["problems_said"] = [problem.to_dict() for problem in problems]
    return report


#: Camera Module 3's sensor at full resolution (what ``[camera]`` gives with no width and height)
FULL_RESOLUTION = (4608, 2592)
VERSION_1_MODULES = 21


def reading_advice(calibration: Calibration, tag_mm: float, min_module_px: float,
                   module_px: float) -> list[Sentence]:
    """What makes the smallest codes (``module_px`` px per module now) reach ``min_module_px``: the
    sensor's full resolution, larger stickers, or a lower camera (only where the area still fits the view)."""
    from vision.table_area import camera_estimate, size_of

    advice: list[Sentence] = []
    width, height = calibration.image_size
    full_w, full_h = FULL_RESOLUTION
    if 0 < width < full_w and abs(width * full_h - height * full_w) <= full_h:
        at_full = module_px * full_w / width
        advice.append(said("read at the sensor's full resolution, %(width)d x %(height)d (leave width and "
                           "height out of [camera]): the codes then get %(px).1f px per module",
                           width=full_w, height=full_h, px=at_full))
    needed = math.ceil(tag_mm * min_module_px / max(module_px, 0.1) / 5) * 5
    if needed <= 100:
        advice.append(said("print the stickers at %(mm).0f mm (companion tags GAME --size %(mm).0f)",
                           mm=needed))
    marked = all(i in calibration.layout for i in CALIBRATION_MARKER_IDS)
    area = size_of(calibration.layout) if marked else None
    lens = calibration.lens
    focal = float(lens.intrinsics(calibration.image_size)[0][0, 0]) if lens else None
    centre = (area[0] / 2, area[1] / 2) if area else (0.0, 0.0)
    camera_height, view = camera_estimate(calibration.px_per_mm(centre), calibration.image_size,
                                          focal_px=focal)
    if area and camera_height and view:
        lower = camera_height * module_px / min_module_px
        shrink = lower / camera_height
        margin = 2 * calibration.marker_size
        if view[0] * shrink >= area[0] + margin and view[1] * shrink >= area[1] + margin:
            advice.append(said("lower the camera to about %(lower).0f cm (from about %(now).0f cm)",
                               lower=lower / 10, now=camera_height / 10))
    return advice


def _smallest_module(calibration: Calibration, tag_mm: float) -> float:
    """Pixels per module the calibration gives a code at the far edge of the marked area."""
    points = list(calibration.layout.values())
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    edge = [(x, y) for x in (min(xs), (min(xs) + max(xs)) / 2, max(xs)) for y in (min(ys), max(ys))]
    return min(calibration.px_per_mm(p) for p in edge) * tag_mm / VERSION_1_MODULES


def self_test(image: np.ndarray, calibration: Calibration, min_module_px: float = 3.0,
              tag_mm: float | None = None) -> dict[str, Any]:
    """What ``companion calibrate`` prints and the Setup page shows: the markers, the codes' pixels per
    module, the light, how far tiles may lie off, the area, each as a sentence (``summary``) and every
    problem with what to do (``problems``), over the measurements."""
    from vision import qr

    found = detect_markers(image)
    markers = {
        str(i): {
            "visible": i in found,
            "drift_px": None
            if i not in found
            else round(float(np.max(np.linalg.norm(found[i] - calibration.markers_px[i], axis=1))), 2)
            if i in calibration.markers_px
            else None,
        }
        for i in CALIBRATION_MARKER_IDS
    }
    codes = qr.decode(image)
    modules = sorted(code.module_px for code in codes)
    printed = tag_mm or calibration.tag_mm or 40.0
    predicted = _smallest_module(calibration, printed)
    smallest = min([predicted, *modules[:1]])
    tags_report: dict[str, Any] = {"read": len(codes), "printed_mm": printed,
                                   "smallest_module_px": round(smallest, 2)}
    if modules:
        tags_report.update(
            min_module_px=round(modules[0], 2),
            median_module_px=round(modules[len(modules) // 2], 2),
            below_target=sum(1 for m in modules if m < min_module_px),
        )
    scales = [calibration.px_per_mm(p) for p in calibration.layout.values()]
    lighting = lighting_report(image, calibration, codes)
    verdict = calibration.verdict()
    problems: list[Sentence] = []
    summary: list[Sentence] = []
    missing = [i for i in CALIBRATION_MARKER_IDS if i not in found]
    for marker in missing:
        problems.append(said("marker %(marker)d is not seen: put it back at its corner, in the camera's view",
                             marker=marker))
    summary.append(said("All four markers are seen.") if not missing else
                   said("%(seen)d of the four markers are seen.", seen=4 - len(missing)))
    if smallest < min_module_px:
        advice = reading_advice(calibration, printed, min_module_px, smallest)
        values = {"mm": printed, "px": smallest, "needed": min_module_px}
        if advice:
            needed = said("the smallest codes (%(mm)g mm) get %(px).1f px per module, and %(needed)g are "
                          "needed to read them every time: any one of these mends it", **values)
        else:
            needed = said("the smallest codes (%(mm)g mm) get %(px).1f px per module, and %(needed)g are "
                          "needed to read them every time: print larger stickers", **values)
        problems.append(needed.and_then(*advice))
    summary.append(said("%(codes)d codes read; the smallest (%(mm)g mm) get %(px).1f px per module "
                        "(%(needed)g needed).", codes=len(codes), mm=printed, px=smallest,
                        needed=min_module_px))
    precision = verdict.problem_said()
    if precision is not None:
        problems.append(precision)
    elif verdict.lens_fitted:
        summary.append(said("Tiles lie within %(mm).1f mm of where they are read (the lens is fitted).",
                            mm=verdict.expected_mm))
    else:
        summary.append(said("Tiles lie within %(mm).1f mm of where they are read.", mm=verdict.expected_mm))
    problems += [Sentence(**problem) for problem in lighting["problems_said"]]
    if not lighting["problems"]:
        summary.append(said("The light is even, and white reads as white."))
    area = calibration.area_check()
    misfit = area.problem_said() if area is not None else None
    if misfit is not None:
        problems.insert(0, misfit)
    elif area is not None:
        summary.append(said("The markers mark %(width).0f x %(height).0f mm, the area the layout is drawn "
                            "for.", width=area.measured[0], height=area.measured[1]))
    return {
        "ok": not problems,
        "problems": [str(problem) for problem in problems],
        "summary": [str(line) for line in summary],
        "said": {"problems": [problem.to_dict() for problem in problems],
                 "summary": [line.to_dict() for line in summary]},
        "precision": verdict.to_dict(),
        "table_area": None if area is None else area.to_dict(),
        "markers": markers,
        "reprojection_mm": round(calibration.reprojection_mm, 3),
        "table_mm": _table_size(calibration.layout),
        "px_per_mm": {"min": round(min(scales), 3), "max": round(max(scales), 3)},
        "tags": tags_report,
        "lighting": lighting,
    }


def _table_size(layout: Mapping[int, Point]) -> list[float]:
    xs = [p[0] for p in layout.values()]
    ys = [p[1] for p in layout.values()]
    return [round(max(xs) - min(xs), 1), round(max(ys) - min(ys), 1)]
