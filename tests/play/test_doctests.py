"""The examples in the docstrings of the narration, the shown result and the names are part of their
documentation: keep them true."""

from __future__ import annotations

import doctest
import importlib

import pytest

NARRATION = ["narration", "narration.seating", "narration.results", "narration.lines"]


@pytest.mark.parametrize("name", [*NARRATION, "game_result", "names"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"games.play.{name}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
