"""The settle rule as a property: over any sequence of per-frame readings, the tracker commits a reading
exactly when it has been read in ``window`` consecutive frames (three times as many when three or more tags
vanished at once); shorter runs (flicker) never count.

The readings come from a scripted reader standing in for the detector (the decoding itself is tested on
rendered frames elsewhere); every frame is a different picture so that each one is read."""

from __future__ import annotations

import numpy as np
from helpers.slab import jp_manifest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detect import Detector
from vision.observation import Observation, TagReading
from vision.track import Tracker, TrackerConfig


def _reading(ids: frozenset[str]) -> dict[str, TagReading]:
    return {
        i: TagReading(f"DT1:JP:{i}", "JP", i, "front", (0.0, 0.0), ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0, 3.0)
        for i in sorted(ids)
    }


class ScriptedReader(Detector):
    """A detector whose readings are given in advance, one per frame."""

    def __init__(self, script: list[frozenset[str]]) -> None:
        super().__init__(jp_manifest())
        self.script = list(script)

    def observe(  # type: ignore[override]
        self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0, **_: object
    ) -> Observation:
        return Observation(frame_index, timestamp, "JP", tags=_reading(self.script[frame_index]))


STATES = [frozenset({"F01", "F02", "F03"}), frozenset({"F01", "F02"}), frozenset({"F01", "F03"}), frozenset()]


@settings(max_examples=150, deadline=None)
@given(
    runs=st.lists(st.tuples(st.integers(0, len(STATES) - 1), st.integers(1, 5)), min_size=1, max_size=12),
    window=st.integers(1, 4),
)
def test_a_reading_is_committed_exactly_when_it_lasted_the_window(
    runs: list[tuple[int, int]], window: int
) -> None:
    script = [STATES[state] for state, length in runs for _ in range(length)]
    tracker = Tracker(ScriptedReader(script), TrackerConfig(window=window))
    rng = np.random.default_rng(0)
    expected: frozenset[str] | None = None
    run_start = 0
    for index, reading in enumerate(script):
        if index == 0 or reading != script[index - 1]:
            run_start = index
        # Many tags vanishing at once must last longer (an arm lying still looks like that).
        needed = window * 3 if expected is not None and len(expected - reading) >= 3 else window
        if index - run_start + 1 >= needed and (expected is None or reading != expected):
            expected = reading
        picture = rng.integers(0, 256, (64, 64, 3), dtype=np.uint8)  # every frame looks different
        result = tracker.update(picture, index)
        if expected is None:
            assert not result.stable
        else:
            assert frozenset(result.tags) == expected, (index, script)
            assert result.stable == (reading == expected)
