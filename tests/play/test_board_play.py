"""The board page through the Django test client: who may see it, every phase played with htmx
(the tab's title, the calls announced, the go, manual counting and muggins, the next game, resigning),
the same without JavaScript, each page's own tab id, and the result's words on skunks and an
uncounted crib."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.engine.rules import HouseRules
from games.play import services
from games.play.models import Game, Move
from tests.play.board_support import HTMX, assert_board_partial, board_error, post_act, text, version_in
from tests.play.factories import (
    GO_HANDS,
    GO_PLAY,
    computer_game,
    human_game,
    load,
    logged_in,
    snapshot,
    stack,
)

pytestmark = pytest.mark.django_db


# --- the board page ---------------------------------------------------------------------------------


def test_the_board_page_for_players_only(a, b, alice, bob, carol, client):
    game = human_game(alice, bob)
    url = reverse("game", args=[game.pk])
    for c in (a, b):
        response = c.get(url)
        assert response.status_code == 200
        html = text(response)
        assert "<html" in html and 'id="board"' in html and "Cut for deal" in html
        assert f'data-version="{game.version}"' in html
    assert logged_in(carol).get(url).status_code == 403
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert a.get(reverse("game", args=[game.pk + 100])).status_code == 404


def test_the_board_page_without_javascript_lets_the_computer_move(a, alice):
    game = computer_game(alice)
    assert services.computer_to_act(game)
    response = a.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    game.refresh_from_db()
    assert not services.computer_to_act(game)
    assert Move.objects.filter(game=game, seat=1).exists()
    assert f'data-version="{game.version}"' in text(response)


def test_the_board_page_with_htmx_leaves_the_computer_to_the_step_endpoint(a, alice):
    game = computer_game(alice)
    html = assert_board_partial(a.get(reverse("game", args=[game.pk]), headers=HTMX))
    assert not Move.objects.filter(game=game).exists()
    assert reverse("computer_step", args=[game.pk]) in html  # the board asks for the computer's move


# --- acting through the client: every phase ---------------------------------------------------------


def test_cut_for_deal_with_htmx(a, b, alice, bob):
    game = human_game(alice, bob)
    html = assert_board_partial(post_act(a, game, {"type": "cut_for_deal", "position": "0"}))
    assert "Waiting for" in html and version_in(html) == 2
    html = assert_board_partial(post_act(b, game, {"type": "cut_for_deal", "position": "1"}))
    state = load(game)
    assert state.phase in ("discard", "cut")  # a tie means cut again
    assert version_in(html) == 3
    if state.phase == "discard":  # the cut says who deals, once: no "You deal" under "…: you deal"
        log = html.split('class="score-log', 1)[1]
        assert re.search(r"(low|lower than [A-Za-z, ]+): (you|alice|bob) deals?", log)
        assert not re.search(r">\s*(You deal|alice deals|bob deals)\s*<", log)


def test_a_whole_deal_with_htmx(go_game, a, b):
    clients = {0: a, 1: b}
    html = assert_board_partial(post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]}))
    assert 'name="cards"' not in html  # no more discard checkboxes
    assert "Eight of spades" in html  # "you laid away ..."
    html = assert_board_partial(post_act(b, go_game, {"type": "discard", "cards": ["3S", "4S"]}))
    assert 'data-card="5C"' in html and "Five of clubs" in html  # the starter
    assert 'name="card" value="KH"' in html  # bob leads
    for seat, action in GO_PLAY:
        html = assert_board_partial(post_act(clients[seat], go_game, action))
        assert board_error(html) == ""
    state = load(go_game)
    assert state.phase == "show"
    assert re.search(r'show-total[^>]*>16<', html)  # alice's hand
    assert 'value="next_deal"' in html
    assert_board_partial(post_act(a, go_game, {"type": "next_deal"}))
    html = assert_board_partial(post_act(b, go_game, {"type": "next_deal"}))
    assert load(go_game).deal_no == 1 and 'name="cards"' in html


TAB_TITLE = re.compile(r'data-title="([^"]*)"')


def test_the_tab_title_says_when_it_is_your_move(go_game, a, b):
    page = a.get(reverse("game", args=[go_game.pk])).content.decode()
    assert "<title>Your move · Lay away to the crib · You v bob · Cribbage Hall</title>" in page
    html = assert_board_partial(post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]}))
    assert TAB_TITLE.search(html).group(1) == "Lay away to the crib · You v bob · Cribbage Hall"
    assert "<title>Your move · Lay away to the crib · You v alice" in b.get(
        reverse("game", args=[go_game.pk])).content.decode()
    html = assert_board_partial(post_act(b, go_game, {"type": "discard", "cards": ["3S", "4S"]}))
    assert TAB_TITLE.search(html).group(1) == "Your move · The play · You v alice · Cribbage Hall"
    html = assert_board_partial(post_act(b, go_game, GO_PLAY[0][1]))
    assert TAB_TITLE.search(html).group(1).startswith("The play")


ANNOUNCE = re.compile(r'<p id="announce"[^>]*>(.*?)</p>', re.S)


def test_the_calls_are_announced_after_a_move_but_not_when_the_page_is_reopened(go_game, a, b):
    post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, go_game, {"type": "discard", "cards": ["3S", "4S"]})
    clients = {0: a, 1: b}
    called = []
    for seat, action in GO_PLAY:
        answer = text(post_act(clients[seat], go_game, action))
        assert 'hx-swap-oob="innerHTML"' in answer  # the page's live region stays, its content changes
        called += ['class="call' in ANNOUNCE.search(answer).group(1)]
    assert any(called)  # the go, thirty-one, the last card...
    page = text(a.get(reverse("game", args=[go_game.pk])))
    assert ANNOUNCE.search(page).group(1) == ""  # a full page does not call out an old move again
    assert 'hx-swap-oob' not in ANNOUNCE.search(page).group(0)


def test_without_javascript_the_page_a_move_leads_to_calls_it_out_once(go_game, a, b):
    post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, go_game, {"type": "discard", "cards": ["3S", "4S"]})
    clients = {0: a, 1: b}
    for seat, action in GO_PLAY:
        response = post_act(clients[seat], go_game, action, htmx=False)
        assert response.status_code == 302
        page = text(clients[seat].get(response.url))
        if 'class="call' in ANNOUNCE.search(page).group(1):
            break
    else:
        pytest.fail("no move of the go sequence was called out")
    again = text(clients[seat].get(response.url))
    assert ANNOUNCE.search(again).group(1) == ""  # a reload does not call it again


def test_go_button_appears_when_nothing_fits(go_game, a, b):
    post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, go_game, {"type": "discard", "cards": ["3S", "4S"]})
    clients = {0: a, 1: b}
    for seat, action in GO_PLAY[:3]:
        post_act(clients[seat], go_game, action)
    html = text(a.get(reverse("game", args=[go_game.pk]), headers=HTMX))
    assert 'value="go"' in html
    html = assert_board_partial(post_act(a, go_game, {"type": "go"}))
    assert 'value="go"' not in html


def test_manual_counting_and_muggins_with_htmx(alice, bob, a, b):
    game = stack(human_game(alice, bob, rules=HouseRules(manual_counting=True, muggins=True)),
                 dealer=0, hands=GO_HANDS, starter="5C")
    post_act(a, game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, game, {"type": "discard", "cards": ["3S", "4S"]})
    clients = {0: a, 1: b}
    for seat, action in GO_PLAY:
        post_act(clients[seat], game, action)
    html = text(b.get(reverse("game", args=[game.pk]), headers=HTMX))
    assert 'name="points"' in html
    response = post_act(b, game, {"type": "count", "points": "30"})
    html = assert_board_partial(response, 422)
    assert board_error(html) == "Count a whole number of points from 0 to 29"
    assert 'value="30">' in html  # what was typed stays, to correct
    # The count box and its refusal stand by the counted hand, the reader's own seat.
    mine = html[html.index('class="seat seat--me'):]
    assert 'name="points"' in mine and mine.index('class="board-error"') < mine.index('name="points"')
    assert 'name="points"' not in html[:html.index('class="seat seat--me')]
    assert 'seat--to-play" data-turn="to count"' in html  # not "to play" in the show
    html = assert_board_partial(post_act(b, game, {"type": "count", "points": "2"}))
    assert 'value="call_muggins"' not in html  # only alice may call it
    html = text(a.get(reverse("game", args=[game.pk]), headers=HTMX))
    assert 'value="call_muggins"' in html and 'value="accept_count"' in html and "counted 2" in html
    # Muggins!/Accept stand by bob's hand, the one counted, not in the column beside the table.
    theirs = html[html.index('class="seat seat--opponent'):html.index('class="seat seat--me')]
    assert 'value="call_muggins"' in theirs and "bob counts <strong>2</strong> for their hand" in theirs
    assert 'seat--to-play" data-turn="to answer"' in html
    assert_board_partial(post_act(a, game, {"type": "call_muggins"}))
    assert load(game).show[0].muggins == 2
    post_act(a, game, {"type": "count", "points": "16"})
    html = assert_board_partial(post_act(b, game, {"type": "accept_count"}))
    assert load(game).show[1].status == "done"
    assert 'value="accept_count"' not in html


def test_next_game_and_resign_with_htmx(alice, bob, a, b):
    game = stack(human_game(alice, bob, rules=HouseRules(match_games=3)), dealer=0, hands=GO_HANDS,
                 starter="5C", scores=(118, 100))
    post_act(a, game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, game, {"type": "discard", "cards": ["3S", "4S"]})
    clients = {0: a, 1: b}
    for seat, action in GO_PLAY:
        html = assert_board_partial(post_act(clients[seat], game, action))
    assert "You win" in html and 'value="next_game"' in html
    html = text(b.get(reverse("game", args=[game.pk]), headers=HTMX))
    assert "alice wins" in html
    html = assert_board_partial(post_act(b, game, {"type": "next_game"}))
    assert load(game).game_no == 1 and 'name="cards"' in html
    html = assert_board_partial(post_act(b, game, {"type": "resign"}))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_seat == 0
    assert "by resignation" in html and reverse("rematch", args=[game.pk]) in html
    assert 'value="resign"' not in html


# --- without JavaScript -----------------------------------------------------------------------------


def test_without_htmx_an_action_redirects_back_to_the_page(go_game, a):
    response = post_act(a, go_game, {"type": "discard", "cards": ["8S", "9S"]}, htmx=False)
    assert response.status_code == 302 and response.url == reverse("game", args=[go_game.pk])
    assert load(go_game).discards[0]
    page = a.get(response.url)
    assert page.status_code == 200 and 'name="cards"' not in text(page)


def test_without_htmx_an_error_becomes_a_message(go_game, a):
    before = snapshot(go_game)
    response = post_act(a, go_game, {"type": "discard", "cards": ["KH", "9C"]}, htmx=False)
    assert response.status_code == 302 and response.url == reverse("game", args=[go_game.pk])
    assert snapshot(go_game) == before
    page = text(a.get(response.url))
    assert re.search(r'<li class="message error">You don.*t hold the King of hearts</li>', page)
    assert "King of hearts" not in text(a.get(response.url))  # a message is shown once


# --- each page's own tab ----------------------------------------------------------------------------


def test_each_board_page_has_its_own_tab_id_for_its_socket_and_its_requests(a, go_game):
    pages = [a.get(reverse("game", args=[go_game.pk])).content.decode() for _ in range(2)]
    tabs = []
    for html in pages:
        socket_tab = re.search(r'data-socket="/ws/game/\d+/\?tab=([\w-]+)"', html).group(1)
        header_tab = re.search(r'hx-headers=\'\{"X-Board-Tab": "([\w-]+)"\}\'', html).group(1)
        assert socket_tab == header_tab and len(socket_tab) >= 16
        tabs.append(socket_tab)
    assert tabs[0] != tabs[1]


def test_an_odd_tab_header_is_ignored_not_refused(a, go_game):
    form = {"type": "play", "card": "XX", "version": go_game.version}
    response = a.post(reverse("act", args=[go_game.pk]), form, headers={**HTMX, "X-Board-Tab": "<script>"})
    assert response.status_code == 422


# --- the result, in words ---------------------------------------------------------------------------


def _win_the_go_deal(game, a, b, start: int):
    """Alice (the dealer, from ``start`` points) goes out in the go deal; bob ends on 5."""
    stack(game, dealer=0, hands=GO_HANDS, starter="5C", scores=(start, 0))
    post_act(a, game, {"type": "discard", "cards": ["8S", "9S"]})
    post_act(b, game, {"type": "discard", "cards": ["3S", "4S"]})
    for seat, action in GO_PLAY:
        if load(game).phase != "play":
            break
        post_act({0: a, 1: b}[seat], game, action)
    assert load(game).phase == "match_over" and load(game).scores[1] == 5


@pytest.mark.parametrize("skunks", [True, False])
def test_with_skunks_off_the_result_says_there_is_no_skunk(alice, bob, a, b, skunks):
    game = human_game(alice, bob, rules=HouseRules(skunks=skunks))
    _win_the_go_deal(game, a, b, 105)
    html = text(b.get(reverse("game", args=[game.pk]), headers=HTMX))
    assert ("That is a double skunk." in html) is skunks
    assert ("No skunk: skunks are off in this game." in html) is not skunks


@pytest.mark.parametrize(("start", "crib_counted"), [(105, False), (100, True)])
def test_a_crib_left_uncounted_by_the_win_says_so(alice, bob, a, b, start, crib_counted):
    game = human_game(alice, bob)
    _win_the_go_deal(game, a, b, start)
    mine = text(a.get(reverse("game", args=[game.pk]), headers=HTMX))
    theirs = text(b.get(reverse("game", args=[game.pk]), headers=HTMX))
    if crib_counted:  # alice's crib took her out: counted, nothing to explain
        assert "before your crib was counted" not in mine and "crib was counted" not in theirs
    else:  # her hand took her out
        assert "The game was won before your crib was counted: it does not count." in mine
        assert "The game was won before alice's crib was counted" in theirs
