"""How a correspondence game ended, as the record and the list of games say it."""

from __future__ import annotations

import pytest

from games.correspondence.services import end_abandoned, game_claim_on_time
from tests.correspondence.support import correspondence_game, move_once
from tests.play.factories import logged_in

pytestmark = pytest.mark.django_db


def test_a_claimed_loss_on_time_and_an_abandoned_game_read_apart(clock, players):
    alice, bob = players
    claimed = correspondence_game(alice, bob)
    move_once(claimed, {0: alice, 1: bob}, seat=0)
    left = correspondence_game(alice, bob)
    move_once(left, {0: alice, 1: bob}, seat=0)
    clock.advance(days=3, hours=1)
    game_claim_on_time(user=alice, game_id=claimed.pk)
    clock.advance(days=3)
    assert end_abandoned() == 1
    client = logged_in(alice)
    record = client.get(f"/games/{claimed.pk}/record/").content.decode()
    assert "on time (out of correspondence time)" in record
    record = client.get(f"/games/{left.pk}/record/").content.decode()
    assert "on time (game abandoned)" in record
    mine = client.get("/players/alice/games/").content.decode()
    assert "on time, abandoned" in mine
