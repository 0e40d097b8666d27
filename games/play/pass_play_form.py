"""The form that starts a pass-and-play game: how many sit down, each seat a name or a computer,
and the house rules (the site counts every hand: nobody types a count on a shared device)."""

from __future__ import annotations

from django import forms

from games.engine.rules import HouseRules
from games.play.forms import HouseRulesForm, _shown_if
from games.play.models import ComputerLevel
from games.play.models.seats import NAME_LENGTH
from games.play.names import reserved_name_reason

PERSON = "person"
KIND_CHOICES = [(PERSON, "A person at the table")] + [
    (level, f"Computer ({label.lower()})") for level, label in ComputerLevel.choices
]
SEAT_LABELS = {
    1: "Seat 1",
    2: "Seat 2 (on seat 1's left)",
    3: "Seat 3 (opposite seat 1: partners at four)",
    4: "Seat 4 (on seat 1's right)",
}


class PassPlayForm(HouseRulesForm):
    players = forms.TypedChoiceField(
        label="Players", coerce=int, initial=2,
        choices=[(2, "Two players"), (3, "Three players"), (4, "Four players, two partnerships")],
        help_text="Four: seats 1 and 3 play against seats 2 and 4.",
    )
    lead = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["manual_counting"], self.fields["muggins"]
        for n, label in SEAT_LABELS.items():
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=label, choices=KIND_CHOICES, required=False,
                initial=PERSON if n < 3 else ComputerLevel.STANDARD,
                help_text="Three or four players only." if n == 3 else "",
            )
            self.fields[f"seat_{n}_name"] = forms.CharField(
                label=f"Name for seat {n}", required=False, max_length=NAME_LENGTH,
            )
            _shown_if(self.fields[f"seat_{n}_name"], self.add_prefix(f"seat_{n}"), PERSON)
        _shown_if(self.fields["seat_4"], self.add_prefix("players"), "4")
        self.order_fields(["players", *(f"seat_{n}{end}" for n in SEAT_LABELS for end in ("", "_name"))])

    def clean(self) -> dict:
        data = super().clean()
        n = data.get("players") or 2
        seats, names = [], set()
        for i in range(1, n + 1):
            kind = data.get(f"seat_{i}") or PERSON
            if kind != PERSON:
                seats.append({"kind": "computer", "level": kind})
                continue
            name = (data.get(f"seat_{i}_name") or "").strip()
            if not name:
                self.add_error(f"seat_{i}_name", "Type this player's name: the pass screen calls them by it.")
            elif reason := reserved_name_reason(name):
                self.add_error(f"seat_{i}_name", reason)
            elif name.casefold() in names:
                self.add_error(f"seat_{i}_name", "Two players have this name: tell them apart.")
            names.add(name.casefold())
            seats.append({"kind": PERSON, "name": name})
        if not any(s["kind"] == PERSON for s in seats):
            self.add_error(None, "Seat at least one person: somebody has to hold the device.")
        data["seats"] = seats
        return data

    def house_rules(self) -> HouseRules:
        d = self.cleaned_data
        return HouseRules(
            target=d["target"], skunks=d["skunks"], triple_skunk=d["triple_skunk"],
            peg_out_zone=d["peg_out_zone"], pone_cuts=d["pone_cuts"], match_games=d["match_games"],
            players=d["players"],
        )
