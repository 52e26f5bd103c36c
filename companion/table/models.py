"""Which inference model a table plays with: the game's, its table laid out on the area the camera's
calibration marks (the seats along its edges, the play in its middle) when the game fits that area."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.config import Config
from companion.infer import TableModel
from companion.kits import kit_for
from companion.kits.tabletop import TableAreaError
from vision.scene import CALIBRATION_MARKER_IDS

log = logging.getLogger(__name__)


def players_by_colour(config: Config) -> Mapping[str, str]:
    return {seat.colour: seat.name for seat in config.seats}


def default_model(config: Config, area: tuple[float, float] | None = None) -> TableModel:
    """The game's inference model, its table laid out on ``area`` (w, h mm: the calibrated one) when
    given; :class:`TableAreaError` when the game does not fit that area."""
    kit = kit_for(config.game)
    players = players_by_colour(config)
    if area is None:
        return kit.model(players)
    return kit.model(players, kit.layout_for_area(list(players), *area))


def model_for_table(config: Config, calibration: Any) -> tuple[TableModel, str | None]:
    """The model laid out on the area ``calibration`` (a :class:`vision.calibration.Calibration`, or
    None) marks, and None; the default layout and the reason when the game does not fit that area."""
    layout = getattr(calibration, "layout", None)
    if not layout or not all(i in layout for i in CALIBRATION_MARKER_IDS):
        return default_model(config), None
    area = (abs(layout[1][0] - layout[0][0]), abs(layout[3][1] - layout[0][1]))
    try:
        return default_model(config, area), None
    except TableAreaError as error:
        log.warning("%s", error)
        return default_model(config), f"{error} (the calibration marks {area[0]:.0f} x {area[1]:.0f} mm)"
