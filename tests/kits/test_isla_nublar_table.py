"""Isla Nublar table layout: the island board placed and turned, camps and boxes by colour, figures."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import zxingcpp
from helpers.playouts import seeded_states

from companion.kits.isla_nublar.table import IslaNublarLayout, scene_for
from engines.isla_nublar import GAME, IslaNublarState, default_board
from sim.camera_model import recommended_camera
from sim.effects import Effects
from sim.render import render
from vision.scene import SEAT_RGB


def playout(players: int, seed: int, steps: int) -> list[IslaNublarState]:
    states = seeded_states(GAME, [f"p{i}" for i in range(players)], seed, steps)
    assert all(isinstance(state, IslaNublarState) for state in states)
    return states


@pytest.mark.parametrize("angle", [90.0, 0.0, 37.0])
def test_board_and_table_coordinates_are_inverse(angle: float) -> None:
    board = default_board()
    layout = IslaNublarLayout(board_angle=angle)
    for field_id in board.fields:
        center = layout.field_center(board, field_id)
        assert layout.field_at(board, center) == field_id
        back = layout.mm_to_board(board, center)
        assert back == pytest.approx(board.centre(field_id))
    # Neighbouring fields are one pitch apart on the table.
    first = next(iter(board.fields.values()))
    for neighbour in first.neighbours:
        distance = math.dist(
            layout.field_center(board, first.field_id), layout.field_center(board, neighbour)
        )
        assert distance == pytest.approx(layout.pitch)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_fits_between_the_seats(players: int) -> None:
    board = default_board()
    layout = IslaNublarLayout(seats=players)
    zones = layout.zones(board)
    play = zones[0]
    corners = layout.board_corners(board)
    for point in [*(layout.field_center(board, f) for f in board.fields), *corners.values()]:
        assert play.contains(point)
        assert 60.0 < point[0] < layout.width - 60.0 and 60.0 < point[1] < layout.height - 60.0
        for seat in layout.seat_places:
            assert not seat.zone.contains(point)
    # The corner tags keep the board's compass: NW is the volcano end's west corner.
    x0, y0, _, _ = board.extent()
    assert (
        layout.mm_to_board(board, corners["NW"])[0] < x0 and layout.mm_to_board(board, corners["NW"])[1] < y0
    )


def test_camps_and_boxes_are_pegs_where_the_state_has_them() -> None:
    layout = IslaNublarLayout(seats=3)
    for state in playout(3, seed=2, steps=400)[::20]:
        scene = scene_for(state, layout)
        colour = dict(zip(state.players, layout.colours))
        places = layout.figure_places(state)
        covered = {field for field in state.dinos.values() if field is not None}
        assert covered <= layout.covered_fields(state.board, places)
        covered = layout.covered_fields(state.board, places)
        for field_id in state.board.fields:
            if field_id in covered:
                continue
            center = layout.field_center(state.board, field_id)
            stack = state.camps.get(field_id, [])
            camp = [p for p in scene.pegs if p.label == f"camp {field_id}"]
            if stack and layout.hidden_by_figure(center, layout.camp_radius, places):
                assert not camp
            elif stack:
                assert len(camp) == 1 and camp[0].center == center
                assert camp[0].height == len(stack) and camp[0].colour == colour[stack[-1]]
            else:
                assert not camp
            boxes = [p for p in scene.pegs if p.label == f"box {field_id}"]
            spots = iter(layout.box_spots(state.board, field_id))
            expected: dict[str, int] = {}
            for owner, count in sorted(state.boxes.get(field_id, {}).items()):
                for spot in [next(spots, None) for _ in range(count)]:
                    if spot is not None and not layout.hidden_by_figure(spot, layout.box_radius, places):
                        expected[colour[owner]] = expected.get(colour[owner], 0) + 1
            got: dict[str, int] = {}
            for peg in boxes:
                got[peg.colour] = got.get(peg.colour, 0) + 1
                assert layout.field_at(state.board, peg.center) == field_id
            assert got == expected
        # Supplies: every player's remaining camps and boxes lie in their zone.
        # Supplies are scenery (the camera reads pieces on the board only): one body disc per piece.
        assert all(layout.field_at(state.board, p.center) is not None for p in scene.pegs)
        for seat, player in zip(layout.seat_places, state.players):
            bodies = [s for s in scene.shapes if s.fill == SEAT_RGB[seat.colour]]
            in_zone = [s for s in bodies if seat.zone.contains(s.polygon[0])]
            assert sum(1 for s in in_zone if s.label == "camp supply") == state.personal[player]["camps"]
            assert sum(1 for s in in_zone if s.label == "box supply") == state.personal[player]["boxes"]


def test_a_rendered_frame_reads_every_tag_and_peg_colour() -> None:
    state = playout(4, seed=5, steps=300)[-1]
    scene = scene_for(state)
    frame = render(scene, recommended_camera(tilt=5.0), Effects.realistic(), 1)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    # Colours are checked under even light: telling yellow from orange under a shadow is the vision's job.
    clean = render(scene, recommended_camera(tilt=5.0), Effects(blur=0.6, noise=2.0), 1)
    assert read == {tag.payload for tag in scene.tags}
    assert {t.payload for t in scene.tags} >= {f"DT1:IN:BOARD-{c}" for c in ("NW", "NE", "SE", "SW")}
    for truth in clean.pegs:
        x, y = (round(v) for v in truth.center)
        bgr = clean.image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)
        distances = {name: float(np.linalg.norm(bgr[::-1] - np.array(rgb))) for name, rgb in SEAT_RGB.items()}
        assert min(distances, key=distances.__getitem__) == truth.colour


def crowded(figures_on: dict[str, str | None], boxes: dict[str, int]) -> IslaNublarState:
    """A 2-player start with the figures and the first player's boxes where a test wants them."""
    state = playout(2, seed=1, steps=0)[0].clone()
    state.dinos.update(figures_on)
    state.boxes = {field: {state.players[0]: n} for field, n in boxes.items()}
    return state


# Figures gather at the ends of columns 1 and 5 (a dinosaur at an upper area's edge cannot move on): two,
# three or four on one field, with a figure on the next field of the column and boxes all round.
CROWDS = [
    {"DINO-2": "C1R6", "DINO-3": "C1R6", "DINO-4": "C1R5", "DINO-1": "C5R6"},
    {"DINO-1": "C1R6", "DINO-2": "C1R6", "DINO-3": "C2R6", "DINO-4": "C0R5"},
    {"DINO-1": "C5R6", "DINO-2": "C5R6", "DINO-3": "C5R6", "DINO-4": "C5R5"},
    {"DINO-1": "C1R6", "DINO-2": "C1R6", "DINO-3": "C1R6", "DINO-4": "C1R6"},
]


@pytest.mark.parametrize("figures", CROWDS)
def test_figures_sharing_a_field_keep_their_codes_clear(figures: dict[str, str | None]) -> None:
    layout = IslaNublarLayout(seats=2)
    board = default_board()
    near = {n for f in set(figures.values()) if f for n in board.fields[f].neighbours}
    free = [f for f in near if not board.fields[f].volcano and f not in figures.values()]
    state = crowded(figures, {f: 1 for f in free})
    places = layout.figure_places(state)
    scene = scene_for(state, layout)
    figure_tags = [t for t in scene.tags if ":DINO-" in t.payload]
    assert len(figure_tags) == 4
    clear = layout.figure_clearance
    for i, a in enumerate(figure_tags):
        for b in figure_tags[i + 1 :]:
            assert max(abs(a.center[0] - b.center[0]), abs(a.center[1] - b.center[1])) >= clear - 1e-6
    # the figures of a crowd stand round their field: within a pitch of its centre
    for figure, field_id in figures.items():
        assert field_id is not None
        assert math.dist(places[figure], layout.field_center(board, field_id)) < layout.pitch
    # no piece is drawn over a figure (the renderer draws pegs last: a peg there would hide a code)
    assert not any(layout.hidden_by_figure(p.center, p.radius, places) for p in scene.pegs)
    frame = render(scene, recommended_camera(tilt=5.0), Effects(blur=0.6, noise=2.0), 1)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    assert read == {tag.payload for tag in scene.tags}


def test_every_card_has_a_sticker_for_each_copy() -> None:
    from companion.kits.isla_nublar.tags import INVENTORY, STARTING_DECKS, card_tags, copies_of_cards
    from engines.isla_nublar.components import default_cards
    from vision.tags import parse_payload

    cards = default_cards().cards
    copies = copies_of_cards()
    assert set(copies) == set(cards)
    for card_id, card in cards.items():
        assert len(copies[card_id]) == card.count * (STARTING_DECKS if card.group == "starting" else 1)
    assert len(card_tags()) == 120 and len(set(card_tags())) == 120
    faces = {face.component_id: face for face in INVENTORY.faces if face.kind == "card"}
    assert set(faces) == set(card_tags())
    assert faces[copies["A3-HIDEOUT"][0]].component == "action card (3): 1 amber + hideout"
    for tag in card_tags():
        assert not isinstance(parse_payload(f"DT1:IN:{tag}"), str), tag


def played(state: IslaNublarState, cards: dict[str, dict[str, int]]) -> IslaNublarState:
    """``state`` with these cards laid face up (moved from wherever they lie, none made)."""
    from engines.isla_nublar.components import add, take

    laid = state.clone()
    for player, zone in cards.items():
        for card, n in zone.items():
            for _ in range(n):
                source = next(zone for p in laid.players for name, zone in laid.zones[p].items()
                              if name != "played" and zone.get(card))
                take(source, card)
                add(laid.zones[player]["played"], card)
    return laid


def in_seat(scene: Any, tag: Any) -> bool:
    return (scene.zone_at(tag.center) or "").startswith("seat:")


def test_cards_laid_face_up_lie_in_their_players_areas() -> None:
    state = playout(2, seed=1, steps=0)[0]
    red, blue = state.players
    laid = played(state, {red: {"S-BOXES2": 2, "S-AMBER1": 1}, blue: {"S-BOXES2": 1}})
    layout = IslaNublarLayout(seats=2)
    for sketch in (False, True):
        scene = scene_for(laid, layout, sketch=sketch)
        cards = [t for t in scene.tags if ":CARD-" in t.payload and in_seat(scene, t)]
        assert len(cards) == 4 and len({t.payload for t in cards}) == 4  # copies of a card differ
        zones = [scene.zone_at(t.center) for t in cards]
        assert sorted(zones) == ["seat:blue", "seat:red", "seat:red", "seat:red"]
        for tag in cards:
            seat = next(s for s in layout.seat_places if s.zone.name == scene.zone_at(tag.center))
            assert tag.angle == seat.facing  # upright for the player who laid it


@pytest.mark.parametrize(("players", "surface"), [(4, "plain"), (3, "wood")])
def test_a_rendered_frame_reads_every_card_laid_face_up(players: int, surface: str) -> None:
    """Six cards in front of each player, read in a realistic frame and in one of a wooden table under
    warm, uneven light with the sheets and clutter of a real table about."""
    from sim.fixtures import add_clutter

    state = playout(players, seed=3, steps=0)[0]
    cards = ("S-BOXES2", "S-AMBER1", "S-AMBER1-BOXES1", "EGG", "S-AMBER1", "S-BOXES2")
    laid = played(state, {p: {c: cards.count(c) for c in set(cards)} for p in state.players})
    scene = scene_for(laid)
    effects = Effects.realistic()
    if surface == "wood":
        add_clutter(scene, seed=players)
        effects = Effects(blur=0.8, noise=3.0, vignette=0.25, gradient=0.3, white_balance=(1.1, 1.0, 0.86),
                          jpeg_quality=85, surface="wood", surface_seed=players)
    frame = render(scene, recommended_camera(tilt=6.0), effects, 1)
    read = {code.text for code in zxingcpp.read_barcodes(frame.image)}
    stickers = {t.payload for t in scene.tags if ":CARD-" in t.payload}
    market = {t.payload for t in scene.tags if ":CARD-" in t.payload and not in_seat(scene, t)}
    assert len(stickers - market) == 6 * players and len(market) == 10 and stickers <= read


def test_a_board_part_to_lay_rings_its_corner_field_and_a_place_off_the_board_rings_none() -> None:
    from companion.kits import find_kit
    from engines.isla_nublar.board import default_board

    board = default_board()
    layout = find_kit("isla-nublar").layout(["red", "blue"])
    corners = layout.board_corners(board)
    named = {name: layout.field_near(board, at) for name, at in corners.items()}
    assert all(named.values()) and len(set(named.values())) == 4
    for name, field in named.items():
        others = [layout.field_center(board, f) for f in board.fields if f != field]
        nearest = min(math.dist(corners[name], c) for c in others)
        assert math.dist(corners[name], layout.field_center(board, str(field))) <= nearest
    assert layout.field_near(board, (5.0, 5.0)) is None
    some = next(iter(board.fields))
    assert layout.field_near(board, layout.field_center(board, some)) == some


def test_the_cards_a_dealt_seat_plays_lie_on_the_page_only() -> None:
    """The companion's cards are dealt by the engine: nobody lays them, so the camera expects none of them
    in its seat's area, while the people's played cards lie in theirs."""
    import random

    options = GAME.resolve_options({"table_cards": "table", "dealt_seats": ["Bo"]})
    state = GAME.new_initial_state(["Ana", "Bo"], rng=random.Random(1), options=options)
    state.zones["Ana"]["played"] = {"S-BOXES2": 1}
    state.zones["Bo"]["played"] = {"S-BOXES2": 1, "S-AMBER1": 1}
    scene = scene_for(state)
    seats = {zone.name: zone for zone in scene.zones if zone.name.startswith("seat:")}

    def cards_in(colour: str) -> int:
        zone = seats[f"seat:{colour}"]
        return sum(1 for tag in scene.tags if ":CARD-" in tag.payload and zone.contains(tag.center))

    ana, bo = IslaNublarLayout(seats=2).colours[:2]
    assert cards_in(ana) == 1 and cards_in(bo) == 0
    state.options = GAME.resolve_options({"table_cards": "table"})
    scene = scene_for(state)
    assert cards_in(bo) == 2
