"""The admin's user pages refuse, on creation and on a rename, the names the game's sentences use
for someone else, as sign-up does."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User

from games.accounts.forms import clean_player_name


class PlayerChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if self.instance.pk is not None and username == self.instance.username:
            return username  # an account from before the rule keeps its name until it is changed
        return clean_player_name(username)


class PlayerCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        return clean_player_name(super().clean_username())


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
