"""A standing piece's top: a colour at the top only needs a darker wall beneath it, and a top washed toward
white over such a wall is read as its colour, and so is one out of the glare its colour was learned in."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.piece_tops import WASHED_CHROMA, drop_flat_tops, out_of_the_glare, wall_beneath, washed_tops

BLUE = (58.0, 142.0, 92.0)
RED = (80.0, 175.0, 150.0)
CENTROIDS = {"blue": BLUE, "red": RED}
LOOKED_AT = np.array([True])


def heights(*lightness_and_top: tuple[float, float, float]) -> list[np.ndarray]:
    """One place's Lab samples, foot to top, as the per-height arrays ``find_pegs`` keeps."""
    return [np.array([sample], dtype=np.float64) for sample in lightness_and_top]


def washed(share: float, light: float) -> tuple[float, float, float]:
    """Blue's hue at ``share`` of its chroma, at ``light``."""
    return (light, 128.0 + share * (BLUE[1] - 128.0), 128.0 + share * (BLUE[2] - 128.0))


SHADOWED = ((30.0, 130.0, 118.0), (45.0, 132.0, 116.0), (60.0, 133.0, 113.0))
FLAT = ((96.0, 141.0, 104.0), (98.0, 141.0, 104.0), (99.0, 140.0, 104.0))


def test_a_wall_beneath_is_darker_than_the_top() -> None:
    assert wall_beneath(heights(*SHADOWED, (110.0, 137.0, 104.0)))[0]
    assert not wall_beneath(heights(*FLAT, (100.0, 140.0, 103.0)))[0]


def test_a_colour_at_the_top_only_over_a_flat_colour_is_a_card() -> None:
    seen: list[list[tuple[str | None, float, bool]]] = [
        [(None, 0.0, False)], [(None, 0.0, False)], [(None, 0.0, False)], [("blue", 0.5, False)]]
    flat: list[tuple[str | None, float]] = [("blue", 0.5)]
    drop_flat_tops(flat, seen, heights(*FLAT, (100.0, 140.0, 103.0)), LOOKED_AT)
    assert flat == [(None, 0.0)]
    standing: list[tuple[str | None, float]] = [("blue", 0.5)]
    drop_flat_tops(standing, seen, heights(*SHADOWED, (100.0, 140.0, 103.0)), LOOKED_AT)
    assert standing == [("blue", 0.5)]


def test_a_piece_standing_in_shade_keeps_its_top_over_a_greyer_wall() -> None:
    seen: list[list[tuple[str | None, float, bool]]] = [
        [(None, 0.0, False)], [(None, 0.0, False)], [(None, 0.0, False)], [("blue", 0.78, False)]]
    colours: list[tuple[str | None, float]] = [("blue", 0.78)]
    in_shade = ((63.0, 129.0, 127.0), (61.0, 130.0, 120.0), (63.0, 133.0, 111.0), (65.0, 139.0, 93.0))
    drop_flat_tops(colours, seen, heights(*in_shade), LOOKED_AT)  # as dark as its top, but grey beneath it
    assert colours == [("blue", 0.78)]


def test_a_colour_at_one_height_between_foot_and_top_alone_where_the_top_is_the_line_is_no_piece() -> None:
    seen: list[list[tuple[str | None, float, bool]]] = [
        [(None, 0.0, False)], [("green", 0.8, False)], [(None, 0.0, False)], [(None, 0.0, False)]]
    edge: list[tuple[str | None, float]] = [("green", 0.8)]
    drop_flat_tops(edge, seen, heights(*SHADOWED, (150.0, 107.0, 161.0)), np.array([False]))
    assert edge == [(None, 0.0)]
    piece: list[tuple[str | None, float]] = [("green", 0.8)]  # its top unread, not the line's
    drop_flat_tops(piece, seen, heights(*SHADOWED, (150.0, 107.0, 161.0)), LOOKED_AT)
    assert piece == [("green", 0.8)]


def test_a_colour_seen_lower_down_is_kept_whatever_the_light() -> None:
    seen: list[list[tuple[str | None, float, bool]]] = [
        [("blue", 0.7, False)], [(None, 0.0, False)], [(None, 0.0, False)], [("blue", 0.5, False)]]
    colours: list[tuple[str | None, float]] = [("blue", 0.7)]
    drop_flat_tops(colours, seen, heights(*FLAT, (100.0, 140.0, 103.0)), LOOKED_AT)
    assert colours == [("blue", 0.7)]


def test_a_washed_top_over_its_wall_is_its_colour() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    washed_tops(colours, heights(*SHADOWED, washed(0.65, 110.0)), np.array([True]), CENTROIDS)
    assert colours[0][0] == "blue" and 0.0 < colours[0][1] <= 0.5


def test_a_washed_top_is_not_read_where_it_was_found_to_be_the_line() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    washed_tops(colours, heights(*SHADOWED, washed(0.65, 110.0)), np.array([False]), CENTROIDS)
    assert colours == [(None, 0.0)]


def test_a_washed_colour_lying_flat_is_not_a_piece() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    washed_tops(colours, heights(*FLAT, washed(0.65, 100.0)), np.array([True]), CENTROIDS)
    assert colours == [(None, 0.0)]


def test_a_colour_between_two_seats_hues_is_not_told() -> None:
    purple = {"blue": BLUE, "purple": (70.0, 150.0, 100.0)}
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    washed_tops(colours, heights(*SHADOWED, washed(0.65, 110.0)), np.array([True]), purple)
    assert colours == [(None, 0.0)]


@settings(max_examples=60, deadline=None)
@given(share=st.floats(0.0, 1.6), turn=st.floats(-60.0, 60.0), light=st.floats(20.0, 250.0))
def test_a_washed_top_is_read_only_near_its_hue_and_paler(share: float, turn: float, light: float) -> None:
    angle = math.atan2(BLUE[2] - 128.0, BLUE[1] - 128.0) + math.radians(turn)
    chroma = share * math.hypot(BLUE[1] - 128.0, BLUE[2] - 128.0)
    top = (light, 128.0 + chroma * math.cos(angle), 128.0 + chroma * math.sin(angle))
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    washed_tops(colours, heights((10.0, 128.0, 128.0), (10.0, 128.0, 128.0), (10.0, 128.0, 128.0), top),
                np.array([True]), CENTROIDS)
    if colours[0][0] is not None:
        assert colours[0][0] == "blue"
        assert share + 1e-9 >= WASHED_CHROMA and share <= 1.0 + 1e-9
        assert light > BLUE[0] and abs(turn) < 8.0 + 1e-6
    elif 0.55 <= share <= 0.95 and abs(turn) < 6.0 and light > 1.6 * BLUE[0] and light * 0.7 >= 10.0:
        raise AssertionError(f"a plainly washed blue top was not read: {top}")


GREEN_IN_GLARE = {"green": (178.0, 100.0, 153.0), "blue": BLUE}


def test_a_piece_out_of_the_glare_it_was_learned_in_is_its_colour() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    deep = (99.0, 93.0, 156.0)
    foot = (80.0, 98.0, 152.0)
    out_of_the_glare(colours, heights(foot, deep, deep, deep), np.array([True]), GREEN_IN_GLARE)
    assert colours[0][0] == "green" and 0.0 < colours[0][1] <= 0.5


def test_a_card_of_the_hue_in_the_table_s_light_is_not_a_piece() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    card = (140.0, 96.0, 153.0)  # as colourful, but lit as the table is: not far darker
    out_of_the_glare(colours, heights(card, card, card, card), np.array([True]), GREEN_IN_GLARE)
    assert colours == [(None, 0.0)]


def test_out_of_the_glare_needs_two_heights_and_a_top_not_ruled_out() -> None:
    deep = (99.0, 93.0, 156.0)
    grey = (99.0, 128.0, 128.0)
    once: list[tuple[str | None, float]] = [(None, 0.0)]
    out_of_the_glare(once, heights(grey, grey, grey, deep), np.array([True]), GREEN_IN_GLARE)
    assert once == [(None, 0.0)]
    ruled_out: list[tuple[str | None, float]] = [(None, 0.0)]
    out_of_the_glare(ruled_out, heights(deep, deep, deep, deep), np.array([False]), GREEN_IN_GLARE)
    assert ruled_out == [(None, 0.0)]


def test_a_colour_learned_as_seen_is_never_deepened() -> None:
    colours: list[tuple[str | None, float]] = [(None, 0.0)]
    learned = {"green": (71.0, 100.0, 153.0)}
    deep = (60.0, 95.0, 156.0)
    out_of_the_glare(colours, heights(deep, deep, deep, deep), np.array([True]), learned)
    assert colours == [(None, 0.0)]
