"""The Jurassik diagram: tiles in the page's words (dinosaur number, piece as dots), holdings by dinosaur,
the places the set-up list names ringed, and a legend that fits on a phone."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from helpers.playouts import seeded_states

from companion.kits import kit_for
from engines.core import get_game

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = ["red", "blue"]


def _played(steps: int, seed: int = 2) -> Any:
    return seeded_states(get_game("jurassik"), COLOURS, seed, steps)[-1]


def _snapshot(state: Any, **extra: Any) -> dict[str, Any]:
    players = [{"name": c, "colour": c, "seat": i} for i, c in enumerate(COLOURS)]
    return {"game": "jurassik", "view": state.view(None), "players": players, "current": "red",
            "legal": [], **extra}


def _texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_tiles_and_holdings_are_worded_as_the_page_words_them() -> None:
    state = _played(40)
    svg = kit_for("jurassik").diagram(state.view(None), _snapshot(state))
    texts = " ".join(_texts(svg))
    assert not re.search(r"\bD\d+(-\d)?\b", texts), texts  # no tile ids: "D8-2", "red D1 D5"
    assert "dinosaur 7, piece 2" in texts  # the legend says what a tile's number and dots are
    held = [tile for tiles in state.view(None)["hands"].values() for tile in tiles if tile.startswith("D")]
    assert held and "dinosaur " + held[0][1:].split("-")[0] in texts


def test_the_places_the_set_up_list_names_are_ringed() -> None:
    state = _played(0)
    kit = kit_for("jurassik")
    layout = kit.layout(COLOURS)
    rows, cols = state.rows, state.cols
    at = list(layout.cell_center(2, 3, rows, cols))
    missing = {"what": "back", "change": "vanished", "item": "back", "expected": {"zone": "play", "at": at},
               "seen": None}
    plain = kit.diagram(state.view(None), _snapshot(state))
    marked = kit.diagram(state.view(None), _snapshot(
        state, pending={"kind": "setup", "checklist": {"differences": [missing]}}))
    assert 'class="marked"' not in plain
    assert marked.count('class="marked"') == 1 and "ringed orange" in marked


def test_the_smallest_grid_s_legend_fits_its_picture() -> None:
    state = _played(0)
    svg = kit_for("jurassik").diagram(state.view(None), _snapshot(state))
    width = float(ET.fromstring(svg).get("viewBox", "0 0 0 0").split()[2])
    for text in _texts(svg):  # 13 px DejaVu Sans averages under 8 px a character
        assert 12 + 20 + 8 * len(text) <= width + 40, text
    assert width >= 350
