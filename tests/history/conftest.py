from __future__ import annotations

import pytest

from tests.play.factories import fixed_secrets


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "history")

