"""Lobby forms: house rules, a game against the computer, a seek or an invitation."""

from __future__ import annotations

from dataclasses import replace

from django import forms
from django.contrib.auth.models import User

from games.engine.rules import HouseRules
from games.play.house_rules import DAYS_PER_MOVE_CHOICES, TURN_TIMER_CHOICES
from games.play.models import ComputerLevel

RULE_FIELDS = (
    "target", "skunks", "triple_skunk", "peg_out_zone", "manual_counting", "muggins", "pone_cuts",
    "match_games",
)


class HouseRulesForm(forms.Form):
    target = forms.TypedChoiceField(
        label="Game length", coerce=int, initial=121,
        choices=[(121, "121 points (standard)"), (61, "61 points (short game)")],
        help_text="First to this score wins. A 61 game has its skunk line at 31 and no double skunk.",
    )
    skunks = forms.BooleanField(
        required=False, initial=True, label="Skunks count",
        help_text="A loser under 91 (31 in a 61 game) is skunked; under 61, double-skunked.",
    )
    triple_skunk = forms.BooleanField(
        required=False, label="Triple skunk", help_text="A loser with 30 or less is triple-skunked.",
    )
    peg_out_zone = forms.TypedChoiceField(
        label="Peg-out zone", coerce=int, initial=0,
        choices=[(0, "Off"), (1, "Stink hole (last hole)"), (5, "Last five holes")],
        help_text="A player this close to the end when the show begins counts nothing: they must peg out.",
    )
    manual_counting = forms.BooleanField(
        required=False, label="Count my own hands",
        help_text="You type what your hand is worth, once: an undercount loses the missing points, "
                  "an overcount pegs only what the hand is worth.",
    )
    muggins = forms.BooleanField(
        required=False, label="Muggins",
        help_text="With manual counting: the opponent may take the points you missed, "
                  "and pegs whatever you count too many.",
    )
    pone_cuts = forms.BooleanField(
        required=False, initial=True, label="The pone cuts the pack",
        help_text="The player who did not deal cuts before the starter is turned; "
                  "off, the starter turns by itself once the crib is laid away.",
    )
    match_games = forms.TypedChoiceField(
        label="Match", coerce=int, initial=1,
        choices=[(1, "Single game"), (3, "Best of 3"), (5, "Best of 5"), (7, "Best of 7")],
        help_text="A win counts 1 game, a skunk 2, a double skunk 4; the loser deals the next game.",
    )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("muggins") and not data.get("manual_counting"):
            self.add_error("muggins", "Muggins needs manual counting.")
        if data.get("triple_skunk") and not data.get("skunks"):
            self.add_error("triple_skunk", "A triple skunk needs skunks on.")
        if data.get("triple_skunk") and data.get("target") == 61:
            self.add_error("triple_skunk", "There is no triple skunk in a 61-point game.")
        return data

    # The fields a new game is mostly started with, in sight; the form's other fields fold under
    # "Options". None: every field that is not a house rule is in sight.
    lead: tuple[str, ...] | None = None

    def main_fields(self):
        """The fields that are not house rules (shown first; the rules fold away)."""
        return [f for f in self.visible_fields() if f.name not in RULE_FIELDS]

    def lead_fields(self):
        return [f for f in self.main_fields() if self.lead is None or f.name in self.lead]

    def option_fields(self):
        return [f for f in self.main_fields() if self.lead is not None and f.name not in self.lead]

    def options_summary(self) -> str:
        return ", ".join(str(f.label).lower() for f in self.option_fields())

    def options_have_errors(self) -> bool:
        return any(self.errors.get(f.name) for f in self.option_fields())

    def rule_fields(self):
        return [f for f in self.visible_fields() if f.name in RULE_FIELDS]

    def rules_have_errors(self) -> bool:
        return any(self.errors.get(name) for name in RULE_FIELDS)

    def house_rules(self) -> HouseRules:
        d = self.cleaned_data
        return HouseRules(
            target=d["target"], skunks=d["skunks"], triple_skunk=d["triple_skunk"],
            peg_out_zone=d["peg_out_zone"], manual_counting=d["manual_counting"],
            muggins=d["muggins"], pone_cuts=d["pone_cuts"], match_games=d["match_games"],
        )


def _private_field() -> forms.BooleanField:
    return forms.BooleanField(
        required=False, label="Private game",
        help_text="Not listed on the games to watch, and nobody but the players can open it.",
    )


class ComputerGameForm(HouseRulesForm):
    field_order = ["level", "hints", "private"]
    lead = ("level",)

    level = forms.ChoiceField(
        label="Computer strength", choices=ComputerLevel.choices, initial=ComputerLevel.STANDARD,
        help_text="Easy plays at random; standard keeps its best hand; expert weighs the crib and pegging.",
    )
    hints = forms.BooleanField(
        required=False, label="Discard hints", help_text="Show what the expert would lay away.",
    )
    private = _private_field()


def _pace_or_timer(form: forms.Form, data: dict) -> None:
    """The field-level word for the rule the lobby's service keeps: own pace or a turn timer."""
    if data.get("days_per_move") and data.get("turn_timer"):
        form.add_error("turn_timer", "A game at your own pace has days a move, not a turn timer.")


class SeekForm(HouseRulesForm):
    field_order = ["opponent", "days_per_move", "rated", "hints", "turn_timer", "private"]
    lead = ("opponent",)

    days_per_move = forms.TypedChoiceField(
        label="Pace", coerce=int, initial=0, required=False, empty_value=0,
        choices=[(0, "Live: play at the table now")]
        + [(d, f"At your own pace: {label} a move") for d, label in DAYS_PER_MOVE_CHOICES if d],
        help_text="At your own pace, each player has days for each move and a time bank; "
                  "you hear by email when it is your turn.",
    )

    rated = forms.BooleanField(
        required=False, label="Rated", help_text="Counts for ratings; automatic counting, no hints.",
    )
    hints = forms.BooleanField(
        required=False, label="Discard hints",
        help_text="Each player may see what the expert would lay away (casual games only).",
    )
    turn_timer = forms.TypedChoiceField(
        label="Turn timer", coerce=int, initial=0, required=False, empty_value=0,
        choices=TURN_TIMER_CHOICES,
        help_text="Per decision. When it runs out the site moves for you; three times forfeits the game.",
    )
    opponent = forms.CharField(
        required=False, max_length=150, label="Invite a player (optional)",
        help_text="Leave empty to post an open seek anyone can accept.",
    )
    private = _private_field()

    def clean_opponent(self) -> User | None:
        name = self.cleaned_data.get("opponent", "").strip()
        if not name:
            return None
        try:
            return User.objects.get(username__iexact=name, is_active=True)
        except User.DoesNotExist:
            raise forms.ValidationError(f"There is no player called {name!r}.") from None

    def clean(self) -> dict:
        data = super().clean()
        if data.get("rated") and data.get("manual_counting"):
            self.add_error("rated", "Rated games use automatic counting.")
        if data.get("rated") and data.get("hints"):
            self.add_error("hints", "Rated games have no discard hints.")
        _pace_or_timer(self, data)
        return data


SEAT_CHOICES = [
    ("standard", "Computer (standard)"),
    ("easy", "Computer (easy)"),
    ("expert", "Computer (expert)"),
    ("open", "Open seat: anyone may sit"),
    ("invite", "Invite a player"),
]


def _shown_if(field: forms.Field, controller: str, value: str) -> None:
    """Mark a field that only matters when another one (by its HTML name) has this value: the
    lobby's script hides it otherwise. Without the script every field shows, and clean() ignores
    the ones that do not apply."""
    field.widget.attrs.update({"data-shown-if": controller, "data-shown-value": value})


class TableForm(HouseRulesForm):
    """A table of three, or four in two partnerships (you and seat 3 against seats 2 and 4)."""

    field_order = ["players", "seat_1", "seat_1_player", "seat_2", "seat_2_player", "seat_3", "seat_3_player",
                   "days_per_move", "turn_timer", "private"]
    players = forms.TypedChoiceField(
        label="Players", coerce=int, initial=4,
        choices=[(3, "Three players"), (4, "Four players, two partnerships")],
        help_text="Three: five cards each, one to the crib. Four: partners sit opposite and share a score.",
    )
    days_per_move = forms.TypedChoiceField(
        label="Pace", coerce=int, initial=0, required=False, empty_value=0,
        choices=SeekForm.base_fields["days_per_move"].choices,
        help_text="At your own pace each person has days for each move and a time bank, and hears by "
                  "email when it is their turn; a computer in a seat moves as soon as its turn comes.",
    )
    turn_timer = SeekForm.base_fields["turn_timer"]
    private = _private_field()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        labels = {
            1: "Seat 2 (on your left)",
            2: "Seat 3 (opposite: your partner at four)",
            3: "Seat 4 (on your right)",
        }
        for n, label in labels.items():
            self.fields[f"seat_{n}"] = forms.ChoiceField(
                label=label, choices=SEAT_CHOICES, initial="standard", required=n != 3,
                help_text="Not used at a table of three." if n == 3 else "",
            )
            self.fields[f"seat_{n}_player"] = forms.CharField(
                label=f"Player to invite to seat {n + 1}", required=False, max_length=150,
            )
            _shown_if(self.fields[f"seat_{n}_player"], self.add_prefix(f"seat_{n}"), "invite")
        _shown_if(self.fields["seat_3"], self.add_prefix("players"), "4")
        self.order_fields(self.field_order)

    def clean(self) -> dict:
        data = super().clean()
        n = data.get("players") or 4
        seats = []
        for i in range(1, n):
            kind = data.get(f"seat_{i}") or "standard"
            if kind == "invite":
                name = (data.get(f"seat_{i}_player") or "").strip()
                user = User.objects.filter(username__iexact=name, is_active=True).first() if name else None
                if user is None:
                    self.add_error(f"seat_{i}_player", f"There is no player called {name!r}." if name
                                   else "Name the player to invite.")
                    continue
                seats.append({"kind": "invite", "user": user})
            elif kind == "open":
                seats.append({"kind": "open"})
            else:
                seats.append({"kind": "computer", "level": kind})
        data["seats"] = seats
        _pace_or_timer(self, data)
        return data

    def house_rules(self) -> HouseRules:
        return replace(super().house_rules(), players=self.cleaned_data["players"])
