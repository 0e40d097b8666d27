"""Signals other parts of the site (history, ratings, tournaments) listen to.

``game_finished`` is sent inside the service's transaction, after the final state is written, so a
listener's writes (a rating, a tournament result) commit or roll back together with the game.
"""

from django.dispatch import Signal

game_finished = Signal()  # kwargs: game (a finished games.models.Game)
