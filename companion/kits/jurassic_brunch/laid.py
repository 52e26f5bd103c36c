"""The pasture as the group joined it: the four boards' centre codes, read while nothing covers them (the
group joins the boards first, then lays the figures and the grass), each board's middle cell snapped to a
square lattice of the cells' own pitch wherever the pasture lies and its turn read from its code's angle,
into the engine's set-up document. The figures and the grass follow from the boards (the eggs are printed
on them): the checklist asks for them once the boards are read."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import partial
from typing import Any

from companion.i18n import gettext, said, said_everywhere
from companion.kits.jurassic_brunch.diagram import piece_words
from companion.kits.jurassic_brunch.table import BrunchLayout
from companion.kits.kit import TableAsLaid
from companion.kits.tabletop import OUT_OF_LINE, SAME_PLACE_MM
from engines.jurassic_brunch.board import BOARD_IDS, AreaError, PlayingArea, boards_from_tags
from vision.observation import Observation, TagReading


def _words(ids: list[str]) -> str:
    names = [piece_words(board_id) or board_id for board_id in ids]
    if len(names) == 1:
        return names[0]
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _boards_words(seen: list[str], missing: list[str]) -> dict[str, str]:
    return {"seen": _words(seen), "missing": _words(missing)}


def _board_words(board_id: str) -> dict[str, str]:
    return {"board": piece_words(board_id) or board_id}


def _on_the_table(reading: TagReading) -> bool:
    return reading.center_mm is not None and not (reading.zone or "").startswith(("seat", "box"))


def read_pasture(observation: Observation, layout: Any) -> TableAsLaid:
    """The boards on the table as one pasture (see the module's note); ``layout``: the table's (its
    width and height, and where the companion would lay a pasture of these boards)."""
    seen = {r.component_id: r for r in observation.tags.values()
            if r.component_id in BOARD_IDS and _on_the_table(r)}
    if not seen and any(r.zone == "play" for r in observation.tags.values()):
        return TableAsLaid(None, {}, (said("the pasture boards' middle codes are covered: lift what lies on "
                                           "each board's middle cell for a moment, so the camera reads how "
                                           "they are joined"),), 0)
    if not seen:
        return TableAsLaid(None, {}, (said("join the four pasture boards the way you like, each touching "
                                           "another, before laying anything on them"),), 0)
    missing = [board_id for board_id in BOARD_IDS if board_id not in seen]
    if missing:
        words = partial(_boards_words, sorted(seen), missing)
        step = (said_everywhere("the camera sees %(seen)s: lay %(missing)s beside them, nothing on its "
                                "middle cell yet", words) if len(missing) == 1 else
                said_everywhere("the camera sees %(seen)s: lay %(missing)s beside them, nothing on their "
                                "middle cells yet", words))
        return TableAsLaid(None, {}, (step,), len(seen))
    pitch = float(getattr(layout, "pitch", BrunchLayout.pitch))
    tags = {board_id: (*_centre(reading), reading.angle) for board_id, reading in seen.items()}
    boards = boards_from_tags(tags, pitch)
    # where cell (0, 0) lies on the table: the mean of what each board's code says of it
    starts = [(tags[b.board_id][0] - b.centre[0] * pitch, tags[b.board_id][1] - b.centre[1] * pitch)
              for b in boards]
    origin = (sum(x for x, _ in starts) / 4.0, sum(y for _, y in starts) / 4.0)
    steps = [said_everywhere("push %(board)s into line with the others",
                             partial(_board_words, b.board_id))
             for b, start in zip(boards, starts) if math.dist(start, origin) > OUT_OF_LINE * pitch]
    home = _home(boards, layout)
    if home is not None and math.dist(home.origin, origin) <= SAME_PLACE_MM:
        origin = home.origin  # laid where the companion lays it: its zones and lattice stay
    placement: dict[str, Any] = {"origin": [round(origin[0], 1), round(origin[1], 1)]}
    if home is not None:  # the table the companion lays a pasture of these boards on
        placement["table"] = [round(home.width, 1), round(home.height, 1)]
    laid = None if steps else {"boards": [board.to_dict() for board in boards]}
    return TableAsLaid(laid, placement, tuple(steps), len(seen))


def _centre(reading: TagReading) -> tuple[float, float]:
    assert reading.center_mm is not None  # only tags on the table are read
    return reading.center_mm


def _home(boards: Any, layout: Any) -> BrunchLayout | None:
    """Where the companion lays a pasture of these boards on this table (None: the joining is no
    pasture, and the engine says why)."""
    try:
        area = PlayingArea(boards)
    except AreaError:
        return None
    own = BrunchLayout.for_area(area)
    return own.on_table(layout.width, layout.height) if hasattr(layout, "width") else own


def joined_layout(layout: Any, placement: Mapping[str, Any]) -> BrunchLayout:
    """The table's layout with cell (0, 0) where ``placement`` puts it."""
    x, y = placement["origin"]
    width, height = placement.get("table") or (BrunchLayout.width, BrunchLayout.height)
    width, height = float(getattr(layout, "width", width)), float(getattr(layout, "height", height))
    pitch = float(getattr(layout, "pitch", BrunchLayout.pitch))
    return BrunchLayout(pitch=pitch, width=width, height=height, origin=(float(x), float(y)))
