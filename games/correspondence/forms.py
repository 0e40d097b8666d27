from __future__ import annotations

from django import forms

from games.correspondence import clock
from games.correspondence.models import NoticePreferences


class NoticeForm(forms.Form):
    turn_notices = forms.ChoiceField(
        label="Email me when it is my turn", choices=NoticePreferences.Turn.choices,
        help_text="Only when you are not at the table already.",
    )
    digest = forms.BooleanField(required=False, label="A daily summary of the games waiting on me")


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label="Days away", min_value=1, max_value=clock.VACATION_DAYS_A_YEAR, initial=7,
        help_text=f"{clock.VACATION_DAYS_A_YEAR} days a year. Your clocks stop while you are away; "
                  "come back early and the days left are yours again.",
    )
