"""A standing piece's top read for what it is, by what lies beneath it as well as by its colour.

A piece stands: between its foot and its top the camera sees its wall, in the piece's own shade or its
shadow, darker or greyer than the top the light falls on. A card's colour lies flat: as light and as
colourful at every height. And a piece's top is small: blur mixes it with a white sticker behind it,
which keeps its hue and washes out its chroma, so a top read as nothing may still be plainly the piece's
colour made paler. The reverse too: where calibration saw the seat's spare pieces in the lamp's glare
(their tops washed pale), a piece elsewhere on the table shows the same hue deeper and darker.
"""

from __future__ import annotations

import math
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
#: learned at (and not near black, where hues are no longer told)
DEEPER_LIGHT = 0.7
#: below this lightness (OpenCV's Lab) no hue is told
DARK_LIGHT = 50.0


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
    top, beneath = labs[-1], labs[-2]
    strength = np.hypot(beneath[:, 1] - 128.0, beneath[:, 2] - 128.0)
    result: np.ndarray = ~wall_beneath(labs) & (strength >= FLAT_CHROMA * np.hypot(top[:, 1] - 128.0,
                                                                                     top[:, 2] - 128.0))
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


def _hue(a: float, b: float) -> float:
    return math.degrees(math.atan2(b - 128.0, a - 128.0))


def _turn(one: float, other: float) -> float:
    return abs((one - other + 180.0) % 360.0 - 180.0)


def _only_hue(sample: np.ndarray, centroids: Mapping[str, Lab], hues: Mapping[str, float]) -> str | None:
    """The one seat colour whose hue lies near the sample's (None when none or two do)."""
    hue = _hue(float(sample[1]), float(sample[2]))
    near = [name for name in centroids if _turn(hue, hues[name]) < WASHED_APART_DEGREES]
    return near[0] if len(near) == 1 and _turn(hue, hues[near[0]]) < WASHED_HUE_DEGREES else None


def _chroma(lab: Sequence[float] | np.ndarray) -> float:
    return math.hypot(float(lab[1]) - 128.0, float(lab[2]) - 128.0)


def washed_tops(colours: list[tuple[str | None, float]], labs: Sequence[np.ndarray], looked_at: np.ndarray,
                centroids: Mapping[str, Lab]) -> None:
    """A place read as nothing whose top (not ruled out as the line or the places around, ``looked_at``)
    shows one seat colour washed toward white, over a darker wall, is that colour, with the confidence
    its washed-out chroma leaves."""
    if len(labs) < 3 or not centroids:
        return
    walled = wall_beneath(labs)
    hues = {name: _hue(lab[1], lab[2]) for name, lab in centroids.items()}
    for index, (colour, _) in enumerate(colours):
        if colour is not None or not walled[index] or not looked_at[index]:
            continue
        top = labs[-1][index]
        name = _only_hue(top, centroids, hues)
        if name is None:
            continue
        chroma, own_chroma = _chroma(top), _chroma(centroids[name])
        if float(top[0]) > centroids[name][0] and WASHED_CHROMA * own_chroma <= chroma <= own_chroma:
            colours[index] = (name, round(0.5 * chroma / own_chroma, 3))


def out_of_the_glare(colours: list[tuple[str | None, float]], labs: Sequence[np.ndarray],
                     looked_at: np.ndarray, centroids: Mapping[str, Lab]) -> None:
    """A place read as nothing that shows, at two heights or more and with its top not ruled out as the
    line or the places around (``looked_at``), one seat colour's hue at least as colourful as learned and
    far darker is that colour out of the glare calibration saw it in (a card of that hue lies in the light
    the table gets, paler)."""
    if len(labs) < 3 or not centroids:
        return
    hues = {name: _hue(lab[1], lab[2]) for name, lab in centroids.items()}
    for index, (colour, _) in enumerate(colours):
        if colour is not None or not looked_at[index]:
            continue
        found: dict[str, list[float]] = {}
        for lab in labs:
            sample = lab[index]
            name = _only_hue(sample, centroids, hues)
            if name is None:
                continue
            own_light, chroma, own_chroma = centroids[name][0], _chroma(sample), _chroma(centroids[name])
            if DARK_LIGHT <= float(sample[0]) <= DEEPER_LIGHT * own_light and chroma >= own_chroma:
                found.setdefault(name, []).append(own_chroma / chroma)
        if len(found) == 1:
            name, shares = next(iter(found.items()))
            if len(shares) >= 2:
                colours[index] = (name, round(0.5 * min(shares), 3))
