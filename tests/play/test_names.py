"""How players are named to others: a deleted account's handle reads "a deleted player", and no
username a sign-up may choose reads so."""

from __future__ import annotations

import pytest
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.template import Context, Template

from games.play.names import DELETED_NAME, deleted_handle, is_deleted, public_name


def test_a_deleted_handle_reads_as_a_deleted_player():
    handle = deleted_handle()
    assert is_deleted(handle) and public_name(handle) == DELETED_NAME
    assert handle != deleted_handle()
    assert public_name("alice") == "alice" and not is_deleted("alice")
    assert public_name("deleted-alice") == "deleted-alice"  # a living player's name, as chosen
    assert public_name("") == "" and public_name(None) == ""


def test_no_sign_up_can_choose_a_deleted_handle():
    with pytest.raises(ValidationError):
        UnicodeUsernameValidator()(deleted_handle())


def test_the_template_filter():
    template = Template("{% load player_names %}{{ a|public_name }}, {{ b|public_name }}")
    assert template.render(Context({"a": "bob", "b": deleted_handle()})) == f"bob, {DELETED_NAME}"
