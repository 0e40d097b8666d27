"""Filtering and sorting a player's finished games (the "My games" / "Alice's games" list).

"Opponent" is a username someone played *against* (at a table of three any other player, of four
either of the other partnership), or "computer": games against the computer, where the player
was the only person at the table. "Players" picks games of two, three or four.
"""

from __future__ import annotations

from django import forms
from django.db.models import Q, QuerySet

from games.history.models import PlayerGame

RESULT_CHOICES = [("", "Any result"), ("win", "Won"), ("loss", "Lost")]
KIND_CHOICES = [("", "Online and computer"), ("online", "Online"), ("computer", "Against the computer")]
PLAYERS_CHOICES = [("", "Any number"), ("2", "Two players"), ("3", "Three players"), ("4", "Four (partners)")]
RULE_CHOICES = [
    ("", "Any rules"),
    ("121", "121 points"),
    ("61", "61 points"),
    ("rated", "Rated"),
    ("casual", "Casual (online, not rated)"),
    ("no_skunks", "Skunks off"),
    ("peg_out_zone", "Peg-out zone"),
    ("manual", "Manual counting"),
    ("muggins", "Muggins"),
    ("match", "Match (best of 3, 5 or 7)"),
]
RULE_FILTERS = {
    "121": Q(target=121),
    "61": Q(target=61),
    "rated": Q(rated=True),
    "casual": Q(rated=False, vs_computer=False),
    "no_skunks": Q(game__skunks=False),
    "peg_out_zone": Q(game__peg_out_zone__gt=0),
    "manual": Q(game__manual_counting=True),
    "muggins": Q(game__muggins=True),
    "match": Q(game__match_games__gt=1),
}
SORT_CHOICES = [
    ("-date", "Newest first"),
    ("date", "Oldest first"),
    ("-margin", "Biggest wins first"),
    ("margin", "Biggest losses first"),
]
SORT_ORDER = {
    "-date": ("-finished_at", "-game_id"),
    "date": ("finished_at", "game_id"),
    "-margin": ("-margin", "-finished_at"),
    "margin": ("margin", "-finished_at"),
}


class GameFilterForm(forms.Form):
    """GET filters; every field optional, an invalid value is ignored (the list stays usable)."""

    opponent = forms.CharField(required=False, max_length=150, label="Opponent",
                               help_text="A username, or \u201ccomputer\u201d.")
    result = forms.ChoiceField(required=False, choices=RESULT_CHOICES, label="Result")
    kind = forms.ChoiceField(required=False, choices=KIND_CHOICES, label="Opponent kind")
    players = forms.ChoiceField(required=False, choices=PLAYERS_CHOICES, label="Players")
    since = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    rule = forms.ChoiceField(required=False, choices=RULE_CHOICES, label="House rule")
    sort = forms.ChoiceField(required=False, choices=SORT_CHOICES, label="Sort by")

    def __init__(self, *args, public: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["opponent"].widget.attrs["aria-describedby"] = "id_opponent-help"
        if public:  # a public list only has online games
            del self.fields["kind"]

    def clean(self) -> dict:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "This date is before the From date.")
        return data

    def filter(self, games: QuerySet[PlayerGame]) -> QuerySet[PlayerGame]:
        # cleaned_data keeps the valid fields only: a bad one is left out (and the page says so)
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        opponent = (data.get("opponent") or "").strip()
        if opponent.lower() in ("computer", "the computer"):
            games = games.filter(vs_computer=True)
        elif opponent:
            # Anyone else at the table but a partner: with two players, the opponent.
            games = (games.filter(game__seats__user__username__iexact=opponent)
                     .exclude(user__username__iexact=opponent).exclude(partner__username__iexact=opponent))
        if data.get("players"):
            games = games.filter(players=int(data["players"]))
        if data.get("result"):
            games = games.filter(result=data["result"])
        if data.get("kind") == "online":
            games = games.filter(vs_computer=False)
        elif data.get("kind") == "computer":
            games = games.filter(vs_computer=True)
        if data.get("since"):
            games = games.filter(finished_at__date__gte=data["since"])
        if data.get("until"):
            games = games.filter(finished_at__date__lte=data["until"])
        if data.get("rule"):
            games = games.filter(RULE_FILTERS[data["rule"]])
        return games.order_by(*SORT_ORDER[data.get("sort") or "-date"])
