"""Observation value objects: JSON round trip and helpers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.observation import (
    CalibrationStatus,
    LatticeFit,
    Observation,
    OccludedRegion,
    PegReading,
    TagReading,
    cell_key,
    gap_key,
    parse_gap_key,
)


def _observation() -> Observation:
    tag = TagReading(
        payload="DT1:JP:F07",
        game="JP",
        component_id="F07",
        face="front",
        center_px=(100.0, 200.0),
        corners_px=((90.0, 190.0), (110.0, 190.0), (110.0, 210.0), (90.0, 210.0)),
        angle=60.0,
        module_px=3.5,
        center_mm=(50.0, 60.0),
        zone="play",
    )
    peg = PegReading(center_mm=(70.0, 60.0), colour="red", confidence=0.9, on=gap_key((1, 0), (0, 0)))
    lattice = LatticeFit("hex", (50.0, 60.0), 40.0, 0.0, cells={"F07": cell_key((0, 0))}, residual=0.2)
    return Observation(
        frame_index=3,
        timestamp=12.5,
        game="JP",
        tags={"F07": tag},
        pegs=(peg,),
        zones={"play": ("F07",)},
        rejected={"other-game": 2},
        duplicates=("F09",),
        occluded=(OccludedRegion("hand", (1, 2, 3, 4)),),
        calibration=CalibrationStatus("ok", (0, 1, 2, 3)),
        lattice=lattice,
    )


def test_json_round_trip_is_stable() -> None:
    observation = _observation()
    data = json.loads(json.dumps(observation.to_dict()))
    again = Observation.from_dict(data)
    assert again.to_dict() == observation.to_dict()
    assert again.cell_of("F07") == (0, 0)
    assert again.zone_of("F07") == "play"
    assert again.rejected_total == 2
    assert again.pegs_on()["0,0|1,0"].colour == "red"


def test_observation_is_immutable() -> None:
    observation = _observation()
    with pytest.raises(TypeError):
        observation.tags["X"] = observation.tags["F07"]  # type: ignore[index]


def test_gap_key_is_order_independent() -> None:
    assert gap_key((1, -1), (0, 0)) == gap_key((0, 0), (1, -1)) == "0,0|1,-1"
    assert parse_gap_key("0,0|1,-1") == ((0, 0), (1, -1))


def test_bad_face_is_rejected() -> None:
    data = _observation().tags["F07"].to_dict()
    data["face"] = "side"
    with pytest.raises(ValueError):
        TagReading.from_dict(data)


def test_calibration_trust() -> None:
    assert CalibrationStatus("ok").trusted
    assert not CalibrationStatus("bumped").trusted
    assert not CalibrationStatus().trusted


_coord = st.floats(-5000, 5000, allow_nan=False)
_point = st.tuples(_coord, _coord)
_ids = st.text("ABCDEFXYZ0123456789-", min_size=1, max_size=8)


@st.composite
def observations(draw: st.DrawFn) -> Observation:
    tags = {}
    for tag_id in draw(st.sets(_ids, max_size=6)):
        corners = draw(st.tuples(_point, _point, _point, _point))
        tags[tag_id] = TagReading(
            f"DT1:JP:{tag_id}",
            "JP",
            tag_id,
            draw(st.sampled_from(["front", "back"])),
            draw(_point),
            corners,
            draw(st.floats(0, 360, exclude_max=True)),
            draw(st.floats(0.5, 20)),
            draw(st.none() | _point),
            draw(st.none() | st.sampled_from(["play", "seat:red"])),
        )
    pegs = tuple(
        PegReading(
            draw(_point), draw(st.none() | st.sampled_from(["red", "blue"])), draw(st.floats(0, 1)), on
        )
        for on in draw(st.lists(st.none() | st.just("0,0|1,0"), max_size=4))
    )
    cells = {tag_id: cell_key((draw(st.integers(-9, 9)), draw(st.integers(-9, 9)))) for tag_id in tags}
    lattice = draw(st.none() | st.just(LatticeFit("hex", (1.0, 2.0), 60.0, 3.0, cells)))
    return Observation(
        draw(st.integers(0, 10**6)),
        draw(st.floats(0, 10**6)),
        "JP",
        tags=tags,
        pegs=pegs,
        rejected=draw(st.dictionaries(st.sampled_from(["other-game", "unknown-id"]), st.integers(1, 9))),
        duplicates=tuple(draw(st.lists(_ids, max_size=2))),
        calibration=CalibrationStatus(
            draw(st.sampled_from(["ok", "bumped", "uncalibrated", "markers-hidden"]))
        ),
        lattice=lattice,
        stable=draw(st.booleans()),
        held=draw(st.booleans()),
    )


@settings(max_examples=100, deadline=None)
@given(observations())
def test_any_observation_survives_json(observation: Observation) -> None:
    once = json.loads(json.dumps(observation.to_dict()))
    again = Observation.from_dict(once)
    assert again.to_dict() == once
    assert set(again.tags) == set(observation.tags)
    assert again.calibration.trusted == observation.calibration.trusted
