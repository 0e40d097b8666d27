"""No module of the project (the site, its tests, benchmarks and tools) imports one that imports it
back, directly or round a longer loop: a cycle works only while the imports happen to run in one
order, and breaks the day one moves to the top. Lazy imports inside functions count too, and so do
imports under ``if TYPE_CHECKING:``: a cycle hidden from the interpreter is still two modules that
each need the other."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_SOURCE = {"node_modules", "staticfiles"}


def _sources() -> list[Path]:
    """Every Python file of the project's own folders (no virtualenv, no migrations)."""
    folders = [p for p in ROOT.iterdir() if p.is_dir() and not p.is_symlink()
               and not p.name.startswith(".") and p.name not in NOT_SOURCE]
    files = [p for folder in folders for p in folder.rglob("*.py") if "migrations" not in p.parts]
    return [*files, *ROOT.glob("*.py")]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(source: str, package: str) -> set[str]:
    """Every module ``source`` (a module of ``package``) imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # "from games.play import services" imports the submodule games.play.services
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in _sources()}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = _imports(path.read_text(), package)
        graph[name] = {target for target in found if target in files and target != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _is_package_of(package: str, module: str) -> bool:
    return module.startswith(package + ".")


# Cycles accepted for now, each with why; the test fails when one is gone until its entry goes too.
KNOWN: list[list[str]] = []


def _without_imports_of_own_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Importing a package runs its ``__init__``, which imports the submodules it re-exports: that
    edge is real, and a cycle through a package runs along it. A submodule importing a sibling
    "from the package" is how a package is built, so that edge (to an enclosing package) goes."""
    return {name: {t for t in targets if not _is_package_of(t, name)} for name, targets in graph.items()}


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _without_imports_of_own_packages(_graph())
    cycles = _cycles(graph)
    new = [cycle for cycle in cycles if cycle not in KNOWN]
    assert not new, "\n".join(" ⇄ ".join(cycle) for cycle in new)
    gone = [cycle for cycle in KNOWN if cycle not in cycles]
    assert not gone, f"no longer a cycle, take it out of KNOWN: {gone}"


def test_the_check_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_check_sees_a_cycle_through_a_package() -> None:
    # names imports the models package, whose __init__ imports models.match, which imports names;
    # models.match importing models (its own package) is no edge.
    graph = {"names": {"models"}, "models": {"models.match"}, "models.match": {"names", "models"}}
    assert _cycles(_without_imports_of_own_packages(graph)) == [["models", "models.match", "names"]]


def test_imports_for_the_type_checker_and_inside_functions_are_edges() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from a.models import Thing\n"
              "def f():\n    from . import wording\n")
    assert _imports(source, "a") >= {"a.models", "a.models.Thing", "a", "a.wording"}


def test_the_check_reads_the_whole_project() -> None:
    read = {_module_name(p) for p in _sources()}
    assert {"games.tournaments.models", "cribsite.settings", "bench.move", "tests.test_import_cycles"} <= read
    folders = {part for p in _sources() for part in p.relative_to(ROOT).parts[:-1]}
    assert not folders & {".venv", "node_modules", "migrations"}
