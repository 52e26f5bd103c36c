"""Whole bot-played games at a synthetic table, every frame rendered and read by the real vision pipeline,
inferred, applied, stored and signalled; they end exactly as the engine played directly by the same bots.
Illegal physical moves are flagged (with the rule) and never applied."""

from __future__ import annotations

from pathlib import Path

import pytest
from table import build_table

from companion.bots import bot_game
from companion.infer import state_key
from engines.jurassik import JurassikState


def play_and_check(game: str, colours: list[str], tmp_path: Path, seed: int) -> None:
    table = build_table(game, colours, tmp_path, seed=seed)
    try:
        reference = bot_game(table.initial_state(), seed, model=table.loop.game.model)
        final = table.driver.run()
        assert final.to_dict() == reference[-1].to_dict()
        assert final.outcome() == reference[-1].outcome()
        loop = table.loop
        events = loop.records.history()
        assert len(events) == len(reference) - 1  # one event per action, none lost, none extra
        camera_events = [e for e in events if e["source"] in ("camera", "choice")]
        assert len(camera_events) == table.driver.physical > 0
        assert all(e["has_photo"] for e in camera_events)  # every camera move is stored with its frame
        photo = loop.records.event_photo(camera_events[0]["seq"])
        assert photo is not None and photo[:2] == b"\xff\xd8"  # a JPEG
        stored = loop.game.store.replay(loop.game.game_id)
        assert state_key(stored.state) == state_key(final)
        assert loop.game.store.game(loop.game.game_id).finished is not None
        snapshot = loop.snapshot()
        assert snapshot["over"] and snapshot["panel"]["pattern"] == "game-over"
        outcome = final.outcome()
        assert outcome is not None
        winners = {s["seat"] for s in snapshot["players"] if s["name"] in outcome.winners}
        assert set(snapshot["panel"]["winners"]) == winners
        assert loop.camera.errors == 0
    finally:
        table.close()


def test_jurassik_whole_game_through_the_camera(tmp_path: Path) -> None:
    play_and_check("jurassik", ["red", "blue", "green"], tmp_path, seed=1)


@pytest.mark.slow
def test_jurassic_parts_whole_game_through_the_camera(tmp_path: Path) -> None:
    play_and_check("jurassic-parts", ["red", "blue", "green"], tmp_path, seed=1)


@pytest.mark.slow
def test_jurassic_brunch_whole_game_through_the_camera(tmp_path: Path) -> None:
    play_and_check("jurassic-brunch", ["blue", "orange"], tmp_path, seed=1)


def test_an_illegal_take_is_flagged_with_its_rule_and_never_applied(tmp_path: Path) -> None:
    table = build_table("jurassik", ["red", "blue"], tmp_path, seed=2)
    try:
        loop = table.loop
        table.frames(3)
        # the bots play a few turns through the camera
        for _ in range(6):
            table.driver.step()
        before = state_key(loop.game.state)
        count = len(loop.records.history())
        state = loop.game.state
        assert isinstance(state, JurassikState)
        # a dinosaur tile in the middle of the grid, with no free neighbour: not accessible
        cols = state.cols
        free = {i for i, token in enumerate(state.cells) if token is None}
        blocked = next(
            i
            for i, token in enumerate(state.cells)
            if token not in (None, "?", "ROCK", "START")
            and not any(
                n in free
                for n in (i - cols, i + cols, i - 1 if i % cols else -1, i + 1 if (i + 1) % cols else -1)
                if n >= 0
            )
        )
        illegal = state.clone()
        assert isinstance(illegal, JurassikState)
        tile = illegal.cells[blocked]
        assert tile is not None
        illegal.cells[blocked] = None
        illegal.hands[state.current_player()].append(tile)
        table.camera.show(loop.game.model.scene(illegal))
        table.frames(6)
        assert state_key(loop.game.state) == before  # never applied
        assert len(loop.records.history()) == count
        pending = loop.snapshot()["pending"]
        assert pending["kind"] == "objection"
        assert pending["rule"]["id"].startswith("JK-"), pending["rule"]
        assert loop.panel.signals.objection
        frame = loop.panel.tick(loop.panel.now())
        assert frame.pattern == "objection"
        # put right: the tile goes back; the objection clears and play goes on
        table.camera.show(loop.game.model.scene(state))
        table.frames(6)
        assert loop.game.pending is None and not loop.panel.signals.objection
        table.driver.step()
        assert len(loop.records.history()) == count + 1
    finally:
        table.close()


def test_a_chisel_out_of_turn_names_the_player(tmp_path: Path) -> None:
    table = build_table("jurassic-parts", ["red", "blue", "green"], tmp_path, seed=3)
    try:
        loop = table.loop
        table.frames(3)
        state = loop.game.state
        current = state.current_player()
        other = next(p for p in state.players if p != current)
        from engines.jurassic_parts.actions import PlaceChisel

        # what the table would look like had the other player placed a chisel (engine refuses it)
        legal = [a for a in state.legal_actions() if isinstance(a, PlaceChisel)]
        move = legal[0]
        forged = state.clone()
        forged_after = forged.apply(PlaceChisel(current, move.a, move.b))
        scene = loop.game.model.scene(forged_after)
        colour_of = {s.name: s.colour for s in table.config.seats}
        recoloured = [
            type(peg)(peg.center, colour_of[other], peg.rgb, peg.radius, peg.height, peg.label)
            if peg.colour == colour_of[current] and "chisel (" in peg.label
            else peg
            for peg in scene.pegs
        ]
        from vision.scene import SEAT_RGB

        scene.pegs = [
            type(p)(p.center, p.colour, SEAT_RGB[p.colour], p.radius, p.height, p.label) for p in recoloured
        ]
        table.camera.show(scene)
        table.frames(6)
        pending = loop.snapshot()["pending"]
        assert pending is not None and pending["kind"] == "objection", pending
        assert other in pending["text"] and "out of turn" in pending["text"]
        assert pending["actor"] == other
        assert loop.records.history() == []
    finally:
        table.close()


def test_isla_nublar_through_the_camera(tmp_path: Path) -> None:
    """Isla Nublar's random bots play long games (hundreds of card plays the camera cannot see); the
    first hundred actions, a dozen or more of them read from the board, are checked here."""
    table = build_table("isla-nublar", ["red", "blue", "green"], tmp_path, seed=1)
    try:
        reference = bot_game(table.initial_state(), 1, model=table.loop.game.model)
        for _ in range(100):
            if not table.driver.step():
                break
        state = table.loop.current_state()
        assert table.driver.physical >= 10
        assert state.to_dict() == reference[len(table.loop.records.history())].to_dict()
        assert state_key(table.loop.game.store.replay(table.loop.game.game_id).state) == state_key(state)
    finally:
        table.close()
