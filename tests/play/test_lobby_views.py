"""The lobby through the Django test client: its forms and lists, new games against the computer,
seeks and invitations accepted and withdrawn, rematches from the page, a withdrawn seek's page, and the
site icon."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game
from tests.play.board_support import HTMX, post_act, text
from tests.play.factories import computer_game, human_game, logged_in

pytestmark = pytest.mark.django_db


# --- the lobby --------------------------------------------------------------------------------------


def test_the_lobby_needs_a_login(client):
    response = client.get(reverse("lobby"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('lobby')}"


def test_the_lobby_shows_the_forms_and_the_lists(a, alice, bob, carol):
    services.game_create_seek(user=bob, rules=HouseRules(target=61))  # an open seek
    services.game_create_seek(user=carol, rules=HouseRules(), invited=alice, rated=True)  # an invitation
    mine = services.game_create_seek(user=alice, rules=HouseRules(match_games=3), turn_timer=60)
    playing = computer_game(alice, level="expert")
    response = a.get(reverse("lobby"))
    assert response.status_code == 200
    html = text(response)
    for name in ("cpu-level", "cpu-target", "cpu-muggins", "seek-opponent", "seek-rated"):
        assert f'name="{name}"' in html
    assert "Accept bob's seek" in html and "61 points" in html
    # A new game comes first: the computer, a friend, a table; then the lists.
    order = [html.index(f'id="{h}"') for h in ("cpu-h", "seek-h", "table-h", "in-progress-h")]
    assert order == sorted(order)
    assert "Invitations for you" in html and "<strong>carol</strong> invites you: 121 points, rated" in html
    assert "Waiting for an opponent" in html
    assert "Open seek: 121 points, best of 3, casual, 60 s a move." in html
    assert "bob</strong>: 61 points, casual" in html  # each row with the same terms, rated or casual
    assert reverse("invitation", args=[mine.invite_token]) in html
    assert reverse("game", args=[playing.pk]) in html and "Computer (expert)" in html
    assert "Nobody is seeking" not in html
    # Rows against the same opponent tell apart: terms, the match so far, the last move's time.
    match = computer_game(alice, level="expert", rules=HouseRules(match_games=3, target=61))
    resigned = computer_game(alice, level="expert")
    post_act(a, resigned, {"type": "resign"})
    html = text(a.get(reverse("lobby")))
    assert "61 points · best of 3 · games 0–0 · " in html and "121 points · " in html
    assert f'href="{reverse("game", args=[match.pk])}"' in html
    assert "Lost <span class=\"muted\">(resignation)</span>" in html


def test_an_empty_lobby(a):
    html = text(a.get(reverse("lobby")))
    assert "No games in progress" in html and "Nobody is seeking a game right now" in html


def test_creating_a_computer_game_redirects_to_the_board(a, alice):
    response = a.post(reverse("new_computer_game"), {
        "cpu-level": "standard", "cpu-target": "61", "cpu-skunks": "on", "cpu-peg_out_zone": "5",
        "cpu-match_games": "3", "cpu-manual_counting": "on", "cpu-muggins": "on",
    })
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == reverse("game", args=[game.pk])
    assert game.vs_computer and game.computer_level == "standard" and game.status == Game.Status.ACTIVE
    assert game.house_rules == HouseRules(target=61, peg_out_zone=5, match_games=3, manual_counting=True,
                                          muggins=True)
    page = a.get(response.url)
    assert page.status_code == 200 and 'id="board"' in text(page)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cpu-muggins": "on"}, "Muggins needs manual counting."),
        ({"cpu-triple_skunk": "on", "cpu-skunks": "on", "cpu-target": "61"},
         "There is no triple skunk in a 61-point game."),
        ({"cpu-triple_skunk": "on"}, "A triple skunk needs skunks on."),
        ({"cpu-level": "grandmaster"}, "Select a valid choice."),
        ({"cpu-target": "100"}, "Select a valid choice."),
    ],
)
def test_house_rules_errors_answer_400_with_the_message(a, data, message):
    form = {"cpu-level": "easy", "cpu-target": "121", "cpu-peg_out_zone": "0", "cpu-match_games": "1", **data}
    response = a.post(reverse("new_computer_game"), form)
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seek-muggins": "on"}, "Muggins needs manual counting."),
        ({"seek-rated": "on", "seek-manual_counting": "on"}, "Rated games use automatic counting."),
        ({"seek-opponent": "nobody"}, "There is no player called &#x27;nobody&#x27;."),
        ({"seek-opponent": "alice"}, "You cannot invite yourself."),
    ],
)
def test_seek_form_errors_answer_400(a, data, message):
    form = {"seek-target": "121", "seek-peg_out_zone": "0", "seek-match_games": "1", **data}
    response = a.post(reverse("new_seek"), form)
    assert response.status_code == 400
    assert message in text(response)
    assert not Game.objects.exists()


def test_seek_accept_and_withdraw_through_the_lobby(a, b, alice, bob):
    form = {"seek-target": "121", "seek-skunks": "on", "seek-peg_out_zone": "0", "seek-match_games": "1"}
    response = a.post(reverse("new_seek"), form, follow=True)
    assert response.redirect_chain == [(reverse("lobby"), 302)]
    assert "Your seek is posted" in text(response)
    seek = Game.objects.get()
    assert seek.status == Game.Status.WAITING
    # The creator's own board link leads to the lobby, whose socket opens the game once it is taken
    # (the invitation page, for the others, has none).
    response = a.get(reverse("game", args=[seek.pk]), follow=True)
    assert response.redirect_chain == [(reverse("invitation", args=[seek.invite_token]), 302),
                                       (reverse("lobby"), 302)]
    assert "Your table is waiting in the lobby" in text(response) and "invites you" not in text(response)
    # Bob cannot withdraw it; alice cannot accept it.
    response = b.post(reverse("withdraw", args=[seek.pk]), follow=True)
    assert "Only the player who posted it can withdraw it." in text(response)
    response = a.post(reverse("accept", args=[seek.pk]), follow=True)
    assert "You cannot accept your own game." in text(response)
    response = b.post(reverse("accept", args=[seek.pk]))
    assert response.status_code == 302 and response.url == reverse("game", args=[seek.pk])
    seek.refresh_from_db()
    assert seek.status == Game.Status.ACTIVE and seek.seat_of(bob) == 1
    response = a.post(reverse("withdraw", args=[seek.pk]), follow=True)
    assert "That game has already started." in text(response)


def test_accept_refusal_with_htmx_answers_its_status(b, alice, carol):
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=carol)
    response = b.post(reverse("accept", args=[seek.pk]), headers=HTMX)
    assert response.status_code == 403 and "someone else" in text(response)


def test_an_invitation_link(alice, bob, carol):
    seek = services.game_create_seek(user=alice, rules=HouseRules(), invited=bob)
    c = logged_in(carol)
    page = c.get(reverse("invitation", args=[seek.invite_token]))
    assert page.status_code == 200 and "alice invites you to play" in text(page)
    assert f'value="{seek.invite_token}"' in text(page)
    lobby = logged_in(alice).get(reverse("lobby"))
    assert "bob also finds it in their lobby; whoever you send the link to may take the seat" in text(lobby)
    response = c.post(reverse("accept", args=[seek.pk]), {"token": seek.invite_token})
    assert response.status_code == 302 and response.url == reverse("game", args=[seek.pk])
    assert Game.objects.get().seat_of(carol) == 1
    assert c.get(reverse("invitation", args=[seek.invite_token])).url == reverse("game", args=[seek.pk])
    assert Client().get(reverse("invitation", args=[seek.invite_token])).status_code == 302  # login
    assert c.get(reverse("invitation", args=["no-such-token"])).status_code == 404


def test_rematch_through_the_page(a, alice):
    game = computer_game(alice, rules=HouseRules(target=61))
    response = a.post(reverse("rematch", args=[game.pk]), follow=True)
    assert "That game is not over yet." in text(response)
    post_act(a, game, {"type": "resign"}, htmx=False)
    response = a.post(reverse("rematch", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response.url == reverse("game", args=[new.pk])
    assert new.target == 61 and new.status == Game.Status.ACTIVE
    # Back to the old board and Rematch again: the same new game, not a second one.
    old_board = a.get(reverse("game", args=[game.pk])).content.decode()
    assert "Go to the rematch" in old_board and f'href="{reverse("game", args=[new.pk])}"' in old_board
    again = a.post(reverse("rematch", args=[game.pk]))
    assert again.url == reverse("game", args=[new.pk]) and Game.objects.count() == 2


def test_rematch_between_people_waits_on_the_finished_board(a, alice, bob):
    game = human_game(alice, bob)
    post_act(a, game, {"type": "resign"})
    response = a.post(reverse("rematch", args=[game.pk]), follow=True)
    assert response.redirect_chain == [(reverse("game", args=[game.pk]), 302)]
    html = text(response)
    assert "Rematch offered: the game opens when your opponent accepts." in html
    assert "Rematch offered: it starts when bob accepts." in html and ">Rematch</button>" not in html
    assert Game.objects.get(status=Game.Status.WAITING).invited == bob
    again = a.post(reverse("rematch", args=[game.pk]), follow=True)  # pressed twice: still one offer
    assert "already waiting for bob" in text(again) and Game.objects.count() == 2
    b = logged_in(bob)
    accepted = b.post(reverse("rematch", args=[game.pk]))  # bob's Rematch accepts alice's offer
    rematch = Game.objects.get(status=Game.Status.ACTIVE)
    assert accepted.url == reverse("game", args=[rematch.pk])
    for client in (a, b):  # either pressing it again goes to that game
        assert client.post(reverse("rematch", args=[game.pk])).url == reverse("game", args=[rematch.pk])
        assert "Go to the rematch" in client.get(reverse("game", args=[game.pk])).content.decode()
    assert Game.objects.count() == 2


# --- a withdrawn seek, the forms drawn once, the site icon ------------------------------------------


def test_a_withdrawn_seek_has_no_board_but_no_error(a, alice):
    """A withdrawn seek has no state: its page and its invitation link must not loop or crash."""
    seek = services.game_create_seek(user=alice, rules=HouseRules())
    services.game_withdraw(user=alice, game_id=seek.pk)
    response = a.get(reverse("game", args=[seek.pk]), follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(reverse("invitation", args=[seek.invite_token]), 302)]
    assert "This invitation is no longer open." in text(response)


def test_the_lobby_draws_blank_forms_once_but_never_a_filled_one(a, bob):
    from games.play.forms import SeekForm
    from games.play.templatetags.lobby import _blank, _draw

    assert _blank(SeekForm, "seek") == _draw(SeekForm(prefix="seek"))  # the kept copy is the real thing
    form = {"seek-target": "61", "seek-peg_out_zone": "0", "seek-match_games": "1", "seek-muggins": "on",
            "seek-opponent": "bob"}
    refused = text(a.post(reverse("new_seek"), form))
    assert 'value="bob"' in refused and "Muggins needs manual counting." in refused
    lobby = text(a.get(reverse("lobby")))
    assert 'value="bob"' not in lobby and "Muggins needs manual counting." not in lobby


def test_the_browsers_favicon_request_finds_the_site_icon(client):
    from django.templatetags.static import static

    response = client.get("/favicon.ico")
    # The icon itself is a static file (whitenoise serves it, from collectstatic's copy).
    assert response.status_code == 301 and response.url == static("favicon.svg")
