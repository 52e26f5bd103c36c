"""The seats' colours as this camera sees them under this room's light, learned at calibration.

A piece under a lamp is not one colour: its top and the wall facing the lamp are lit (and take the lamp's
warmth), the wall turned away is in its own shade (the ceiling's light only: darker, and a yellow reads
olive). So each seat colour is learned twice from the seats' own pieces: lit (the brightest quarter of
the piece's pixels) and in shade (the darkest quarter), and :class:`~vision.pegs.ColourModel` reads
anything between the two as that colour. A flat piece in even light gives one colour.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.pegs import (
    NOMINAL_RGB,
    ColourModel,
    Lab,
    Point,
    bgr_to_lab,
    chromaticity,
    dominant_colours,
    rgb_to_lab,
    sample_discs,
    seeded_kmeans,
)
from vision.piece_tops import DARK

#: Lab weights: lightness counts for less than hue and chroma (light falls unevenly over a table)
WEIGHTS = np.array([0.35, 1.0, 1.0])
#: a piece's darkest quarter is its own shade only when this much darker than its brightest
SHADE_RATIO = 0.8
#: a piece's wall turned from the lamp still gets the room's light: no darker than this share of its top
#: (Lab lightness; a cast shadow or a rim is darker)
LEAST_SHADE = 0.45
#: how far (weighted Lab) a piece under the room's light may lie from its nominal colour
NEAR = 45.0
#: a seat's piece is at least this share as colourful as its nominal colour (a blue chisel in a dim
#: corner of the table keeps two fifths of it)
PIECE_CHROMA = 0.4
#: how far a piece's pixels' shares of red, green and blue (linear light) lie from its middle's
SAME_SHARES = 0.2


@dataclass(frozen=True)
class LearnedColours(Mapping[str, Lab]):
    """Seat colour -> Lab as learned lit; ``shades``: the same colours in their own shade, where seen."""

    colours: Mapping[str, Lab]
    shades: Mapping[str, Lab] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Lab:
        return self.colours[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.colours)

    def __len__(self) -> int:
        return len(self.colours)


def _lab(values: np.ndarray) -> Lab:
    return (float(values[0]), float(values[1]), float(values[2]))


def light_and_shade(pixels: np.ndarray) -> tuple[Lab, Lab | None]:
    """A piece's colour lit (its brightest quarter) and in its own shade (the darkest quarter of what is
    still as saturated and gets at least the room's light; None when not clearly darker: a flat piece in
    even light). A cast shadow, a dark rim or a shaded card beside the piece is far darker or greyer."""
    order = np.argsort(pixels[:, 0])
    quarter = max(1, len(order) // 4)
    lit = np.median(pixels[order[-quarter:]], axis=0)
    saturation = np.hypot(pixels[:, 1] - 128.0, pixels[:, 2] - 128.0) / np.maximum(pixels[:, 0], 1.0)
    lit_saturation = math.hypot(lit[1] - 128.0, lit[2] - 128.0) / max(float(lit[0]), 1.0)
    walls = pixels[(pixels[:, 0] >= LEAST_SHADE * lit[0]) & (saturation >= 0.6 * lit_saturation)]
    if len(walls) >= 4:
        order = np.argsort(walls[:, 0])
        dark = np.median(walls[order[: max(1, len(order) // 4)]], axis=0)
        if DARK <= dark[0] < SHADE_RATIO * lit[0]:  # nearly black, no colour is told from another
            return _lab(lit), _lab(dark)
    return _lab(np.median(pixels, axis=0)), None


def same_hue(pixels: np.ndarray, seed: np.ndarray, degrees: float = 28.0,
             saturation: float = 0.6) -> np.ndarray:
    """The pixels of ``seed``'s hue (within ``degrees``) and at least ``saturation`` times as saturated
    (chroma for its lightness), whose shares of red, green and blue (linear light) lie near the seed's: a
    piece lit or shaded keeps all three; a pale card of the same hue beside it (a beige tile by an orange
    chisel, brightened by the lamp until Lab finds it as saturated), the table and a shadow do not."""
    a, b = pixels[:, 1] - 128.0, pixels[:, 2] - 128.0
    seed_a, seed_b = float(seed[1]) - 128.0, float(seed[2]) - 128.0
    turn = np.abs((np.degrees(np.arctan2(b, a) - math.atan2(seed_b, seed_a)) + 180.0) % 360.0 - 180.0)
    seed_saturation = math.hypot(seed_a, seed_b) / max(float(seed[0]), 1.0)
    keep = (turn < degrees) & (np.hypot(a, b) / np.maximum(pixels[:, 0], 1.0) > saturation * seed_saturation)
    shares = chromaticity(pixels[keep])
    keep[keep] = np.linalg.norm(shares - chromaticity(np.asarray(seed).reshape(1, 3)), axis=1) < SAME_SHARES
    result: np.ndarray = pixels[keep]
    return result


def learn_from_pieces(image: np.ndarray, samples_px: Mapping[str, Sequence[Point]], radius_px: float,
                      background_px: Sequence[Point] = (), standing: bool = False,
                      **options: float) -> ColourModel:
    """A colour model from pieces of known colour at known pixel positions (the seats' own pieces laid
    out at calibration): each piece's middle gives its colour. Pieces ``standing`` up (their tops among
    the points) are also learned lit and in shade from the pixels of their hue around them (up to three
    times as far, where their tops and walls show); a flat piece's dark rim is no shade of its colour.
    Optional background samples (empty gap positions) are clustered into background colours."""
    colours: dict[str, Lab] = {}
    shades: dict[str, Lab] = {}
    for name, points in samples_px.items():
        if not points:
            continue
        seed = bgr_to_lab(sample_discs(image, points, radius_px)).mean(axis=0)
        if not standing:
            colours[name] = _lab(seed)
            continue
        around = bgr_to_lab(_disc_pixels(image, points, 3.0 * radius_px))
        if name in NOMINAL_RGB:  # the piece's own colour where it shows best, not the card beside it
            nominal = np.array(rgb_to_lab(NOMINAL_RGB[name]))
            near = np.sqrt((((around - nominal) * WEIGHTS) ** 2).sum(axis=1)) < NEAR
            if near.sum() >= 8:
                seed = _most_saturated(around[near])
        pieces = same_hue(around, seed)
        if len(pieces) < 8:
            colours[name] = _lab(seed)
            continue
        lit, shade = light_and_shade(pieces)
        colours[name] = lit if shade is not None else _lab(seed)
        if shade is not None:
            shades[name] = shade
    background: tuple[Lab, ...] = ()
    if background_px:
        lab = bgr_to_lab(sample_discs(image, background_px, radius_px))
        background = tuple(_lab(row) for row in _cluster(lab, 6))
    return ColourModel(colours, background, shades=shades, **options)


def _most_saturated(pixels: np.ndarray) -> np.ndarray:
    """The middle of the more saturated half of ``pixels`` (by their smallest share of linear light): a
    piece is purer than the card under it, even where the lamp makes the card look as colourful in Lab."""
    purity = 1.0 - 3.0 * chromaticity(pixels).min(axis=1)
    result: np.ndarray = np.median(pixels[purity >= np.median(purity)], axis=0)
    return result


def _disc_pixels(image: np.ndarray, points_px: Sequence[Point], radius_px: float) -> np.ndarray:
    """Every BGR pixel within ``radius_px`` of each point (N x 3)."""
    height, width = image.shape[:2]
    reach = max(1, math.ceil(radius_px))
    yy, xx = np.mgrid[-reach : reach + 1, -reach : reach + 1]
    inside = xx**2 + yy**2 <= radius_px**2
    chunks = []
    for x, y in points_px:
        xs = np.clip(round(float(x)) + xx[inside], 0, width - 1)
        ys = np.clip(round(float(y)) + yy[inside], 0, height - 1)
        chunks.append(image[ys, xs].reshape(-1, 3))
    return np.vstack(chunks) if chunks else np.zeros((0, 3))


def _cluster(lab: np.ndarray, k: int) -> np.ndarray:
    """A few representative background colours (k-means; the samples themselves when few)."""
    if len(lab) <= k:
        return lab
    _, centres = seeded_kmeans(lab, k, 3)
    return centres


def learn_seat_colours(
    image: np.ndarray,
    to_table: np.ndarray,
    zones: Iterable[tuple[str, Sequence[Point]]],
    near: float = NEAR,
    min_pixels: int = 12,
    separation: float = 18.0,
) -> LearnedColours:
    """Each seat's colour as this camera sees it, lit and in shade, from the seat's own pieces lying in
    its zone.

    For every zone named ``seat:<colour>``, the pixels of that zone within ``near`` (weighted Lab) of the
    nominal colour, at least ``separation`` from the colours covering a fifth of the zone (felt, cards) and
    at least two fifths as colourful, are the seat's pieces (chisels, camps); with the pixels of their hue
    beside them they give the colour lit and in shade. A seat whose pieces are not in sight keeps no entry
    (the nominal colour is then used). ``to_table`` maps frame pixels to table mm (the calibration's
    homography)."""
    inverse = np.linalg.inv(np.asarray(to_table, dtype=np.float64))
    lab_image: np.ndarray | None = None
    colours: dict[str, Lab] = {}
    shades: dict[str, Lab] = {}
    for name, polygon in zones:
        colour = name.split(":", 1)[1] if name.startswith("seat:") else ""
        if colour not in NOMINAL_RGB:
            continue
        corners = np.asarray(polygon, dtype=np.float64)
        corners = np.hstack([corners, np.ones((len(corners), 1))]) @ inverse.T
        outline = np.round(corners[:, :2] / corners[:, 2:3]).astype(np.int32)
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [outline], (1,))
        x, y, w, h = cv2.boundingRect(outline)
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
        if x1 <= x0 or y1 <= y0:
            continue
        if lab_image is None:
            lab_image = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
        pixels = lab_image[y0:y1, x0:x1][mask[y0:y1, x0:x1] > 0].astype(np.float64)
        nominal = np.array(rgb_to_lab(NOMINAL_RGB[colour]))
        distance = np.sqrt((((pixels - nominal) * WEIGHTS) ** 2).sum(axis=1))
        # What fills the zone (felt, tiles, cards) is not a piece, even when its hue is near the seat's:
        # keep pixels far from the zone's own common colours and about as colourful as the nominal.
        commons = dominant_colours(pixels[:: max(1, len(pixels) // 4000)], 4, 0.2)
        apart = (
            np.min(np.sqrt((((pixels[:, None, :] - commons[None, :, :]) * WEIGHTS) ** 2).sum(axis=2)), axis=1)
            if len(commons)
            else np.full(len(pixels), np.inf)
        )
        chroma = np.hypot(pixels[:, 1] - 128.0, pixels[:, 2] - 128.0)
        nominal_chroma = math.hypot(nominal[1] - 128.0, nominal[2] - 128.0)
        chosen = pixels[(distance < near) & (apart > separation) & (chroma > PIECE_CHROMA * nominal_chroma)]
        if len(chosen) < min_pixels:
            continue
        median = np.median(chosen, axis=0)
        lit, shade = light_and_shade(same_hue(pixels[apart > separation], median))
        colours[colour] = lit if shade is not None else _lab(median)
        if shade is not None:
            shades[colour] = shade
    return LearnedColours(colours, shades)
