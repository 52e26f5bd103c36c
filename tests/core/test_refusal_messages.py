"""Every engine's refusal keeps its detail as a message and the values that fill it, never an f-string or a
message formatted in place: a page then says it in its reader's language and the game's words (a cell as the
diagram numbers it), and the catalogues find every message."""

from __future__ import annotations

import ast
from pathlib import Path

import engines

ROOT = Path(engines.__file__).parent
REFUSING = {"illegal", "_illegal", "refusal", "IllegalAction"}


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _formatted_in_place(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return True
    if isinstance(node, ast.IfExp):
        return _formatted_in_place(node.body) or _formatted_in_place(node.orelse)
    return False


def refusals_formatted_in_place(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _called(node) not in REFUSING:
            continue
        position = 0 if _called(node) == "refusal" else 1
        detail = node.args[position] if len(node.args) > position else None
        if detail is not None and _formatted_in_place(detail):
            found.append(f"{name}:{node.lineno}")
    return found


def test_no_engine_formats_a_refusal_in_place() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        found += refusals_formatted_in_place(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, f"refusals formatted in place (say them as a message and values): {found}"


def test_the_check_finds_what_it_looks_for() -> None:
    bad = 'raise state.illegal("X", f"no tile at {cell}")\nraise self.illegal("X", "at %s" % cell)\n' \
          'refusal("a" + b)\n'
    assert refusals_formatted_in_place(bad, "m") == ["m:1", "m:2", "m:3"]
    good = 'raise state.illegal("X", "no tile at %(cell)s", cell=cell)\nraise state.illegal("X", said_so)\n'
    assert refusals_formatted_in_place(good, "m") == []
