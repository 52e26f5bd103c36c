"""A standing piece told by the shadow it casts, where its colour alone does not tell it from a card.

Under a lamp every standing piece throws a long dark shadow, all of them the same way wherever they stand
near one another; a card lying flat throws none worth the name. A place whose top shows a seat colour
only half (nearer a card of the frame than the colour learned, so read as nothing) but which casts such a
shadow, the way the pieces found around it cast theirs, holds a piece of that colour: a green chisel on a
green card's edge. It is read with little confidence, so the companion asks before acting on it. The
other way round: a place read as a colour only doubtfully (as flat as a card and as its edge beside it,
or its colour at one height at most) that casts no shadow at all where the pieces around it cast theirs
is the card (a pale green card under a lamp looks like a green chisel's shaded wall). A lamp high
overhead casts short shadows, so the way near a foot is looked at too, but for the way along the gap's
own line: the dark line between two tiles runs there.
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
#: a doubtful place casts no shadow where its way around is at least this share of its middle way's
#: brightness, looked at along the whole shadow and near the foot alone (a lamp high overhead casts short
#: shadows): on 92 ray-traced frames pieces read right 0.43 at most, cards read as pieces 0.69 at least
#: but one (a yellow tile's rim, 0.46, dark only along the gap's own line)
NO_SHADOW_SHARE = 0.55
#: how near a foot a short shadow is looked for (mm)
NEAR_FOOT_MM = SHADOW_FROM_MM[SHADOW_FROM_MM <= 16.0]
#: a place read as nothing casts a short shadow where its way near its foot is at most this share of its
#: middle way there: darker than along the whole way, as the gap's own dark line and the tiles' edges lie
#: near every foot (on 92 ray-traced frames: such pieces 0.11 at most, empty gaps 0.15 at least)
NEAR_SHADOW_SHARE = 0.12
#: a way this near (degrees) a gap's own line is not looked at near its foot (the way exactly along it: at
#: 20 degrees, the ways beside it too, five chisels read right over 130 ray-traced frames are lost)
LINE_DEGREES = 8.0


def way_brightness(image: np.ndarray, px: np.ndarray, jacobian: np.ndarray,
                   distances_mm: np.ndarray = SHADOW_FROM_MM) -> np.ndarray:
    """(N, ways): how bright each way from each place's foot is (``px`` the feet in pixels, ``jacobian``
    (N, 2, 2) each place's pixels per table mm there), looked at ``distances_mm`` from the foot."""
    angles = np.radians(SHADOW_DEGREES)
    steps = np.stack([np.cos(angles), np.sin(angles)], axis=1)[:, None, :] * distances_mm[None, :, None]
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
    rank = SHADOW_PERCENTILE / 100.0 * (len(distances_mm) - 1)
    below, share = int(rank), rank - int(rank)
    above = min(below + 1, ordered.shape[2] - 1)
    result: np.ndarray = ordered[..., below] * (1.0 - share) + ordered[..., above] * share
    return result


def near_foot(image: np.ndarray, px: np.ndarray, jacobian: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """(N, ways): how bright each way near each place's foot is (6-16 mm), the ways along the place's
    own line (``lines``: (N, 2) unit directions in table mm, zero for none) taken as its middle way: the
    dark line between two tiles runs from every gap's foot, a shadow there is not told from it."""
    brightness = way_brightness(image, px, jacobian, NEAR_FOOT_MM)
    line = np.degrees(np.arctan2(lines[:, 1], lines[:, 0]))
    turn = np.abs((SHADOW_DEGREES[None, :] - line[:, None] + 90.0) % 180.0 - 90.0)  # either way along it
    on_line = (turn <= LINE_DEGREES) & (np.hypot(lines[:, 0], lines[:, 1]) > 0)[:, None]
    middle = np.median(brightness, axis=1, keepdims=True)
    result: np.ndarray = np.where(on_line, np.maximum(brightness, middle), brightness)
    return result


def shadow_ways(brightness: np.ndarray) -> np.ndarray:
    """Each place's darkest way (radians)."""
    result: np.ndarray = np.radians(SHADOW_DEGREES)[np.argmin(brightness, axis=1)]
    return result


def casts_shadow(brightness: np.ndarray, ways: np.ndarray, share: float = SHADOW_SHARE) -> np.ndarray:
    """Whether each place (rows of its ways' ``brightness``) is dark its way of ``ways`` (within one step):
    at most ``share`` of its middle way's brightness."""
    step = len(SHADOW_DEGREES)
    nearest = np.rint(np.degrees(ways) / (360.0 / step)).astype(np.int64) % step
    rows = np.arange(len(brightness))
    darkest = np.min([brightness[rows, (nearest + turn) % step] for turn in (-1, 0, 1)], axis=0)
    result: np.ndarray = darkest <= share * np.median(brightness, axis=1)
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


def read_by_shadows(colours: list[tuple[str | None, float]], half_seen: Sequence[tuple[str | None, float]],
                    doubtful: np.ndarray, image: np.ndarray, px: np.ndarray, mm: np.ndarray,
                    jacobian_at: Callable[[np.ndarray], np.ndarray], lines: np.ndarray | None = None) -> None:
    """The places' colours mended by the shadows the pieces found cast. A place read as a colour only
    doubtfully (``doubtful``: as flat as a card and looking as its line does at its foot, or its colour
    seen at one height at most) that casts no shadow where the pieces around it cast theirs is nothing. A
    place read as nothing whose top shows a seat colour half (``half_seen``: the nearest seat colour
    within reach, ignoring the frame's cards, and how close) and which casts a shadow the way the pieces
    around it do is that colour, with little confidence. ``lines``: each place's line (a unit direction
    in table mm, zero for none), whose way near the foot is not looked at."""
    found = np.array([index for index, (colour, _) in enumerate(colours) if colour is not None],
                     dtype=np.int64)
    asked = any(colour is None and seen is not None for (colour, _), (seen, _) in zip(colours, half_seen))
    if len(found) < SHADOW_NEIGHBOURS or not (asked or doubtful[found].any()):
        return  # nothing to weigh: the shadows are not looked at
    scale = jacobian_at(found)
    brightness = way_brightness(image, px[found], scale)
    ways = shadow_ways(brightness)
    lines = np.zeros((len(mm), 2)) if lines is None else lines
    _drop_cards_without_shadow(colours, found, brightness, ways, doubtful, image, px, mm, scale, lines)
    kept = np.array([colours[int(index)][0] is not None for index in found], dtype=bool)
    _tell_half_seen(colours, half_seen, found[kept], ways[kept], image, px, mm, jacobian_at, lines)


def _drop_cards_without_shadow(colours: list[tuple[str | None, float]], found: np.ndarray,
                               brightness: np.ndarray, ways: np.ndarray, doubtful: np.ndarray,
                               image: np.ndarray, px: np.ndarray, mm: np.ndarray, scale: np.ndarray,
                               lines: np.ndarray) -> None:
    """Places found (rows of ``brightness``; ``scale`` their pixels per mm) read doubtfully that are dark
    neither along nor near their foot the way the pieces casting a shadow around them cast theirs: cards,
    not pieces."""
    rows = np.nonzero(doubtful[found])[0]
    casting = np.nonzero(casts_shadow(brightness, ways))[0]
    if not len(rows) or len(casting) < SHADOW_NEIGHBOURS:
        return
    apart = np.hypot(*(mm[found[rows]][:, None, :] - mm[found[casting]][None, :, :]).transpose(2, 0, 1))
    apart[rows[:, None] == casting[None, :]] = np.inf  # a place is not its own neighbour
    around, agree = ways_around(ways[casting], apart)
    agree &= np.sort(apart, axis=1)[:, SHADOW_NEIGHBOURS - 1] < np.inf
    if not agree.any():
        return
    rows, around = rows[agree], around[agree]
    places = found[rows]
    near = near_foot(image, px[places], scale[rows], lines[places])
    shadowless = (~casts_shadow(brightness[rows], around, NO_SHADOW_SHARE)
                  & ~casts_shadow(near, around, NO_SHADOW_SHARE))
    for index in places[shadowless]:
        colours[int(index)] = (None, 0.0)


def _tell_half_seen(colours: list[tuple[str | None, float]], half_seen: Sequence[tuple[str | None, float]],
                    found: np.ndarray, ways: np.ndarray, image: np.ndarray, px: np.ndarray, mm: np.ndarray,
                    jacobian_at: Callable[[np.ndarray], np.ndarray], lines: np.ndarray) -> None:
    """Places read as nothing whose top shows a seat colour half and which cast a shadow the way the
    pieces ``found`` (casting theirs ``ways``) around them do: that colour, with little confidence."""
    asked = [index for index, (colour, _) in enumerate(colours)
             if colour is None and half_seen[index][0] is not None]
    if not asked or len(found) < SHADOW_NEIGHBOURS:
        return
    apart = np.hypot(*(mm[asked][:, None, :] - mm[found][None, :, :]).transpose(2, 0, 1))
    around, agree = ways_around(ways, apart)
    if not agree.any():
        return
    looked = np.array(asked)[agree]
    scale, way = jacobian_at(looked), around[agree]
    cast = (casts_shadow(way_brightness(image, px[looked], scale), way)
            | casts_shadow(near_foot(image, px[looked], scale, lines[looked]), way, NEAR_SHADOW_SHARE))
    for index in looked[cast]:
        colour, closeness = half_seen[int(index)]
        colours[int(index)] = (colour, round(SHADOW_CONFIDENCE * closeness, 3))
