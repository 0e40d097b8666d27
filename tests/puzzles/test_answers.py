"""Answers: one per player and one per browser, a visitor's kept when they sign up or log in, and
bad input refused with a message and a 4xx that changes nothing."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.puzzles import services
from games.puzzles.browser import COOKIE
from games.puzzles.models import Vote
from tests.play.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-phrase-42"
URL = "/puzzles/2026-03-10/"


@pytest.fixture
def puzzle():
    return services.puzzle_for(date(2026, 3, 10))


def _answer(client: Client, puzzle, cards=None, **extra):
    cards = puzzle.best["laid_away"].split() if cards is None else cards
    return client.post(URL + "answer/", {"puzzle": puzzle.pk, "cards": cards}, **extra)


def _second_best(puzzle) -> list[str]:
    return puzzle.table[1]["laid_away"].split()


def test_a_player_answers_once(client, puzzle):
    user = make_user("alice")
    client.force_login(user)
    response = _answer(client, puzzle)
    assert response.status_code == 303 and response["Location"] == URL
    vote = Vote.objects.get()
    assert vote.user == user and vote.agreed and vote.on_day and vote.laid_away == puzzle.best["laid_away"]
    again = _answer(client, puzzle, _second_best(puzzle))
    assert again.status_code == 409
    assert "already answered" in again.content.decode()
    assert list(Vote.objects.values_list("laid_away", flat=True)) == [puzzle.best["laid_away"]]


def test_a_visitor_answers_once_per_browser(puzzle):
    first = Client()
    assert _answer(first, puzzle, _second_best(puzzle)).status_code == 303
    assert COOKIE in first.cookies
    assert _answer(first, puzzle).status_code == 409
    # Another browser is another visitor.
    assert _answer(Client(), puzzle).status_code == 303
    assert Vote.objects.filter(user=None).count() == 2
    vote = Vote.objects.get(laid_away=puzzle.table[1]["laid_away"])
    assert not vote.agreed and vote.browser


def test_a_forged_cookie_is_a_new_browser(puzzle):
    visitor = Client()
    _answer(visitor, puzzle)
    visitor.cookies[COOKIE] = "forged-token"
    assert _answer(visitor, puzzle).status_code == 303
    assert Vote.objects.exclude(browser="forged-token").count() == 2


def test_signing_up_keeps_the_visitors_answer(puzzle):
    visitor = Client()
    _answer(visitor, puzzle)
    response = visitor.post("/accounts/signup/", {"username": "newbie", "password1": PASSWORD,
                                                  "password2": PASSWORD})
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newbie")
    assert Vote.objects.get().user == user
    # Signed in or out, the same browser cannot answer again.
    assert _answer(visitor, puzzle).status_code == 409
    visitor.post("/accounts/logout/")
    assert _answer(visitor, puzzle).status_code == 409
    assert Vote.objects.count() == 1


def test_logging_in_keeps_the_answer_and_counts_a_person_once(puzzle, clock):
    user = get_user_model().objects.create_user("carol", password=PASSWORD)
    at_home = Client()
    at_home.force_login(user)
    _answer(at_home, puzzle)
    other = services.puzzle_for(date(2026, 3, 9))
    visitor = Client()
    _answer(visitor, puzzle, _second_best(puzzle))  # answered again, logged out elsewhere
    visitor.post("/puzzles/2026-03-09/answer/", {"puzzle": other.pk, "cards": _second_best(other)})
    assert visitor.post("/accounts/login/", {"username": "carol", "password": PASSWORD}).status_code == 302
    votes = Vote.objects.order_by("puzzle__day")
    assert [(v.puzzle.day, v.user, v.laid_away) for v in votes] == [
        (date(2026, 3, 9), user, other.table[1]["laid_away"]),
        (date(2026, 3, 10), user, puzzle.best["laid_away"]),
    ]


@pytest.mark.parametrize(("cards", "message"), [
    ([], "exactly two"), (["one"], "exactly two"), ("three", "exactly two"), ("same", "exactly two"),
    (["AS", "KS"], "not in this puzzle"),
])
def test_bad_cards_are_refused(client, puzzle, cards, message):
    hand = puzzle.cards
    if cards == ["one"]:
        cards = hand[:1]
    elif cards == "three":
        cards = hand[:3]
    elif cards == "same":
        cards = [hand[0], hand[0]]
    elif set(cards) & set(hand):
        cards = ["2C", "3C"] if not {"2C", "3C"} & set(hand) else ["4D", "9D"]
    response = _answer(client, puzzle, cards)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Vote.objects.exists()


def test_a_forged_puzzle_is_refused(client, puzzle):
    best = puzzle.best["laid_away"].split()
    response = client.post(URL + "answer/", {"puzzle": puzzle.pk + 99, "cards": best})
    assert response.status_code == 400 and "another puzzle" in response.content.decode()
    response = client.post(URL + "answer/", {"puzzle": "x'; --", "cards": best})
    assert response.status_code == 400
    assert client.post("/puzzles/2026-03-11/answer/", {"puzzle": puzzle.pk}).status_code == 404
    assert client.post("/puzzles/2026-02-30/answer/", {"puzzle": puzzle.pk}).status_code == 404
    assert client.post("/puzzles/2025-01-01/answer/", {"puzzle": puzzle.pk}).status_code == 404
    assert client.get(URL + "answer/").status_code == 405
    assert not Vote.objects.exists()


def test_the_service_refuses_a_puzzle_that_is_not_out_yet(puzzle, clock):
    tomorrow = services.puzzle_for(date(2026, 3, 11))
    with pytest.raises(services.NoSuchPuzzle):
        services.vote_cast(puzzle_id=tomorrow.pk, cards=tomorrow.best["laid_away"].split(), browser="b")
    with pytest.raises(services.NoSuchPuzzle):
        services.vote_cast(puzzle_id=10**9, cards=[], browser="b")


def test_an_answer_needs_the_csrf_token(puzzle):
    strict = Client(enforce_csrf_checks=True)
    assert _answer(strict, puzzle).status_code == 403
    assert not Vote.objects.exists()


def test_htmx_answers_in_place_with_the_results(client, puzzle):
    response = _answer(client, puzzle, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="puzzle"') and "<html" not in html
    assert "Every split" in html and html.count("data-split=") == 15
    refused = _answer(client, puzzle, headers={"HX-Request": "true"})
    assert refused.status_code == 409 and '<section id="puzzle"' in refused.content.decode()


def test_a_failed_move_of_answers_does_not_stop_the_log_in(puzzle, monkeypatch):
    from django.db import DatabaseError

    def broken(**kwargs):
        raise DatabaseError("the database went away")

    get_user_model().objects.create_user("dave", password=PASSWORD)
    visitor = Client()
    _answer(visitor, puzzle)
    monkeypatch.setattr(services, "votes_claim", broken)
    assert visitor.post("/accounts/login/", {"username": "dave", "password": PASSWORD}).status_code == 302
    assert Vote.objects.get().user is None  # still the browser's, moved at the next log-in


def test_two_answers_at_once_count_one(puzzle, monkeypatch):
    """The check and the insert race when two tabs answer at the same moment: the database's
    constraint has the last word, and the loser is told as any second answer is."""
    user = make_user("erin")
    services.vote_cast(puzzle_id=puzzle.pk, cards=puzzle.best["laid_away"].split(), user=user, browser="t1")
    services.vote_cast(puzzle_id=puzzle.pk, cards=puzzle.best["laid_away"].split(), browser="t2")
    monkeypatch.setattr(services, "existing_vote", lambda *args, **kwargs: None)  # both passed the check
    with pytest.raises(services.AlreadyAnswered):
        services.vote_cast(puzzle_id=puzzle.pk, cards=_second_best(puzzle), user=user, browser="t3")
    with pytest.raises(services.AlreadyAnswered):
        services.vote_cast(puzzle_id=puzzle.pk, cards=_second_best(puzzle), browser="t2")
    assert Vote.objects.count() == 2
