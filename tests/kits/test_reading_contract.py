"""Every registered kit's reading contract says what its table really is: each zone its scenes draw has a
meaning, each tag its scenes draw has the printed size its reading gives its kind (and the manifest says
so), and the chance it taps or never shows is a kind of move its engine has."""

from __future__ import annotations

import random

import pytest

from companion.kits import kit_for, kits
from engines.core import get_game, sample_chance
from vision.tags import qr_matrix

#: actions of a random playout whose scenes are looked at
STEPS = 150


@pytest.mark.parametrize("name", sorted(kits()))
def test_the_reading_names_every_zone_and_sizes_every_tag_its_scenes_draw(name: str) -> None:
    kit = kit_for(name)
    game = get_game(name)
    colours = list(kit.demo_colours)[: game.max_players]
    model = kit.model({colour: colour for colour in colours})
    manifest = kit.manifest()
    rng = random.Random(7)
    state = game.new_initial_state(colours, rng=rng)
    chance_kinds: set[str] = set()
    for _ in range(STEPS):
        scene = model.scene(state)
        undeclared = {zone.name for zone in scene.zones if not kit.reading.places.declares(zone.name)}
        assert not undeclared, f"{name}: zones without a meaning: {sorted(undeclared)}"
        for tag in scene.tags:
            entry = manifest.entries[tag.payload.rsplit(":", 1)[-1]]
            assert entry.tag_mm == kit.reading.tag_mm[entry.kind]
            modules = qr_matrix(tag.payload).shape[0]  # a larger code keeps the module size
            assert tag.size == pytest.approx(entry.tag_mm * modules / 21), (name, entry.kind)
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
            chance_kinds.add(action.kind)
        else:
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
    declared = kit.reading.tapped_chance | kit.reading.unseen_chance
    assert declared <= set(game.codec.kinds), f"{name}: chance the engine has no move for"
    # what a playout's chance turned up is tapped, never shown or read: nothing outside the engine's moves
    assert chance_kinds <= set(game.codec.kinds)
