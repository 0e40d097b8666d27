"""Everything the site holds about a player, as one JSON document they can download.

Their account (never the password hash), ratings and every rating change, statistics, every game
they sat at, every tournament they entered, their answers to the daily puzzles, their counting
practice record, their lessons and the browsers
they get notices in (the push service's name and dates; the subscription's address and keys are the
browser's secret). A finished game
comes as its own download gives it (``games.history.export.game_json``: enough to replay it with the
engine); a game not finished comes as a summary, with no cards, seeds or secret, which would tell
them what their opponents hold.
Other players appear as the game records show them to anyone.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from games.accounts.preferences import FIELDS, preferences_of
from games.correspondence.export import player_data as correspondence_data
from games.history.export import game_json
from games.history.models import PlayerGame, Rating, RatingChange
from games.history.stats import player_stats
from games.play.models import Game
from games.play.names import public_name
from games.play.registry import organised
from games.practice.lesson.services import lesson_data
from games.practice.services import record_data as counting_practice_data
from games.puzzles.record import answers_data
from games.tournaments.models import Entrant, Match, Tournament
from games.tournaments.selectors import standings
from games.webpush.models import PushSubscription

FORMAT = "cribbage-hall-player/1"

# A PlayerGame row's own figures: who, when and which game are already in the game's record.
HISTORY_FIELDS = (
    "result", "resigned", "entered", "score", "opponent_score", "margin", "games_won", "games_lost",
    "skunks_given", "skunks_taken", "double_skunks_given", "double_skunks_taken", "deals", "replayed",
    "complete_deals_dealer", "complete_deals_pone", "pegging_dealer", "pegging_pone", "hand_dealer",
    "hand_pone", "crib", "best_hand", "hands_28", "hands_29",
)
TABLES = ((2, "two_players"), (3, "three_players"), (4, "four_players"))


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def player_data(user: AbstractBaseUser) -> dict:
    prefs = preferences_of(user)
    return {
        "format": FORMAT,
        "exported_at": _iso(timezone.now()),
        "account": {
            "username": user.get_username(), "email": user.email, "first_name": user.first_name,
            "last_name": user.last_name, "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
        },
        "table_preferences": {name: getattr(prefs, name) for name in FIELDS},
        "last_game_against_the_computer": {"level": prefs.computer_level, "rules": prefs.computer_rules},
        "browser_notifications": [
            {"push_service": sub.service, "created": _iso(sub.created),
             "last_success": _iso(sub.last_success)}
            for sub in PushSubscription.objects.filter(user=user)
        ],
        "ratings": [
            {"pool": r.pool, "rating": r.rating, "rd": r.rd, "volatility": r.volatility,
             "provisional": r.provisional, "games": r.games, "wins": r.wins, "losses": r.losses,
             "updated_at": _iso(r.updated_at)}
            for r in Rating.objects.filter(user=user).order_by("-pool")
        ],
        "rating_history": [
            {"game": c.game_id, "pool": c.pool, "at": _iso(c.at),
             "opponent": public_name(c.opponent.username) if c.opponent_id else None,
             "score": c.score, "results": c.results, "rating_before": c.rating_before,
             "rating_after": c.rating_after, "rd_before": c.rd_before, "rd_after": c.rd_after,
             "volatility_before": c.volatility_before, "volatility_after": c.volatility_after}
            for c in RatingChange.objects.filter(user=user).select_related("opponent").order_by("at", "pk")
        ],
        "statistics": {
            key: {"online": player_stats(user, vs_computer=False, players=n),
                  "computer": player_stats(user, vs_computer=True, players=n)}
            for n, key in TABLES
        },
        "games": _games(user),
        "tournaments": _tournaments(user),
        "puzzle_answers": answers_data(user),
        "counting_practice": counting_practice_data(user),
        "lessons": lesson_data(user),
        "correspondence": correspondence_data(user),
    }


def _games(user: AbstractBaseUser) -> list[dict]:
    games = list(Game.objects.filter(seats__user=user).distinct().with_seats().order_by("created_at", "pk"))
    rows = {row.game_id: row for row in PlayerGame.objects.filter(user=user)}
    events = organised(g.pk for g in games)
    out = []
    for game in games:
        entry = {
            "game": game.pk, "status": game.status, "seat": game.seat_of(user), "players": game.seat_names(),
            "rated": game.rated, "vs_computer": game.vs_computer, "house_rules": game.house_rules.to_dict(),
            "days_per_move": game.days_per_move,
            "created_at": _iso(game.created_at), "finished_at": _iso(game.finished_at),
            "event": events[game.pk].name if game.pk in events else None,
        }
        if game.status == Game.Status.FINISHED:
            row = rows.get(game.pk)
            entry["history"] = {name: getattr(row, name) for name in HISTORY_FIELDS} if row else None
            entry["record"] = game_json(game)
        elif game.status == Game.Status.ACTIVE and game.state:
            # The scores only: the rest of the snapshot holds the deck, the others' hands and the secret.
            entry["scores"] = game.state.get("scores")
            entry["match_scores"] = game.state.get("match_scores")
        out.append(entry)
    return out


def _tournaments(user: AbstractBaseUser) -> list[dict]:
    out = []
    for entrant in Entrant.objects.filter(user=user).select_related("tournament").order_by("registered_at"):
        t = entrant.tournament
        matches = (Match.objects.filter(Q(entrant1=entrant) | Q(entrant2=entrant))
                   .select_related("entrant1__user", "entrant2__user").order_by("-stage", "round_no", "slot"))
        out.append({
            "tournament": t.pk, "name": t.name, "status": t.status, "format": t.format,
            "started_at": _iso(t.started_at), "finished_at": _iso(t.finished_at),
            "registered_at": _iso(entrant.registered_at), "seed": entrant.seed,
            "withdrawn": entrant.withdrawn, "withdrawn_at": _iso(entrant.withdrawn_at),
            "qualifying_rank": entrant.qualifying_rank,
            "champion": t.champion_id == user.pk, "standing": _standing(t, entrant),
            "matches": [_match(m, entrant) for m in matches],
        })
    return out


def _standing(t: Tournament, entrant: Entrant) -> dict | None:
    """Their line in the round robin table, once there is one."""
    if t.status == Tournament.Status.UPCOMING or t.format == Tournament.Format.KNOCKOUT:
        return None
    row = next((r for r in standings(t) if r.player.pk == entrant.pk), None)
    if row is None:
        return None
    return {"rank": row.rank, "played": row.played, "match_wins": row.match_wins,
            "match_losses": row.match_losses, "games_won": row.games_won, "games_lost": row.games_lost,
            "points": row.points, "spread": row.spread, "byes": row.byes, "withdrawn": row.withdrawn}


def _match(m: Match, entrant: Entrant) -> dict:
    """A match from the player's side: their games, points and spread first."""
    mine = m.side_of(entrant.pk)
    other = m.entrant2 if mine == 0 else m.entrant1
    games, points = (m.games1, m.games2), (m.points1, m.points2)
    return {
        "stage": m.stage, "round": m.round_no, "status": m.status, "game": m.game_id,
        "opponent": other.name if other is not None else None,
        "result": "" if m.winner_id is None else ("won" if m.winner_id == entrant.pk else "lost"),
        "games": [games[mine], games[1 - mine]], "points": [points[mine], points[1 - mine]],
        "spread": m.spread if mine == 0 else -m.spread, "decided_by": m.decided_by, "note": m.note,
        "finished_at": _iso(m.finished_at),
    }
