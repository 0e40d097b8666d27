"""The examples in docstrings are part of the documentation: every one of them runs. The modules are
found by walking the packages, so a module that gains an example is tested without being listed."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import games


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(games.__path__, prefix="games."):
        if ".migrations" in info.name:
            continue
        spec = importlib.util.find_spec(info.name)
        source = Path(spec.origin).read_text() if spec and spec.origin else ""
        if ">>> " in source:
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_the_walk_reaches_every_package() -> None:
    expected = {"engine.hand_totals", "engine.players.discard", "history.glicko2", "play.narration",
                "play.names", "play.ratelimit", "tournaments.pairing.no_rematch"}
    assert {f"games.{name}" for name in expected} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    # doctest.testmod skips what a package re-exports from its submodules: the walk lists each one.
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
