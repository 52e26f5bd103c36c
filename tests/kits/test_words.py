"""Components, fields and score parts in the players' words, from each engine's own data."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.kits import kit_for
from engines.core import get_game
from engines.isla_nublar.board import default_board
from engines.isla_nublar.components import default_cards
from engines.jurassic_brunch.components import TOKEN_KINDS
from engines.jurassic_parts import components as parts


@pytest.mark.parametrize(("game", "name", "words"), [
    ("jurassic-parts", "TREX-2", "T-Rex 2"),
    ("jurassic-parts", "PTERO", "Pterodactyl"),
    ("jurassic-parts", "BONES:RAPTOR-1", "Pile of Bones as Velociraptor 1"),
    ("jurassik", "D3-2", "dinosaur 3, piece 2"),
    ("jurassik", "D10-4L", "dinosaur 10, piece 4, living side"),
    ("jurassik", "D7", "dinosaur 7"),
    ("jurassik", "STEAL-3", "Stealing tile"),
    ("jurassik", "steal", "a Stealing tile"),
    ("jurassic-brunch", "TRAP", "It Was a Trap!"),
    ("jurassic-brunch", "STODGY", "Stodgy Grass"),
    ("isla-nublar", "DINO-2", "Velociraptor"),
    ("isla-nublar", "EGG", "dinosaur egg"),
    ("isla-nublar", "S-AMBER1", "starting card: 1 amber"),
    ("isla-nublar", "A3-AMBER2-BOXES2", "action card (3): 2 amber + 2 boxes"),
    ("isla-nublar", "W-ON-PARK", "scoring card: camps on park"),
])
def test_named_as_players_say(game: str, name: str, words: str) -> None:
    assert kit_for(game).component_words(name) == words


def test_every_card_figure_tile_and_token_has_words() -> None:
    cards = default_cards()
    isla = kit_for("isla-nublar")
    for name in [*cards.cards, *cards.tiles, *default_board().fields]:
        assert isla.component_words(name), name
    assert all(kit_for("jurassic-brunch").component_words(kind) for kind in TOKEN_KINDS)
    assert all(kit_for("jurassic-parts").component_words(kind) for kind in parts.KIND_NAMES)
    assert kit_for("jurassik").component_words("dinosaurs") is None  # not a component: shown as it is


def test_isla_nublar_fields_are_counted_down_each_column_from_one() -> None:
    board = default_board()
    words = {fid: kit_for("isla-nublar").component_words(fid) for fid in board.fields}
    assert len(set(words.values())) == len(words)  # no two fields read alike
    for column in {f.column for f in board.fields.values()}:
        ids = sorted((f.row, fid) for fid, f in board.fields.items() if f.column == column)
        assert str(words[ids[0][1]]).startswith(f"column {column + 1}, field 1 ")


def test_slab_tiles_keep_their_words_all_game() -> None:
    kit = kit_for("jurassic-parts")
    state = get_game("jurassic-parts").new_initial_state(["red", "blue"], random.Random(2))
    start = {tuple(t["cell"]): kit.cell_words(state.view(None), t["cell"]) for t in state.view(None)["slab"]}
    assert len({w.split(" (")[0] for w in start.values() if w}) == len(start)  # one place, one name
    rng = random.Random(2)
    for _ in range(60):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    for tile in state.view(None)["slab"]:
        words = kit.cell_words(state.view(None), tile["cell"])
        assert words and words.split(" (")[0] == str(start[tuple(tile["cell"])]).split(" (")[0]


def test_options_are_told_apart_by_what_they_do_not_share() -> None:
    from companion.words import shared_words

    snap = {"game": "isla-nublar"}
    plays = [{"kind": "play", "player": "red", "card": "S-AMBER1-BOXES1", "use": use}
             for use in ("none", "amber", "boxes")]
    assert shared_words(plays, snap) == ("play starting card: 1 amber + 1 box",
                                         ["without its action", "use amber", "use boxes"])
    different = [plays[0], {"kind": "end-turn", "player": "red"}]
    assert shared_words(different, snap) == ("", [])
    assert shared_words(plays[:1], snap) == ("", [])


def test_messages_name_components_and_fields_as_players_do() -> None:
    from companion.words import in_words

    said = in_words("DINO-2 may not skip the occupied field C2R2 (IN-DINO-MOVE)", {"game": "isla-nublar"})
    assert said.startswith("Velociraptor may not skip the occupied field column 3, field 3 (")
    assert said.endswith("(IN-DINO-MOVE)")  # a rule's id is no component: left as it is
    jurassik = in_words("D3-1 is not on the grid", {"game": "jurassik"})
    assert jurassik == "dinosaur 3, piece 1 is not on the grid"
    assert in_words("DINO-2 moved", None) == "DINO-2 moved"


def test_a_chance_step_says_whose_it_was() -> None:
    from companion.words import event_label

    drawn = {"player": None, "action": {"kind": "draw", "player": "red", "concealed": True}}
    assert event_label(drawn, {"game": "isla-nublar"}) == "draw (concealed) for red"
    assert event_label({"player": "red", "action": {"kind": "end-turn", "player": "red"}}) == "end turn"


def test_jurassic_parts_diagram_spells_out_each_short_name() -> None:
    import random

    from companion.kits import kit_for
    from engines.core import get_game

    state = get_game("jurassic-parts").new_initial_state(["red", "blue"], rng=random.Random(2))
    players = [{"name": c, "colour": c} for c in ("red", "blue")]
    svg = kit_for("jurassic-parts").diagram(state.view(None), {"game": "jurassic-parts", "players": players})
    assert "Rex\u00a0T-Rex" in svg and "Bra\u00a0Brachiosaurus" in svg and "Vel\u00a0Velociraptor" in svg
    assert ">1</text>" in svg  # the rows are numbered as the page's words count them
    assert "TREX" not in svg and "BRACHIO" not in svg


def test_jurassic_parts_rings_the_tiles_and_gaps_an_objection_names() -> None:
    import random

    from companion.kits import kit_for
    from engines.core import get_game
    from engines.jurassic_parts.actions import PlaceChisel

    kit = kit_for("jurassic-parts")
    state = get_game("jurassic-parts").new_initial_state(["red", "blue"], rng=random.Random(2))
    players = [{"name": c, "colour": c} for c in ("red", "blue")]
    chisel = next(a for a in state.legal_actions() if isinstance(a, PlaceChisel))
    after = state.apply(chisel)
    model = kit.model({c: c for c in ("red", "blue")})
    from companion.infer.picture import compare

    differences = compare(model.expected(state), model.expected(after), model.tolerance)  # a chisel put down
    tile = next(iter(model.expected(state).items.values()))[0]
    missing = {"what": "back", "change": "vanished", "item": "back", "seen": None,
               "expected": {"zone": tile.zone, "at": list(tile.at)}}
    pending = {"kind": "objection", "differences": [d.to_dict() for d in differences] + [missing]}
    view = state.view(None)
    plain = kit.diagram(view, {"game": "jurassic-parts", "players": players})
    ringed = kit.diagram(view, {"game": "jurassic-parts", "players": players, "pending": pending})
    assert 'class="marked"' not in plain
    assert ringed.count('<circle') > plain.count('<circle')  # the gap of the stray chisel
    assert ringed.count('class="marked"') == 2 and "Ringed orange" in ringed


def test_brunch_set_up_steps_name_pieces_and_cells_as_the_diagram_does() -> None:
    import random

    from companion.kits import kit_for
    from companion.words import setup_step_words
    from engines.core import get_game

    kit = kit_for("jurassic-brunch")
    state = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], rng=random.Random(3))
    view = state.view(None)
    players = [{"name": c, "colour": c} for c in ("blue", "orange")]
    scene = kit.scene(state)
    figure = next(t for t in scene.tags if ":TRI-BLUE-1" in t.payload)
    back = next(t for t in scene.tags if t.payload.split(":")[-1] not in ("RAPTOR",)
                and not t.payload.split(":")[-1].startswith(("TRI-", "BOARD-")))
    missing = [{"what": "front", "change": "vanished", "item": "TRI-BLUE-1", "seen": None,
                "expected": {"zone": "play", "at": list(figure.center)}},
               {"what": "back", "change": "vanished", "item": "back", "seen": None,
                "expected": {"zone": "play", "at": list(back.center)}}]
    snap = {"game": "jurassic-brunch", "view": view, "players": players,
            "pending": {"kind": "setup", "checklist": {"differences": missing}}}
    steps = [setup_step_words(d, snap) for d in missing]
    assert steps[0].startswith("put blue triceratops 1 on row ") and "mm" not in steps[0]
    assert steps[1].startswith("put a face-down grass token on row ")
    ringed = kit.diagram(view, snap)
    assert ringed.count('class="marked"') == 2 and "Ringed orange" in ringed
    assert "Ringed orange" not in kit.diagram(view, {**snap, "pending": None})
    assert kit.component_words("SUPER-YUMMY-04") == "a Super Yummy token"
    assert kit.component_words("TRAP-01") == "an It Was a Trap! token"


def test_isla_nublar_set_up_steps_name_each_corner_sticker_by_its_corner_and_field() -> None:
    from companion.words import setup_step_words
    from engines.isla_nublar.board import default_board

    kit = kit_for("isla-nublar")
    layout = kit.layout(["red", "blue"])
    snap = {"game": "isla-nublar", "view": {"board": "default"},
            "players": [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]}
    steps = {}
    for corner, at in layout.board_corners(default_board()).items():
        missing = {"what": "front", "change": "vanished", "item": f"BOARD-{corner}", "seen": None,
                   "expected": {"zone": "play", "at": list(at)}}
        steps[corner] = setup_step_words(missing, snap)
    assert steps["NE"].startswith("put the north-east corner sticker on the board's north-east corner, "
                                  "beside column ")
    assert all("mm" not in step and "BOARD" not in step and "field" in step for step in steps.values())
    assert len(set(steps.values())) == 4


def test_brunch_says_which_grass_token_is_turned_up_and_whose_token_is_taken() -> None:
    kit = kit_for("jurassic-brunch")
    state = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], rng=random.Random(3))
    rng, said = random.Random(3), set()
    while not state.is_terminal() and len(said) < 2:
        view = state.view(None)
        if state.is_chance_node():
            kind = view["pending"]["kind"]
            words = kit.chance_words(view)
            assert words is not None and "card" not in words
            if kind == "reveal":
                column, row = (n + 1 for n in view["pending"]["at"])
                assert words == f"the grass token on row {row}, column {column} is being turned face up"
            else:
                assert words == f"a token is being taken from {view['pending']['from']}"
            said.add(kind)
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    assert said == {"reveal", "steal"}


def test_who_turns_up_what_in_jurassik_and_jurassic_parts() -> None:
    """A chance step names the player and the place as the diagram numbers it, never just "a piece"."""
    from engines.jurassik import RemoveStart, Take

    game = get_game("jurassik")
    for seed in range(40):
        state = game.new_initial_state(["ana", "ben"], random.Random(seed)).apply(RemoveStart("ana"))
        take = next((a for a in state.legal_actions() if isinstance(a, Take)
                     and state.cells[a.row * state.cols + a.col] == "?"), None)
        if take is not None:
            break
    assert take is not None
    revealing = state.apply(take)
    assert revealing.is_chance_node()
    words = kit_for("jurassik").chance_words(revealing.view(None))
    assert words == (f"ana: turn up the action tile taken from row {take.row + 1}, column {take.col + 1}, "
                     "on the reveal spot")

    parts_game = get_game("jurassic-parts")
    rng = random.Random(2)
    state = parts_game.new_initial_state(["ana", "ben"], rng)
    for _ in range(3000):
        if state.is_chance_node() and (state.view(None).get("split") or {}).get("reveal"):
            break
        if state.is_terminal():
            state = parts_game.new_initial_state(["ana", "ben"], rng)
            continue
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state = state.apply(outcomes[0][0] if outcomes else rng.choice(state.legal_actions()))
    said = kit_for("jurassic-parts").chance_words(state.view(None))
    assert said is not None and said.startswith(("ana: turn face up", "ben: turn face up")) and "row " in said


def test_editions_are_offered_by_their_language_and_brunch_teams_by_their_people() -> None:
    from companion.words import choice_words

    assert [choice_words(c, "edition") for c in ("en", "es")] == ["English", "Español"]
    assert choice_words(False, "long_game") == "no" and choice_words("any", "slab_purchase") == "any"
    state = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], random.Random(1))
    players = [{"name": "blue", "colour": "blue", "person": "Ana"},
               {"name": "orange", "colour": "orange", "person": "Bruno"}]
    svg = kit_for("jurassic-brunch").diagram(state.view(None), {"players": players, "current": "blue"})
    assert "Ana to play" in svg and "Ana: 0 tokens" in svg and "Bruno: 0 tokens" in svg


def test_a_group_heading_is_never_cut_inside_a_place() -> None:
    """Moves sharing the start of their words are grouped under it, cut between phrases: "raptor from row
    1, column 2", never "raptor from row 1, column 2, to row 1"."""
    from companion.words import shared_words

    state = get_game("jurassic-brunch").new_initial_state(["blue", "orange"], random.Random(1))
    snap = {"game": "jurassic-brunch", "view": state.view(None)}
    cells = sorted(tuple(c) for c in state.area.cells)
    words = {cell: kit_for("jurassic-brunch").cell_words(snap["view"], cell) or "" for cell in cells}
    start = cells[0]
    row_of = {cell: words[cell].split(",")[0] for cell in cells}  # "row 3"
    ends = next([a, b] for a in cells[1:] for b in cells[1:] if a < b and row_of[a] == row_of[b])
    moves = [{"kind": "raptor", "from": list(start), "to": list(end)} for end in ends]
    heading, rest = shared_words(moves, snap)
    assert heading.startswith("move the raptor from row ") and heading.count(",") == 1, heading
    assert all(r.startswith("to row ") and ", column " in r for r in rest), rest


def test_a_tap_on_the_slab_never_buys_a_tile() -> None:
    from companion.kits.jurassic_parts.diagram import slab_spots

    state = get_game("jurassic-parts").new_initial_state(["red", "blue"], rng=random.Random(2))
    view = state.view(None)
    cell = view["slab"][0]["cell"]
    snapshot = {"game": "jurassic-parts", "players": [{"name": "red", "colour": "red"}]}
    def legal(kind: str) -> dict[str, Any]:
        return {**snapshot, "legal": [{"kind": kind, "player": "red", "cell": cell}]}

    assert slab_spots(view, legal("buy-slab-tile")).spots == ()
    taking = slab_spots(view, legal("take-tile"))
    assert len(taking.spots) == 1 and taking.spots[0].action["kind"] == "take-tile"
