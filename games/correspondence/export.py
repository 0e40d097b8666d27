"""A player's own correspondence data, for their data download (``games.accounts.export``)."""

from __future__ import annotations

from games.correspondence import services
from games.correspondence.models import Vacation


def player_data(user) -> dict:
    prefs = services.preferences_of(user.pk)
    vacation = Vacation.objects.filter(user=user).first()
    return {
        "emails": {"turn_notices": prefs.turn_notices, "daily_summary": prefs.digest},
        "vacation": {
            "since": vacation.since.isoformat() if vacation.since else None,
            "until": vacation.until.isoformat() if vacation.until else None,
            "year": vacation.year, "days_used": round(vacation.seconds_used / 86400, 2),
        } if vacation else None,
    }
