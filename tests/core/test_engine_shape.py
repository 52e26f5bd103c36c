"""Every engine package has the same file roles, imported one way, and keeps its private names private.

A module may import (at run time) only the roles before it in :data:`ROLE_ORDER`; imports under
``if TYPE_CHECKING:`` are for annotations and may point back. No engine imports another game's engine,
and no module uses another module's ``_private`` name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLE_ORDER = (
    "rules", "board", "_default_set", "components", "actions", "scoring", "unseen", "tasks", "dinosaurs",
    "moves", "redeal", "state", "codec", "laid", "rulings", "bots", "game",
)
REQUIRED_ROLES = {"rules", "board", "components", "actions", "scoring", "state", "codec", "rulings", "game"}
GAMES = sorted(
    p.name for p in (ROOT / "engines").iterdir() if (p / "__init__.py").is_file() and p.name != "core"
)


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def runtime_imports(tree: ast.Module) -> list[ast.ImportFrom]:
    """The ``from ... import`` statements that run when the module is imported or called."""
    found: list[ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            return
        if isinstance(node, ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def imported_roles(game: str, tree: ast.Module) -> set[str]:
    package = f"engines.{game}"
    roles: set[str] = set()
    for node in runtime_imports(tree):
        if node.module == package:
            roles.update(alias.name for alias in node.names if alias.name in ROLE_ORDER)
        elif node.module and node.module.startswith(package + "."):
            roles.add(node.module.removeprefix(package + ".").split(".")[0])
    return roles


def modules_of(game: str) -> dict[str, ast.Module]:
    return {
        path.stem: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for path in sorted((ROOT / "engines" / game).glob("*.py"))
        if path.name != "__init__.py"
    }


def test_the_engines_are_found() -> None:
    """Every engine folder is a registered game, and every registered game has its folder."""
    from engines.core import available_games, get_game

    modules = [type(get_game(code)).__module__ for code in available_games()]
    # (test-only games registered by other tests live outside engines/)
    registered = {module.split(".")[1] for module in modules if module.startswith("engines.")}
    assert GAMES and set(GAMES) == registered


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_has_the_common_roles_and_no_others(game: str) -> None:
    roles = set(modules_of(game))
    assert roles >= REQUIRED_ROLES, sorted(REQUIRED_ROLES - roles)
    assert roles <= set(ROLE_ORDER), sorted(roles - set(ROLE_ORDER))


@pytest.mark.parametrize("game", GAMES)
def test_roles_import_one_way(game: str) -> None:
    backwards = {}
    for role, tree in modules_of(game).items():
        rank = ROLE_ORDER.index(role)
        later = {r for r in imported_roles(game, tree) if ROLE_ORDER.index(r) >= rank}
        if later:
            backwards[role] = sorted(later)
    assert not backwards, backwards


@pytest.mark.parametrize("game", GAMES)
def test_no_engine_imports_another_game(game: str) -> None:
    others = {f"engines.{g}" for g in GAMES if g != game}
    for path in (ROOT / "engines" / game).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not any(node.module == o or node.module.startswith(o + ".") for o in others), path


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.mark.parametrize("package", ["engines", "vision", "sim", "hw", "companion"])
def test_no_private_name_is_used_across_modules(package: str) -> None:
    """``from x import _name`` and ``module._name`` on an imported module are both refused."""
    used = []
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in {
                "engines", "vision", "sim", "hw", "companion",
            }:
                used += [f"{path.name}: {node.module}.{a.name}" for a in node.names if _private(a.name)]
                modules.update(a.asname or a.name for a in node.names)
            elif isinstance(node, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in node.names)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                    and node.value.id in modules and node.value.id not in {"self", "cls"}):
                used.append(f"{path.name}: {node.value.id}.{node.attr}")
    assert not used, used
