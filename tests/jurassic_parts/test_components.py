"""The component list: 58 tiles, fossil names, default rocky edges stored as data, resource cards."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import get_game
from engines.jurassic_parts import COMPONENTS, IS_DEFAULT_ROCKS, RESOURCE_CARDS, SPECIES, component, manifest
from engines.jurassic_parts._default_set import DEFAULT_SET, DEFAULT_SET_SEED
from engines.jurassic_parts.components import generate_default_set, mirror_rocks


def test_fifty_eight_tiles_with_the_box_counts() -> None:
    assert [c.tile_id for c in COMPONENTS] == [f"F{i:02d}" for i in range(1, 59)]
    counts = Counter(c.fossil for c in COMPONENTS)
    assert counts["BONES"] == 3 and counts["PLANT"] == 10 and counts["PTERO"] == 8
    for prefix, parts, copies in (("BRACHIO", 5, 2), ("TREX", 4, 2), ("TRICERA", 3, 3), ("RAPTOR", 2, 5)):
        for part in range(1, parts + 1):
            assert counts[f"{prefix}-{part}"] == copies
    assert sum(counts.values()) == 58
    assert {s.name: (s.size, s.points, s.copies) for s in SPECIES} == {
        "BRACHIO": (5, 15, 2), "TREX": (4, 10, 2), "TRICERA": (3, 7, 3), "RAPTOR": (2, 4, 5)}


def test_default_rocks_are_stored_data_regenerable_from_the_seed() -> None:
    assert IS_DEFAULT_ROCKS
    assert generate_default_set(DEFAULT_SET_SEED) == DEFAULT_SET
    assert all(len(c.rocks) == 6 for c in COMPONENTS)
    assert any(any(c.rocks) for c in COMPONENTS) and not all(all(c.rocks) for c in COMPONENTS)
    backs = [c.back for c in COMPONENTS]
    assert len(set(backs)) == 58
    assert all(len(b) == 5 and b.isalnum() and b.upper() == b for b in backs)


def test_component_lookup_and_manifest() -> None:
    f07 = component("F07")
    assert f07.fossil == "BRACHIO-2" and f07.kind == 1
    with pytest.raises(KeyError):
        component("F59")
    data = manifest()
    assert data["default_rocks"] is True and len(data["tiles"]) == 58  # type: ignore[arg-type]
    assert "check" in str(data["note"])


def test_back_rocks_are_the_front_mirrored_east_west() -> None:
    rocks = (True, True, False, False, True, False)  # E, NE, SW
    assert mirror_rocks(rocks) == (False, False, True, True, False, True)  # W, NW, SE
    assert mirror_rocks(mirror_rocks(rocks)) == rocks


def test_registered_and_backpack_is_data() -> None:
    assert get_game("jurassic-parts").title == "Jurassic Parts"
    assert get_game("jp").name == "jurassic-parts"
    backpack = {c.card_id: c for c in RESOURCE_CARDS}["BACKPACK"]
    assert backpack.extra_kept_chisels == 1 and backpack.remains_in_play
