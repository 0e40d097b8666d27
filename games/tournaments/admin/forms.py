"""The forms the tournament admin's actions ask for: a reason, extra minutes, a result."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.template.response import TemplateResponse

from games.tournaments.models import Match

RULE_FIELDS = (
    "format", "match_games", "playoff_match_games", "target", "skunks", "triple_skunk", "peg_out_zone",
    "rated", "win_points", "skunk_points", "double_skunk_points", "turn_timer",
)  # fmt: skip


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        required=True,
        help_text="Shown to the players on the tournament page.",
    )


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=24 * 60, initial=5)


class ResultForm(forms.Form):
    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)
    games1 = forms.IntegerField(
        min_value=0, max_value=7, required=False, label="Games won by the first player"
    )
    games2 = forms.IntegerField(
        min_value=0, max_value=7, required=False, label="Games won by the second player"
    )
    points1 = forms.IntegerField(min_value=0, max_value=99, required=False, label="Qualifying points, first")
    points2 = forms.IntegerField(min_value=0, max_value=99, required=False, label="Qualifying points, second")
    spread = forms.IntegerField(
        min_value=-999, max_value=999, required=False, label="Point spread (from the first player's side)"
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Kept with the result and shown to the players.",
    )

    def __init__(self, *args, match: Match, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            (match.entrant1_id, match.entrant1.name),
            (match.entrant2_id, match.entrant2.name),
        ]
        self.fields["games1"].label = f"Games won by {match.entrant1.name}"
        self.fields["games2"].label = f"Games won by {match.entrant2.name}"
        self.fields["points1"].label = f"Qualifying points, {match.entrant1.name}"
        self.fields["points2"].label = f"Qualifying points, {match.entrant2.name}"
        self.fields["spread"].label = f"Point spread, from {match.entrant1.name}'s side"
        for name in ("games1", "games2", "points1", "points2", "spread"):
            self.fields[
                name
            ].help_text = "Empty: the match's own figures (a walkover's if the winner changes)."


def reason_page(
    model_admin, request, queryset, form, action: str, title: str, intro: str
) -> TemplateResponse:
    """The intermediate page of an action that needs a reason (or a number)."""
    return TemplateResponse(
        request,
        "tournaments/admin/action_form.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "intro": intro,
            "objects": queryset,
            "form": form,
            "action": action,
            "opts": model_admin.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        },
    )
