"""The apps depend on each other one way: engine ← play ← history, tournaments; accounts and the site's
pages sit on top. Read from the code's imports (every import, lazy ones inside functions too), from
the tag libraries each app's templates load, and from what code and templates name in strings
(dotted paths, URL names, model labels, template paths), as the engine's purity test reads the
engine."""

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
    "queue": set(),  # the task worker: Django's task framework, knowing no app
    "play": {"engine", "infra"},
    "history": {"engine", "infra", "play", "queue"},
    "tournaments": {"engine", "infra", "play"},
    "webpush": {"engine", "infra", "play"},
    "puzzles": {"engine", "infra", "play", "history"},
    "practice": {"engine", "infra", "play"},
    "correspondence": {"engine", "infra", "play", "webpush", "queue"},
    "accounts": {"engine", "infra", "play", "history", "tournaments", "puzzles", "practice", "correspondence",
                 "webpush", "queue"},
    "pages": {"engine", "infra", "play", "history", "tournaments", "puzzles", "practice", "accounts",
              "correspondence", "webpush", "queue"},
}
# Template tag libraries, by the app that defines them.
LIBRARIES = {
    "cribbage": "play", "lobby": "play", "player_names": "play", "site_pages": "play",
    "game_history": "history",
}


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


def test_play_imports_nothing_of_games_at_your_own_pace() -> None:
    """The correspondence app builds on play: play sends signals and offers hooks
    (``registry.register_correspondence``) and knows only that a game has days per move. No module
    of games/play imports games.correspondence, lazily or not, nor names its models or templates."""
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {module}"
             for path in _python_files("play") for line, module in _imports(path)
             if module.split(".")[:2] == ["games", "correspondence"]]
    wrong += [found for found in _named_elsewhere("play") if found.endswith("(correspondence)")]
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


# A module named in a string ("games.history.ratings.rating_for", for import_string or a setting)
# is an import all the same.
DOTTED_RE = re.compile(r"games(?:\.\w+)+")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _logger_names(tree: ast.AST) -> set[int]:
    """``logging.getLogger("games.play.broadcast")``: where a log line is filed, not code reached."""
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    named = (c for c in calls if getattr(c.func, "attr", getattr(c.func, "id", "")) == "getLogger")
    return {id(arg) for call in named for arg in call.args}


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_dotted_paths_in_strings_point_down_the_graph(part: str) -> None:
    allowed = ALLOWED[part] | {part}
    wrong = []
    for path in _python_files(part):
        tree = ast.parse(path.read_text(), filename=str(path))
        skipped = _docstrings(tree) | _logger_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
                for found in DOTTED_RE.finditer(node.value):
                    other = _part(found.group())
                    if other is not None and other not in allowed:
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} names {found.group()}")
    assert not wrong, "\n".join(wrong)


# URL names, by the app whose urls.py declares them (with its namespace, if it has one).
NAME_RE = re.compile(r"""\bname\s*=\s*["']([\w-]+)["']""")
APP_NAME_RE = re.compile(r"""^app_name\s*=\s*["'](\w+)["']""", re.M)
# reverse("x"), reverse_lazy("x"), redirect("x") in Python; {% url 'x' %} and url('x') in templates.
PY_URL_RE = re.compile(r"""\b(?:reverse|reverse_lazy|redirect|resolve_url)\(\s*["']([\w:-]+)["']""")
TEMPLATE_URL_RE = re.compile(r"""{%\s*url\s+["']([\w:-]+)["']|\burl\(\s*["']([\w:-]+)["']""")


def _url_owners() -> dict[str, str]:
    owners = {}
    for part in ALLOWED:
        urls = ROOT / "games" / part / "urls.py"
        if urls.exists():
            text = urls.read_text()
            namespace = APP_NAME_RE.search(text)
            for name in NAME_RE.findall(text):
                owners[f"{namespace.group(1)}:{name}" if namespace else name] = part
    return owners


def _url_names(path: Path) -> list[tuple[int, str]]:
    pattern = PY_URL_RE if path.suffix == ".py" else TEMPLATE_URL_RE
    found = []
    for line_no, line in enumerate(path.read_text().splitlines(), start=1):
        for match in pattern.finditer(line):
            found.append((line_no, next(g for g in match.groups() if g)))
    return found


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_url_names_point_down_the_graph(part: str) -> None:
    """A page of an app above is reached through a hook or a setting (``LOGIN_URL``), not by name."""
    allowed = ALLOWED[part] | {part}
    owners = _url_owners()
    wrong = []
    for path in (ROOT / "games" / part).rglob("*"):
        if path.suffix not in (".py", ".html", ".txt", ".jinja") or "migrations" in path.parts:
            continue
        for line_no, name in _url_names(path):
            owner = owners.get(name)
            if owner is not None and owner not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line_no} names the URL {name} ({owner})")
    assert not wrong, "\n".join(wrong)


def test_the_url_check_knows_whose_names_they_are() -> None:
    """The URL check reads names from urls.py; one it cannot place would escape it."""
    owners = _url_owners()
    assert {"game_record", "fair_deals", "how_to_play", "login", "tournaments:detail", "lobby"} <= set(owners)


# Another app's models named by label ("play.Game" in a relation, apps.get_model("play", "Game")) and
# its templates named by path ("history/_pagination.html" in an include, a render or a
# template_name) are reached as an import reaches them.
LABEL_RE = re.compile(
    r"""(?:ForeignKey|OneToOneField|ManyToManyField)\(\s*["'](\w+)\.\w+["']|get_model\(\s*["'](\w+)["']""")
TEMPLATE_NAME_RE = re.compile(r"""["']((?:[\w-]+/)+[\w-]+\.(?:html|txt))["']""")


def _label_owners() -> dict[str, str]:
    owners = {}
    for part in ALLOWED:
        config = ROOT / "games" / part / "apps.py"
        text = config.read_text() if config.exists() else ""
        label = re.search(r"""^\s*label\s*=\s*["'](\w+)["']""", text, re.M)
        owners[label.group(1) if label else part] = part
    return owners


def _template_owners() -> dict[str, str]:
    return {
        str(path.relative_to(folder)): part
        for part in ALLOWED
        if (folder := ROOT / "games" / part / "templates").is_dir()
        for path in folder.rglob("*") if path.is_file()
    }


def _named_elsewhere(part: str) -> list[str]:
    """Models and templates of another part that ``part``'s code and templates name."""
    labels, templates = _label_owners(), _template_owners()
    allowed = ALLOWED[part] | {part}
    wrong = []
    for path in (ROOT / "games" / part).rglob("*"):
        if path.suffix not in (".py", ".html", ".txt") or "migrations" in path.parts:
            continue
        for line_no, line in enumerate(path.read_text().splitlines(), start=1):
            found = [(labels.get(m.group(1) or m.group(2)), m.group()) for m in LABEL_RE.finditer(line)]
            found += [(templates.get(m.group(1)), m.group(1)) for m in TEMPLATE_NAME_RE.finditer(line)]
            wrong += [f"{path.relative_to(ROOT)}:{line_no} names {what} ({owner})"
                      for owner, what in found if owner is not None and owner not in allowed]
    return wrong


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_model_labels_and_template_names_point_down_the_graph(part: str) -> None:
    wrong = _named_elsewhere(part)
    assert not wrong, "\n".join(wrong)


def test_the_name_check_knows_whose_models_and_templates_they_are() -> None:
    assert _label_owners()["play"] == "play" and _label_owners()["tournaments"] == "tournaments"
    templates = _template_owners()
    assert templates["history/_pagination.html"] == "history"
    assert LABEL_RE.search('models.ForeignKey("history.Rating", on_delete=x)').group(1) == "history"
    assert LABEL_RE.search('apps.get_model("tournaments", "Tournament")').group(2) == "tournaments"
    assert any(owner == "history" for owner in templates.values())


WRITES = {"create", "update", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
INSTANCE_WRITES = {"save", "delete"}


def _foreign_models(tree: ast.AST, part: str) -> set[str]:
    """The names bound by ``from games.<other>.models import …`` for another part."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            other = _part(node.module)
            if other is not None and other != part and ".models" in node.module:
                names |= {alias.asname or alias.name for alias in node.names}
    return names


def _root(node: ast.AST) -> tuple[str | None, list[str]]:
    """The name a chain such as ``Round.objects.filter(...).update`` starts from, and its attributes."""
    attributes = []
    while True:
        if isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id, attributes[::-1]
        else:
            return None, attributes[::-1]


def _writes_to(tree: ast.AST, models: set[str]) -> list[tuple[int, str]]:
    found = []
    # Names bound to another app's rows: ``x = Model.objects.get(…)``, ``for x in Model.objects…``.
    rows: set[str] = set()
    for node in ast.walk(tree):
        targets, value = [], None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, (ast.For, ast.comprehension)):
            targets, value = [node.target], node.iter
        if value is not None and _root(value)[0] in models:
            rows |= {t.id for t in targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, attributes = _root(node.func)
        method = node.func.attr
        if name in models and "objects" in attributes and method in WRITES:
            found.append((node.lineno, f"{name}.{'.'.join(attributes)}"))
        elif name in rows and attributes == [method] and method in INSTANCE_WRITES:
            found.append((node.lineno, f"{name}.{method}() on a row of another app"))
    return found


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_app_writes_only_its_own_tables(part: str) -> None:
    """Another app's rows change through that app's services, which keep its rules (locks, pushes,
    what follows from the change); reading them is fine."""
    wrong = []
    for path in _python_files(part):
        tree = ast.parse(path.read_text(), filename=str(path))
        models = _foreign_models(tree, part)
        if models:
            wrong += [f"{path.relative_to(ROOT)}:{line} {what}" for line, what in _writes_to(tree, models)]
    assert not wrong, "\n".join(wrong)


def test_the_write_check_sees_writes() -> None:
    tree = ast.parse(
        "from games.play.models import Round\n"
        "Round.objects.filter(game=g).update(summary=s)\n"
        "Round.objects.create(game=g)\n"
        "r = Round.objects.get(pk=1)\n"
        "r.save()\n"
        "for n in Round.objects.all():\n"
        "    n.delete()\n"
        "Round.objects.filter(game=g).count()\n"
    )
    lines = [line for line, _ in _writes_to(tree, _foreign_models(tree, "history"))]
    assert lines == [2, 3, 5, 7]
