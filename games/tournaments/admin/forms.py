"""The forms the tournament admin's actions ask for: a reason, extra minutes, a result."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.response import TemplateResponse

from games.tournaments import services
from games.tournaments.models import TIE_BREAK_WORDS, Match, Tournament

RULE_FIELDS = (
    "format", "match_games", "playoff_match_games", "qualifying_games", "pairing", "target", "skunks",
    "triple_skunk", "peg_out_zone", "manual_counting", "muggins", "rated", "win_points", "skunk_points",
    "double_skunk_points", "turn_timer",
)  # fmt: skip
TIE_BREAK_FIELDS = tuple(f"tie_break_{i}" for i in range(1, len(TIE_BREAK_WORDS) + 1))


def _tie_break(place: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=f"Tie-break {place}",
        required=False,
        help_text="Players level on qualifying points are ranked by the first of these that separates "
        "them; a tie left after them all is broken by a cut of the cards." if place == 1 else "",
    )


class TournamentForm(forms.ModelForm):
    """The tournament's settings, with its tie-breaks as an ordered list of choices (one select a
    place) rather than the comma-separated names it keeps."""

    tie_break_1 = _tie_break(1)
    tie_break_2 = _tie_break(2)
    tie_break_3 = _tie_break(3)
    tie_break_4 = _tie_break(4)
    tie_break_5 = _tie_break(5)

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        chosen = [n for n in (self.instance.tie_breaks or "").split(",") if n in TIE_BREAK_WORDS]
        choices = [("", "(none)"), *TIE_BREAK_WORDS.items()]
        for i, name in enumerate(TIE_BREAK_FIELDS):
            if name in self.fields:
                self.fields[name].choices = choices
                self.fields[name].initial = chosen[i] if i < len(chosen) else ""

    def clean(self) -> dict:
        data = super().clean()
        if not any(self.add_prefix(name) in self.data for name in TIE_BREAK_FIELDS):
            return data  # not on the page (fixed once the event has started)
        order = [data.get(name) for name in TIE_BREAK_FIELDS if data.get(name)]
        if len(set(order)) != len(order):
            raise forms.ValidationError("Choose each tie-break once.")
        self.instance.tie_breaks = ",".join(order)
        return data


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
    scores = forms.CharField(
        required=False, max_length=100, label="Game scores",
        help_text="If you have them, the first player's score first: 121-97 (several games: 121-97, "
        "88-121, 121-60). They give the games, the qualifying points with skunks and the spread.",
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


def apply_each(model_admin, request, objects, act) -> None:
    """An admin action on each of ``objects`` through the services: ``act(obj)`` does it and
    returns what to log and say (the object the log line goes on, the line, the message); a
    refusal becomes that object's error message and the others go on."""
    for obj in objects:
        try:
            logged, line, said = act(obj)
        except services.TournamentError as exc:
            model_admin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
            continue
        model_admin.log_change(request, logged, line)
        model_admin.message_user(request, said, messages.SUCCESS)
