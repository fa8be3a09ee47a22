"""Outside the engine, nothing reads `Game`'s private state or writes through its read-only properties.

`Game`'s properties hand out the engine's own lists (typed `Sequence`: a copy or a wrapper on every read
would cost the bots' playouts, see docs/engine.md), so the guard is static: mypy strict for `src/`, and
this scan of the sources and tests (the engine's own white-box tests may read private state)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from ttr.engine import Game

ROOT = Path(__file__).resolve().parents[2]
PRIVATE = {name for name in Game.__annotations__ if name.startswith("_")} | {
    name for name in vars(Game) if name.startswith("_") and not name.startswith("__")}
PROPERTIES = {name for name, value in vars(Game).items() if isinstance(value, property)}
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"}
GAME_NAMES = {"game", "g", "world", "mine", "trial", "sampled", "copy", "child", "root", "state"}


def _root_name(node: ast.expr) -> str | None:
    """The name a chain like `core.game.hands[p]` starts from, if it looks like a game (`game`, `world`, ...)."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        if isinstance(node, ast.Attribute) and (node.attr in GAME_NAMES or node.attr.endswith("game")):
            return node.attr
        node = node.value
    if isinstance(node, ast.Name) and (node.id in GAME_NAMES or node.id.endswith("game")):
        return node.id
    return None


def _property_of(node: ast.expr) -> ast.Attribute | None:
    """`game.hands` in `game.hands[p][c]`, when the chain starts from a game."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in PROPERTIES and _root_name(node.value) is not None:
        return node
    return None


def _writes(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and _property_of(target.value) is not None:
                    yield node
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
              and _property_of(node.func.value) is not None):
            yield node


def _private_reads(tree: ast.AST) -> Iterator[ast.Attribute]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in PRIVATE and _root_name(node.value) is not None:
            yield node


def _files(*folders: str) -> Iterator[tuple[Path, ast.AST]]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_the_scan_finds_a_write_through_a_property() -> None:
    tree = ast.parse("game.hands[0][1] += 1\ncore.game.face_up.append(3)\nplan.tickets.append(1)\n")
    assert len(list(_writes(tree))) == 2
    assert len(list(_private_reads(ast.parse("world._reshuffle\nn = game._deck\nself._deck = []\n")))) == 2
    assert {"_hands", "_deck", "_rng", "_reshuffle"} <= PRIVATE and {"hands", "history", "owner"} <= PROPERTIES


def test_no_code_or_test_writes_through_the_games_properties() -> None:
    found = [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"  # type: ignore[attr-defined]
             for path, tree in _files("src", "tests", "scripts", "examples", "research") for node in _writes(tree)]
    assert found == []


def test_no_code_outside_the_engine_reads_the_games_private_state() -> None:
    engine = ROOT / "src" / "ttr" / "engine"
    found = []
    for path, tree in _files("src", "scripts", "examples"):
        if engine in path.parents:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}" for node in _private_reads(tree)]
    assert found == []
