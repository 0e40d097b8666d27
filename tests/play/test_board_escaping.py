"""The board escapes what players and the site put on it: names, messages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.play.board.player import board_context, board_html, render_board_oob
from tests.play.factories import fixed_secrets, human_game


@pytest.mark.django_db
def test_names_and_messages_on_the_board_are_escaped(alice, bob, monkeypatch):
    fixed_secrets(monkeypatch, "jinja")
    game = human_game(alice, bob)
    # The sign-up form refuses such a name; the board must not trust that it never gets one.
    get_user_model().objects.filter(pk=alice.pk).update(username="<script>al</script>")
    pushed = render_board_oob(game.pk, bob, "x" * 64)
    assert "<script>al" not in pushed and "&lt;script&gt;al&lt;/script&gt;" in pushed
    game.refresh_from_db()
    drawn = board_html(board_context(game, bob, error="<img src=x onerror=alert(1)>") | {"csrf_token": "t"})
    assert "<img src=x" not in drawn and "&lt;img src=x onerror=alert(1)&gt;" in drawn
    assert 'name="csrfmiddlewaretoken" value="t"' in drawn
