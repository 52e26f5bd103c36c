"""The Isla Nublar table diagram: drawn from the shared view, showing the board and nothing private."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from companion.drawing import rgb
from companion.kits.isla_nublar.words import isla_nublar_words
from companion.web.svg import board_svg
from engines.core import get_game, sample_chance
from engines.isla_nublar.actions import BuildCamp
from engines.isla_nublar.board import default_board

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = ["red", "blue", "green"]


def _playout(seed: int, steps: int) -> Any:
    engine = get_game("isla-nublar")
    rng = random.Random(seed)
    state = engine.new_initial_state(COLOURS, rng=rng)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
            continue
        # random play seldom builds a camp: take one whenever it is legal so stacks appear
        actions = state.legal_actions()
        camps = [a for a in actions if isinstance(a, BuildCamp)]
        state = state.apply(rng.choice(camps or actions))
    return state


@pytest.fixture(scope="module")
def busy_state() -> Any:
    """A seeded playout with camps (one stack two high or more) and boxes on the board."""
    for seed in range(20):
        state = _playout(seed, 400)
        fields = state.view(None)["fields"].values()
        if any(len(f.get("camps", ())) >= 2 for f in fields) and any(f.get("boxes") for f in fields):
            return state
    pytest.fail("no seeded playout reached a board with camps and boxes")


def _snapshot(state: Any) -> dict[str, Any]:
    return {"game": "isla-nublar", "title": "Isla Nublar", "view": state.view(None), "current": None,
            "players": [{"name": c, "colour": c} for c in COLOURS]}


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_the_diagram_is_well_formed_with_one_hexagon_per_field(busy_state: Any) -> None:
    svg = board_svg(_snapshot(busy_state))
    root = ET.fromstring(svg)
    fields = [p for p in root.iter(f"{SVG}polygon") if len(p.get("points", "").split()) == 6]
    assert len(fields) == len(default_board().fields)
    assert 'font-size="22"' not in svg  # not the summary title card


def test_every_figure_camp_and_box_on_the_board_is_drawn(busy_state: Any) -> None:
    view = busy_state.view(None)
    svg = board_svg(_snapshot(busy_state))
    root = ET.fromstring(svg)
    texts = _texts(root)
    for dino in view["dinosaurs"]:  # by the names on the dinosaur cards (shortened, the full name kept)
        named = str(isla_nublar_words(dino))
        assert any(named in "".join(t.itertext()) for t in root.iter(f"{SVG}text")), dino
        assert not any(dino in t for t in texts), dino
    camp_fills = {c.get("fill") for c in root.iter(f"{SVG}circle")}
    titles = {t.text for t in root.iter(f"{SVG}title")}
    box_fills = {r.get("fill") for r in root.iter(f"{SVG}rect") if r.get("width") == "6"}
    for content in view["fields"].values():
        if content.get("camps"):
            assert rgb(content["camps"][-1]) in camp_fills
            assert str(len(content["camps"])) in texts
            assert f"camps: {', '.join(content['camps'])}" in titles  # the whole stack, bottom first
        for owner in content.get("boxes", {}):
            assert rgb(owner) in box_fills
    boxes_drawn = sum(n for f in view["fields"].values() for n in f.get("boxes", {}).values())
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("width") == "6"]) == boxes_drawn


def test_the_scoring_row_is_named_and_no_hand_card_shows(busy_state: Any) -> None:
    view = busy_state.view(None)
    root = ET.fromstring(board_svg(_snapshot(busy_state)))
    texts = " ".join(_texts(root))
    shown = {card for card in view["scoring_row"] if card}
    words = {str(isla_nublar_words(card)).removeprefix("scoring card: ") for card in shown}
    assert shown and all(word in texts for word in words), (words, texts)
    public = set(shown) | set(view["dinosaurs"])
    for zones in view["cards"].values():
        for zone in ("discard", "played"):
            public |= set(zones[zone])
    private = {card for p in busy_state.players for card in busy_state.zones[p]["hand"]} - public
    assert private, "the seeded state should hold some card only in a hand"
    everything = ET.tostring(root, encoding="unicode")
    for card in private:
        assert card not in everything, card


def test_an_unreadable_view_falls_back_to_the_title_card() -> None:
    svg = board_svg({"game": "isla-nublar", "title": "Isla Nublar", "view": {"board": 7},
                             "players": []})
    assert 'font-size="22"' in svg


def test_the_fields_an_objection_names_are_ringed(busy_state: Any) -> None:
    from companion.kits import kit_for

    kit = kit_for("isla-nublar")
    layout = kit.layout(COLOURS)
    at = layout.field_center(default_board(), "C3R2")
    stray = {"what": "peg", "change": "appeared", "item": "red", "expected": None,
             "seen": {"zone": "play", "at": list(at)}}
    snapshot = _snapshot(busy_state)
    plain = kit.diagram(busy_state.view(None), snapshot)
    ringed = kit.diagram(busy_state.view(None), {**snapshot, "pending": {"kind": "objection",
                                                                         "differences": [stray]}})
    assert 'class="marked"' not in plain and ringed.count('class="marked"') == 1
