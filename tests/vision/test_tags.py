"""The DT1 scheme: manifests per game, opaque backs, strict validation that never raises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kits import kit_for, kits
from vision import tags


def mirror_rocks(rocks: tuple[bool, ...]) -> tuple[bool, ...]:
    """A tile turned over about its north-south axis: direction k shows what (3 - k) % 6 showed."""
    return tuple(rocks[(3 - k) % 6] for k in range(6))


def test_payload_and_parse_round_trip() -> None:
    text = tags.payload("JP", "F07")
    assert text == "DT1:JP:F07"
    parsed = tags.parse_payload(text)
    assert isinstance(parsed, tags.ParsedPayload)
    assert (parsed.game, parsed.component_id) == ("JP", "F07")


@pytest.mark.parametrize("game", sorted(kits()))
def test_every_manifest_payload_fits_a_version_1_or_2_code(game: str) -> None:
    manifest = kit_for(game).manifest()
    for text in manifest.payloads():
        assert set(text) <= tags.ALPHANUMERIC
        assert tags.qr_matrix(text).shape[0] in (21, 25)


def test_jurassic_parts_manifest_lists_58_tiles_with_fossils_rocks_and_mirrored_backs() -> None:
    manifest = kit_for("JP").manifest()
    fronts = [e for e in manifest.entries.values() if e.face == "front"]
    backs = [e for e in manifest.entries.values() if e.face == "back"]
    assert len(fronts) == 58 and len(backs) == 58
    assert {e.component_id for e in fronts} == {f"F{n:02d}" for n in range(1, 59)}
    assert all(e.component and e.rocks is not None and len(e.rocks) == 6 for e in fronts)
    # backs reveal nothing: no component name; their rock multiset matches the fronts' mirrored rocks
    assert all(e.component == "" and e.rocks is not None for e in backs)
    assert sorted(mirror_rocks(e.rocks or ()) for e in fronts) == sorted(e.rocks or () for e in backs)
    assert all(len(e.component_id) == 5 for e in backs)


def test_back_ids_depend_on_the_seed_only() -> None:
    first = {e.component_id for e in kit_for("JB").manifest(1).entries.values() if e.face == "back"}
    rebuilt = tags.build_printed_set(kit_for("JB").inventory(), kit_for("JB").reading.tag_mm, 1).manifest
    again = {e.component_id for e in rebuilt.entries.values() if e.face == "back"}
    other = {e.component_id for e in kit_for("JB").manifest(2).entries.values() if e.face == "back"}
    assert first == again and first != other and len(first) == 28


@pytest.mark.parametrize("game", ["JP", "JK", "JB"])
@pytest.mark.parametrize("seed", [1, 2, 7])
def test_the_loaded_manifest_cannot_pair_a_back_with_its_front(game: str, seed: int) -> None:
    printed = kit_for(game).printed_set(seed)
    loaded = tags.Manifest.from_dict(json.loads(printed.manifest.to_json()))  # as `companion tags` writes it
    assert loaded.entries == kit_for(game).manifest(seed).entries
    rows = [entry.to_dict() for entry in loaded.entries.values()]
    opaque = [row for row in rows if row["face"] == "back" and "component" not in row]
    assert sorted(row["id"] for row in opaque) == sorted(printed.back_of.values())
    # order: fronts first, then the backs sorted by id (a function of the ids alone, not of the pairing)
    assert rows[-len(opaque) :] == opaque
    assert [row["id"] for row in opaque] == sorted(row["id"] for row in opaque)
    # fields: nothing names a front; all a back says beyond its id is the same for every back, except the
    # rocks (Jurassic Parts), which the table shows whichever side is up
    assert all(set(row) <= {"id", "face", "kind", "rocks", "tag_mm"} for row in opaque)
    assert (
        len({json.dumps({k: v for k, v in row.items() if k not in ("id", "rocks")}) for row in opaque}) == 1
    )
    fronts = {row["id"]: row for row in rows if row["face"] == "front"}
    for front_id, back_id in printed.back_of.items():
        back = loaded.entries[back_id]
        front_rocks = fronts[front_id].get("rocks")
        assert back.rocks == (
            None if front_rocks is None else mirror_rocks(tuple(map(bool, front_rocks)))
        )
    # the printed set keeps the pairing (the sheets and the synthetic table need it), in the fronts' order
    assert list(printed.back_of) == [row["id"] for row in rows if row["id"] in printed.back_of]
    assert all(printed.front_of(back) == front for front, back in printed.back_of.items())
    assert printed.front_of(next(iter(fronts))) is None
    # the manifest's n-th back is not, in general, the n-th front's (the old leak)
    by_order = zip([f for f in fronts if f in printed.back_of], [row["id"] for row in opaque])
    assert sum(printed.back_of[front] == back for front, back in by_order) < len(opaque) / 2


def test_a_manifest_file_in_the_fronts_order_is_read_with_its_backs_sorted() -> None:
    printed = kit_for("JP").printed_set(4)
    data = printed.manifest.to_dict()
    by_id = {row["id"]: row for row in data["tags"]}
    fronts = [row for row in data["tags"] if row["face"] == "front"]
    data["tags"] = fronts + [by_id[printed.back_of[row["id"]]] for row in fronts]  # an older file's order
    loaded = tags.Manifest.from_dict(data)
    assert list(loaded.entries) == list(printed.manifest.entries)


def test_only_the_sheet_printer_and_the_simulation_use_the_pairing() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    users = {
        str(path.relative_to(root))
        for folder in ("vision", "companion", "hw", "sim")
        for path in (root / folder).rglob("*.py")
        if any(name in path.read_text(encoding="utf-8") for name in ("printed_set", "back_of", "front_of"))
    }
    kits = {str(path.relative_to(root)) for path in (root / "companion" / "kits").glob("*/tags.py")}
    printing = {"vision/tags.py", "companion/kits/kit.py", "companion/sheets.py",
                "companion/commands/vision_tools.py"}
    # the table's ground truth
    simulation = {"sim/fixtures.py", "companion/kits/jurassic_parts/identities.py"}
    assert users == printing | kits | simulation


def test_manifest_json_round_trip() -> None:
    manifest = kit_for("JK").manifest()
    again = tags.Manifest.from_dict(manifest.to_dict())
    assert again.entries == manifest.entries


def test_validator_counts_rejections_and_reports_duplicates() -> None:
    validator = tags.TagValidator(kit_for("JP").manifest())
    assert validator.check("DT1:JP:F01") is not None
    assert validator.check("DT1:JP:F01") is None
    assert validator.check("DT1:JK:D1-1") is None
    assert validator.check("DT1:JP:F99") is None
    assert validator.check("hello") is None
    assert validator.check("DT2:JP:F01") is None
    assert validator.check("DT1:JP") is None
    assert validator.duplicates == ["F01"]
    assert validator.rejected == {
        tags.OTHER_GAME: 1,
        tags.UNKNOWN_ID: 1,
        tags.NOT_ALPHANUMERIC: 1,
        tags.OTHER_SCHEME: 1,
        tags.MALFORMED: 1,
    }


def test_unknown_game_is_named() -> None:
    with pytest.raises(KeyError, match="unknown game"):
        kit_for("chess")


def test_a_tag_code_is_two_letters_or_a_letter_and_a_digit() -> None:
    with pytest.raises(ValueError, match="tag code"):
        tags.payload("jurassic-parts", "F07")
    assert tags.parse_payload("DT1:J:F07") == tags.MALFORMED


_CHARS = st.sampled_from([*sorted(tags.ALPHANUMERIC), "_", "a", "é", "\x00", "\n"])


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.text(_CHARS, max_size=30),
        st.builds(
            lambda g, i: f"DT1:{g}:{i}",
            st.sampled_from(["JP", "JK", "JB", "IN", "XX", ""]),
            st.text(_CHARS, max_size=25),
        ),
        st.binary(max_size=20),
        st.none(),
        st.integers(),
    )
)
def test_bad_payloads_never_raise_and_are_counted(text: object) -> None:
    validator = tags.TagValidator(kit_for("JP").manifest())
    result = validator.check(text)
    if result is None:
        assert sum(validator.rejected.values()) == 1
    else:
        assert isinstance(text, str) and text == tags.payload("JP", result.component_id)
