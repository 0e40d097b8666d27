"""The site's own scripts stay on htmx's and the browser's public APIs, small enough to read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "static" / "js").glob("**/*.js"))


def test_there_are_scripts_to_read():
    assert len(SCRIPTS) >= 8


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_uses_no_private_htmx_data_and_replaces_no_htmx_function(script: Path):
    text = script.read_text()
    assert "htmx-internal-data" not in text
    # htmx's own objects and functions are called, never assigned over.
    assert not re.search(r"\bhtmx\.(?!config\.)[\w.]+\s*=[^=]", text), "replaces a function of htmx"
    assert not re.search(r"\.init\s*=\s*function", text)
    assert "ws-connect" not in text and "htmx:ws" not in text  # the sockets are socket.js's own


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_script_is_at_most_200_lines(script: Path):
    assert len(script.read_text().splitlines()) <= 200


def test_nothing_watches_the_board_for_mutations_and_one_script_writes_the_title():
    texts = {p.name: p.read_text() for p in SCRIPTS}
    assert [name for name, text in texts.items() if "MutationObserver" in text] == []
    titled = [name for name, text in texts.items() if re.search(r"document\.title\s*=[^=]", text)]
    assert titled == ["board.js"]
    # URLs and versions come from data- attributes, not from the page's path or HTML text.
    for name, text in texts.items():
        assert "location.pathname" not in text, name
        assert 'data-version="' not in text, name
