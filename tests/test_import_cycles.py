"""No import cycle among ttr's modules, nor among its subpackages (`ttr.bots`, `ttr.envs`, ...: the
dependencies between packages go one way, so `ttr.bots` never imports `ttr.envs` when `ttr.envs` imports
`ttr.bots`), counting the imports made inside functions (an import moved into a function still ties the two
together: it only hides the cycle until that function runs).

Imports under `if TYPE_CHECKING:` are left out (they never run), and so is the parent package that every
submodule import loads: `from ttr.server import chat` depends on `ttr.server.chat`, not on what
`ttr/server/__init__.py` defines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

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
    """The strongly connected groups of more than one module (networkx), each sorted, in sorted order."""
    digraph = nx.DiGraph()
    digraph.add_nodes_from(graph)
    digraph.add_edges_from((a, b) for a, edges in graph.items() for b in edges)
    return sorted(sorted(group) for group in nx.strongly_connected_components(digraph) if len(group) > 1)


def package_graph(graph: dict[str, dict[str, int]]) -> dict[str, dict[str, tuple[str, str, int]]]:
    """The module graph folded to ttr's subpackages (`ttr.bots.greedy` -> `ttr.bots`; a top-level module such
    as `ttr.records` stays itself): package -> {imported package: the first (module, imported module, line)}."""

    def package(module: str) -> str:
        return ".".join(module.split(".")[:2])

    folded: dict[str, dict[str, tuple[str, str, int]]] = {}
    for module, edges in sorted(graph.items()):
        out = folded.setdefault(package(module), {})
        for target, line in sorted(edges.items()):
            if package(target) != package(module):
                out.setdefault(package(target), (module, target, line))
    return folded


def test_no_import_cycle_among_ttr_modules() -> None:
    graph = import_graph(SRC)
    assert len(graph) > 100  # the scan found the package
    found = cycles(graph)
    report = [" <-> ".join(group) + ": " + ", ".join(
        f"{a} -> {b} (line {graph[a][b]})" for a in group for b in graph[a] if b in group) for group in found]
    assert found == [], "\n".join(report)


def test_no_import_cycle_among_ttr_packages() -> None:
    packages = package_graph(import_graph(SRC))
    assert {"ttr.bots", "ttr.engine", "ttr.envs", "ttr.server"} <= set(packages)
    assert "ttr.bots" in packages["ttr.envs"]  # the environments' opponents are bots: the one way it goes
    found = cycles({name: dict.fromkeys(edges, 0) for name, edges in packages.items()})
    report = [" <-> ".join(group) + ": " + ", ".join(
        f"{module} -> {target} (line {line})" for a in group for b, (module, target, line) in packages[a].items()
        if b in group) for group in found]
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


def test_the_scan_finds_a_cycle_between_packages_with_none_between_modules(tmp_path: Path) -> None:
    package = tmp_path / "ttr"
    for sub in ("bots", "envs"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "records.py").write_text("")
    (package / "envs" / "gym_env.py").write_text("from ttr.bots import base\nfrom ttr import records\n")
    (package / "bots" / "base.py").write_text("import ttr.records\n")
    (package / "bots" / "policy.py").write_text("def make():\n    from ttr.envs.core import Core\n")
    (package / "envs" / "core.py").write_text("Core = object\n")
    graph = import_graph(tmp_path)
    assert cycles(graph) == []  # gym_env -> base, policy -> core: no module imports itself back
    packages = package_graph(graph)
    assert packages["ttr.bots"] == {"ttr.envs": ("ttr.bots.policy", "ttr.envs.core", 2), "ttr.records":
                                    ("ttr.bots.base", "ttr.records", 1)}
    assert cycles({name: dict.fromkeys(edges, 0) for name, edges in packages.items()}) == [["ttr.bots", "ttr.envs"]]
