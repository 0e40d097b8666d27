"""Helpers for the board's view tests: a move posted as the board's form posts it, and the board
partial, its refusal and its version read from the answer.

The clients ``a`` and ``b`` (alice's and bob's) and ``go_game`` (the stacked "go" deal, alice deals)
are fixtures of ``tests/play/conftest.py``."""

from __future__ import annotations

import html as html_lib
import re

from django.test import Client
from django.urls import reverse

from games.play.models import Game

HTMX = {"HX-Request": "true"}


def post_act(client: Client, game: Game, data: dict, *, htmx: bool = True, version: int | None = None):
    game.refresh_from_db()
    payload = {"version": game.version if version is None else version, **data}
    headers = HTMX if htmx else {}
    return client.post(reverse("act", args=[game.pk]), payload, headers=headers)


def text(response) -> str:
    return response.content.decode()


def assert_board_partial(response, status: int = 200) -> str:
    assert response.status_code == status, text(response)[:500]
    html = text(response)
    assert html.lstrip().startswith('<div id="board"'), html[:200]
    assert "<html" not in html
    return html


def board_error(html: str) -> str:
    """The refusal's message as a player reads it (entities decoded)."""
    match = re.search(r'<p class="board-error" role="alert"[^>]*>(.*?)</p>', html, re.S)
    return html_lib.unescape(match.group(1)) if match else ""


def version_in(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))
