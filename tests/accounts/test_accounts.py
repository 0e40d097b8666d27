"""Sign up, log in and out, change and reset a password, and the profile page."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "peg-out-at-121!"
NEW_PASSWORD = "muggins-takes-it-2"


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # Real hashers cost a second a test on these machines; the views don't care which one runs.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ann(django_user_model):
    return django_user_model.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


def logged_in_id(client) -> str | None:
    return client.session.get("_auth_user_id")


def signup(client, **overrides):
    data = {"username": "bob", "email": "", "password1": PASSWORD, "password2": PASSWORD, **overrides}
    return client.post(reverse("signup"), data)


# ---------- sign up ----------


def test_signup_page_shows_the_form(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password2"' in response.content


def test_signup_creates_the_account_logs_in_and_goes_to_the_lobby(client, django_user_model):
    response = signup(client, email="bob@example.com")
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    bob = django_user_model.objects.get(username="bob")
    assert bob.email == "bob@example.com"
    assert bob.check_password(PASSWORD)
    assert logged_in_id(client) == str(bob.pk)


def test_signup_without_email_is_allowed(client, django_user_model):
    assert signup(client).status_code == 302
    assert django_user_model.objects.get(username="bob").email == ""


def test_duplicate_username_is_refused(client, ann, django_user_model):
    response = signup(client, username="Ann")  # case does not make a new name
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert django_user_model.objects.count() == 1
    assert logged_in_id(client) is None


def test_an_email_address_already_in_use_is_refused(client, ann, django_user_model):
    response = signup(client, email="ANN@example.com")  # addresses are compared without case
    assert response.status_code == 400
    assert "An account with this email address already exists." in response.content.decode()
    assert django_user_model.objects.count() == 1
    assert logged_in_id(client) is None


def test_password_mismatch_is_refused(client, django_user_model):
    response = signup(client, password2=PASSWORD + "x")
    assert response.status_code == 400
    assert "didn’t match" in response.content.decode()
    assert not django_user_model.objects.exists()


@pytest.mark.parametrize(
    ("password", "message"),
    [("12345678", "entirely numeric"), ("password", "too common"), ("Xy1!", "too short")],
)
def test_weak_password_is_refused(client, django_user_model, password, message):
    response = signup(client, password1=password, password2=password)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not django_user_model.objects.exists()


def test_signup_errors_are_tied_to_their_field(client):
    html = signup(client, password2="nope").content.decode()
    assert 'aria-invalid="true"' in html
    assert 'id="id_password2_error"' in html


def test_signup_when_logged_in_goes_to_the_lobby(client, ann):
    client.force_login(ann)
    response = client.get(reverse("signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")


# ---------- log in and out ----------


def test_login_page(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b"Forgot your password?" in response.content


def test_login_with_the_right_password(client, ann):
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    assert logged_in_id(client) == str(ann.pk)


def test_login_follows_next(client, ann):
    target = reverse("password_change")
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD, "next": target})
    assert response["Location"] == target


def test_login_with_a_wrong_password_is_refused(client, ann):
    response = client.post(reverse("login"), {"username": "ann", "password": "wrong"})
    assert response.status_code == 400
    assert "Please enter a correct username and password" in response.content.decode()
    assert logged_in_id(client) is None


def test_logout(client, ann):
    client.force_login(ann)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert logged_in_id(client) is None
    assert "You are logged out. Thanks for playing." in client.get(reverse("home")).content.decode()


def test_nav_shows_who_is_logged_in(client, ann):
    assert b"Log in" in client.get("/").content
    client.force_login(ann)
    html = client.get("/").content.decode()
    assert reverse("profile", args=["ann"]) in html
    assert "Log out" in html


# ---------- change password ----------


def test_password_change_needs_a_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_change(client, ann):
    client.force_login(ann)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert client.get(reverse("password_change_done")).status_code == 200
    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    assert logged_in_id(client) == str(ann.pk)  # the session survives the change


def test_password_change_with_the_wrong_old_password(client, ann):
    client.force_login(ann)
    response = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 400
    assert "Your old password was entered incorrectly" in response.content.decode()
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)


# ---------- reset password ----------


def reset_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^/\s]+/[^/\s]+/)", body)
    assert match, body
    return match[1]


def test_password_reset_mails_a_link_that_sets_a_new_password(client, ann):
    assert client.get(reverse("password_reset")).status_code == 200
    response = client.post(reverse("password_reset"), {"email": "ann@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert client.get(reverse("password_reset_done")).status_code == 200

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.com"]
    assert message.subject == "Reset your Cribbage Hall password"
    assert "Hello ann" in message.body
    link = reset_link(message.body)

    # Django swaps the token for a session-held one, then shows the form.
    response = client.get(link)
    assert response.status_code == 302
    form_url = response["Location"]
    response = client.get(form_url)
    assert response.status_code == 200
    assert b'name="new_password1"' in response.content

    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    assert client.get(reverse("password_reset_complete")).status_code == 200

    ann.refresh_from_db()
    assert ann.check_password(NEW_PASSWORD)
    assert client.login(username="ann", password=NEW_PASSWORD)


def test_password_reset_link_works_only_once(client, ann):
    client.post(reverse("password_reset"), {"email": "ann@example.com"})
    link = reset_link(mail.outbox[0].body)
    form_url = client.get(link)["Location"]
    client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    response = client.get(link, follow=True)
    assert response.status_code == 200
    assert b"This link has expired" in response.content and b"<title>Reset link expired" in response.content


def test_password_reset_rejects_a_weak_new_password(client, ann):
    client.post(reverse("password_reset"), {"email": "ann@example.com"})
    form_url = client.get(reset_link(mail.outbox[0].body))["Location"]
    response = client.post(form_url, {"new_password1": "12345678", "new_password2": "12345678"})
    assert response.status_code == 400
    assert "entirely numeric" in response.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_nothing(client, ann):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302  # the same answer: no account enumeration
    assert mail.outbox == []


# ---------- profile ----------


def test_profile_page(client, ann):
    response = client.get(reverse("profile", args=["ann"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>ann</h1>" in html
    assert "Member since" in html
    assert 'class="profile-stats"' in html
    assert reverse("password_change") not in html  # only on your own profile


def test_own_profile_links_to_password_change(client, ann):
    client.force_login(ann)
    html = client.get(reverse("profile", args=["ann"])).content.decode()
    assert reverse("password_change") in html
    assert "This is you" in html


def test_profile_of_an_unknown_user_is_404(client):
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_profile_of_an_inactive_user_is_404(client, ann):
    ann.is_active = False
    ann.save()
    assert client.get(reverse("profile", args=["ann"])).status_code == 404


def test_logged_out_template_renders(client):
    from django.template.loader import render_to_string

    assert "logged out" in render_to_string("registration/logged_out.html")
