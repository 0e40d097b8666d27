"""An invited player turns an invitation down: the game set up for them is called off."""

from __future__ import annotations

import pytest

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game

pytestmark = pytest.mark.django_db


def test_declining_a_two_player_invitation_calls_it_off(alice, bob):
    game = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob)
    declined = services.game_decline(user=bob, game_id=game.pk)
    assert declined.status == Game.Status.ABORTED and declined.version == game.version + 1


def test_declining_a_seat_kept_at_a_table_calls_the_table_off(alice, bob, carol):
    seats = [{"kind": "invite", "user": bob}, {"kind": "open"}]
    game = services.game_create_table(user=alice, rules=HouseRules(players=3), seats=seats)
    services.game_accept(user=carol, game_id=game.pk)
    services.game_decline(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_only_the_invited_player_declines_and_only_before_the_start(alice, bob, carol):
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    invitation = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob)
    for game_id in (seek.pk, invitation.pk):
        with pytest.raises(services.NotAPlayer):
            services.game_decline(user=carol, game_id=game_id)
    services.game_accept(user=bob, game_id=invitation.pk)
    with pytest.raises(services.NotAvailable):
        services.game_decline(user=bob, game_id=invitation.pk)
    for game in (seek, invitation):
        game.refresh_from_db()
        assert game.status != Game.Status.ABORTED
