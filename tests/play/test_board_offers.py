"""What a board offers must be what the services allow: Abort only where calling the game off is
allowed (never in a tournament), a tournament game names its tournament, and Rematch on a finished
game accepts the opponent's offer instead of crossing it with a second one."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.play import services
from games.play.board.player import render_board_oob
from games.play.models import Game
from games.tournaments import services as tournament_services
from games.tournaments.models import Tournament
from tests.play.factories import fixed_secrets, human_game, logged_in
from tests.tournaments.helpers import active_matches, make_players, make_tournament

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _secrets(monkeypatch):
    fixed_secrets(monkeypatch, "offers")


def page(user, url: str, **headers) -> str:
    response = logged_in(user).get(url, headers=headers)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def tournament_game(name: str = "Club Cup") -> tuple[Tournament, Game]:
    t = make_tournament(make_players(2), format=Tournament.Format.ROUND_ROBIN, name=name)
    tournament_services.tournament_start(tournament_id=t.pk)
    (m,) = active_matches(t)
    return t, m.game


def test_a_tournament_board_offers_no_abort_and_names_its_tournament():
    t, game = tournament_game()
    player = game.seats.get(index=0).user
    url = reverse("game", args=[game.pk])
    board = page(player, url)
    assert reverse("abort", args=[game.pk]) not in board  # the service would refuse it
    assert f'<a href="{t.get_absolute_url()}">Club Cup · round 1</a>' in board
    assert reverse("abort", args=[game.pk]) not in page(player, url, **HTMX)
    with CaptureQueriesContext(connection) as queries:  # a push asks nothing of the tournament
        pushed = render_board_oob(game.pk, player, "x" * 64)
    assert reverse("abort", args=[game.pk]) not in pushed
    assert not [q for q in queries.captured_queries if "tournaments_" in q["sql"]]
    with pytest.raises(services.NotAvailable, match="tournament"):
        services.game_abort(user=player, game_id=game.pk)


def test_a_friendly_board_offers_abort_until_a_card_is_played(alice, bob):
    game = human_game(alice, bob)
    url = reverse("game", args=[game.pk])
    board = page(alice, url)
    assert reverse("abort", args=[game.pk]) in board and "round 1" not in board
    assert reverse("abort", args=[game.pk]) in render_board_oob(game.pk, bob, "x" * 64)
    services.game_abort(user=alice, game_id=game.pk)  # offered, and allowed
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_rematch_presses_make_one_game(alice, bob):
    game = human_game(alice, bob)
    services.game_act(user=bob, game_id=game.pk, version=game.version, action={"type": "resign"})
    rematch, url = reverse("rematch", args=[game.pk]), reverse("game", args=[game.pk])
    assert ">Rematch</button>" in page(bob, url)
    a, b = logged_in(alice), logged_in(bob)
    assert "Rematch offered" in a.post(rematch, follow=True).content.decode()
    again = a.post(rematch, follow=True).content.decode()
    assert "already waiting for bob" in again
    assert a.get(reverse("lobby")).content.decode().count("Invitation to <strong>bob</strong>") == 1
    assert ">Accept rematch</button>" in page(bob, url)  # Bob's board says Alice offered
    assert "Rematch offered: it starts when bob accepts." in page(alice, url)
    response = b.post(rematch)
    new = Game.objects.get(status=Game.Status.ACTIVE)
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.seat_of(alice) == 0 and new.seat_of(bob) == 1
    assert not Game.objects.filter(status=Game.Status.WAITING).exists()
