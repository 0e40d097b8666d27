"""No module of games/ imports one that imports it back, directly or round a longer loop: a cycle
works only while the imports happen to run in one order, and breaks the day one moves to the top.
Lazy imports inside functions count too (they are what a cycle usually hides behind)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in GAMES.rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
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


# The one loop left: a round's end decides outcomes and an outcome can end a round. The restructuring
# of a tournament's progress takes it apart; the test then fails until the entry goes.
KNOWN: list[list[str]] = []


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = _graph()
    # A package's __init__ re-exporting its own submodules is how a package is built, not a cycle:
    # the submodule importing "from the package" is the edge that counts, so only it is kept.
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not _is_package_of(name, t)}
    cycles = _cycles(graph)
    new = [cycle for cycle in cycles if cycle not in KNOWN]
    assert not new, "\n".join(" ⇄ ".join(cycle) for cycle in new)
    gone = [cycle for cycle in KNOWN if cycle not in cycles]
    assert not gone, f"no longer a cycle, take it out of KNOWN: {gone}"


def test_the_check_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
