"""The project's import graph, read from the source (no module is imported).

Run it to see the graph, the cycles and the imports made inside functions::

    .venv/bin/python -m tests.imports            # summary: apps, edges between apps, cycles
    .venv/bin/python -m tests.imports --modules  # every module and what it imports

``tests/test_architecture.py`` uses the same reading to keep the rules of
``docs/ARCHITECTURE.md`` true: no cycle, dependencies one way.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The project's own top-level packages (tests, bench and scripts are not part of the service).
PACKAGES = (
    "engine",
    "common",
    "games",
    "ratings",
    "tournaments",
    "analysis",
    "community",
    "accounts",
    "live",
    "web",
    "config",
)


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: str  # the imported module (or package), dotted
    names: tuple[str, ...]  # the names taken with ``from … import``
    line: int
    in_function: bool  # made inside a function body
    explained: bool  # a comment on the line or the line above says why


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(packages: Iterable[str] = PACKAGES) -> Iterator[Path]:
    for package in packages:
        base = ROOT / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:  # the ``else`` of ``if TYPE_CHECKING`` runs
                yield from _walk(other, in_function)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, True)
        else:
            yield from _walk(child, in_function)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: Path, known: set[str]) -> list[Import]:
    """The project-internal imports of one file, and every import made inside a function."""
    text = path.read_text()
    lines = text.splitlines()
    tree = ast.parse(text)
    module = module_name(path)
    is_package = path.name == "__init__.py"
    out: list[Import] = []
    for node, in_function in _walk(tree, False):
        line = lines[node.lineno - 1]
        above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
        explained = "#" in line or above.startswith("#")
        if isinstance(node, ast.Import):
            targets = [(alias.name, ()) for alias in node.names]
        else:
            base = _resolve(module, is_package, node)
            targets = []
            names = tuple(alias.name for alias in node.names)
            for name in names:  # ``from pkg import module`` imports the module
                if f"{base}.{name}" in known:
                    targets.append((f"{base}.{name}", ()))
            rest = tuple(n for n in names if f"{base}.{n}" not in known)
            if rest or not targets:
                targets.append((base, rest))
        for target, names_taken in targets:
            if internal(target) or in_function:  # outside imports matter only inside functions
                out.append(Import(module, target, names_taken, node.lineno, in_function, explained))
    return out


def internal(target: str) -> bool:
    return target.split(".")[0] in PACKAGES


def project_imports(packages: Iterable[str] = PACKAGES) -> list[Import]:
    files = list(source_files(packages))
    known = {module_name(p) for p in files}
    return [imp for path in files for imp in imports_of(path, known)]


def _owner(target: str, modules: set[str]) -> str:
    """The module an import lands in (``games.models.Player`` is ``games.models``)."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target


def module_graph(imports: list[Import]) -> dict[str, set[str]]:
    modules = {i.source for i in imports} | {module_name(p) for p in source_files()}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for imp in filter(lambda i: internal(i.target), imports):
        target = _owner(imp.target, modules)
        if target and target != imp.source:
            graph[imp.source].add(target)
    return graph


def app_graph(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {p: set() for p in PACKAGES if (ROOT / p).is_dir()}
    for imp in filter(lambda i: internal(i.target), imports):
        a, b = imp.source.split(".")[0], imp.target.split(".")[0]
        graph.setdefault(a, set())
        if a != b:
            graph[a].add(b)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", action="store_true", help="list every module's imports")
    args = parser.parse_args()
    imports = project_imports()
    modules = module_graph(imports)
    apps = app_graph(imports)
    print("apps (an arrow: imports from)")
    for app in sorted(apps):
        print(f"  {app:12} -> {', '.join(sorted(apps[app])) or '(nothing of the project)'}")
    if args.modules:
        print("modules")
        for module in sorted(modules):
            print(f"  {module} -> {', '.join(sorted(modules[module])) or '-'}")
    inside = [i for i in imports if i.in_function]
    print(f"module edges: {sum(len(v) for v in modules.values())} among {len(modules)} modules")
    print(f"imports inside functions: {len(inside)} ({sum(not i.explained for i in inside)} without a why)")
    for imp in inside:
        print(f"  {imp.source}:{imp.line} {imp.target}{'' if imp.explained else '  (no why)'}")
    module_cycles, app_cycles = cycles(modules), cycles(apps)
    print(f"module cycles: {len(module_cycles)}")
    for component in module_cycles:
        print("  " + " <-> ".join(component))
    print(f"app cycles: {len(app_cycles)}")
    for component in app_cycles:
        print("  " + " <-> ".join(component))


if __name__ == "__main__":
    main()
