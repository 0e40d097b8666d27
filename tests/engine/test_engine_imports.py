"""games.engine is a library a stranger could lift out: standard library and itself only, no Django.

Read with ``ast`` rather than by importing, so a module that would import Django lazily (inside a
function) or only under a condition is caught too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import games.engine

ENGINE_DIR = Path(games.engine.__file__).parent
PACKAGE = "games.engine"
MODULES = sorted(ENGINE_DIR.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def _allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top == "django":
        return False
    return name == PACKAGE or name.startswith(PACKAGE + ".") or top in sys.stdlib_module_names


def imported_names(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import statement and literal dynamic import."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def test_engine_has_modules() -> None:
    names = {_module_name(p) for p in MODULES}
    assert {"games.engine.cards", "games.engine.scoring", "games.engine.deck"} <= names


@pytest.mark.parametrize("path", MODULES, ids=[_module_name(p) for p in MODULES])
def test_module_imports_only_stdlib_and_engine(path: Path) -> None:
    bad = [f"line {line}: {name}" for line, name in imported_names(path) if not _allowed(name)]
    assert not bad, f"{_module_name(path)} imports outside the standard library and games.engine: {bad}"


def test_the_checker_catches_django_and_third_party() -> None:
    assert not _allowed("django.db")
    assert not _allowed("numpy")
    assert not _allowed("games.play.models")
    assert _allowed("itertools") and _allowed("games.engine.cards") and _allowed("__future__")
