"""The import graph of the project's own floors, read with ``ast``: every
import counts, inside functions and ``TYPE_CHECKING`` blocks too, since a
circle hidden behind either is still a circle a reader has to untangle."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

Graph = Mapping[str, frozenset[str]]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    """Where a (possibly relative) ``from`` import points."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def imported_names(module: str, is_package: bool, tree: ast.AST) -> set[str]:
    """Every dotted name the module imports, submodules named in ``from X
    import y`` included as ``X.y``; the caller keeps the ones that exist."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node.level, node.module)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def _resolve(name: str, modules: set[str]) -> str | None:
    """The project module an imported name lands on: itself, or the nearest
    enclosing module (``bot.x.Thing`` -> ``bot.x``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def build_graph(root: Path, floors: Iterable[str]) -> tuple[dict[str, frozenset[str]], dict[str, set[str]]]:
    """The edges between project modules, and each module's outside imports
    (top-level names such as ``discord``, ``redis``, ``asyncio``)."""
    sources = {
        module_name(root, path): path for floor in floors for path in sorted((root / floor).rglob("*.py"))
    }
    modules = set(sources)
    edges: dict[str, frozenset[str]] = {}
    outside: dict[str, set[str]] = {}
    for module, path in sources.items():
        names = imported_names(module, path.name == "__init__.py", ast.parse(path.read_text(), str(path)))
        targets = {_resolve(name, modules) for name in names}
        edges[module] = frozenset(t for t in targets if t is not None and t != module)
        outside[module] = {name.split(".")[0] for name in names if _resolve(name, modules) is None}
    return edges, outside


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's
    algorithm, iterative so a deep graph does not hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def _within(module: str, floor: str) -> bool:
    return module == floor or module.startswith(floor + ".")


def upward_imports(
    edges: Graph, outside: Mapping[str, set[str]], forbidden: Mapping[str, Iterable[str]]
) -> list[str]:
    """Every import from a floor of something it may not import: ``forbidden``
    maps a floor (a package's dotted name) to the floors and outside packages
    below it that it must not reach."""
    found: list[str] = []
    for module in sorted(edges):
        for floor, banned in forbidden.items():
            if not _within(module, floor):
                continue
            for ban in banned:
                hits = [t for t in edges[module] if _within(t, ban)]
                hits += [name for name in outside.get(module, ()) if name == ban]
                found.extend(f"{module} -> {hit}" for hit in sorted(hits))
    return found
