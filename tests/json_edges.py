"""Where `dict[str, Any]` is written in the source (AST), and whether each such module says why once.

Used by test_json_edges.py. A string-keyed mapping of `Any` says "no shape known here"; that is true only
where JSON crosses into or out of the program (the IPC socket, the HTTP body, the settings file, the
model's messages and tool arguments, a JSON column). Anywhere else a known shape should be a TypedDict
or a dataclass. So a module that writes one must say, on exactly one docstring line starting with
`JSON edge:`, what JSON crosses there; the check reads the source, so it needs no import of the module.

Counted: `dict`, `Dict`, `Mapping` and `MutableMapping` (bare or `typing.`/`collections.abc.`-qualified)
subscripted with `str, Any`, anywhere in the module (annotations, string annotations, aliases, casts),
and any name bound to such a type: a module-level alias (`JsonObject = dict[str, Any]`, also nested,
as in `list[JsonObject]`), and that alias imported into another module (`from m import JsonObject`, or
`m.JsonObject` after `import m`). A docstring that only *mentions* the type counts for nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

PHRASE = "JSON edge:"
MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping"}


def _name(node: ast.expr) -> str | None:
    """`x` for `x`, the last part for `a.b.x`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_json_object(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Subscript) and _name(node.value) in MAPPINGS):
        return False
    key_value = node.slice
    if not (isinstance(key_value, ast.Tuple) and len(key_value.elts) == 2):
        return False
    key, value = key_value.elts
    return _name(key) == "str" and _name(value) == "Any"


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, string annotations (`"dict[str, Any]"`) parsed and walked too."""
    for node in ast.walk(tree):
        yield node
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "Any" in node.value:
            try:
                inner = ast.parse(node.value.strip(), mode="eval")
            except SyntaxError:
                continue
            ast.increment_lineno(inner, node.lineno - 1)
            yield from ast.walk(inner)


def _uses(tree: ast.AST, bound: set[str], modules: dict[str, set[str]]) -> list[int]:
    """Lines that write the type, a name bound to it here, or `module.Alias` of an imported module."""
    lines = []
    for node in _nodes(tree):
        if _is_json_object(node):
            lines.append(getattr(node, "lineno", 0))
        elif isinstance(node, ast.Name) and node.id in bound and isinstance(node.ctx, ast.Load):
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.attr in modules.get(node.value.id, set()):
                lines.append(node.lineno)
    return sorted(set(lines))


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    base = node.module or ""
    if not node.level:
        return base
    package = module.split(".") if is_package else module.split(".")[:-1]
    kept = package[: len(package) - node.level + 1]
    return ".".join(kept + ([base] if base else []))


class _Module:
    def __init__(self, name: str, source: str, is_package: bool = False) -> None:
        self.name = name
        self.tree = ast.parse(source)
        self.is_package = is_package
        self.aliases: set[str] = set()  # module-level names this module binds to the type

    def bound(self, world: dict[str, _Module]) -> tuple[set[str], dict[str, set[str]]]:
        """Names bound to the type here (own and imported aliases); local module names → their aliases."""
        names = set(self.aliases)
        modules: dict[str, set[str]] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                source = world.get(_resolve(self.name, self.is_package, node))
                if source is not None:
                    names.update(a.asname or a.name for a in node.names if a.name in source.aliases)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in world and alias.asname:
                        modules[alias.asname] = world[alias.name].aliases
        return names, modules

    def find_aliases(self, world: dict[str, _Module]) -> bool:
        """Add module-level aliases of the type; True when any was new."""
        names, modules = self.bound(world)
        before = len(self.aliases)
        for node in self.tree.body:
            target, value = _alias_parts(node)
            if target is not None and value is not None and _uses(value, names, modules):
                self.aliases.add(target)
        return len(self.aliases) > before

    def statements(self) -> int:
        doc = ast.get_docstring(self.tree) or ""
        return sum(1 for line in doc.splitlines() if line.strip().startswith(PHRASE))


def _alias_parts(node: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """(name, value) of `X = <type>` or `X: TypeAlias = <type>`."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and _name(node.annotation) == "TypeAlias"
    ):
        return node.target.id, node.value
    return None, None


def _world(sources: dict[str, tuple[str, bool]]) -> dict[str, _Module]:
    world = {name: _Module(name, text, is_package) for name, (text, is_package) in sources.items()}
    while any([module.find_aliases(world) for module in world.values()]):
        pass
    return world


def json_object_uses(sources: dict[str, tuple[str, bool]]) -> dict[str, list[int]]:
    """Dotted module name → the lines writing `dict[str, Any]` (directly or by alias), for modules with any.

    `sources` maps a dotted module name to (its source text, whether it is a package's `__init__`).
    """
    return _uses_in(_world(sources))


def _uses_in(world: dict[str, _Module]) -> dict[str, list[int]]:
    found = {}
    for name, module in world.items():
        lines = _uses(module.tree, *module.bound(world))
        if lines:
            found[name] = lines
    return found


def json_edge_problems(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """A line for each module that writes the type without saying `JSON edge:` once, or says it needlessly."""
    world = _world(sources)
    uses = _uses_in(world)
    problems = []
    for name, module in sorted(world.items()):
        said = module.statements()
        if name in uses and said != 1:
            lines = ", ".join(map(str, uses[name][:5]))
            problems.append(
                f"{name} writes dict[str, Any] (lines {lines}) and says '{PHRASE}' {said} times, not once"
            )
        elif name not in uses and said:
            problems.append(f"{name} says '{PHRASE}' but writes no dict[str, Any]")
    return problems
