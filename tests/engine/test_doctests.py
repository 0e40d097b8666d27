"""The examples in the engine's docstrings are part of its documentation: keep them true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cards", "rules", "deck", "scoring", "distribution", "winprob", "players.chances"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"games.engine.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
