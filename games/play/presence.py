"""Who is at the table: one ``Connection`` row per open game socket, kept fresh by a heartbeat.

Presence is not game state (no version, no Move), but it is still written only here, and pushed
through ``broadcast`` after commit like everything else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.timesince import timesince

from games.play import broadcast
from games.play.models import Connection, Game
from games.play.signals import player_arrived

HEARTBEAT_SECONDS = 25
# A socket silent for this long belongs to a process that died: its player is gone.
STALE_SECONDS = HEARTBEAT_SECONDS * 3
# The first beat of a socket comes after this share of the interval, at random (see heartbeat_delay).
FIRST_BEAT = (0.2, 1.0)


def heartbeat_delay(*, first: bool) -> float:
    """Seconds until a socket's next heartbeat.

    Sockets opened together (every page of a restarted worker reconnects at once; bench.load opens
    its games within seconds) would beat together for as long as they stay open: each beat is a
    database write and read and a round trip through the channel layer, and bench.load at 200
    games showed the moves' latency rising every 25 s with the waves. A random first interval
    spreads them for good; later beats keep the full interval, so a live socket is never stale."""
    return HEARTBEAT_SECONDS * (random.uniform(*FIRST_BEAT) if first else 1.0)


def _fresh_since() -> datetime:
    return timezone.now() - timedelta(seconds=STALE_SECONDS)


@transaction.atomic
def connected(*, game_id: int, user, channel_name: str) -> None:
    now = timezone.now()
    mine = Connection.objects.filter(game_id=game_id, user=user)
    (mine.filter(last_seen__lt=now - timedelta(minutes=10)) | mine.filter(closed_at__isnull=False)).delete()
    Connection.objects.update_or_create(
        channel_name=channel_name, defaults={"game_id": game_id, "user": user, "last_seen": now}
    )
    player_arrived.send(sender=Game, game_id=game_id, user=user)
    transaction.on_commit(lambda: broadcast.presence_changed(game_id))


@transaction.atomic
def disconnected(*, game_id: int, channel_name: str) -> None:
    gone = Connection.objects.filter(channel_name=channel_name).first()
    if gone is None:
        return
    # Closed, not deleted: the latest closed socket says when the player left (earlier ones go).
    Connection.objects.filter(game_id=game_id, user_id=gone.user_id, closed_at__isnull=False).delete()
    now = timezone.now()
    Connection.objects.filter(pk=gone.pk).update(closed_at=now, last_seen=now)
    transaction.on_commit(lambda: broadcast.presence_changed(game_id))


def heartbeat(*, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


@dataclass(frozen=True)
class SeatPresence:
    seat: int
    name: str
    here: bool
    away_since: datetime | None  # None while here (or a computer)
    arrived: bool  # has opened this game's board at some time (else: not here yet)
    can_claim: bool  # the viewer may claim the win: this seat is away too long on its own turn
    claim_in: int  # seconds until it may be claimed (0 when it can, or never)

    @property
    def left_ago(self) -> str:
        """"just now", then "3 minutes ago": timesince alone says "0 minutes" for a whole minute."""
        if self.away_since is None:
            return ""
        if (timezone.now() - self.away_since).total_seconds() < 60:
            return "just now"
        return f"{timesince(self.away_since)} ago"


def absence_limit() -> int:
    return int(getattr(settings, "ABSENCE_CLAIM_SECONDS", 180))


def table(game: Game, viewer_seat: int | None, seats_to_act: tuple[int, ...]) -> list[SeatPresence]:
    """Presence of every other human seat, as ``viewer_seat`` should see it."""
    now = timezone.now()
    fresh = _fresh_since()
    out = []
    for seat in game.seats.all():
        if seat.index == viewer_seat or seat.is_computer:
            continue
        conns = list(Connection.objects.filter(game=game, user_id=seat.user_id).order_by("-last_seen"))
        here = any(c.closed_at is None and c.last_seen >= fresh for c in conns)
        away_since = None
        if not here:
            # Gone since its last socket closed or went silent, or since the game began if it never came.
            last = conns[0].last_seen if conns else game.created_at
            away_since = max(last, game.turn_started_at or game.created_at)
        claim_in = 0
        can_claim = False
        # A player who never came to an organised game is the organiser's to rule on (a no-show's
        # forfeit after the event's grace), not the opponent's to claim.
        claimable = bool(conns) or not game.organised
        if away_since is not None and seat.index in seats_to_act and game.status == Game.Status.ACTIVE \
                and claimable:
            waited = (now - away_since).total_seconds()
            can_claim = waited >= absence_limit()
            claim_in = 0 if can_claim else int(absence_limit() - waited) + 1
        out.append(SeatPresence(seat.index, seat.display_name, here, away_since, bool(conns), can_claim,
                                claim_in))
    return out


def is_away_too_long(game: Game, seat_index: int) -> bool:
    return any(p.seat == seat_index and p.can_claim for p in table(game, None, (seat_index,)))


def away_seconds(game: Game, seat_index: int) -> int:
    """How long ``seat_index`` has been away from the table (0 while here)."""
    since = next((p.away_since for p in table(game, None, ()) if p.seat == seat_index), None)
    return 0 if since is None else int((timezone.now() - since).total_seconds())
