"""Who moved, as an objection says it: a player is told they moved out of turn only when the change is
theirs and nothing of the player to act changed; a move half made by the player to act (a piece forgotten
where it lay) never blames another player, even where the move reaches into that player's pieces."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from helpers.playouts import seeded_states

from companion.infer import infer
from companion.kits import kit_for
from engines.core import State, get_game
from sim.ideal import ideal_observation
from vision.scene import Scene
from vision.tags import parse_payload

COLOURS = ("blue", "orange")


def _model() -> Any:
    return kit_for("jurassic-brunch").model({colour: colour for colour in COLOURS})


def _objection(model: Any, state: State, scene: Scene) -> str:
    result = infer(state, ideal_observation(scene, "jurassic-brunch", model.is_back), model)
    assert result.kind == "objection", result
    return str(result.text)


def _states() -> list[State]:
    game = get_game("jurassic-brunch")
    return [s for seed in range(1, 7) for s in seeded_states(game, list(COLOURS), seed, 120)]


def _half_made(model: Any, state: State, action: Any) -> Scene | None:
    """The table after ``action`` with the last piece it moves set down half a cell off (between
    cells): a move not finished."""
    before = {tag.payload: tag.center for tag in model.scene(state).tags}
    moved = model.display_scene(state, action, state.apply(action))
    changed = [i for i, tag in enumerate(moved.tags) if before.get(tag.payload) != tag.center]
    if not changed:
        return None
    index = changed[-1]
    tag = moved.tags[index]
    off = replace(tag, center=(tag.center[0] + 31.0, tag.center[1] + 31.0))
    half: Scene = replace(moved, tags=[*moved.tags[:index], off, *moved.tags[index + 1:]])
    return half


def test_a_half_made_move_by_the_player_to_act_blames_nobody_else() -> None:
    """A charge (whose expelled figure is the other team's) or the placing of the expelled figure by the
    charging player, left half made: the change is the player to act's, whoever's pieces it moves."""
    model = _model()
    kinds: set[str] = set()
    for state in _states():
        if state.is_chance_node() or state.is_terminal():
            continue
        for action in state.legal_actions():
            if action.kind not in ("expel", "charge") or (scene := _half_made(model, state, action)) is None:
                continue
            result = infer(state, ideal_observation(scene, "jurassic-brunch", model.is_back), model)
            if result.kind == "objection":
                assert "out of turn" not in str(result.text), (state.current_player(), action, result.text)
                kinds.add(action.kind)
    assert kinds == {"expel", "charge"}


def test_a_figure_moved_by_the_player_who_is_not_to_act_is_called_out_of_turn() -> None:
    """The other team's dinosaur moved to an empty cell while nothing of the player to act changed."""
    model = _model()
    checked = 0
    for state in _states():
        mover = state.current_player()
        if state.is_chance_node() or mover not in COLOURS or any(
                a.kind == "expel" for a in state.legal_actions()):
            continue
        other = next(c for c in COLOURS if c != mover)
        scene = model.scene(state)
        theirs = [i for i, tag in enumerate(scene.tags)
                  if model.owner(getattr(parse_payload(tag.payload), "component_id", "")) == other]
        if not theirs:
            continue
        index = theirs[0]
        tag = scene.tags[index]
        step = 62.0  # one cell over, towards the middle of the table
        shifted = replace(tag, center=(tag.center[0] + (step if tag.center[0] < scene.width / 2 else -step),
                                       tag.center[1]))
        text = _objection(model, state, replace(scene, tags=[*scene.tags[:index], shifted,
                                                             *scene.tags[index + 1:]]))
        if "out of turn" in text:
            assert text == f"{other} moved out of turn: it is {mover}'s turn", text
            checked += 1
        if checked >= 3:
            break
    assert checked >= 3
