"""A standing piece's top read for what it is, by what lies beneath it as well as by its colour.

A piece stands: between its foot and its top the camera sees its wall, in the piece's own shade or its
shadow, darker or greyer than the top the light falls on. A card's colour lies flat: as light and as
colourful at every height. And a piece's top is small: blur mixes it with a white sticker behind it,
which keeps its hue and washes out its chroma, so a top read as nothing may still be plainly the piece's
colour made paler. The reverse too: where calibration saw the seat's spare pieces in the lamp's glare
(their tops washed pale), a piece elsewhere on the table shows the same hue deeper and darker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

Lab = tuple[float, float, float]

#: the heights between a piece's foot and its top show its wall: at most this share of the top's lightness
WALL_DARKER = 0.7
#: the height just beneath a top keeps at least this share of its chroma where a colour lies flat
FLAT_CHROMA = 0.83
#: a top washed toward white keeps its colour's hue this near (degrees) ...
WASHED_HUE_DEGREES = 8.0
#: ... at least this share of its chroma ...
WASHED_CHROMA = 0.5
#: ... and no other colour's hue this near (degrees): a top between two colours is not told
WASHED_APART_DEGREES = 20.0
#: a piece out of the lamp's glare that calibration saw it in: at most this share of the lightness it was
#: learned at
DEEPER_LIGHT = 0.7
#: a sample darker than this (OpenCV's Lab lightness, 0..255) is read by its hue alone, and no washed or
#: deeper colour is told from it
DARK = 50.0


def wall_beneath(labs: Sequence[np.ndarray]) -> np.ndarray:
    """For each place (``labs``: Lab samples per height, foot to top): whether the heights between its
    foot and its top are darker than its top, as a standing piece's wall is."""
    top = labs[-1][:, 0]
    between = np.min(np.stack([lab[:, 0] for lab in labs[1:-1]]), axis=0)
    result: np.ndarray = between <= WALL_DARKER * top
    return result


def lies_flat(labs: Sequence[np.ndarray]) -> np.ndarray:
    """For each place: whether the heights between its foot and its top are as light as its top and the
    height just beneath the top as colourful (a card's face; a piece's wall, turned from the light its top
    faces, is darker or greyer, even where the whole piece stands in shade)."""
    result: np.ndarray = ~wall_beneath(labs) & (_chromas(labs[-2]) >= FLAT_CHROMA * _chromas(labs[-1]))
    return result


def drop_flat_tops(colours: list[tuple[str | None, float]], seen: Sequence[Sequence[Any]],
                   labs: Sequence[np.ndarray], looked_at: np.ndarray) -> None:
    """A colour seen at a place's top only, where the heights beneath lie as light and as colourful, is a
    flat colour there (a card's at a slab's corner), not a piece standing on the place. So is a colour
    seen at one height between foot and top alone where the top shows the line (``looked_at`` false): a
    card's edge running along it."""
    if len(labs) < 3:
        return
    flat = lies_flat(labs)
    for index, (colour, _) in enumerate(colours):
        if colour is None:
            continue
        heights = [height for height, level in enumerate(seen) if level[index][0] == colour]
        lone = len(heights) == 1 and 0 < heights[0] < len(seen) - 1 and not looked_at[index]
        if lone or (flat[index] and heights == [len(seen) - 1]):
            colours[index] = (None, 0.0)


def _hues(lab: np.ndarray) -> np.ndarray:
    """Hue angles (degrees) of (..., 3) Lab samples."""
    result: np.ndarray = np.degrees(np.arctan2(lab[..., 2] - 128.0, lab[..., 1] - 128.0))
    return result


def _chromas(lab: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)
    return result


def _only_hue(samples: np.ndarray, references: np.ndarray) -> np.ndarray:
    """For each sample (N, 3): the index of the one reference colour (K, 3) whose hue lies within
    WASHED_HUE_DEGREES of its own with no other within WASHED_APART_DEGREES, or -1."""
    turns = np.abs((_hues(samples)[:, None] - _hues(references)[None, :] + 180.0) % 360.0 - 180.0)
    nearest = np.argmin(turns, axis=1)
    near_count = (turns < WASHED_APART_DEGREES).sum(axis=1)
    told = (near_count == 1) & (turns[np.arange(len(samples)), nearest] < WASHED_HUE_DEGREES)
    result: np.ndarray = np.where(told, nearest, -1)
    return result


def washed_tops(colours: list[tuple[str | None, float]], labs: Sequence[np.ndarray], looked_at: np.ndarray,
                centroids: Mapping[str, Lab]) -> None:
    """A place read as nothing whose top (not ruled out as the line or the places around, ``looked_at``)
    shows one seat colour washed toward white, over a darker wall, is that colour, with the confidence
    its washed-out chroma leaves."""
    if len(labs) < 3 or not centroids:
        return
    names = list(centroids)
    references = np.array([centroids[name] for name in names], dtype=np.float64)
    top = labs[-1]
    which = _only_hue(top, references)
    own = references[np.maximum(which, 0)]
    share = _chromas(top) / np.maximum(_chromas(own), 1e-6)
    empty = np.array([colour is None for colour, _ in colours])
    washed = (empty & wall_beneath(labs) & looked_at & (which >= 0) & (top[:, 0] > own[:, 0])
              & (share >= WASHED_CHROMA) & (share <= 1.0))
    for index in np.nonzero(washed)[0]:
        colours[int(index)] = (names[int(which[index])], round(0.5 * float(share[index]), 3))


def out_of_the_glare(colours: list[tuple[str | None, float]], labs: Sequence[np.ndarray],
                     looked_at: np.ndarray, centroids: Mapping[str, Lab]) -> None:
    """A place read as nothing that shows, at two heights or more and with its top not ruled out as the
    line or the places around (``looked_at``), one seat colour's hue at least as colourful as learned and
    far darker is that colour out of the glare calibration saw it in (a card of that hue lies in the light
    the table gets, paler)."""
    if len(labs) < 3 or not centroids:
        return
    names = list(centroids)
    references = np.array([centroids[name] for name in names], dtype=np.float64)
    samples = np.stack(labs)  # (heights, places, 3)
    which = np.stack([_only_hue(lab, references) for lab in labs])
    own = references[np.maximum(which, 0)]
    deeper = ((which >= 0) & (samples[..., 0] >= DARK) & (samples[..., 0] <= DEEPER_LIGHT * own[..., 0])
              & (_chromas(samples) >= _chromas(own)))
    shares = np.where(deeper, _chromas(own) / np.maximum(_chromas(samples), 1e-6), np.inf)
    empty = np.array([colour is None for colour, _ in colours])
    for index in np.nonzero(empty & looked_at & (deeper.sum(axis=0) >= 2))[0]:
        found = {int(name) for name in which[deeper[:, index], index]}
        if len(found) == 1:
            colours[int(index)] = (names[found.pop()], round(0.5 * float(shares[:, index].min()), 3))
