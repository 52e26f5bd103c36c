"""Small coloured pieces (chisel pegs, camps, boxes) found by colour where the geometry predicts them.

Colours are classified in CIE Lab (OpenCV's 8-bit Lab) by the nearest learned centroid, with lightness
weighted down (light falls unevenly over a table; hue and chroma are what tell the seats apart) and a
reject threshold: a sample far from every seat colour, or nearer a learned background colour (empty gap,
tile edge, felt), is "no piece". Centroids are learned at calibration from the seats' own pieces
(:meth:`ColourModel.learn`); the nominal seat colours are the fallback.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from vision.observation import PegKind, PegReading
from vision.piece_tops import DARK, drop_flat_tops, lies_flat, out_of_the_glare, washed_tops
from vision.scene import SEAT_RGB
from vision.shadows import read_by_shadows
from vision.viewpoint import Viewpoint

Point = tuple[float, float]
Lab = tuple[float, float, float]

#: the nominal seat colours (RGB).
NOMINAL_RGB: Mapping[str, tuple[int, int, int]] = SEAT_RGB
BACKGROUND = "background"
#: how much more light than at calibration a piece may stand in and keep its colour (near the lamp)
MORE_LIGHT = 3.0
#: how little light a piece in shade may get and keep its colour
LEAST_LIGHT = 0.25
#: how far (degrees) a dark sample's hue may turn from its colour's
HUE_DEGREES = 15.0
#: a plain reading yields to another colour whose red/green/blue shares lie this many times nearer ...
CHROMA_RATIO = 2.0
#: ... and at least this much nearer (shares of linear light)
CHROMA_MARGIN = 0.06


def _to_segments(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """(N, K) distances from each point to each segment from ``starts[k]`` to ``ends[k]`` (a colour lit
    and the same colour in shade; a point where no shade was learned)."""
    span = ends - starts
    offset = points[:, None, :] - starts[None, :, :]
    length = np.maximum((span**2).sum(axis=1), 1e-9)
    along = np.clip((offset * span[None, :, :]).sum(axis=2) / length[None, :], 0.0, 1.0)
    result: np.ndarray = np.sqrt(((offset - along[:, :, None] * span[None, :, :]) ** 2).sum(axis=2))
    return result


def rgb_to_lab(rgb: tuple[int, int, int]) -> Lab:
    pixel = np.array([[[rgb[2], rgb[1], rgb[0]]]], dtype=np.uint8)
    lab = cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab)[0, 0].astype(float)
    return (float(lab[0]), float(lab[1]), float(lab[2]))


def chromaticity(lab: np.ndarray) -> np.ndarray:
    """(N, 3) Lab -> (N, 3) shares of red, green and blue in linear light (each row sums to 1): what a
    surface's colour keeps whatever light falls on it, where Lab's a and b bend with lightness (a bright
    orange chisel's top and a yellow one lie near each other in Lab, far apart here)."""
    pixels = np.clip(np.rint(np.asarray(lab, dtype=np.float64)), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    bgr = cv2.cvtColor(pixels, cv2.COLOR_Lab2BGR).reshape(-1, 3).astype(np.float64) / 255.0
    linear = np.where(bgr <= 0.04045, bgr / 12.92, ((bgr + 0.055) / 1.055) ** 2.4)[:, ::-1]
    total = linear.sum(axis=1, keepdims=True)
    result: np.ndarray = np.where(total > 1e-4, linear / np.maximum(total, 1e-4), 1.0 / 3.0)
    return result


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """(N, 3) BGR (any numeric type) -> (N, 3) float Lab (OpenCV 8-bit scale: L 0..255, a/b offset 128)."""
    pixels = np.clip(np.asarray(bgr, dtype=np.float64), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    result: np.ndarray = cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float64)
    return result


@dataclass(frozen=True)
class ColourModel:
    """Nearest-centroid colour classifier with a reject threshold (distance in weighted Lab units)."""

    centroids: Mapping[str, Lab]
    background: tuple[Lab, ...] = ()
    reject: float = 38.0
    lightness_weight: float = 0.35
    #: each colour in its own shade, as calibration saw it (the walls of pieces turned from the lamp):
    #: a sample anywhere between a colour lit and shaded is that colour
    shades: Mapping[str, Lab] = field(default_factory=dict)

    @classmethod
    def nominal(cls, names: Iterable[str] | None = None, **options: float) -> ColourModel:
        chosen = list(names) if names is not None else list(NOMINAL_RGB)
        return cls({name: rgb_to_lab(NOMINAL_RGB[name]) for name in chosen}, **options)  # type: ignore[arg-type]

    @classmethod
    def seats(
        cls, learned: Mapping[str, Lab], names: Iterable[str] | None = None,
        shades: Mapping[str, Lab] | None = None, **options: Any
    ) -> ColourModel:
        """The seat colours ``names`` (all six by default): learned where calibration saw them (lit, and
        in shade where it saw that), nominal otherwise."""
        chosen = list(names) if names is not None else list(NOMINAL_RGB)
        centroids = {name: learned.get(name) or rgb_to_lab(NOMINAL_RGB[name]) for name in chosen}
        for name, lab in learned.items():
            centroids.setdefault(name, lab)
        shaded = {name: lab for name, lab in (shades or {}).items() if name in centroids and name in learned}
        return cls(centroids, shades=shaded, **options)

    def _distances(self, lab: np.ndarray) -> tuple[list[str], np.ndarray]:
        names = list(self.centroids) + [BACKGROUND] * len(self.background)
        lit = np.array(list(self.centroids.values()) + list(self.background), dtype=np.float64)
        shaded = lit.copy()
        for index, name in enumerate(self.centroids):
            if name in self.shades:
                shaded[index] = self.shades[name]
        weights = np.array([self.lightness_weight, 1.0, 1.0])
        return names, _to_segments(lab * weights, lit * weights, shaded * weights)

    def classify_many(self, lab: np.ndarray) -> list[tuple[str | None, float]]:
        """For each Lab sample: (colour or None, confidence 0..1)."""
        return [(colour, confidence) for colour, confidence, _ in self.classify_seen(lab)]

    def nearest_seat(self, lab: np.ndarray) -> list[tuple[str | None, float]]:
        """For each Lab sample: the seat colour nearest, lit or in its shade, within reach whatever the
        frame's cards look like, and how close (0..1); (None, 0) for none, or a sample too dark to tell."""
        if len(lab) == 0 or not self.centroids:
            return [(None, 0.0)] * len(lab)
        samples = np.asarray(lab, dtype=np.float64).reshape(-1, 3)
        seat = self._distances(samples)[1][:, : len(self.centroids)]
        names, best = list(self.centroids), np.argmin(seat, axis=1)
        return [(names[int(b)], round(1.0 - float(seat[i, b]) / self.reject, 3))
                if seat[i, b] <= self.reject and samples[i, 0] >= DARK else (None, 0.0)
                for i, b in enumerate(best)]

    def classify_seen(self, lab: np.ndarray) -> list[tuple[str | None, float, bool]]:
        """For each Lab sample: (colour or None, confidence 0..1, whether it was read as in shade)."""
        if len(lab) == 0 or not self.centroids:
            return [(None, 0.0, False)] * len(lab)
        _names, dist = self._distances(np.asarray(lab, dtype=np.float64).reshape(-1, 3))
        colours = list(self.centroids)
        seat = dist[:, : len(colours)]
        best = np.argmin(seat, axis=1)
        d_best = seat[np.arange(len(seat)), best]
        nearest_any = np.min(dist, axis=1)
        if len(colours) > 1:
            others = seat.copy()
            others[np.arange(len(seat)), best] = np.inf
            d_next = np.min(others, axis=1)
        else:
            d_next = np.full(len(seat), self.reject * 2)
        results: list[tuple[str | None, float, bool]] = []
        samples = np.asarray(lab, dtype=np.float64).reshape(-1, 3)
        shaded = self._in_shade(samples)
        for index in range(len(seat)):
            # A background colour nearer than every seat colour, or no seat colour near enough: nothing,
            # unless the sample is a seat colour in shade (its hue kept, lightness and chroma lost alike).
            # Near black every colour looks alike: only its hue, brought up to the light, tells.
            dark = samples[index, 0] < DARK
            if dark or d_best[index] > self.reject or nearest_any[index] < d_best[index]:
                results.append(shaded[index])
                continue
            margin = max(0.0, min(1.0, (d_next[index] - d_best[index]) / max(d_next[index], 1e-6)))
            closeness = max(0.0, 1.0 - d_best[index] / self.reject)
            confidence = round(float(0.5 * margin + 0.5 * closeness), 3)
            results.append((colours[int(best[index])], confidence, False))
        self._second_opinion(samples, seat, results)
        return results

    def _second_opinion(self, lab: np.ndarray, seat: np.ndarray,
                        results: list[tuple[str | None, float, bool]]) -> None:
        """A colour read plainly is changed to another seat colour also within reach when the sample's
        share of red, green and blue says so beyond doubt: under a warm lamp Lab puts a bright orange top
        nearer the yellow learned elsewhere on the table, its linear-light shares do not."""
        plain = [index for index, (colour, _, shaded) in enumerate(results) if colour and not shaded]
        if not plain or len(self.centroids) < 2:
            return
        names = list(self.centroids)
        lit = chromaticity(np.array(list(self.centroids.values()), dtype=np.float64))
        shade = lit.copy()
        for position, name in enumerate(names):
            if name in self.shades:
                shade[position] = chromaticity(np.array([self.shades[name]]))[0]
        apart = _to_segments(chromaticity(lab[plain]), lit, shade)
        for row, index in enumerate(plain):
            chosen = names.index(str(results[index][0]))
            reach = np.where(seat[index] <= self.reject, apart[row], np.inf)
            other = int(np.argmin(reach))
            nearer, farther = float(apart[row, other]), float(apart[row, chosen])
            if other != chosen and nearer * CHROMA_RATIO < farther and farther - nearer > CHROMA_MARGIN:
                confidence = round(0.5 * results[index][1] + 0.5 * (1.0 - nearer / farther), 3)
                results[index] = (names[other], confidence, False)

    #: a shaded sample's chroma, brought to a colour's lightness, must lie this near it (Lab units)
    shade_reject: float = 20.0
    #: a sample greyer than this (Lab chroma) is never a piece in shade: nothing to bring up
    shade_min_chroma: float = 14.0

    def _in_shade(self, lab: np.ndarray) -> list[tuple[str | None, float, bool]]:
        """Each sample read as a seat colour in shade, or (None, 0): under less light a piece keeps its hue
        while its lightness and chroma fall together (a yellow chisel's shaded wall reads olive), so the
        sample's chroma scaled up to each colour's lightness is compared with that colour's. Backgrounds
        are brought up the same way and win ties. A piece nearer the lamp than where its colour was
        learned is brought down the same way, a little."""
        if len(lab) == 0 or not self.centroids:
            return [(None, 0.0, False)] * len(lab)
        names = list(self.centroids)
        refs = np.array(list(self.centroids.values()) + list(self.background), dtype=np.float64)
        light = np.maximum(lab[:, :1], 1.0)
        chroma = lab[:, 1:] - 128.0
        scale = refs[None, :, 0] / light  # (N, K): how much brighter each reference is than the sample
        lifted = chroma[:, None, :] * scale[:, :, None]
        dist = np.sqrt(((lifted - (refs[None, :, 1:] - 128.0)) ** 2).sum(axis=2))
        # Shade, or more of the lamp than where the colour was learned (within what a room's light
        # varies); never far brighter (glare washes the colour out rather than lifting it).
        dist[(scale < 1.0 / MORE_LIGHT) | (scale > 1.0 / LEAST_LIGHT)] = np.inf
        seats = dist[:, : len(names)]
        # Near black, chroma no longer follows lightness: the hue alone is compared (the nearest of the
        # colours' and the backgrounds' hues, within HUE_DEGREES).
        hues = np.degrees(np.arctan2(refs[:, 2] - 128.0, refs[:, 1] - 128.0))
        turns = np.abs((np.degrees(np.arctan2(chroma[:, 1], chroma[:, 0]))[:, None] - hues[None, :] + 180.0)
                       % 360.0 - 180.0)
        dark = lab[:, 0] < DARK
        seats[dark] = np.where(turns[dark, : len(names)] < HUE_DEGREES,
                               turns[dark, : len(names)] * (self.shade_reject / HUE_DEGREES), np.inf)
        dist[dark, len(names):] = turns[dark, len(names):] * (self.shade_reject / HUE_DEGREES)
        results: list[tuple[str | None, float, bool]] = []
        for index in range(len(lab)):
            order = np.argsort(seats[index])
            best = float(seats[index, order[0]])
            grey = float(np.hypot(*chroma[index])) < self.shade_min_chroma
            background = float(dist[index, len(names):].min()) if self.background else np.inf
            if grey or best > self.shade_reject or background <= best:
                results.append((None, 0.0, False))
                continue
            following = float(seats[index, order[1]]) if len(names) > 1 else 2 * self.shade_reject
            margin = max(0.0, min(1.0, (following - best) / max(following, 1e-6)))
            closeness = 1.0 - best / self.shade_reject
            results.append((names[int(order[0])], round(0.9 * (0.5 * margin + 0.5 * closeness), 3), True))
        return results

    def classify(self, lab: Lab) -> tuple[str | None, float]:
        return self.classify_many(np.array([lab]))[0]

    def to_dict(self) -> dict[str, object]:
        return {
            "centroids": {k: [round(v, 2) for v in c] for k, c in self.centroids.items()},
            "background": [[round(v, 2) for v in c] for c in self.background],
            "reject": self.reject,
            "lightness_weight": self.lightness_weight,
            "shades": {k: [round(v, 2) for v in c] for k, c in self.shades.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ColourModel:
        centroids = data.get("centroids", {})
        background = data.get("background", [])
        shades = data.get("shades", {})
        assert isinstance(centroids, dict) and isinstance(background, list) and isinstance(shades, dict)
        return cls(
            {str(k): (float(v[0]), float(v[1]), float(v[2])) for k, v in centroids.items()},
            tuple((float(v[0]), float(v[1]), float(v[2])) for v in background),
            float(data.get("reject", 38.0)),  # type: ignore[arg-type]
            float(data.get("lightness_weight", 0.35)),  # type: ignore[arg-type]
            {str(k): (float(v[0]), float(v[1]), float(v[2])) for k, v in shades.items()},
        )


def seeded_kmeans(samples: np.ndarray, k: int, attempts: int) -> tuple[np.ndarray, np.ndarray]:
    """k-means (k-means++ starts) of (N, 3) samples: each sample's cluster and the centres. OpenCV starts
    from its own random generator, seeded here: the same frame reads the same whatever came before."""
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)
    _, labels, centres = cv2.kmeans(  # type: ignore[call-overload]
        samples.astype(np.float32), k, None, criteria, attempts, cv2.KMEANS_PP_CENTERS
    )
    return np.asarray(labels).ravel(), np.asarray(centres, dtype=np.float64)


def dominant_colours(lab: np.ndarray, k: int, share: float) -> np.ndarray:
    """Colours covering more than ``share`` of the samples (k-means clusters): a zone's felt or cards,
    never a handful of small pieces."""
    if len(lab) <= k:
        return np.zeros((0, 3))
    labels, centres = seeded_kmeans(lab, k, 2)
    counts = np.bincount(labels, minlength=k) / len(lab)
    result: np.ndarray = centres[counts > share]
    return result


def sample_discs(image: np.ndarray, points_px: Sequence[Point] | np.ndarray, radius_px: float) -> np.ndarray:
    """Median BGR of a small disc around each point (robust to a highlight, an edge, noise); all points in
    one gather. Disc pixels outside the image repeat the nearest edge pixel."""
    h, w = image.shape[:2]
    r = max(1, math.ceil(radius_px))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    inside = (xx**2 + yy**2) <= radius_px**2 + 0.5
    dy, dx = yy[inside], xx[inside]
    points = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    if len(points) == 0:
        return np.zeros((0, 3))
    cx = np.rint(points[:, 0]).astype(np.int64)
    cy = np.rint(points[:, 1]).astype(np.int64)
    xs = np.clip(cx[:, None] + dx[None, :], 0, w - 1)
    ys = np.clip(cy[:, None] + dy[None, :], 0, h - 1)
    patches = image[ys, xs]  # (N, K, 3)
    result: np.ndarray = np.median(patches.reshape(len(points), len(dx), -1), axis=1).astype(np.float64)
    return result


def find_pegs(
    image: np.ndarray,
    targets_mm: Mapping[str, Point],
    to_pixels: np.ndarray | Callable[[np.ndarray], np.ndarray],
    model: ColourModel,
    radius_px: float,
    kind: PegKind = "chisel",
    zone_of: object = None,
    frame_background: bool = True,
    targets_px: Mapping[str, Point] | None = None,
    standing: Standing | None = None,
    along: Mapping[str, Point] | None = None,
) -> list[PegReading]:
    """Classify the colour at each predicted place (key: a gap or cell key -> table mm). Places showing no
    seat colour are left out. ``to_pixels`` maps table mm to frame pixels: a homography, or the
    calibration's own mapping (which puts a lens's distortion back); ``targets_px`` may
    give some places directly in pixels (found from what was read around them, which a lens's distortion
    does not shift). With ``standing`` (pieces that stand up, and where the camera is) each place is
    looked at along the piece's height, foot to top, as a person sees the whole piece. With ``along`` (for
    places on a line, the line's direction in table mm) a height that looks as the line does a little way
    along it on either side shows the line, not a piece (a tile's card of a seat's colour beside a gap)."""
    keys = list(targets_mm)
    if not keys:
        return []
    mm = np.array([targets_mm[k] for k in keys], dtype=np.float64)
    project = to_pixels if callable(to_pixels) else (lambda points: _apply(to_pixels, points))
    px = np.asarray(project(mm), dtype=np.float64)
    if targets_px:
        for index, key in enumerate(keys):
            if key in targets_px:
                px[index] = targets_px[key]
    heights = [0.0]
    if standing is not None and standing.height_mm > 0:
        heights += [share * standing.height_mm for share in STANDING_SHARES]
    at_table = np.asarray(project(mm), dtype=np.float64)

    def seen_at(offset_mm: np.ndarray) -> list[np.ndarray]:
        """Each height's pixels for the places moved ``offset_mm`` on the table."""
        moved = mm + offset_mm
        points = []
        for up in heights:
            raised = moved if up == 0 or standing is None else standing.viewpoint.apparent(moved, up)
            points.append(px + (np.asarray(project(raised), dtype=np.float64) - at_table))
        return points

    levels = seen_at(np.zeros_like(mm))
    labs = [bgr_to_lab(sample_discs(image, points, radius_px)) for points in levels]
    if len(labs[0]) >= 8 and frame_background:
        # Most predicted places are empty: their common colour at each height is this frame's background
        # there (tile edges, felt through a gap, a tile's face beside it), whatever the light; a piece
        # must be nearer its seat colour than to those.
        commons: list[Lab] = []
        for index, lab in enumerate(labs):
            median = np.median(lab, axis=0)
            commons.append((float(median[0]), float(median[1]), float(median[2])))
            if index:  # above the foot a place shows several things (the gap, a tile's face, the felt)
                commons += [(float(a), float(b), float(c)) for a, b, c in dominant_colours(lab, 4, 0.12)]
        model = replace(model, background=(*model.background, *commons))
    seen = [model.classify_seen(lab) for lab in labs]
    looked_at = np.ones(len(keys), dtype=bool)  # tops not ruled out as the line or the places around
    if len(keys) > LOCAL_PLACES and frame_background:
        for lab, level in zip(labs, seen):
            around = _places_around(lab, px)
            empty = np.array([colour is None for colour, _, _ in model.classify_seen(around)])
            like_around = _alike(lab, around) & empty
            for alike in np.nonzero(like_around)[0]:
                level[int(alike)] = (None, 0.0, False)
        looked_at &= ~like_around  # the last, the tops
    foot_is_line = np.zeros(len(keys), dtype=bool)
    lines = np.array([(along or {}).get(key, (0.0, 0.0)) for key in keys], dtype=np.float64)
    if along:
        line = _drop_the_line(seen, labs, lines, seen_at, image, radius_px)
        looked_at &= ~line[-1]
        foot_is_line = line[0]
    colours = [_whole_piece([level[index] for level in seen]) for index in range(len(keys))]
    if len(levels) > 1:
        _drop_leaning_tops(colours, seen, levels, radius_px)
        drop_flat_tops(colours, seen, labs, looked_at)
        washed_tops(colours, labs, looked_at, model.centroids)
        out_of_the_glare(colours, labs, looked_at, model.centroids)
    if along and len(levels) > 1:
        read_by_shadows(colours, model.nearest_seat(labs[-1]), _doubtful(colours, seen, labs, foot_is_line),
                        image, px, mm, lambda places: _jacobian(project, mm[places]), lines)
    return [PegReading(center_mm=(float(point[0]), float(point[1])), colour=colour, confidence=confidence,
                       on=key, kind=kind, center_px=(float(pixel[0]), float(pixel[1])),
                       zone=zone_of((float(point[0]), float(point[1]))) if callable(zone_of) else None)
            for key, point, pixel, (colour, confidence) in zip(keys, mm, px, colours) if colour is not None]


def _doubtful(colours: Sequence[tuple[str | None, float]], seen: Sequence[Sequence[Any]],
              labs: Sequence[np.ndarray], foot_is_line: np.ndarray) -> np.ndarray:
    """Which places' colours are read only doubtfully: as flat as a card and looking as their line does at
    their foot, or seen at one height at most (the later looks read a colour from none)."""
    lone = np.array([sum(level[index][0] == colour for level in seen) <= 1
                     for index, (colour, _) in enumerate(colours)], dtype=bool)
    result: np.ndarray = (lies_flat(labs) & foot_is_line) | lone
    return result


#: where along a standing piece it is looked at besides its foot (shares of its height; the last is its
#: top, a little inside the edge)
STANDING_SHARES = (0.35, 0.7, 0.95)
#: how much a plain colour counts at each height, foot to top: the top shows the piece's own colour lit,
#: a wall lower down mixes in its shade and the warm light the tiles beside it throw back
HEIGHT_WEIGHTS = (1.0, 1.0, 1.25, 1.75)


@dataclass(frozen=True)
class Standing:
    """Pieces that stand ``height_mm`` tall, seen from ``viewpoint``."""

    height_mm: float
    viewpoint: Viewpoint


#: how many places around a place show what an empty place looks like there (the lamp's light falls off)
LOCAL_PLACES = 8
#: a sample this near (weighted Lab) to the places around it looks as they do
LOCAL_ALIKE = 14.0


def _places_around(lab: np.ndarray, px: np.ndarray) -> np.ndarray:
    """For each place, the middle of what the places nearest it show (most places are empty: where that
    reads as no piece, it is what an empty place looks like there, under the light it gets)."""
    apart = np.hypot(px[:, None, 0] - px[None, :, 0], px[:, None, 1] - px[None, :, 1])
    np.fill_diagonal(apart, np.inf)
    nearest = np.argsort(apart, axis=1)[:, :LOCAL_PLACES]
    result: np.ndarray = np.median(lab[nearest], axis=1)
    return result


def _alike(lab: np.ndarray, around: np.ndarray) -> np.ndarray:
    """Which samples look as the places around them do (a place that does holds nothing)."""
    weights = np.array([0.35, 1.0, 1.0])
    result: np.ndarray = np.sqrt((((lab - around) * weights) ** 2).sum(axis=1)) < LOCAL_ALIKE
    return result


#: how far along its line (mm) a place is compared with the line: beyond a piece's foot and top, within a
#: tile's edge
ALONG_MM = 12.5


def _drop_the_line(seen: list[list[tuple[str | None, float, bool]]], labs: Sequence[np.ndarray],
                   direction: np.ndarray, seen_at: Callable[[np.ndarray], list[np.ndarray]],
                   image: np.ndarray, radius_px: float) -> np.ndarray:
    """Heights of places on a line (``direction``: each place's line in table mm, zero for none) that look
    as the line does a little way along it (either side), or as its colour washed out, hold no piece: a
    piece is a spot on the line, a card's colour runs along the whole edge. Returns, for each height, which
    places were found to be the line there."""
    on_line = np.hypot(direction[:, 0], direction[:, 1]) > 0
    is_line = np.zeros((len(labs), len(direction)), dtype=bool)
    if not on_line.any():
        return is_line
    sides = [[bgr_to_lab(sample_discs(image, points, radius_px)) for points in seen_at(sign * ALONG_MM
                                                                                         * direction)]
             for sign in (1.0, -1.0)]
    for height, (lab, level) in enumerate(zip(labs, seen)):
        alike = (_alike(lab, sides[0][height]) | _alike(lab, sides[1][height])
                 | _paler(lab, sides[0][height]) | _paler(lab, sides[1][height]))
        for index in np.nonzero(alike & on_line)[0]:
            level[int(index)] = (None, 0.0, False)
        is_line[height] = alike & on_line
    return is_line


#: a sample whose colour is its surroundings' hue this near (cosine) and at most this share of their
#: strength is their colour washed out (a card's beside a white sticker), not a piece's
PALER_HUE = 0.9
PALER_SHARE = 0.8


def _paler(lab: np.ndarray, around: np.ndarray) -> np.ndarray:
    """Which samples show the colour around them, only paler (mixed with a white sticker or the light)."""
    mine, theirs = lab[:, 1:] - 128.0, around[:, 1:] - 128.0
    strength, their_strength = np.hypot(*mine.T), np.hypot(*theirs.T)
    cosine = (mine * theirs).sum(axis=1) / np.maximum(strength * their_strength, 1e-6)
    result: np.ndarray = (cosine > PALER_HUE) & (strength < PALER_SHARE * their_strength)
    return result


def _drop_leaning_tops(colours: list[tuple[str | None, float]], seen: Sequence[Sequence[Any]],
                       levels: Sequence[np.ndarray], radius_px: float) -> None:
    """A place whose colour shows at its foot only, where a piece of that colour found beside it leans
    its top over (as the camera sees it), is that piece's top, not a piece of its own."""
    upper = np.vstack(levels[1:])  # every place's higher samples
    owners = np.tile(np.arange(len(colours)), len(levels) - 1)
    for index, (colour, _) in enumerate(colours):
        if colour is None or any(level[index][0] == colour for level in seen[1:]):
            continue
        near = np.hypot(*(upper - levels[0][index]).T) < 2.5 * radius_px
        if any(colours[owner][0] == colour for owner in owners[near] if owner != index):
            colours[index] = (None, 0.0)


def _whole_piece(samples: Sequence[tuple[str | None, float, bool]]) -> tuple[str | None, float]:
    """One place's colour from its samples foot to top: a colour seen plainly anywhere on the piece wins
    (the most confident); a colour seen only as in shade counts where the piece is flat, or where it shows
    at two heights (a shadow on the table is not a piece, and has no top)."""
    plain: dict[str, list[float]] = {}
    weighed: dict[str, float] = {}
    shaded: dict[str, list[float]] = {}
    for height, (colour, confidence, in_shade) in enumerate(samples):
        if colour is not None:
            (shaded if in_shade else plain).setdefault(colour, []).append(confidence)
            if not in_shade:
                weighed[colour] = weighed.get(colour, 0.0) + confidence * HEIGHT_WEIGHTS[min(height, 3)]
    if plain:
        best = max(plain, key=lambda c: weighed[c])
        return best, round(max(plain[best]), 3)
    if shaded:
        best = max(shaded, key=lambda c: (len(shaded[c]), sum(shaded[c])))
        if len(samples) == 1 or len(shaded[best]) >= 2:
            return best, round(max(shaded[best]), 3)
    return None, 0.0


def _jacobian(project: Callable[[np.ndarray], np.ndarray], points: np.ndarray) -> np.ndarray:
    """(N, 2, 2): pixels per table mm at each point (a lens's bend is even over a few centimetres)."""
    at = np.asarray(project(points), dtype=np.float64)
    columns = [np.asarray(project(points + step), dtype=np.float64) - at for step in ((1.0, 0.0), (0.0, 1.0))]
    return np.stack(columns, axis=2)


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    mapped = np.hstack([points, np.ones((len(points), 1))]) @ np.asarray(matrix, dtype=np.float64).T
    result: np.ndarray = mapped[:, :2] / mapped[:, 2:3]
    return result
