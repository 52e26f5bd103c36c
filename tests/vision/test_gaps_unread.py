"""Which gaps of a hex slab are looked at for chisels: every gap between two tiles the frame shows, read or
not (a tile whose code a chisel's shadow hides still lies where the lattice says), and none beside a cell
that shows no tile."""

from __future__ import annotations

from vision.boards import Seen, TileLattice
from vision.observation import LatticeFit

LATTICE = LatticeFit("hex", (0.0, 0.0), 66.0, 0.0, cells={"F01": "0,0", "F02": "1,0"})


def _gaps(unread: set[tuple[int, int]]) -> set[str]:
    board = TileLattice("hex", pegs_on_gaps=True, peg_height_mm=25.0)
    seen = Seen({}, lambda reading: "tile", lambda reading: True, frozenset(unread))
    (search,) = board.peg_searches(LATTICE, seen)
    assert set(search.along) == set(search.targets)  # every gap is a spot on its tiles' shared edge
    return set(search.targets)


def test_the_gaps_between_tiles_read_are_looked_at() -> None:
    assert _gaps(set()) == {"0,0|1,0"}


def test_a_gap_beside_a_tile_not_read_is_looked_at() -> None:
    assert _gaps({(0, 1)}) == {"0,0|1,0", "0,0|0,1", "0,1|1,0"}


def test_a_gap_between_two_tiles_not_read_is_looked_at_too() -> None:
    # (2, -1) and (3, -1) touch each other and (2, -1) touches the read (1, 0); (3, -1) touches no tile read
    assert "2,-1|3,-1" in _gaps({(2, -1), (3, -1)})
    # two tiles not read away from every tile read: the gap between them is still a gap of the slab
    assert _gaps({(5, 5), (6, 5)}) >= {"5,5|6,5"}
