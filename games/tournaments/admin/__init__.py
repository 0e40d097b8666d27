"""The organiser's side: Django's admin, with actions and small forms that call the services.

Every action is written to Django's admin log (``LogEntry``) and, where players should know it, to
the tournament's public notices (the services do that).
"""

from games.tournaments.admin import entrants, matches, notices, tournament  # noqa: F401 - each registers its model
