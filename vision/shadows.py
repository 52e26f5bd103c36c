"""A standing piece told by the shadow it casts, where its colour alone does not tell it from a card.

Under a lamp every standing piece throws a long dark shadow, all of them the same way wherever they stand
near one another; a card lying flat throws none worth the name. A place whose top shows a seat colour
only half (nearer a card of the frame than the colour learned, so read as nothing) but which casts such a
shadow, the way the pieces found around it cast theirs, holds a piece of that colour: a green chisel on a
green card's edge. It is read with little confidence, so the companion asks before acting on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

#: the ways a shadow is looked for (degrees on the table) and how far from a place's foot (mm)
SHADOW_DEGREES = np.arange(0.0, 360.0, 15.0)
SHADOW_FROM_MM = np.arange(6.0, 30.0, 2.0)
#: a way's brightness: this percentile of what lies along it (a shadow hides a sticker's white modules)
SHADOW_PERCENTILE = 80
#: a place casts a shadow where the way the pieces around it cast theirs is at most this share of its
#: middle way's brightness (pieces found: 0.08-0.44 here, empty places 0.32 at the darkest)
SHADOW_SHARE = 0.25
#: how many pieces found nearest a place show the way shadows fall there, and how alike their ways must
#: be (the length of their mean direction, 0..1): under a ceiling's light alone shadows point nowhere
SHADOW_NEIGHBOURS = 3
SHADOW_AGREEMENT = 0.8
#: the most confidence a piece told by its shadow is read with (below what is acted on without asking)
SHADOW_CONFIDENCE = 0.45


def way_brightness(image: np.ndarray, px: np.ndarray, jacobian: np.ndarray) -> np.ndarray:
    """(N, ways): how bright each way from each place's foot is (``px`` the feet in pixels, ``jacobian``
    (N, 2, 2) each place's pixels per table mm there)."""
    angles = np.radians(SHADOW_DEGREES)
    steps = np.stack([np.cos(angles), np.sin(angles)], axis=1)[:, None, :] * SHADOW_FROM_MM[None, :, None]
    offsets = np.einsum("nij,awj->nawi", jacobian, steps)  # (N, ways, distances, 2) in pixels
    points = np.rint(px[:, None, None, :] + offsets).astype(np.int64)
    x = np.clip(points[..., 0], 0, image.shape[1] - 1)
    y = np.clip(points[..., 1], 0, image.shape[0] - 1)
    grey = image[y, x].astype(np.float64).mean(axis=-1) if image.ndim == 3 else image[y, x].astype(np.float64)
    result: np.ndarray = np.percentile(grey, SHADOW_PERCENTILE, axis=2)
    return result


def shadow_ways(brightness: np.ndarray) -> np.ndarray:
    """Each place's darkest way (radians)."""
    result: np.ndarray = np.radians(SHADOW_DEGREES)[np.argmin(brightness, axis=1)]
    return result


def casts_shadow(brightness: np.ndarray, way: float) -> bool:
    """Whether a place (its ways' ``brightness``) is dark the ``way`` given (within one step) against
    its middle way."""
    step = len(SHADOW_DEGREES)
    nearest = round(float(np.degrees(way)) / (360.0 / step)) % step
    darkest = min(float(brightness[(nearest + turn) % step]) for turn in (-1, 0, 1))
    return darkest <= SHADOW_SHARE * float(np.median(brightness))


def way_around(ways: np.ndarray, apart_mm: np.ndarray) -> float | None:
    """The way shadows fall around a place: the mean of its nearest found pieces' (``apart_mm`` their
    distances), or None where they do not agree."""
    if len(ways) < SHADOW_NEIGHBOURS:
        return None
    nearest = ways[np.argsort(apart_mm)[:SHADOW_NEIGHBOURS]]
    x, y = float(np.cos(nearest).mean()), float(np.sin(nearest).mean())
    if np.hypot(x, y) < SHADOW_AGREEMENT:
        return None
    return float(np.arctan2(y, x))


def told_by_shadow(colours: list[tuple[str | None, float]], half_seen: Sequence[tuple[str | None, float]],
                   image: np.ndarray, px: np.ndarray, mm: np.ndarray,
                   jacobian_at: Callable[[np.ndarray], np.ndarray]) -> None:
    """Places read as nothing whose top shows a seat colour half (``half_seen``: the nearest seat colour
    within reach, ignoring the frame's cards, and how close) and which cast a shadow the way the pieces
    found around them do: that colour, with little confidence."""
    found = [index for index, (colour, _) in enumerate(colours) if colour is not None]
    asked = [index for index, (colour, _) in enumerate(colours)
             if colour is None and half_seen[index][0] is not None]
    if not asked or len(found) < SHADOW_NEIGHBOURS:
        return
    places = np.array(found + asked)
    brightness = way_brightness(image, px[places], jacobian_at(places))
    ways = shadow_ways(brightness[: len(found)])
    for row, index in enumerate(asked, start=len(found)):
        way = way_around(ways, np.hypot(*(mm[found] - mm[index]).T))
        if way is not None and casts_shadow(brightness[row], way):
            colour, closeness = half_seen[index]
            colours[index] = (colour, round(SHADOW_CONFIDENCE * closeness, 3))
