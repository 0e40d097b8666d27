from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from games.play.names import reserved_name_reason


def clean_player_name(username: str) -> str:
    """Refuse a name the game's sentences use for someone else ("You", "Computer…")."""
    reason = reserved_name_reason(username) if username else None  # None: refused already
    if reason is not None:
        raise forms.ValidationError(reason, code="reserved")
    return username


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional: only used to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        return clean_player_name(super().clean_username())

    def clean_email(self) -> str:
        # A password reset mails every account with the address: a second account on it would
        # hand whoever reads that mailbox both, and leave its owner unsure which one they reset.
        email = self.cleaned_data["email"].strip()
        if email and User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account with this email address already exists. Log in, or reset its password."
            )
        return email


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password (a session left open on a shared computer is not
    enough) and for a tick that says the player knows it cannot be undone."""

    password = forms.CharField(
        label="Your password", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label="I understand that my account is deleted for good: this cannot be undone.",
        error_messages={"required": "Tick the box to confirm that you want your account deleted."},
    )

    def __init__(self, user: User, *args, **kwargs) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password
