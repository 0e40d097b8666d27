"""The forms of the director's desk: a step, an announcement, players to add, import or withdraw, a
round's score sheet and a cut of the cards. They check the shape of what is posted; the services
check the rest and say why in the director's words."""

from __future__ import annotations

from django import forms

from games.tournaments.admin.desk_actions import STEPS
from games.tournaments.models import Entrant, Match, Tournament
from games.tournaments.services import ANNOUNCEMENT_LENGTH, Entry


class StepForm(forms.Form):
    step = forms.ChoiceField(choices=[(s, s) for s in STEPS])
    reason = forms.CharField(required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    # Steps that cannot be taken back ask first (desk.Step.confirm): the box must be ticked.
    confirmed = forms.BooleanField(required=False)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("step") == "cancel" and not (data.get("reason") or "").strip():
            self.add_error("reason", "Give a reason: players see it on the tournament page.")
        if data.get("step") == "start" and not data.get("confirmed"):
            self.add_error("confirmed", "Tick the box to confirm: once started, the entry list is closed "
                                        "and the draw is made.")
        return data


class AnnounceForm(forms.Form):
    text = forms.CharField(
        label="Announcement",
        max_length=ANNOUNCEMENT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Shown at once on the tournament page, in each entrant's lobby and on the board of "
        f"every game of the event in play. At most {ANNOUNCEMENT_LENGTH} characters.",
    )


class AddPlayersForm(forms.Form):
    usernames = forms.CharField(
        label="Usernames, one a line",
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 5, "autocomplete": "off", "spellcheck": "false"}),
        help_text="A name that is nobody's stops the lot: the list comes back to correct.",
    )

    def names(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["usernames"].splitlines() if line.strip()]


class ImportForm(forms.Form):
    source = forms.ModelChoiceField(queryset=Tournament.objects.none(), label="Import everyone who played in")

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        others = Tournament.objects.exclude(pk=tournament.pk).order_by("-created_at")
        self.fields["source"].queryset = others
        previous = others.filter(created_at__lte=tournament.created_at).first() or others.first()
        self.fields["source"].initial = previous.pk if previous else None


class WithdrawForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none(), label="Player")
    reason = forms.CharField(required=False, max_length=500, label="Reason (players see it)")

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.started = tournament.status != Tournament.Status.UPCOMING
        self.fields["entrant"].queryset = (
            tournament.entrants.active().select_related("user").order_by("user__username")
        )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if self.started and not reason:
            raise forms.ValidationError("Give a reason: players see it on the tournament page.")
        return reason


class RoundSheetForm(forms.Form):
    """A round's score sheet: for each match, its winner, the games each won (matches longer than
    a game) and, if the director has them, the game scores; whether it was decided when drawn."""

    reason = forms.CharField(
        required=False,
        max_length=500,
        label="Reason for any correction",
        help_text="Needed only to change a result already decided; players see it.",
    )

    def __init__(self, *args, matches: list[Match], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.matches = matches
        for m in matches:
            decided = m.status == Match.Status.FINISHED
            p = f"m{m.pk}"
            self.fields[f"{p}-winner"] = forms.TypedChoiceField(
                label=f"Winner of {m.label}",
                required=False,
                coerce=int,
                empty_value=None,
                choices=[("", "not yet"), (m.entrant1_id, m.entrant1.name), (m.entrant2_id, m.entrant2.name)],
                initial=m.winner_id if decided else "",
            )
            if m.match_games > 1:
                for side, entrant in ((1, m.entrant1), (2, m.entrant2)):
                    self.fields[f"{p}-games{side}"] = forms.IntegerField(
                        label=f"Games won by {entrant.name}",
                        required=False,
                        min_value=0,
                        max_value=7,
                        initial=getattr(m, f"games{side}") if decided else None,
                    )
            self.fields[f"{p}-scores"] = forms.CharField(
                label=f"Game scores of {m.label}",
                required=False,
                max_length=100,
                initial=m.game_scores if decided else "",
                widget=forms.TextInput(attrs={"placeholder": "121-97", "inputmode": "text"}),
            )
            self.fields[f"{p}-was"] = forms.BooleanField(
                required=False, initial=decided, widget=forms.HiddenInput
            )

    def rows(self) -> list[dict]:
        """Each match with its fields, for the template."""
        out = []
        for m in self.matches:
            p = f"m{m.pk}"
            out.append(
                {
                    "match": m,
                    "winner": self[f"{p}-winner"],
                    "games": [self[f"{p}-games{s}"] for s in (1, 2)] if m.match_games > 1 else [],
                    "scores": self[f"{p}-scores"],
                    "was": self[f"{p}-was"],
                }
            )
        return out

    def entries(self) -> list[Entry]:
        data = self.cleaned_data
        return [
            Entry(
                match_id=m.pk,
                winner_id=data.get(f"m{m.pk}-winner"),
                games1=data.get(f"m{m.pk}-games1"),
                games2=data.get(f"m{m.pk}-games2"),
                scores=data.get(f"m{m.pk}-scores") or "",
                was_decided=bool(data.get(f"m{m.pk}-was")),
            )
            for m in self.matches
        ]


class CutForm(forms.Form):
    """The cards tied players cut, one field a player."""

    def __init__(self, *args, entrants: list[Entrant], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.entrants = entrants
        for e in entrants:
            self.fields[f"cut-{e.pk}"] = forms.CharField(
                label=f"{e.name}'s card",
                required=False,
                max_length=3,
                initial=e.cut_card,
                widget=forms.TextInput(attrs={"size": 3, "autocomplete": "off"}),
            )

    def cards(self) -> dict[int, str]:
        return {e.pk: self.cleaned_data.get(f"cut-{e.pk}", "") for e in self.entrants}
