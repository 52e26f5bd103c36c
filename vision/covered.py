"""Codes partly covered by a standing piece: read again where the lattice says a tile lies.

A chisel standing in a gap leans, as the camera sees it, over a corner of the next tile's sticker, and
casts its shadow across others; a code with a finder pattern under it, or a dark piece touching its quiet
zone, is lost to a decoder, though a person reads the tile plainly. Where the lattice says a tile lies and
its code was not read, the code is cut out of the frame along each way the tile may turn (its printed size
and the lattice give its place), its light evened out (a shadow across it), what the pieces found cover
is whitened (a module lost there is one the code's error correction repairs), a finder pattern they
cover is drawn back where the visible ones say it lies, and the cut-out is decoded. What comes back is a
code of the printed set like any other: a wrong turn or a place without a tile decodes to nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision import qr_modules
from vision.qr import QRBackend, QRCode, code_from_corners

Point = tuple[float, float]
#: pixels per module of the cut-out
SCALE = 8
#: white modules around the code in the cut-out
QUIET = 4
FINDER = 7


@dataclass(frozen=True)
class Cover:
    """What a piece standing in front of a code hides: its outline in frame pixels."""

    outline: np.ndarray


@dataclass(frozen=True)
class Expected:
    """A code expected at ``corners_mm`` (TL, TR, BR, BL in table mm, one per way the tile may turn), of
    ``modules`` modules a side."""

    turns: Sequence[Sequence[Point]]
    modules: int


def square(center: Point, side: float, angle: float) -> list[Point]:
    """A code's corners (TL, TR, BR, BL, table mm) at ``center`` turned ``angle`` degrees counter-clockwise
    as seen from above (y runs south)."""
    radians = math.radians(angle)
    c, s = math.cos(radians), math.sin(radians)
    half = side / 2.0
    return [(center[0] + u * c + v * s, center[1] - u * s + v * c)
            for u, v in ((-half, -half), (half, -half), (half, half), (-half, half))]


def read_covered(gray: np.ndarray, expected: Sequence[Expected], covers: Sequence[Cover],
                 to_pixels: Callable[[np.ndarray], np.ndarray], backend: QRBackend,
                 accept: Callable[[str], bool], unseen: Sequence[str] = ()) -> list[QRCode]:
    """The codes ``accept`` takes among those expected, each read on the turn that decodes; where none
    decodes, told among the ``unseen`` stickers by the modules that show."""
    found: list[QRCode] = []
    left = list(unseen)
    for place in expected:
        for corners_mm in place.turns:
            pixels = np.asarray(to_pixels(np.asarray(corners_mm, dtype=np.float64)), dtype=np.float64)
            code = _read_one(gray, pixels, place.modules, covers, backend, left)
            if code is not None and accept(code.text):
                found.append(code)
                left = [text for text in left if text != code.text]
                break
    return found


def _read_one(gray: np.ndarray, corners_px: np.ndarray, modules: int, covers: Sequence[Cover],
              backend: QRBackend, unseen: Sequence[str] = ()) -> QRCode | None:
    side = (modules + 2 * QUIET) * SCALE
    inner = _code_corners(modules)
    transform = cv2.getPerspectiveTransform(corners_px.astype(np.float32), inner)
    cut = cv2.warpPerspective(gray, transform, (side, side), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    raw = cut.copy()
    # A piece's shadow darkens part of the code: each pixel over the light around it (a few modules).
    white = cv2.dilate(cut, np.ones((3 * SCALE, 3 * SCALE), np.uint8))
    even: np.ndarray = np.clip(cut.astype(np.float32) * 230.0 / np.maximum(white, 16), 0, 255)
    cut = even.astype(np.uint8)
    hidden: np.ndarray = np.zeros((side, side), np.uint8)
    for cover in covers:
        outline = cv2.perspectiveTransform(cover.outline.reshape(-1, 1, 2).astype(np.float32), transform)
        cv2.fillPoly(hidden, [np.round(outline).astype(np.int32)], (1,))
    if hidden.any():
        # The cover's edge blurs into the code: a module's worth around it is whitened too.
        hidden = cv2.dilate(hidden, np.ones((SCALE, SCALE), np.uint8))
        cut[hidden > 0] = 230
        _restore_finders(cut, hidden, modules, 230.0)
    codes = backend.decode(cut)
    to_cut = np.eye(3)
    if len(codes) != 1:
        codes, to_cut = _read_resampled(cut, modules, backend)
    if len(codes) != 1:
        return _told(raw, hidden, modules, unseen, transform) if unseen else None
    # The code's own corners, back in the frame: they say which way it turns (a decoder reads a code
    # whichever way the cut-out was taken).
    corners = cv2.perspectiveTransform(np.asarray(codes[0].corners, np.float32).reshape(-1, 1, 2), to_cut)
    back = cv2.perspectiveTransform(corners, np.linalg.inv(transform)).reshape(-1, 2)
    return code_from_corners(codes[0].text, [(float(x), float(y)) for x, y in back])


#: the windows (modules a side) over which a module is called dark against the modules around it
RESAMPLE_WINDOWS = (3, 5)


def _code_corners(modules: int) -> np.ndarray:
    """The code's corners in the cut-out (TL, TR, BR, BL), inside its quiet zone."""
    return np.array([[QUIET, QUIET], [QUIET + modules, QUIET], [QUIET + modules, QUIET + modules],
                     [QUIET, QUIET + modules]], dtype=np.float32) * SCALE


def _module_grid(cut: np.ndarray, modules: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """The modules' middles in the cut-out ((modules, modules, 2)), placed by the finder patterns that
    show (one hidden: the other two turn and move it), the affine mapping from the ideal cut-out, and
    whether at least two finder patterns showed."""
    template = _finder_template(230.0, float(np.percentile(cut, 5)))
    origins = [(QUIET, QUIET), (QUIET + modules - FINDER, QUIET), (QUIET, QUIET + modules - FINDER)]
    ideal = np.array([((x + FINDER / 2) * SCALE, (y + FINDER / 2) * SCALE) for x, y in origins], np.float32)
    shifts = [_finder_shift(cut, template, x * SCALE, y * SCALE) for x, y in origins]
    seen = [shift for shift in shifts if shift is not None]
    shown = [index for index, shift in enumerate(shifts) if shift is not None]
    if len(seen) == len(shifts):
        affine = cv2.getAffineTransform(ideal, ideal + np.array(seen, np.float32))
    elif len(seen) == 2:  # two finder patterns: the code turned and scaled as they are, not sheared
        affine, _ = cv2.estimateAffinePartial2D(ideal[shown], ideal[shown] + np.array(seen, np.float32))
    else:
        dx, dy = np.mean(seen, axis=0) if seen else (0.0, 0.0)
        affine = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    middles = (np.arange(modules, dtype=np.float32) + QUIET + 0.5) * SCALE
    grid_x, grid_y = np.meshgrid(middles, middles)
    middles_px = np.stack([grid_x, grid_y], axis=-1).reshape(-1, 1, 2)
    at = cv2.transform(middles_px, affine).reshape(modules, modules, 2)
    return at, np.vstack([affine, [0.0, 0.0, 1.0]]), len(seen) >= 2


def _told(raw: np.ndarray, hidden: np.ndarray, modules: int, unseen: Sequence[str],
          transform: np.ndarray) -> QRCode | None:
    """The sticker among ``unseen`` the modules that show say this is (the cut-out ``raw``, taken from the
    frame by ``transform``; ``hidden`` where the pieces found cover it), placed where its three finder
    patterns put it (two when the shadow hides one), or where the lattice does when two are hidden."""
    at, to_cut, placed = _module_grid(raw, modules)
    smooth = cv2.blur(raw.astype(np.float32), (3, 3))
    values = cv2.remap(smooth, at[..., 0], at[..., 1], cv2.INTER_LINEAR)
    covered = cv2.remap(hidden.astype(np.float32), at[..., 0], at[..., 1], cv2.INTER_NEAREST) > 0
    dark, shown, sureness = called_modules(values, covered)
    told = {text for text in qr_modules.read(dark, shown, sureness) if text in unseen}
    if len(told) != 1:  # none, or two stickers the modules could both be: neither is taken
        return None
    to_frame = np.linalg.inv(transform) @ (to_cut if placed else np.eye(3))
    corners = cv2.perspectiveTransform(_code_corners(modules).reshape(-1, 1, 2), to_frame).reshape(-1, 2)
    return code_from_corners(told.pop(), [(float(x), float(y)) for x, y in corners])


def called_modules(values: np.ndarray, hidden: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each module called dark or light against its neighbourhood (the darkest and lightest of its 5 x 5
    modules), then again knowing how the blur mixes its neighbours in; which show (not ``hidden``, not in a
    dark patch of 3 x 3 modules as under a shadow, not in a neighbourhood without contrast); how surely
    each was called."""
    kernel = np.ones((5, 5), np.uint8)
    light = cv2.dilate(values, kernel, borderType=cv2.BORDER_REPLICATE)
    darkest = cv2.erode(values, kernel, borderType=cv2.BORDER_REPLICATE)
    contrast = np.maximum(light - darkest, 1e-6)
    spread = float(np.percentile(values, 95) - np.percentile(values, 5))
    flat = contrast < 0.35 * max(spread, 1e-6)
    # A flat neighbourhood (deep in a shadow, or a run of light modules) is called against the whole code.
    middle = np.where(flat, float(np.percentile(values, 5) + np.percentile(values, 95)) / 2.0,
                      (light + darkest) / 2.0)
    dark = values < middle
    patch = cv2.erode(dark.astype(np.uint8), np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                      borderValue=(0,))
    under = cv2.dilate(patch, np.ones((3, 3), np.uint8)) > 0
    shown = ~hidden & ~under & ~flat
    sureness = np.zeros_like(values)
    for _ in range(EQUALISE_ROUNDS):  # the sureness is the last round's
        dark, sureness = _equalised(values, dark, shown)
    return dark, shown, sureness


#: rounds of calling each module again knowing its neighbours' calls
EQUALISE_ROUNDS = 3


def _equalised(values: np.ndarray, dark: np.ndarray, shown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each module called again knowing how the blur mixes its neighbours into it: a module's value is fit
    (least squares over the modules that show) as a light level varying across the code, less a share of
    its own darkness, of its four side neighbours' and of its four corner neighbours'; each module is then
    called dark or light by which of the two its value lies nearer, its neighbours' calls kept. The quiet
    zone around the code is light. Returns the calls and how surely (distance over the two's gap)."""
    size = dark.shape[0]
    grid = np.pad(dark.astype(np.float64), 1)
    sides = grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2] + grid[1:-1, 2:]
    corners = grid[:-2, :-2] + grid[:-2, 2:] + grid[2:, :-2] + grid[2:, 2:]
    rows, columns = np.mgrid[0:size, 0:size].astype(np.float64) / size
    terms = np.stack([np.ones_like(rows), rows, columns, dark.astype(np.float64), sides, corners], axis=-1)
    if int(shown.sum()) < 4 * terms.shape[-1]:
        return dark, np.zeros_like(values)
    fit, *_ = np.linalg.lstsq(terms[shown], values[shown].astype(np.float64), rcond=None)
    others = terms[..., :3] @ fit[:3] + sides * fit[4] + corners * fit[5]
    own = fit[3]
    if own >= 0:  # darkness that does not darken: no fit to go by
        return dark, np.zeros_like(values)
    called = values < others + own / 2.0
    sureness: np.ndarray = np.abs(values - (others + own / 2.0)) / max(1e-6, -own)
    return called, sureness


def _read_resampled(cut: np.ndarray, modules: int, backend: QRBackend) -> tuple[list[QRCode], np.ndarray]:
    """A code too blurred for the decoder's own binarizer (3 px a module, a lens's blur, JPEG), read again
    module by module: its grid placed by its three finder patterns, each module's middle called dark or
    light against the modules around it, and the code drawn again crisp. Returns what the decoder read
    and the mapping from the redrawn picture to the cut-out."""
    at, to_cut, _ = _module_grid(cut, modules)
    smooth = cv2.blur(cut.astype(np.float32), (3, 3))
    values = cv2.remap(smooth, at[..., 0], at[..., 1], cv2.INTER_LINEAR)
    for window in RESAMPLE_WINDOWS:
        dark = values < cv2.blur(values, (window, window), borderType=cv2.BORDER_REFLECT)
        crisp = np.full((modules + 2 * QUIET, modules + 2 * QUIET), 255, np.uint8)
        crisp[QUIET:QUIET + modules, QUIET:QUIET + modules][dark] = 0
        drawn = cv2.resize(crisp, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_NEAREST)
        codes = backend.decode(drawn)
        if len(codes) == 1:
            return codes, to_cut
    return [], to_cut


def _restore_finders(cut: np.ndarray, hidden: np.ndarray, modules: int, light: float) -> None:
    """Draw back each finder pattern the cover reaches, shifted as the visible ones are from where the
    lattice put them."""
    origins = [(QUIET, QUIET), (QUIET + modules - FINDER, QUIET), (QUIET, QUIET + modules - FINDER)]
    template = _finder_template(light, float(np.percentile(cut, 5)))
    shifts, covered = [], []
    for column, row in origins:
        x, y = column * SCALE, row * SCALE
        box = hidden[y - SCALE : y + (FINDER + 1) * SCALE, x - SCALE : x + (FINDER + 1) * SCALE]
        if box.any():
            covered.append((x, y))
            continue
        shifts.append(_finder_shift(cut, template, x, y) or (0.0, 0.0))
    if not covered:
        return
    dx, dy = (np.mean([s[0] for s in shifts]), np.mean([s[1] for s in shifts])) if shifts else (0.0, 0.0)
    for x, y in covered:
        left, top = round(x + dx) - SCALE, round(y + dy) - SCALE
        patch = np.full(((FINDER + 2) * SCALE, (FINDER + 2) * SCALE), int(light), np.uint8)
        patch[SCALE:-SCALE, SCALE:-SCALE] = template
        y0, x0 = max(0, top), max(0, left)
        y1, x1 = min(cut.shape[0], top + patch.shape[0]), min(cut.shape[1], left + patch.shape[1])
        cut[y0:y1, x0:x1] = patch[y0 - top : y1 - top, x0 - left : x1 - left]


def _finder_template(light: float, dark: float) -> np.ndarray:
    """A finder pattern (7 x 7 modules: dark ring, light ring, dark 3 x 3 middle) at the cut-out's scale."""
    pattern = np.full((FINDER, FINDER), dark)
    pattern[1:6, 1:6] = light
    pattern[2:5, 2:5] = dark
    result: np.ndarray = cv2.resize(pattern.astype(np.uint8), (FINDER * SCALE, FINDER * SCALE),
                                    interpolation=cv2.INTER_NEAREST)
    return result


def _finder_shift(cut: np.ndarray, template: np.ndarray, x: int, y: int) -> tuple[float, float] | None:
    """Where a visible finder pattern lies relative to (x, y), within a module and a half; None where
    none shows."""
    reach = SCALE * 3 // 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    window = cut[y0 : y + FINDER * SCALE + reach, x0 : x + FINDER * SCALE + reach]
    if window.shape[0] < template.shape[0] or window.shape[1] < template.shape[1]:
        return None
    scores = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    if best < 0.35:
        return None
    return (float(bx + x0 - x), float(by + y0 - y))
