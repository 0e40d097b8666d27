"""A player's own data: the download of everything the site holds about them. Only the player
themselves: strangers get 404, anonymous visitors the log-in."""

from __future__ import annotations

import json
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.history.export import game_json
from games.play.models import Game
from tests.accounts.helpers import PASSWORD, make_world
from tests.play.factories import fixed_secrets, logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _setup(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    fixed_secrets(monkeypatch, "owndata")


@pytest.fixture
def world():
    return make_world()


@pytest.fixture
def ann(django_user_model):
    # A name of its own per test: failed-password counts live in the cache, which outlives a test.
    return django_user_model.objects.create_user(f"ann-{secrets.token_hex(3)}", email="ann@example.com",
                                                 password=PASSWORD)


def data_url(username: str) -> str:
    return reverse("account_data", args=[username])


# ---------- the download ----------


def test_anonymous_visitors_are_sent_to_log_in(world):
    response = Client().get(data_url("alice"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_nobody_else_gets_a_players_data(world):
    bob = logged_in(world.bob)
    assert bob.get(data_url("alice")).status_code == 404
    assert bob.get(data_url("nobody")).status_code == 404
    staff = world.dave
    staff.is_staff = staff.is_superuser = True
    staff.save()
    assert logged_in(staff).get(data_url("alice")).status_code == 404


def test_the_download_is_a_get_only_attachment(world):
    client = logged_in(world.alice)
    response = client.get(data_url("alice"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="cribbage-hall-alice.json"'
    assert "no-store" in response["Cache-Control"]
    assert client.post(data_url("alice")).status_code == 405


def test_the_file_holds_the_account_ratings_games_statistics_and_tournaments(world):
    response = logged_in(world.alice).get(data_url("alice"))
    body = response.content.decode()
    data = json.loads(body)
    assert data["format"] == "cribbage-hall-player/1"
    assert data["account"] == {**data["account"], "username": "alice", "email": "alice@example.com",
                               "first_name": "Alice", "last_name": "Liddell"}
    assert data["account"]["date_joined"] and data["account"]["last_login"]
    assert "password" not in body and world.alice.password not in body

    assert [r["pool"] for r in data["ratings"]] == [121]
    history = data["rating_history"]
    assert history and history[0]["game"] == world.finished.pk and history[0]["opponent"] == "bob"
    assert history[-1]["rating_after"] == pytest.approx(data["ratings"][0]["rating"])

    games = {g["game"]: g for g in data["games"]}
    mine = set(Game.objects.filter(seats__user=world.alice).values_list("pk", flat=True))
    assert set(games) == mine
    finished = games[world.finished.pk]
    assert finished["record"] == json.loads(json.dumps(game_json(world.finished)))
    assert finished["history"]["result"] in ("win", "loss") and finished["players"] == ["alice", "bob"]
    # A game still in play: who, the house rules and the scores; nothing hidden from the player.
    in_play = games[world.in_play.pk]
    assert in_play["status"] == "active" and in_play["seat"] == 0 and in_play["scores"] == [0, 0]
    assert not {"record", "secret", "state", "hands", "deck"} & set(in_play)
    assert world.in_play.secret not in body
    assert games[world.seek.pk]["status"] == "waiting"

    stats = data["statistics"]["two_players"]["online"]
    assert stats["games"] == 2 and stats["opponents"]  # the rated game and the first tournament match

    tournaments = {t["name"]: t for t in data["tournaments"]}
    assert set(tournaments) == {"Winter Open", "Spring Open"}
    winter = tournaments["Winter Open"]
    assert winter["status"] == "running" and not winter["withdrawn"]
    first = next(m for m in winter["matches"] if m["round"] == 1)
    assert first["result"] == "won" and first["games"] == [1, 0]
    assert any(m["status"] == "active" for m in winter["matches"])
    assert winter["standing"]["match_wins"] == 1
    assert tournaments["Spring Open"]["standing"] is None and tournaments["Spring Open"]["matches"] == []


def test_the_profile_offers_the_download_to_its_owner_only(ann):
    own = logged_in(ann).get(reverse("profile", args=[ann.username])).content.decode()
    assert data_url(ann.username) in own
    other = get_user_model().objects.create_user("bea")
    for client in (logged_in(other), Client()):
        page = client.get(reverse("profile", args=[ann.username])).content.decode()
        assert data_url(ann.username) not in page
