"""Who is at the table, from the sockets' heartbeats: one ``Connection`` row per open game socket.

A socket says it is alive every ``HEARTBEAT_SECONDS`` (its ``last_seen``); a row not heard from for
``PRESENCE_EXPIRES_SECONDS`` counts as gone. So presence comes from liveness, not from a goodbye: a
worker killed outright says nothing, and its players' rows simply expire. A socket that closes
cleanly marks its row closed at once (the player left just now). Presence is not game state (no
version, no Move): the sockets record it through the functions here, and the pages ask ``table``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from django.utils.timesince import timesince

from games.infra import rows
from games.play import broadcast
from games.play.models import Connection, Game
from games.play.signals import player_arrived

# Three missed beats: the socket's process died (or its network did). Stated on the rules page.
HEARTBEAT_SECONDS = settings.PRESENCE_HEARTBEAT_SECONDS
PRESENCE_EXPIRES_SECONDS = settings.PRESENCE_EXPIRES_SECONDS
# The first beat of a socket comes after this share of the interval, at random (see heartbeat_delay).
FIRST_BEAT = (0.2, 1.0)


def heartbeat_delay(*, first: bool) -> float:
    """Seconds until a socket's next heartbeat.

    Sockets opened together (every page of a restarted worker reconnects at once) would beat
    together for as long as they stay open, each beat a database write: a random first interval
    spreads them for good; later beats keep the full interval, so a live socket never expires."""
    return HEARTBEAT_SECONDS * (random.uniform(*FIRST_BEAT) if first else 1.0)


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


def forget(user) -> None:
    """A deleted account's sockets, open or kept to say when they left: their boards are gone with
    their sessions, and nobody is told when a deleted player left."""
    Connection.objects.filter(user=user).delete()


def heartbeat(*, channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())


@dataclass(frozen=True)
class SeatPresence:
    seat: int
    name: str
    here: bool
    away_since: datetime | None  # None while here (or a computer)
    arrived: bool  # has opened this game's board at some time (else: not here yet)
    seen_until: datetime | None  # while here: when, without another heartbeat, it counts as gone
    claim_at: datetime | None  # away on its own turn: when the viewer may claim the win
    can_claim: bool  # the viewer may claim the win now

    @property
    def left_ago(self) -> str:
        """"just now", then "3 minutes ago" (the page keeps it up to date as time passes)."""
        if self.away_since is None:
            return ""
        seconds = (timezone.now() - self.away_since).total_seconds()
        return "just now" if seconds < 60 else f"{timesince(self.away_since)} ago"

    @property
    def claim_in(self) -> int:
        """Seconds until the win may be claimed (0 when it can be, or never)."""
        if self.claim_at is None or self.can_claim:
            return 0
        return max(1, int((self.claim_at - timezone.now()).total_seconds()) + 1)


def absence_limit() -> int:
    return int(getattr(settings, "ABSENCE_CLAIM_SECONDS", 180))


def table(game: Game, viewer_seat: int | None, seats_to_act: tuple[int, ...]) -> list[SeatPresence]:
    """Presence of every other human seat, as ``viewer_seat`` should see it (one query)."""
    now = timezone.now()
    fresh = now - timedelta(seconds=PRESENCE_EXPIRES_SECONDS)
    by_user: dict[int, list[Connection]] = {}
    # Read on every board, twice a move: through ``rows``, as the game itself is.
    found = rows.where(Connection, connections[Connection.objects.db], "game", game.pk, order_by="-last_seen")
    for conn in found:
        by_user.setdefault(conn.user_id, []).append(conn)
    out = []
    for seat in game.seat_list():
        if seat.index == viewer_seat or seat.is_computer:
            continue
        conns = by_user.get(seat.user_id, [])
        live = [c for c in conns if c.closed_at is None and c.last_seen >= fresh]
        here = bool(live)
        away_since = None
        if not here:
            # Gone since its last socket closed or expired, or since the game began if it never came.
            last = conns[0].last_seen if conns else game.created_at
            away_since = max(last, game.turn_started_at or game.created_at)
        claim_at = None
        # A player who never came to an organised game is the organiser's to rule on (a no-show's
        # forfeit after the event's grace), not the opponent's to claim.
        claimable = bool(conns) or not game.organised
        if away_since is not None and seat.index in seats_to_act and game.status == Game.Status.ACTIVE \
                and claimable:
            claim_at = away_since + timedelta(seconds=absence_limit())
        out.append(SeatPresence(
            seat=seat.index, name=seat.display_name, here=here, away_since=away_since, arrived=bool(conns),
            seen_until=max(c.last_seen for c in live) + timedelta(seconds=PRESENCE_EXPIRES_SECONDS)
            if live else None,
            claim_at=claim_at, can_claim=claim_at is not None and now >= claim_at,
        ))
    return out


def is_away_too_long(game: Game, seat_index: int) -> bool:
    return any(p.seat == seat_index and p.can_claim for p in table(game, None, (seat_index,)))


def away_seconds(game: Game, seat_index: int) -> int:
    """How long ``seat_index`` has been away from the table (0 while here)."""
    since = next((p.away_since for p in table(game, None, ()) if p.seat == seat_index), None)
    return 0 if since is None else int((timezone.now() - since).total_seconds())
