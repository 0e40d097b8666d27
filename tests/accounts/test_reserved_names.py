"""A name the game's own sentences use for a player ("You", "Computer (easy)") is refused at sign-up
and on a rename in the admin, with a message that says why; a name that only begins like one of
those words ("Younger") is a name like any other."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.play.factories import logged_in

pytestmark = pytest.mark.django_db

PASSWORD = "peg-out-at-121!"


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _signup(username: str):
    return Client().post(reverse("signup"), {"username": username, "email": "", "password1": PASSWORD,
                                             "password2": PASSWORD})


@pytest.mark.parametrize("name", ["You", "you", "YOU", "Yours", "Computer", "computer_2", "Seat3", "player1"])
def test_a_name_the_narration_uses_is_refused_with_a_message(name: str) -> None:
    response = _signup(name)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "choose another name" in page and ("a player" in page or "computer players" in page)
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["Younger", "Yousef", "Computa", "Playful", "Seattle"])
def test_a_name_that_only_begins_like_one_is_a_name(name: str) -> None:
    assert _signup(name).status_code == 302
    assert get_user_model().objects.filter(username=name).exists()


def test_a_rename_in_the_admin_is_refused_too() -> None:
    User = get_user_model()
    staff = User.objects.create_superuser("td", email="td@example.com", password=None)
    kate = User.objects.create_user("kate", password=None)
    url = reverse("admin:auth_user_change", args=[kate.pk])
    form = {"username": "You", "password": "", "is_active": "on", "last_login_0": "", "last_login_1": "",
            "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"}
    response = logged_in(staff).post(url, form)
    assert response.status_code == 200  # the form again, with its error
    assert "choose another name" in html.unescape(response.content.decode())
    kate.refresh_from_db()
    assert kate.username == "kate"
    response = logged_in(staff).post(reverse("admin:auth_user_add"), {
        "username": "Computer_Ann", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"})
    assert not User.objects.filter(username="Computer_Ann").exists()
