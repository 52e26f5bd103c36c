"""What the table layouts share: seat fields and places kept from frame to frame."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kits.isla_nublar.table import IslaNublarLayout
from companion.kits.jurassic_parts.table import JurassicPartsLayout
from companion.kits.jurassik.table import JurassikLayout
from companion.kits.tabletop import SEAT_STRIP, keep_places, seats_around

PIECES = st.lists(st.sampled_from([f"P{n}" for n in range(30)]), unique=True, max_size=25)


@settings(max_examples=300, deadline=None)
@given(
    PIECES,
    st.integers(0, 20),
    st.dictionaries(st.sampled_from([f"P{n}" for n in range(30)]), st.integers(0, 25)),
)
def test_pieces_keep_their_places_and_none_is_placed_twice(
    pieces: list[str], count: int, previous: dict[str, int]
) -> None:
    taken = keep_places(pieces, count, previous)
    assert all(0 <= index < count for index in taken)
    assert len(set(taken.values())) == len(taken) == min(len(pieces), count)
    assert set(taken.values()) <= set(pieces)
    claimed: set[int] = set()
    for piece in pieces:  # a piece keeps its old place unless it is gone or an earlier piece kept it
        index = previous.get(piece)
        if index is not None and index < count and index not in claimed:
            claimed.add(index)
            assert taken[index] == piece
    newcomers = [p for p in pieces if p not in {taken[i] for i in claimed}]
    free = [i for i in range(count) if i not in claimed]
    assert [taken[i] for i in free if i in taken] == newcomers[: len(free)]  # first free places, in order


def test_layouts_share_the_seat_arrangement() -> None:
    assert JurassikLayout(seats=5).seat_places == seats_around(5)
    assert JurassikLayout().seat_strip == JurassicPartsLayout().seat_strip == SEAT_STRIP
    assert IslaNublarLayout(seats=3).seat_places == seats_around(3, strip=225.0)
    roomy = JurassicPartsLayout.roomy(6)
    assert roomy.seat_places == seats_around(6, width=1440.0, height=810.0, strip=roomy.seat_strip)
