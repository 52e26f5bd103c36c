"""An engine's refusal is said in each reader's language: the Spanish edition's players read why the table
is objected to in Spanish, a German reader in German (Isla Nublar's too), the command line in English."""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from pathlib import Path

import pytest
from table import build_table

from companion import words
from companion.i18n import speaking
from engines.core import IllegalAction, get_game
from engines.jurassik.actions import Take


def test_a_refusal_keeps_its_message_and_values_apart_from_the_english() -> None:
    game = get_game("jurassik")
    state = game.new_initial_state(["Ana", "Bo"], options=game.resolve_options({"edition": "es"}))
    with pytest.raises(IllegalAction) as refused:
        state.apply(Take("Bo", 0, 0))
    error = refused.value
    assert error.detail == "it is Ana's turn, not Bo's" and error.rule.rule_id == "JK-TURN"
    assert error.said() == {"message": "it is %(player)s's turn, not %(other)s's",
                            "params": {"player": "Ana", "other": "Bo"}}
    assert error.to_dict()["said"] == error.said()
    explained = state.explain(Take("Bo", 0, 0))
    assert explained.summary == error.detail and explained.details["said"] == error.said()


def test_the_table_s_objection_is_said_in_the_reader_s_language(tmp_path: Path) -> None:
    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=2, options={"edition": "es"})
    try:
        table.frames(6)  # the set-up is read and the game starts
        scene = copy.deepcopy(table.loop.game.model.scene(table.loop.current_state()))
        taken = next(tag for tag in scene.tags if ":D" in tag.payload)
        # a dinosaur lifted before the start tile
        scene.tags = [tag for tag in scene.tags if tag is not taken]
        table.camera.show(scene)
        table.frames(8)
        snapshot = table.loop.snapshot()
        pending = snapshot["pending"]
        assert pending["kind"] == "objection"
        said = {}
        for code in ("es", "de", "en"):
            with speaking(code):
                said[code] = words.said_words(pending.get("said"), pending.get("text"), snapshot)
        # the seat named by its colour is said in the reader's words
        assert said["es"] == "Jugada no válida: rojo debe retirar primero la carta inicio de excavación"
        assert said["de"] == "Ungültiger Zug: rot muss zuerst das Startplättchen der Ausgrabung wegnehmen"
        english = "Illegal move: red must first remove the beginning-of-excavation tile"
        assert said["en"] == pending["text"] == english
    finally:
        table.close()


def test_isla_nublar_s_refusals_are_said_in_german() -> None:
    from companion.i18n import Said
    from engines.isla_nublar.actions import EndTurn

    game = get_game("isla-nublar")
    state = game.new_initial_state(["Ana", "Bo"], rng=random.Random(1))
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    mover = state.current_player()
    other = next(p for p in state.players if p != mover)
    explained = state.explain(EndTurn(other))
    assert not explained.legal
    sentence = Said.from_dict(explained.details["said"])
    assert sentence is not None
    with speaking("de"):
        assert sentence.words() == f"{mover} ist am Zug, nicht '{other}'"
    with speaking("en"):
        assert sentence.words() == explained.summary == f"it is {mover}'s move, not '{other}''s"


def test_a_refusal_names_the_cells_as_the_diagram_numbers_them(tmp_path: Path) -> None:
    """A triceratops stopped short of where its slide ends: the objection says both cells as the page's
    diagram numbers them, in the reader's language (the engine's own coordinates only in the English log)."""
    table = build_table("jurassic-brunch", ["blue", "orange"], tmp_path, seed=1)
    try:
        table.frames(6)
        loop = table.loop
        model = loop.game.model
        for _ in range(80):
            # played on by the bots until a triceratops may slide two cells or more and cannot charge (a
            # charge whose expelled team-mate is put down there would explain the table as well)
            state = loop.current_state()
            legal = state.legal_actions()
            move = next((a for a in legal if a.kind == "move"
                         and max(abs(a.to[0] - a.origin[0]), abs(a.to[1] - a.origin[1])) >= 2
                         and not any(c.kind == "charge" and c.origin == a.origin for c in legal)), None)
            if move is not None and loop.snapshot().get("pending") is None:
                break
            table.driver.step()
        assert move is not None, "no long slide in 80 moves"
        step = tuple((t > o) - (t < o) for o, t in zip(move.origin, move.to))
        short = (move.origin[0] + step[0], move.origin[1] + step[1])
        layout = model.layout_of(state)
        scene = copy.deepcopy(model.scene(state))
        figure = min((tag for tag in scene.tags if "TRI-" in tag.payload),
                     key=lambda tag: math.dist(tag.center, layout.cell_center(move.origin)))
        scene.tags = [dataclasses.replace(tag, center=layout.cell_center(short)) if tag is figure else tag
                      for tag in scene.tags]
        table.camera.show(scene)
        table.frames(8)
        snapshot = loop.snapshot()
        pending = snapshot["pending"]
        assert pending["kind"] == "objection" and pending["rule"]["id"] == "JB-MOVE"

        def place(cell: tuple[int, int]) -> str:
            return words.said_values(snapshot)("cell", list(cell)) or ""

        said = {}
        for code in ("es", "de", "en"):
            with speaking(code):
                said[code] = words.said_words(pending.get("said"), pending.get("text"), snapshot)
                said[code + "-places"] = (place(move.origin), place(move.to), place(short))
        origin, end, stopped = said["es-places"]
        assert origin.startswith("fila ") and "columna" in origin
        assert said["es"] == (f"Jugada no válida: el triceratops de {origin} se desliza hasta {end}, no "
                              f"hasta {stopped}")
        origin, end, stopped = said["de-places"]
        assert said["de"] == (f"Ungültiger Zug: der Triceratops auf {origin} gleitet bis {end}, nicht bis "
                              f"{stopped}")
        origin, end, stopped = said["en-places"]
        assert said["en"] == f"Illegal move: the triceratops on {origin} slides to {end}, not {stopped}"
        assert "[" not in said["en"] + said["es"] + said["de"]
    finally:
        table.close()


def test_a_sentence_inside_a_sentence_is_read_untrusted() -> None:
    from companion.i18n import Said

    nested: dict[str, object] = {"message": "%(detail)s", "params": {"cell": [1, 2]}}
    for _ in range(8):
        nested = {"message": "Illegal move: %(detail)s", "params": {"detail": nested}}
    sentence = Said.from_dict(nested)
    assert sentence is not None and sentence.words().count("Illegal move") == 4  # no deeper than that
    odd = Said.from_dict({"message": "at %(cell)s", "params": {"cell": [1, True], "other": [1, 2, 3]}})
    assert odd is not None and odd.params == {} and odd.words() == "at %(cell)s"
    cell = Said.from_dict({"message": "at %(cell)s", "params": {"cell": (4, 5)}})
    assert cell is not None and cell.words() == "at [4, 5]"
    assert cell.words(lambda key, value: "row 6, column 5" if key == "cell" else None) == "at row 6, column 5"
