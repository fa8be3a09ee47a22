"""No import cycle among ttr's modules, counting the imports made inside functions (an import moved into a
function still ties the two modules together: it only hides the cycle until that function runs).

Imports under `if TYPE_CHECKING:` are left out (they never run), and so is the parent package that every
submodule import loads: `from ttr.server import chat` depends on `ttr.server.chat`, not on what
`ttr/server/__init__.py` defines.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules(src: Path) -> dict[str, tuple[Path, bool]]:
    """Each module under `src/ttr` by dotted name: its file and whether it is a package's `__init__`."""
    found = {}
    for path in sorted((src / "ttr").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: dict[str, tuple[Path, bool]]) -> list[str]:
    """The ttr modules an import statement depends on."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")[: len(module.split(".")) - (node.level - (1 if is_package else 0))]
            target = ".".join([*base, *([node.module] if node.module else [])])
        else:
            target = node.module or ""
        submodules = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in known]
        if len(submodules) < len(node.names):
            names.append(target)
        names.extend(submodules)
    out = []
    for name in names:
        parts = name.split(".")
        while parts and ".".join(parts) not in known:
            parts.pop()
        if parts and ".".join(parts) != module:
            out.append(".".join(parts))
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph(src: Path) -> dict[str, dict[str, int]]:
    """module -> {imported ttr module: line of the first import}, module-level and function-level imports."""
    known = _modules(src)
    graph: dict[str, dict[str, int]] = {}
    for module, (path, is_package) in known.items():
        edges: dict[str, int] = {}
        graph[module] = edges

        def visit(node: ast.AST, module: str = module, is_package: bool = is_package,
                  edges: dict[str, int] = edges) -> None:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for statement in node.orelse:
                    visit(statement)
                return
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _targets(node, module, is_package, known):
                    edges.setdefault(target, node.lineno)
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8")))
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def test_no_import_cycle_among_ttr_modules() -> None:
    graph = import_graph(SRC)
    assert len(graph) > 100  # the scan found the package
    found = cycles(graph)
    report = [" <-> ".join(group) + ": " + ", ".join(
        f"{a} -> {b} (line {graph[a][b]})" for a in group for b in graph[a] if b in group) for group in found]
    assert found == [], "\n".join(report)


def test_the_scan_finds_a_cycle_hidden_inside_a_function(tmp_path: Path) -> None:
    package = tmp_path / "ttr"
    (package / "server").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server" / "__init__.py").write_text("")
    (package / "server" / "a.py").write_text("from ttr.server import b\n")
    (package / "server" / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ttr.server.c import C\n"
        "def f():\n    from . import a\n    return a\n")
    (package / "server" / "c.py").write_text("from ttr.server import b\n")
    graph = import_graph(tmp_path)
    assert graph["ttr.server.b"] == {"ttr.server.a": 5}  # the function's import counts; TYPE_CHECKING's not
    assert cycles(graph) == [["ttr.server.a", "ttr.server.b"]]
