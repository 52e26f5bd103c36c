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
#: middle way's brightness (on 60 ray-traced frames: pieces found 0.10 at the median, empty gaps 0.28 at
#: the darkest)
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
    # (N, ways, distances, 2) in pixels: each place's mm steps through its own pixels per mm
    offsets = (steps[None, :, :, :1] * jacobian[:, None, None, :, 0]
               + steps[None, :, :, 1:] * jacobian[:, None, None, :, 1])
    points = np.rint(px[:, None, None, :] + offsets).astype(np.int64)
    x = np.clip(points[..., 0], 0, image.shape[1] - 1)
    y = np.clip(points[..., 1], 0, image.shape[0] - 1)
    pixels = image[y, x]
    grey = pixels.sum(axis=-1, dtype=np.int32) if image.ndim == 3 else pixels.astype(np.int32)
    # the percentile of a dozen samples, as numpy's linear one, without its cost on a Pi
    ordered = np.sort(grey, axis=2).astype(np.float64)
    rank = SHADOW_PERCENTILE / 100.0 * (len(SHADOW_FROM_MM) - 1)
    below, share = int(rank), rank - int(rank)
    above = min(below + 1, ordered.shape[2] - 1)
    result: np.ndarray = ordered[..., below] * (1.0 - share) + ordered[..., above] * share
    return result


def shadow_ways(brightness: np.ndarray) -> np.ndarray:
    """Each place's darkest way (radians)."""
    result: np.ndarray = np.radians(SHADOW_DEGREES)[np.argmin(brightness, axis=1)]
    return result


def casts_shadow(brightness: np.ndarray, ways: np.ndarray) -> np.ndarray:
    """Whether each place (rows of its ways' ``brightness``) is dark its way of ``ways`` (within one step)
    against its middle way."""
    step = len(SHADOW_DEGREES)
    nearest = np.rint(np.degrees(ways) / (360.0 / step)).astype(np.int64) % step
    rows = np.arange(len(brightness))
    darkest = np.min([brightness[rows, (nearest + turn) % step] for turn in (-1, 0, 1)], axis=0)
    result: np.ndarray = darkest <= SHADOW_SHARE * np.median(brightness, axis=1)
    return result


def ways_around(ways: np.ndarray, apart_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The way shadows fall around each place: the mean of its nearest found pieces' ``ways``
    (``apart_mm``: (places, pieces) distances), and whether they agree (under a ceiling's light alone
    they point anywhere)."""
    if apart_mm.shape[1] < SHADOW_NEIGHBOURS:
        return np.zeros(len(apart_mm)), np.zeros(len(apart_mm), dtype=bool)
    nearest = ways[np.argsort(apart_mm, axis=1)[:, :SHADOW_NEIGHBOURS]]
    x, y = np.cos(nearest).mean(axis=1), np.sin(nearest).mean(axis=1)
    return np.arctan2(y, x), np.hypot(x, y) >= SHADOW_AGREEMENT


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
    apart = np.hypot(*(mm[asked][:, None, :] - mm[found][None, :, :]).transpose(2, 0, 1))
    around, agree = ways_around(shadow_ways(way_brightness(image, px[found], jacobian_at(np.array(found)))),
                                apart)
    if not agree.any():
        return
    looked = np.array(asked)[agree]
    cast = casts_shadow(way_brightness(image, px[looked], jacobian_at(looked)), around[agree])
    for index in looked[cast]:
        colour, closeness = half_seen[int(index)]
        colours[int(index)] = (colour, round(SHADOW_CONFIDENCE * closeness, 3))
