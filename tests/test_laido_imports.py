"""The imports between the modules of a game package point one way (issue 32: laido's bound,
sweep and sweep_kernels, and logisticks' model and rules, imported each other; issue 37: the Lixso
game's forced and play; issue 40: Quarry's forced and play). Every import counts, those inside
functions too; checked here for Laido, Logi-Sticks, the Lixso game and Quarry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOLVER = Path(__file__).resolve().parent.parent / "solver"


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of ``solver.<package>`` and the modules of the same package it imports."""
    folder = SOLVER / package
    modules = {path.stem for path in folder.glob("*.py") if path.stem != "__init__"}
    found: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((folder / f"{name}.py").read_text())
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    targets.add(node.module or "")
                    targets.update(alias.name for alias in node.names if node.module is None)
                elif node.module and node.module.startswith(f"solver.{package}."):
                    targets.add(node.module.split(".")[2])
                elif node.module == f"solver.{package}":
                    targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name.split(".")[2] for a in node.names if a.name.startswith(f"solver.{package}."))
        found[name] = {t for t in targets if t in modules and t != name}
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of imports, or None (depth-first search)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


@pytest.mark.parametrize("package", ["laido", "logisticks", "lixso/game", "quarry"])
def test_imports_point_one_way(package):
    graph = _imports(package)
    assert "rules" in graph and graph["rules"] >= {"model"}  # the check sees the imports
    assert _cycle(graph) is None


def test_the_sweep_s_layers():
    graph = _imports("laido")
    assert graph["sweep_frontier"] == set()
    assert graph["sweep_kernels"] == {"sweep_frontier"}
    assert graph["bound"] == {"sweep_frontier", "sweep_kernels"}
    assert {"bound", "sweep_kernels", "sweep_frontier"} <= graph["sweep"]
    assert "rules" not in _imports("logisticks")["model"]
