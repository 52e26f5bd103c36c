"""A standing piece told by its shadow: the way shadows fall is learned from the pieces found around a
place; a place read as nothing whose top shows a seat colour half is that colour only where it casts a
shadow that way, and a place read doubtfully that casts none there is a card, not a piece."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.pegs import ColourModel
from vision.shadows import (
    NEAR_SHADOW_SHARE,
    NO_SHADOW_SHARE,
    SHADOW_CONFIDENCE,
    SHADOW_FROM_MM,
    SHADOW_PERCENTILE,
    casts_shadow,
    near_foot,
    read_by_shadows,
    shadow_ways,
    way_brightness,
    ways_around,
)

#: 2 px a table mm, the table's x and y the frame's
SCALE = 2.0
LIGHT = 200


def table_with_shadows(feet_mm: list[tuple[float, float]], degrees: list[float], length_mm: float = 30.0,
                       size_px: int = 600, lengths_mm: list[float] | None = None) -> np.ndarray:
    """A plain light frame with a dark bar from each foot (its shadow) the way given, 4 mm wide."""
    image = np.full((size_px, size_px, 3), LIGHT, dtype=np.uint8)
    yy, xx = np.mgrid[0:size_px, 0:size_px]
    for (x, y), angle, length in zip(feet_mm, degrees, lengths_mm or [length_mm] * len(feet_mm)):
        way = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
        rel = np.stack([xx / SCALE - x, yy / SCALE - y], axis=-1)
        along = rel @ way
        across = np.abs(rel @ np.array([-way[1], way[0]]))
        image[(along > 2.0) & (along < length) & (across < 2.0)] = 15
    return image


def jacobian_at(count: int) -> np.ndarray:
    return np.repeat((np.eye(2) * SCALE)[None], count, axis=0)


def test_a_shadow_is_found_the_way_it_falls() -> None:
    image = table_with_shadows([(100.0, 100.0), (200.0, 150.0)], [90.0, 225.0])
    px = np.array([[200.0, 200.0], [400.0, 300.0]])
    brightness = way_brightness(image, px, jacobian_at(2))
    assert np.degrees(shadow_ways(brightness)).tolist() == [90.0, 225.0]
    first = np.repeat(brightness[:1], 3, axis=0)
    ways = np.radians([90.0, 100.0, 270.0])  # the way, within one step of it, and the other way
    assert casts_shadow(first, ways).tolist() == [True, True, False]


def test_a_place_without_a_shadow_casts_none_any_way() -> None:
    image = table_with_shadows([], [])
    brightness = way_brightness(image, np.array([[300.0, 300.0]]), jacobian_at(1))
    ways = np.radians(np.arange(0.0, 360.0, 15.0))
    assert not casts_shadow(np.repeat(brightness, len(ways), axis=0), ways).any()


def test_the_way_around_a_place_is_its_nearest_pieces_when_they_agree() -> None:
    ways = np.radians(np.array([80.0, 90.0, 100.0, 270.0]))
    apart = np.array([[10.0, 20.0, 30.0, 500.0], [500.0, 400.0, 1.0, 2.0]])
    around, agree = ways_around(ways, apart)
    assert agree.tolist() == [True, False]  # the second's nearest point three ways
    assert math.isclose(math.degrees(around[0]), 90.0, abs_tol=1e-6)
    _, agree = ways_around(np.radians(np.array([90.0, 90.0])), np.array([[1.0, 2.0]]))
    assert not agree.any()  # too few pieces to tell


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0.0, max_value=359.0), st.floats(min_value=-1.0, max_value=1.0))
def test_the_way_around_lies_among_the_ways_of_the_pieces(base: float, spread: float) -> None:
    ways = np.radians(np.array([base - 10.0 * spread, base, base + 10.0 * spread]))
    around, agree = ways_around(ways, np.array([[1.0, 2.0, 3.0]]))
    assert agree[0]
    assert abs((math.degrees(around[0]) - base + 180.0) % 360.0 - 180.0) <= 10.0 + 1e-6


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**31))
def test_a_ways_brightness_is_the_percentile_of_what_lies_along_it(seed: int) -> None:
    image = np.random.default_rng(seed).integers(0, 256, (120, 120), dtype=np.uint8)
    px = np.array([[60.0, 60.0]])
    brightness = way_brightness(image, px, np.eye(2)[None])
    angles = np.radians(np.arange(0.0, 360.0, 15.0))
    for way, angle in enumerate(angles):
        points = np.rint(px[0] + np.outer(SHADOW_FROM_MM, [math.cos(angle), math.sin(angle)])).astype(int)
        along = image[points[:, 1], points[:, 0]].astype(np.float64)
        assert math.isclose(brightness[0, way], float(np.percentile(along, SHADOW_PERCENTILE)), abs_tol=1e-9)


FOUND = [(60.0, 60.0), (100.0, 60.0), (140.0, 60.0), (60.0, 160.0), (140.0, 160.0)]


def _told(asked_way: float | None, found_ways: list[float],
          asked_length_mm: float = 30.0) -> list[tuple[str | None, float]]:
    feet = [*FOUND, (100.0, 160.0)]
    shadows = [*found_ways, asked_way] if asked_way is not None else found_ways
    lengths = [30.0] * len(found_ways) + [asked_length_mm]
    image = table_with_shadows(feet[: len(shadows)], shadows, lengths_mm=lengths[: len(shadows)])
    colours: list[tuple[str | None, float]] = [("blue", 0.9)] * len(FOUND) + [(None, 0.0)]
    half_seen: list[tuple[str | None, float]] = [("blue", 0.9)] * len(FOUND)
    half_seen.append(("green", 0.6))
    mm = np.array(feet)
    read_by_shadows(colours, half_seen, np.zeros(len(mm), dtype=bool), image, mm * SCALE, mm,
                    lambda places: jacobian_at(len(places)))
    return colours


def test_a_half_seen_colour_casting_a_shadow_the_way_of_the_pieces_around_is_read_with_little_confidence(
) -> None:
    colour, confidence = _told(90.0, [90.0] * len(FOUND))[-1]
    assert colour == "green"
    assert 0.0 < confidence <= SHADOW_CONFIDENCE * 0.6


def test_a_short_shadow_dark_near_the_foot_tells_too() -> None:
    # a lamp high overhead: 17 mm of shadow leaves most of the whole way lit, the way near the foot dark
    colour, _ = _told(90.0, [90.0] * len(FOUND), asked_length_mm=17.0)[-1]
    assert colour == "green"
    # a dark spot just beside the foot (the gap's own line, a tile's edge) is no shadow
    assert _told(90.0, [90.0] * len(FOUND), asked_length_mm=9.0)[-1] == (None, 0.0)


def test_the_dark_line_between_two_tiles_near_a_gaps_foot_is_no_shadow() -> None:
    # the gap's own line runs up and down from its foot (90 and 270 degrees), dark as a shadow
    image = table_with_shadows([(100.0, 100.0)], [90.0], length_mm=17.0)
    px, scale = np.array([[200.0, 200.0]]), jacobian_at(1)
    down, share = np.radians(np.array([90.0])), NEAR_SHADOW_SHARE
    assert casts_shadow(near_foot(image, px, scale, np.zeros((1, 2))), down, share).all()
    assert not casts_shadow(near_foot(image, px, scale, np.array([[0.0, 1.0]])), down, share).any()
    # a line the other way round leaves the way down looked at
    assert casts_shadow(near_foot(image, px, scale, np.array([[1.0, 0.0]])), down, share).all()


def test_no_shadow_or_one_another_way_or_no_lamp_tells_nothing() -> None:
    assert _told(None, [90.0] * len(FOUND))[-1] == (None, 0.0)
    assert _told(270.0, [90.0] * len(FOUND))[-1] == (None, 0.0)
    # under a ceiling's light the pieces around cast no shadow one way: none is looked for
    assert _told(90.0, [0.0, 72.0, 144.0, 216.0, 288.0])[-1] == (None, 0.0)


def test_a_place_whose_top_shows_no_seat_colour_is_never_told_by_a_shadow() -> None:
    image = table_with_shadows([*FOUND, (100.0, 160.0)], [90.0] * (len(FOUND) + 1))
    mm = np.array([*FOUND, (100.0, 160.0)])
    colours: list[tuple[str | None, float]] = [("blue", 0.9)] * len(FOUND) + [(None, 0.0)]
    half_seen: list[tuple[str | None, float]] = [("blue", 0.9)] * len(FOUND) + [(None, 0.0)]
    read_by_shadows(colours, half_seen, np.zeros(len(mm), dtype=bool), image, mm * SCALE, mm,
                    lambda places: jacobian_at(len(places)))
    assert colours[-1] == (None, 0.0)


def _doubtful(way: float | None, found_ways: list[float], length_mm: float = 30.0,
              doubtful: bool = True) -> tuple[str | None, float]:
    """The last place, read as green (doubtfully or not), after the shadows are looked at."""
    feet = [*FOUND, (100.0, 160.0)]
    ways = [*found_ways, way if way is not None else 0.0]
    lengths = [30.0] * len(FOUND) + [length_mm if way is not None else 0.0]
    image = table_with_shadows(feet, ways, lengths_mm=lengths)
    colours: list[tuple[str | None, float]] = [("blue", 0.9)] * len(FOUND)
    colours.append(("green", 0.9))
    flags = np.array([False] * len(FOUND) + [doubtful])
    mm = np.array(feet)
    read_by_shadows(colours, list(colours), flags, image, mm * SCALE, mm,
                    lambda places: jacobian_at(len(places)))
    return colours[-1]


def test_a_doubtful_colour_casting_no_shadow_where_the_pieces_around_cast_theirs_is_a_card() -> None:
    assert _doubtful(None, [90.0] * len(FOUND)) == (None, 0.0)
    # the same colour read plainly stays: only doubtful readings are weighed by their shadow
    assert _doubtful(None, [90.0] * len(FOUND), doubtful=False) == ("green", 0.9)


def test_a_doubtful_colour_casting_a_shadow_the_way_around_stays_even_a_short_one() -> None:
    assert _doubtful(90.0, [90.0] * len(FOUND)) == ("green", 0.9)
    # a lamp high overhead: a shadow only 17 mm long is dark near the foot alone
    assert _doubtful(90.0, [90.0] * len(FOUND), length_mm=17.0) == ("green", 0.9)
    # a shadow another way than the pieces around cast theirs is not this place's
    assert _doubtful(270.0, [90.0] * len(FOUND)) == (None, 0.0)


def test_without_a_lamp_no_doubtful_colour_is_dropped() -> None:
    # under a ceiling's light the pieces around cast no shadow one way (nor any dark enough): none is
    # looked for
    assert _doubtful(None, [0.0, 72.0, 144.0, 216.0, 288.0]) == ("green", 0.9)
    assert 0.0 < NO_SHADOW_SHARE < 1.0


def test_the_nearest_seat_colour_ignores_the_frames_cards_and_the_dark() -> None:
    green, card = (140.0, 92.0, 161.0), (120.0, 96.0, 158.0)
    model = ColourModel({"green": green, "red": (54.0, 163.0, 153.0)}, background=(card,))
    sample = np.array([[118.0, 95.0, 157.0]])
    assert model.classify_seen(sample)[0][0] is None  # the card is nearer
    colour, closeness = model.nearest_seat(sample)[0]
    assert colour == "green" and 0.0 < closeness < 1.0
    assert model.nearest_seat(np.array([[30.0, 110.0, 145.0]]))[0] == (None, 0.0)
    assert model.nearest_seat(np.array([[128.0, 128.0, 128.0]]))[0] == (None, 0.0)
