"""A player's statistics, summed from their PlayerGame rows (online and computer games apart).

A game whose result the director entered counts in the games, wins and skunks, and is left out of
every figure drawn from the deals (``BY_DEAL``): ``entered_games`` says how many were.

Averages per deal are over *complete* deals (the show counted to the end): pegging (the play's
fifteens, 31s, pairs, runs, goes and last cards; his heels is not pegging) and hand points split
by whether the player dealt, crib points over the deals they dealt.
"""

from __future__ import annotations

from django.db.models import Count, Max, Q, Sum

from games.history.models import PlayerGame
from games.play.names import DELETED_NAME, is_deleted

SUMMED = (
    "skunks_given", "skunks_taken", "double_skunks_given", "double_skunks_taken", "games_won", "games_lost",
)
# What the deals say: a game whose result the director entered was not decided by them (its deals, if
# any, were cut short by the director's word), so these leave it out.
BY_DEAL = (
    "deals", "complete_deals_dealer", "complete_deals_pone", "pegging_dealer", "pegging_pone",
    "hand_dealer", "hand_pone", "crib", "hands_28", "hands_29",
)


def _ratio(points: int, deals: int) -> float | None:
    return round(points / deals, 2) if deals else None


def _records(rows, field: str) -> list[dict]:
    """Games, wins and point margin grouped by ``field`` (``"opponent"`` or ``"partner"``)."""
    grouped = (
        rows.values(f"{field}_name", f"{field}__username")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(result=PlayerGame.Result.WIN)),
            margin=Sum("margin"),
        )
        .order_by("-games", f"{field}_name")
    )
    records: dict[tuple, dict] = {}
    for o in grouped:
        username = o[f"{field}__username"]
        # Deleted players are one "a deleted player", without a handle to follow or tell them apart by.
        deleted = is_deleted(username)
        key = ("deleted",) if deleted else (o[f"{field}_name"], username)
        record = records.setdefault(key, {
            "name": DELETED_NAME if deleted else o[f"{field}_name"],
            "username": None if deleted else username, "games": 0, "wins": 0, "margin": 0,
        })
        record["games"] += o["games"]
        record["wins"] += o["wins"]
        record["margin"] += o["margin"] or 0
    for record in records.values():
        record["losses"] = record["games"] - record["wins"]
        record["win_pct"] = round(100 * record["wins"] / record["games"], 1)
    return sorted(records.values(), key=lambda r: -r["games"])  # stable: the database's name order stays


def player_stats(user, *, vs_computer: bool | None = None, players: int = 2) -> dict:
    """Totals, win rate, averages per deal and the record against each opponent (two players) or
    with each partner (four), over the ``players``-seat games (``vs_computer`` None: both kinds)."""
    # A game passed round one device is its owner's every named seat at once: no record of theirs.
    rows = PlayerGame.objects.filter(user=user, players=players, game__pass_play__isnull=True)
    if vs_computer is not None:
        rows = rows.filter(vs_computer=vs_computer)
    played = Q(entered=False)
    totals = rows.aggregate(
        games=Count("pk"),
        wins=Count("pk", filter=Q(result=PlayerGame.Result.WIN)),
        entered_games=Count("pk", filter=Q(entered=True)),
        best_hand=Max("best_hand", filter=played),
        **{name: Sum(name) for name in SUMMED},
        **{name: Sum(name, filter=played) for name in BY_DEAL},
    )
    totals = {k: (v or 0) if k != "best_hand" else v for k, v in totals.items()}
    games, wins = totals["games"], totals["wins"]
    dealer, pone = totals["complete_deals_dealer"], totals["complete_deals_pone"]
    return {
        **totals,
        "losses": games - wins,
        "win_pct": round(100 * wins / games, 1) if games else None,
        "complete_deals": dealer + pone,
        "avg": {
            "pegging": _ratio(totals["pegging_dealer"] + totals["pegging_pone"], dealer + pone),
            "pegging_dealer": _ratio(totals["pegging_dealer"], dealer),
            "pegging_pone": _ratio(totals["pegging_pone"], pone),
            "hand": _ratio(totals["hand_dealer"] + totals["hand_pone"], dealer + pone),
            "hand_dealer": _ratio(totals["hand_dealer"], dealer),
            "hand_pone": _ratio(totals["hand_pone"], pone),
            "crib": _ratio(totals["crib"], dealer),
        },
        "opponents": _records(rows, "opponent") if players == 2 else [],
        "partners": _records(rows, "partner") if players == 4 else [],
    }
