"""Signals other parts of the site (history, ratings, tournaments) listen to.

Both are sent inside the service's transaction (``game_finished`` after the final state is written),
so a listener's writes (a rating, a tournament result) and the pushes it asks for on commit happen
or not together with the game's move.
"""

from django.dispatch import Signal

game_finished = Signal()  # kwargs: game (a finished games.play.models.Game)
# A finished game's result was replaced by one the director entered (games.play.game_result):
# what was derived from the old one (the history's rows) is derived again.
result_entered = Signal()  # kwargs: game (a finished games.play.models.Game)
# A new deal was dealt, so the scores of the one before are counted (tournament pages show them).
deal_started = Signal()  # kwargs: game (games.play.models.Game), game_no, deal_no
# A player opened a game's board (its socket connected): organisers start a clock that waits for
# both players to be at the table (games.tournaments).
player_arrived = Signal()  # kwargs: game_id, user
