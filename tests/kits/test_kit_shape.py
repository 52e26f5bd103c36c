"""Every kit has the same shape, and a game is declared once: its engine's ``Game.info`` (name, tag code,
title, aliases, editions) is what its kit and its tags read, never typed again; no kit imports another."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from companion.kits import kits
from engines.core import GameInfo, get_game
from vision.tags import SCHEME

ROOT = Path(__file__).resolve().parents[2]
KIT_FILES = {"__init__.py", "reading.py", "table.py", "model.py", "diagram.py", "tags.py"}
KITS_DIR = ROOT / "companion" / "kits"
KIT_PACKAGES = sorted(p.name for p in KITS_DIR.iterdir() if (p / "__init__.py").is_file())
ENGINE_GAMES = sorted(p.parent.name for p in (ROOT / "engines").glob("*/game.py") if p.parent.name != "core")
IDENTITY = {"name", "code", "title", "aliases"}


@pytest.mark.parametrize("package", KIT_PACKAGES)
def test_every_kit_package_has_the_same_files_and_imports_no_other_kit(package: str) -> None:
    folder = ROOT / "companion" / "kits" / package
    assert {p.name for p in folder.glob("*.py")} >= KIT_FILES
    others = {f"companion.kits.{p}" for p in KIT_PACKAGES if p != package}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not [m for m in imported for other in others if m == other or m.startswith(other + ".")], path


@pytest.mark.parametrize("game", ENGINE_GAMES)
def test_a_game_is_declared_once_by_its_info(game: str) -> None:
    tree = ast.parse((ROOT / "engines" / game / "game.py").read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and any(
        isinstance(b, ast.Name) and b.id == "Game" for b in n.bases)]
    assert len(classes) == 1
    assigned = {t.id for node in classes[0].body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)}
    assert "info" in assigned and not assigned & IDENTITY  # name, code, title and aliases come from info


@pytest.mark.parametrize("name", sorted(kits()))
def test_a_kit_and_its_tags_read_the_engines_info(name: str) -> None:
    kit = kits()[name]
    game = get_game(name)
    assert isinstance(game.info, GameInfo) and kit.info is game.info
    assert (game.name, game.code, game.title, game.aliases) == (
        game.info.name, game.info.code, game.info.title, game.info.aliases)
    inventory = kit.inventory()
    assert (inventory.code, inventory.name) == (game.info.code, game.info.name)
    assert all(p.startswith(f"{SCHEME}:{game.info.code}:") for p in kit.manifest().payloads())
    state = game.new_initial_state(list(kit.demo_colours)[: game.max_players], rng=random.Random(1))
    assert all(t.payload.startswith(f"{SCHEME}:{game.info.code}:") for t in kit.scene(state).tags)


def test_splits_and_hands_are_capabilities_only_the_games_that_have_them_carry() -> None:
    from companion.infer import SharesSplits, split_shares
    from companion.kits.kit import HandPicker, HiddenMoves, hand_cards, hand_moves

    sharing = {name for name, kit in kits().items()
               if isinstance(kit.model({c: c for c in kit.demo_colours}), SharesSplits)}
    picking = {name for name, kit in kits().items() if isinstance(kit, HandPicker)}
    hiding = {name for name, kit in kits().items() if isinstance(kit, HiddenMoves)}
    assert sharing == {"jurassic-parts"} and picking == {"isla-nublar"}
    assert hiding == {"jurassic-parts", "jurassic-brunch", "isla-nublar"}  # moves naming a concealed piece
    jurassik = kits()["jurassik"]
    state = get_game("jurassik").new_initial_state(["red", "blue"], rng=random.Random(1))
    assert split_shares(jurassik.model({"red": "red", "blue": "blue"}), state) is None
    view = state.view(None)
    assert hand_moves(jurassik, view, "red") == [] == hand_cards(jurassik, view, "red")
