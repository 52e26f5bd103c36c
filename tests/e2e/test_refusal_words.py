"""An engine's refusal is said in each reader's language: the Spanish edition's players read why the table
is objected to in Spanish, a German reader in German (Isla Nublar's too), the command line in English."""

from __future__ import annotations

import copy
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
        scene = copy.deepcopy(table.loop.referee.model.scene(table.loop.current_state()))
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
        assert said["es"] == "Jugada no válida: red debe retirar primero la carta inicio de excavación"
        assert said["de"] == "Ungültiger Zug: red muss zuerst das Startplättchen der Ausgrabung wegnehmen"
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
