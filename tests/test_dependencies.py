"""The apps depend on each other one way: engine ← play ← history, tournaments; accounts and the site's
pages sit on top. Read from the code's imports (every import, lazy ones inside functions too) and
from the tag libraries each app's templates load, as the engine's purity test reads the engine."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each part of games/ may import from games/ (always itself too).
ALLOWED = {
    "engine": set(),
    "infra": set(),
    "play": {"engine", "infra"},
    "history": {"engine", "infra", "play"},
    "tournaments": {"engine", "infra", "play"},
    "accounts": {"engine", "infra", "play", "history", "tournaments"},
    "pages": {"engine", "infra", "play", "history", "tournaments", "accounts"},
}
# Template tag libraries, by the app that defines them.
LIBRARIES = {"cribbage": "play", "lobby": "play", "player_names": "play", "game_history": "history"}


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "games" and parts[1] in ALLOWED else None


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            # "from games import play" names the part in the alias
            if node.module == "games":
                found += [(node.lineno, f"games.{alias.name}") for alias in node.names]
    return found


def _python_files(part: str) -> list[Path]:
    return [p for p in (ROOT / "games" / part).rglob("*.py") if "migrations" not in p.parts]


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_imports_point_down_the_graph(part: str) -> None:
    allowed = ALLOWED[part] | {part}
    wrong = []
    for path in _python_files(part):
        for line, module in _imports(path):
            other = _part(module)
            if other is not None and other not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


LOAD_RE = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_templates_load_only_libraries_below(part: str) -> None:
    allowed = ALLOWED[part] | {part}
    wrong = []
    for path in (ROOT / "games" / part).rglob("*"):
        if path.suffix not in (".html", ".txt", ".jinja"):
            continue
        for found in LOAD_RE.finditer(path.read_text()):
            names = [n for n in found.group(1).split() if n != "from"]
            for name in names:
                owner = LIBRARIES.get(name)
                if owner is not None and owner not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)} loads {name} ({owner})")
    assert not wrong, "\n".join(wrong)


def test_only_infra_writes_sql_by_hand() -> None:
    """Reading a model's table name is the first step of a statement written by hand: that stays in
    games/infra, where each piece says which invariant of Django it relies on."""
    wrong = []
    for part in ALLOWED:
        if part == "infra":
            continue
        for path in _python_files(part):
            for line_no, line in enumerate(path.read_text().splitlines(), start=1):
                if "_meta.db_table" in line or ".raw(" in line:
                    wrong.append(f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}")
    assert not wrong, "\n".join(wrong)


def test_the_graph_has_no_part_missing() -> None:
    parts = {p.name for p in (ROOT / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert parts == set(ALLOWED)
