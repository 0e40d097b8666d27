"""Correspondence games are rated in pools of their own."""

from __future__ import annotations

import pytest

from games.correspondence.services import game_claim_on_time
from games.engine.rules import HouseRules
from games.history.models import Rating
from games.play import services as play
from tests.correspondence.support import move_once

pytestmark = pytest.mark.django_db


def test_a_rated_correspondence_game_counts_in_a_pool_of_its_own(clock, players):
    alice, bob = players
    seek = play.game_create_seek(user=alice, rules=HouseRules(), invited=bob, days_per_move=2, rated=True)
    game = play.game_accept(user=bob, game_id=seek.pk)
    move_once(game, {0: alice, 1: bob}, seat=0)
    clock.advance(days=30)
    game_claim_on_time(user=alice, game_id=game.pk)
    assert set(Rating.objects.values_list("pool", flat=True)) == {1121}
