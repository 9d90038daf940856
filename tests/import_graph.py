"""The project's import graph read from its source (AST, every import: module level, lazy, TYPE_CHECKING).

Used by test_layers.py. A lazy import still makes the importer depend on what it imports, so it
counts; `from package import submodule` counts as an import of the submodule only, not of the
package's `__init__` (Python resolves it without running back through the importer).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bridge", "cli")


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name → file, for engine/, bridge/, cli/ and app.py."""
    files = [p for package in PACKAGES for p in (root / package).rglob("*.py")] + [root / "app.py"]
    modules = {}
    for path in files:
        parts = path.relative_to(root).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The project modules `name` imports."""
    known = set(known)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(base)
    return {module for module in found if module in known and module != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def layer_order(architecture: Path = ROOT / "docs" / "architecture.md") -> list[list[str]]:
    """The floors of the ```layers block in docs/architecture.md, top floor first."""
    block = re.search(r"```layers\n(.*?)```", architecture.read_text(encoding="utf-8"), re.S)
    if block is None:
        raise AssertionError("docs/architecture.md has no ```layers block")
    floors = []
    for line in block.group(1).splitlines():
        names = line.split("#", 1)[0].split()
        if names:
            floors.append(names)
    return floors


def floor_of(module: str, floors: list[list[str]]) -> tuple[int, str]:
    """(floor number counted from the top, the group) of the longest group name that prefixes `module`."""
    best: tuple[int, str] | None = None
    for number, floor in enumerate(floors):
        for group in floor:
            prefixes = module == group or module.startswith(group + ".")
            if prefixes and (best is None or len(group) > len(best[1])):
                best = (number, group)
    if best is None:
        raise AssertionError(f"{module} is on no floor of docs/architecture.md's layers")
    return best


def upward_imports(graph: dict[str, set[str]], floors: list[list[str]]) -> list[str]:
    """Every import that reaches a floor above its own, or a sibling group on the same floor."""
    wrong = []
    for importer, imported in sorted(graph.items()):
        here, group = floor_of(importer, floors)
        for target in sorted(imported):
            there, target_group = floor_of(target, floors)
            if there < here or (there == here and target_group != group):
                wrong.append(f"{importer} -> {target} ({group} may not import {target_group})")
    return wrong
