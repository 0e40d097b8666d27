from __future__ import annotations

import pytest

from tests.play.factories import fixed_secrets


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    """Every game's secret, so every cut and deal, is the same on each run: a cut that ties
    (one time in seventeen) cannot turn a web test red now and then."""
    fixed_secrets(monkeypatch, "web")


from tests.correspondence.support import clock  # noqa: E402, F401  the correspondence clock tests move
