"""Ratings: Glicko-2 for rated online games, one pool per game length, updated as a game finishes.

* **What counts.** A finished game between two people that was created rated. Games against the
  computer, casual games and tables of three or four never touch a rating. 121-point and
  61-point games are separate pools. A result the director entered counts as entered (the games
  each player won), once: a correction made after the rating leaves the rating as it was.
* **A rating period is one finished Game** (a single game or a whole best-of-N match), as lichess
  rates game by game. Each game of a match is one result in that period, so a 2-1 match counts
  two wins and a loss. A match resigned between games adds one loss for the resigner.
* **First dealer.** Each game's first dealer (from its first ``Round``) gets an advantage of
  ``ln(p / (1 - p))`` on the logit of the expected score and the pone the negative, with ``p``
  from :data:`FIRST_DEALER_WIN_RATE` (see ``glicko2.py``): between equal players the first
  dealer is expected to win 55%, so a win from the deal moves ratings less than a win as pone.
  A game resigned before the first deal has no dealer and no adjustment.
* **Idle time.** Before an update, the deviation grows once per full :data:`IDLE_PERIOD_DAYS`
  since the player's last rated game (Glicko-2 step 6), so a returning player's rating moves
  faster again.
* Everything is a function of the games and their ``finished_at``, never of the clock, so
  :func:`rebuild_ratings` reproduces the live ratings exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from games.history import glicko2
from games.history.models import CORRESPONDENCE, Rating, RatingChange
from games.play.game_result import final_result
from games.play.models import Game, Move, Round

FIRST_DEALER_WIN_RATE = {121: 0.55, 61: 0.55, 1121: 0.55, 1061: 0.55}


def pool_of(game: Game) -> int:
    """The game's rating pool: its length, apart for a correspondence game (``Pool``)."""
    return game.target + (CORRESPONDENCE if game.days_per_move else 0)
IDLE_PERIOD_DAYS = 30


def is_rated(game: Game) -> bool:
    seats = list(game.seats.all())
    return (
        game.rated and not game.vs_computer and game.status == Game.Status.FINISHED and game.players == 2
        and len(seats) == 2 and all(s.user_id is not None for s in seats)
    )


def rating_for(user, target: int) -> float | None:
    """``user``'s rating in games to ``target`` points (a pool), None if they have none there: what
    an organiser seeds by (registered with ``games.play.registry.register_rating``)."""
    return Rating.objects.filter(user=user, pool=target).values_list("rating", flat=True).first()


def first_dealers(game: Game) -> dict[int, int]:
    """``{game_no: seat that dealt first}`` for every game of the match that got as far as a deal."""
    return dict(Round.objects.filter(game=game, deal_no=0).values_list("game_no", "dealer"))


def game_outcomes(game: Game) -> list[tuple[int, int | None]]:
    """``(winner seat, first dealer or None)`` for each result of the rating period."""
    final = final_result(game) or {}
    games = final.get("games") or []
    if final.get("entered"):
        # The director's result: no deal decided it, so no first dealer; each game won counts, the
        # games' scores given or not.
        return [(side, None) for side, won in enumerate(final["match_scores"]) for _ in range(won)]
    dealers = first_dealers(game)
    outcomes = [(g["winner"], dealers.get(g["game_no"])) for g in games]
    last = Move.objects.filter(game=game).order_by("-seq").first()
    resigned = last is not None and last.action.get("type") == "resign"
    resigned_between_games = resigned and (not games or games[-1]["reason"] != "resign")
    if resigned_between_games:
        outcomes.append((game.winner_seat, None))
    return outcomes


def _to_glicko(row: Rating) -> glicko2.Rating:
    return glicko2.Rating(row.rating, row.rd, row.volatility)


def _idle_periods(row: Rating, at) -> int:
    if row.updated_at is None or at is None:
        return 0
    return max(0, (at - row.updated_at).days // IDLE_PERIOD_DAYS)


def results_for(seat: int, outcomes: Iterable[tuple[int, int | None]], opponent: glicko2.Rating,
                advantage: float) -> list[glicko2.Result]:
    out = []
    for winner, dealer in outcomes:
        edge = 0.0 if dealer is None else (advantage if dealer == seat else -advantage)
        out.append(glicko2.Result(opponent, 1.0 if winner == seat else 0.0, edge))
    return out


@transaction.atomic
def rate_game(game: Game) -> list[RatingChange]:
    """Update both players' ratings for a finished rated game (once: a second call does nothing)."""
    if not is_rated(game) or RatingChange.objects.filter(game=game).exists():
        return []
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    pool = pool_of(game)
    at = game.finished_at
    rows = {}
    for seat in sorted(seats, key=lambda s: s.user_id):  # one lock order everywhere: no deadlock
        Rating.objects.get_or_create(user_id=seat.user_id, pool=pool)
        rows[seat.index] = Rating.objects.select_for_update().get(user_id=seat.user_id, pool=pool)
    before = {i: glicko2.idle(_to_glicko(r), p) if (p := _idle_periods(r, at)) else _to_glicko(r)
              for i, r in rows.items()}
    outcomes = game_outcomes(game)
    advantage = glicko2.first_dealer_advantage(FIRST_DEALER_WIN_RATE[pool])
    changes = []
    for seat in seats:
        me, them = seat.index, 1 - seat.index
        results = results_for(me, outcomes, before[them], advantage)
        after = glicko2.update(before[me], results)
        row = rows[me]
        old = _to_glicko(row)
        wins = sum(r.score == 1.0 for r in results)
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.wins += game.winner_seat == me
        row.losses += game.winner_seat != me
        row.updated_at = at
        row.save()
        changes.append(RatingChange(
            game=game, user_id=seat.user_id, opponent_id=seats[them].user_id, pool=pool, at=at,
            score=float(wins), results=len(results),
            rating_before=old.rating, rd_before=old.rd, volatility_before=old.volatility,
            rating_after=after.rating, rd_after=after.rd, volatility_after=after.volatility,
        ))
    return RatingChange.objects.bulk_create(changes)


@transaction.atomic
def rebuild_ratings() -> int:
    """Forget every rating and rate all finished rated games again, oldest first. Returns the count."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    count = 0
    games = Game.objects.finished().filter(rated=True, vs_computer=False, players=2)
    games = games.order_by("finished_at", "pk")
    for game in games.prefetch_related("seats"):
        count += bool(rate_game(game))
    return count
