"""Hands over the table: a hand-and-arm polygon reaching in from one edge of the table."""

from __future__ import annotations

import math
import random

from vision.scene import Occluder, Point


def make_hand(
    scene_width: float,
    scene_height: float,
    rng: random.Random,
    reach: Point | None = None,
    edge: str | None = None,
    scale: float = 1.0,
) -> Occluder:
    """A hand-and-arm polygon entering the table from ``edge`` ("N", "E", "S", "W"), fingertips near
    ``reach``. Sizes are an adult's (palm about 85 mm wide, arm about 75 mm wide)."""
    edge = edge or rng.choice("NESW")
    if edge not in ("N", "E", "S", "W"):
        raise ValueError(f"a hand enters from edge N, E, S or W, not {edge!r}")
    if reach is None:
        reach = (rng.uniform(0.15, 0.85) * scene_width, rng.uniform(0.15, 0.85) * scene_height)
    starts = {
        "N": (reach[0] + rng.uniform(-150, 150), -120.0),
        "S": (reach[0] + rng.uniform(-150, 150), scene_height + 120.0),
        "W": (-120.0, reach[1] + rng.uniform(-120, 120)),
        "E": (scene_width + 120.0, reach[1] + rng.uniform(-120, 120)),
    }
    start = starts[edge]
    dx, dy = reach[0] - start[0], reach[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length  # along the arm, towards the fingertips
    px, py = -uy, ux  # across the arm

    def at(along: float, across: float) -> Point:
        return (reach[0] + (ux * along + px * across) * scale, reach[1] + (uy * along + py * across) * scale)

    tone = rng.choice([(196, 150, 120), (224, 180, 150), (150, 105, 80), (110, 75, 55), (235, 200, 175)])
    # Walk round the outline: arm (one side), palm, four fingers, thumb, palm, arm (other side).
    # The middle finger's tip is at ``reach``; the knuckles are one finger length behind it.
    lengths = [rng.uniform(52, 62), rng.uniform(66, 76), rng.uniform(62, 72), rng.uniform(48, 58)]
    knuckles = -lengths[1]
    spread = rng.uniform(0.0, 0.25)  # fingers fan out a little
    arm_end = -length / scale - 40.0
    outline: list[Point] = [
        at(arm_end, -36.0),
        at(knuckles - 100.0, -34.0),
        at(knuckles - 70.0, -42.0),
        at(knuckles - 10.0, -41.0),
    ]
    for across, finger in zip([-28.5, -9.5, 9.5, 28.5], lengths):
        tip_across = across * (1.0 + spread)
        tip = knuckles + finger
        outline += [
            at(knuckles, across - 8.5),
            at(tip - 7.0, tip_across - 7.5),
            at(tip - 2.0, tip_across - 5.0),
            at(tip, tip_across),
            at(tip - 2.0, tip_across + 5.0),
            at(tip - 7.0, tip_across + 7.5),
            at(knuckles, across + 8.5),
        ]
    thumb = rng.uniform(0.0, 15.0)
    outline += [
        at(knuckles - 18.0, 40.0),
        at(knuckles + 8.0 - thumb, 60.0 + thumb * 0.3),
        at(knuckles + 4.0 - thumb, 71.0 + thumb * 0.3),
        at(knuckles - 6.0 - thumb, 72.0 + thumb * 0.3),
        at(knuckles - 45.0, 50.0),
        at(knuckles - 80.0, 42.0),
        at(knuckles - 100.0, 34.0),
        at(arm_end, 36.0),
    ]
    return Occluder(polygon=tuple(outline), rgb=tone)
