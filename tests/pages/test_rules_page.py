"""How to play: the rules page and its hand counter (the engine's count, with the rules' examples)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

COUNTER = {"HX-Request": "true", "HX-Target": "counter"}


def _total(html: str) -> int:
    return int(re.search(r'data-testid="count-total">(\d+)<', html).group(1))


def test_the_page_covers_every_part_of_the_rules(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for anchor in ("aim", "deal", "starter", "play", "show", "winning", "house-rules", "away", "tables",
                   "counter"):
        assert f'id="{anchor}"' in html and f'href="#{anchor}"' in html
    for words in ("his heels", "1 for the go", "last card", "His nobs", "only a five-card flush counts",
                  "Stink hole".lower(), "muggins", "triple skunk", "Three players", "Four players"):
        assert words in html
    assert 'data-testid="count-total"' not in html  # nothing counted until asked


def test_it_states_when_a_player_who_left_can_be_claimed_against(client, settings):
    settings.ABSENCE_CLAIM_SECONDS = 300
    html = client.get("/rules/").content.decode()
    assert "claim the win</strong> once 5 minutes have passed" in html
    assert "not been heard from for 30 seconds" in html


def test_everyone_can_reach_it_from_the_footer_and_home_page(client, django_user_model):
    assert 'href="/rules/"' in client.get("/").content.decode()
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    assert 'href="/rules/"' in client.get("/lobby/").content.decode()
    assert 'href="/rules/#house-rules"' in client.get("/lobby/").content.decode()


@pytest.mark.parametrize(("hand", "starter", "crib", "total"), [
    ("5H 5C 5S JD", "5D", False, 29),
    ("7H 7C 7S 8D", "9H", False, 21),
    ("3H 3S 4C 5D", "6H", False, 14),  # two runs of four, a pair, two fifteens
    ("2H 4H 8H QH", "KS", False, 4),
    ("2H 4H 8H QH", "KS", True, 0),  # a crib flush needs the starter
    ("2H 4H 8H QH", "KH", True, 5),
    ("2H 4S 6D 8C", "KH", False, 0),
    ("JH 2S 4D 8C", "KH", False, 1),  # his nobs
])
def test_the_counter_counts_as_the_show_does(client, hand, starter, crib, total):
    query = {"hand": hand, "starter": starter} | ({"crib": "on"} if crib else {})
    response = client.get("/rules/", query)
    assert response.status_code == 200
    assert _total(response.content.decode()) == total


def test_cards_can_be_typed_as_players_write_them(client):
    html = client.get("/rules/", {"hand": "5♥, 5♣ 5♠ j♦", "starter": "5d"}).content.decode()
    assert _total(html) == 29 and "His nobs" in html and "Fifteen for 2" in html
    assert _total(client.get("/rules/", {"hand": "10H JS QC 4D", "starter": "KD"}).content.decode()) == 4


def test_htmx_gets_only_the_counter_back(client):
    response = client.get("/rules/", {"hand": "5H 5C 5S JD", "starter": "5D"}, headers=COUNTER)
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section id="counter"')
    assert "<html" not in html and _total(html) == 29


@pytest.mark.parametrize(("hand", "starter", "message"), [
    ("5H 5C 5S", "5D", "A hand is four cards; this has 3."),
    ("5H 5C 5S JD 4C", "5D", "A hand is four cards; this has 5."),
    ("5H 5H 5S JD", "5D", "Five of hearts is there twice"),
    ("5H 5C 5S JD", "5H", "Five of hearts is already in the hand."),
    ("5H 5C 5S 1D", "5D", "&#x27;1D&#x27; is not a card"),
    ("5H 5C 5S JD", "5D 6D", "The starter is one card."),
    ("", "", "This field is required."),
])
def test_cards_that_cannot_be_counted_say_why(client, hand, starter, message):
    for headers in ({}, COUNTER):
        response = client.get("/rules/", {"hand": hand, "starter": starter}, headers=headers)
        html = response.content.decode()
        assert response.status_code == 400 and message in html
        assert 'data-testid="count-total"' not in html


@settings(max_examples=60, deadline=None)
@given(hand=st.text(max_size=80), starter=st.text(max_size=20), crib=st.sampled_from(["", "on", "x"]))
def test_any_input_is_counted_or_refused_never_an_error(hand, starter, crib):
    response = Client().get("/rules/", {"hand": hand, "starter": starter, "crib": crib})
    assert response.status_code in (200, 400)
