"""A correspondence game's clocks on its board: each player's time left and bank, what the
waiting player may do when the other's time has run out, and the next game waiting on the viewer.
The board draws the panel with the template ``panel`` names (``PANEL``)."""

from __future__ import annotations

from datetime import timedelta

from games.correspondence import clock
from games.correspondence.models import SeatClock, Vacation
from games.play.board.links import game_url
from games.play.models import Game

PANEL = "correspondence/clock_panel.jinja"


def waiting_on(user, *, exclude: int | None = None):
    """``user``'s correspondence games waiting on them, soonest out of time first (clock rows)."""
    clocks = SeatClock.objects.filter(user=user, deadline_at__isnull=False, game__status=Game.Status.ACTIVE)
    if exclude is not None:
        clocks = clocks.exclude(game_id=exclude)
    return clocks.order_by("deadline_at", "game_id")


def next_waiting(game: Game, user) -> int | None:
    """After ``user`` moved in ``game``: the next game waiting on them, if this one no longer is."""
    if SeatClock.objects.filter(game=game, user=user, deadline_at__isnull=False).exists():
        return None
    return waiting_on(user, exclude=game.pk).values_list("game_id", flat=True).first()


def panel(game: Game, seat: int | None, names: list[str], user) -> dict | None:
    """The board's correspondence panel (three queries), or None for a game played at the table."""
    if not game.days_per_move:
        return None
    at = clock.now()
    active = game.status == Game.Status.ACTIVE
    rows, out_of_time = [], []
    seat_clocks = list(SeatClock.objects.filter(game=game).order_by("index"))
    away = dict(Vacation.objects.filter(user_id__in=[c.user_id for c in seat_clocks], until__gt=at)
                .values_list("user_id", "until")) if active else {}
    for seat_clock in seat_clocks:
        left = clock.time_left(seat_clock.deadline_at, at) if active else None
        if left is not None and left <= timedelta(0):
            out_of_time.append(seat_clock.index)
        rows.append({
            "name": "You" if seat_clock.index == seat else names[seat_clock.index],
            "mine": seat_clock.index == seat,
            "to_move": left is not None,
            "clock": clock.clock_words(left, timedelta(seconds=seat_clock.bank_seconds),
                                       yours=seat_clock.index == seat,
                                       vacation_until=away.get(seat_clock.user_id), at=at),
            "out": left is not None and left <= timedelta(0),
            "extended": seat_clock.extended,
        })
    my_clock = next((r for r in rows if r["mine"]), None)
    waiting = None
    if seat is not None and not (my_clock and my_clock["to_move"] and active):
        waiting = waiting_on(user, exclude=game.pk).values_list("game_id", flat=True).first()
    return {
        "template": PANEL,
        "pace": f"{game.get_days_per_move_display()} a move",
        "rows": rows if active else [],  # an ended game waits on nobody
        "can_claim": active and seat is not None
        and any(not clock.same_side(game.players, late, seat) for late in out_of_time),
        "out_label": "Your opponent is out of time" if game.players == 2 else "A player is out of time",
        "claim_label": clock.claim_words(game.players).capitalize(),
        "claim_url": game_url("correspondence:claim_on_time", game.pk),
        "give_url": game_url("correspondence:give_time", game.pk),
        "next_url": game_url("game", waiting) if waiting else "",
    }
