"""Helpers for the online-play extras' tests: an empty cache and the socket rows as the heartbeat
(autouse in each module that imports them), and a game brought to its first card."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.play.factories import act, as_form, load, random_action

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


@pytest.fixture(autouse=True)
def _beats_on_the_rows(settings):
    """These tests set a socket's row back in time to stand for a player gone; with Redis the beats
    live in the cache instead (tests/play/test_presence_cache.py tests that way), so here the row
    is the beat on both databases."""
    settings.PRESENCE_IN_CACHE = False


def _to_play(game, users):
    """Cut and discard so that the first card is due."""
    import random

    rng = random.Random(5)
    for _ in range(10):
        state = load(game)
        if state.phase == "play":
            return state
        seat = state.to_act[0]
        act(game, users[seat], as_form(random_action(state, seat, rng)))
    raise AssertionError("never reached the play")
