"""A player's own data: the download of everything the site holds about them, and the pages that
delete their account. Only the player themselves: strangers get 404, anonymous visitors the log-in."""

from __future__ import annotations

import json
import random
import secrets
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.history.export import game_json
from games.play import ratelimit
from games.play.models import Game
from games.play.names import DELETED_NAME, is_deleted
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


def test_the_profile_offers_the_download_and_the_deletion_to_its_owner_only(ann):
    own = logged_in(ann).get(reverse("profile", args=[ann.username])).content.decode()
    assert data_url(ann.username) in own and reverse("account_delete") in own
    other = get_user_model().objects.create_user("bea")
    for client in (logged_in(other), Client()):
        page = client.get(reverse("profile", args=[ann.username])).content.decode()
        assert data_url(ann.username) not in page and reverse("account_delete") not in page


# ---------- deleting the account ----------


def test_the_deletion_page_needs_a_log_in(client):
    response = client.get(reverse("account_delete"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(reverse("account_delete"), {"password": PASSWORD, "confirm": "on"}).status_code == 302


def test_the_deletion_form_asks_for_the_password_and_a_tick(ann):
    client = logged_in(ann)
    page = client.get(reverse("account_delete")).content.decode()
    assert 'type="password"' in page and 'type="checkbox"' in page and "csrfmiddlewaretoken" in page
    wrong = client.post(reverse("account_delete"), {"password": "not-it", "confirm": "on"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.content.decode()
    unticked = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert unticked.status_code == 400 and "Tick the box" in unticked.content.decode()
    ann.refresh_from_db()
    assert ann.is_active and ann.email == "ann@example.com"


def test_the_deletion_is_csrf_protected(ann):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    assert client.post(reverse("account_delete"), {"password": PASSWORD, "confirm": "on"}).status_code == 403
    ann.refresh_from_db()
    assert ann.is_active


def test_deleting_logs_out_and_says_so(ann):
    client = logged_in(ann)
    response = client.post(reverse("account_delete"), {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == 302 and response["Location"] == reverse("account_deleted")
    assert "_auth_user_id" not in client.session
    page = client.get(response["Location"]).content.decode()
    assert "Your account is deleted" in page and DELETED_NAME in page
    ann.refresh_from_db()
    assert is_deleted(ann.username) and not ann.is_active and ann.email == ""
    assert not Client().login(username=ann.username, password=PASSWORD)


def test_wrong_passwords_count_as_failed_log_ins(ann, settings, monkeypatch):
    settings.RATE_LIMIT_LOGIN_FAILURES = "2/m"
    frozen = 1_700_000_000 + 60 * random.randint(0, 10**6) + 1  # no window edge inside the test
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: frozen))
    client = logged_in(ann, REMOTE_ADDR=f"10.9.{random.randint(0, 255)}.{random.randint(1, 254)}")
    url = reverse("account_delete")
    for _ in range(2):
        assert client.post(url, {"password": "guess", "confirm": "on"}).status_code == 400
    blocked = client.post(url, {"password": PASSWORD, "confirm": "on"})
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) >= 1
    ann.refresh_from_db()
    assert ann.is_active


def test_a_deletion_refused_midway_changes_nothing_and_says_so(ann, monkeypatch):
    from games.accounts import views
    from games.play.services import NotAvailable

    def refused(**kwargs):
        raise NotAvailable("That game has already started.")

    monkeypatch.setattr(views, "account_delete", refused)
    client = logged_in(ann)
    response = client.post(reverse("account_delete"), {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == 409 and "nothing was changed" in response.content.decode()
    assert client.session["_auth_user_id"] == str(ann.pk)
