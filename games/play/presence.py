"""Who is at the table, from the sockets' heartbeats: one ``Connection`` row per open game socket.

Every ``HEARTBEAT_SECONDS`` a process says that its players' sockets are alive, all of them in one
batch (``heartbeats``, from ``layer_watch``); a socket not heard from for ``PRESENCE_EXPIRES_SECONDS``
counts as gone. So presence comes from liveness, not from a goodbye: a worker killed outright says
nothing, and its players' sockets simply expire. A socket that closes cleanly marks its row closed
at once (the player left just now). Presence is not game state (no version, no Move): the sockets
record it through the functions here, and the pages ask ``table``.

Where a beat goes. With a cache every worker shares (``PRESENCE_IN_CACHE``, on with Redis), a beat
is one write of the socket's key in the cache, kept ``KEY_SECONDS``; the row is written when the
socket opens, when it closes and every ``PRESENCE_ROW_SECONDS`` between. A table's reader takes a
socket's last beat from its key, and without one (the cache lost it, or is away) from the row, then
allowing the row's own interval: a cache that restarts makes no present player claimable, at the
price that a worker killed while the cache was away is seen to go only after ``row_window()``.
With a per-process cache (one process, or tests serving from several without Redis) every beat
writes the row, and the row alone says.

Dead processes. Each row names the process that holds its socket, and every process with sockets
says it is alive with each heartbeat (``ServerProcess``, in the database, which a Redis restart does
not empty). A process silent for ``PROCESS_SILENT_SECONDS`` was killed: ``close_dead`` (a job of the
task worker's schedule, every few seconds) closes its rows as of its last beat and tells the tables,
so a killed worker's players are seen to go within ``PRESENCE_EXPIRES_SECONDS`` even when the
cache lost their beats. A process taken for dead that beats again (a stall, not a death) opens its
rows again at that beat.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import connections, transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.timesince import timesince

from games.infra import outages, rows
from games.play import broadcast
from games.play.models import Connection, Game, ServerProcess
from games.play.signals import player_arrived

# Three missed beats: the socket's process died (or its network did). Stated on the rules page.
HEARTBEAT_SECONDS = settings.PRESENCE_HEARTBEAT_SECONDS
PRESENCE_EXPIRES_SECONDS = settings.PRESENCE_EXPIRES_SECONDS
# The first beat of a socket comes after this share of the interval, at random (see heartbeat_delay).
FIRST_BEAT = (0.2, 1.0)
# A beat's key outlives its freshness by far: a socket whose worker was killed is read as gone since
# its last beat for this long, before its row's coarser time takes over.
KEY_SECONDS = 3600
# Rows a heartbeat's statement writes at most (SQLite's bound on a statement's parameters is lower
# on older builds than the sockets a process may hold).
ROWS_A_STATEMENT = 500

# A process is dead when silent this long: with the job that closes its rows run every 5 s
# (settings.SCHEDULE), its players are seen to go within PRESENCE_EXPIRES_SECONDS of its last beat.
PROCESS_SILENT_SECONDS = max(PRESENCE_EXPIRES_SECONDS - 5, 2 * HEARTBEAT_SECONDS)

log = logging.getLogger(__name__)

# This process, as its sockets' rows name it.
PROCESS = f"{socket.gethostname()[:40]}-{os.getpid()}-{get_random_string(8)}"

# When (monotonic) this process last wrote each of its sockets' rows: a socket lives in one process.
_rows_written: dict[str, float] = {}


def in_cache() -> bool:
    return settings.PRESENCE_IN_CACHE


def row_seconds() -> float:
    """How often a live socket's row is written (every beat unless the beats go to the cache)."""
    return settings.PRESENCE_ROW_SECONDS if in_cache() else HEARTBEAT_SECONDS


def row_window() -> float:
    """How long a row with no beat in the cache is taken as live after its time."""
    return row_seconds() + PRESENCE_EXPIRES_SECONDS


def beat_key(channel_name: str) -> str:
    return f"presence:{channel_name}"


def _beat_many(channel_names: list[str], now: datetime) -> bool:
    """Put sockets' beats in the cache; False when they are not kept there (or the cache is away)."""
    if not in_cache():
        return False
    try:
        stamp = now.timestamp()
        cache.set_many({beat_key(name): stamp for name in channel_names}, max(KEY_SECONDS, 2 * row_window()))
    except Exception:  # noqa: BLE001 - the cache is away: the rows keep the players at the table
        log.warning("presence: the cache did not take the heartbeats", exc_info=True)  # once an outage
        return False
    outages.cache.delivered()
    return True


def _beats(channel_names: list[str]) -> dict[str, datetime]:
    """The last beat of each socket that has one in the cache ({} when they are not kept there)."""
    if not channel_names or not in_cache():
        return {}
    try:
        found = cache.get_many([beat_key(name) for name in channel_names])
    except Exception:  # noqa: BLE001 - the cache is away: the rows say, with their own interval
        log.warning("presence: the cache could not be read", exc_info=True)
        return {}
    out = {}
    for name in channel_names:
        stamp = found.get(beat_key(name))
        if isinstance(stamp, int | float):
            out[name] = datetime.fromtimestamp(stamp, tz=UTC)
    return out


def heartbeat_delay(*, first: bool) -> float:
    """Seconds until a socket's next heartbeat.

    Sockets opened together (every page of a restarted worker reconnects at once) would beat
    together for as long as they stay open, each beat a frame to the page and a message through the
    channel layer: a random first interval spreads them for good; later beats keep the full
    interval, so the page always hears one within its own limit."""
    return HEARTBEAT_SECONDS * (random.uniform(*FIRST_BEAT) if first else 1.0)


@transaction.atomic
def connected(*, game_id: int, user, channel_name: str) -> None:
    now = timezone.now()
    mine = Connection.objects.filter(game_id=game_id, user=user)
    (mine.filter(last_seen__lt=now - timedelta(minutes=10)) | mine.filter(closed_at__isnull=False)).delete()
    # Only refreshed here: the row is created by the process's heartbeat, which reopens the rows of
    # a process taken for dead, and a socket opening in between must not hide that it was.
    ServerProcess.objects.filter(process=PROCESS).update(beat_at=now)
    Connection.objects.update_or_create(
        channel_name=channel_name, defaults={"game_id": game_id, "user": user, "last_seen": now,
                                             "process": PROCESS}
    )
    _beat_many([channel_name], now)
    _rows_written[channel_name] = time.monotonic()
    player_arrived.send(sender=Game, game_id=game_id, user=user)
    transaction.on_commit(lambda: broadcast.presence_changed(game_id))


@transaction.atomic
def disconnected(*, game_id: int, channel_name: str) -> None:
    _rows_written.pop(channel_name, None)
    gone = Connection.objects.filter(channel_name=channel_name).first()
    if gone is None:
        return
    # Closed, not deleted: the latest closed socket says when the player left (earlier ones go).
    Connection.objects.filter(game_id=game_id, user_id=gone.user_id, closed_at__isnull=False).delete()
    now = timezone.now()
    Connection.objects.filter(pk=gone.pk).update(closed_at=now, last_seen=now)
    transaction.on_commit(lambda: broadcast.presence_changed(game_id))
    if in_cache():
        try:
            cache.delete(beat_key(channel_name))
        except Exception:  # noqa: BLE001 - the closed row says the player left; the key expires
            log.warning("presence: the cache did not forget a socket", exc_info=True)


def forget(user) -> None:
    """A deleted account's sockets, open or kept to say when they left: their boards are gone with
    their sessions, and nobody is told when a deleted player left."""
    Connection.objects.filter(user=user).delete()


def heartbeats(channel_names: list[str]) -> int:
    """Sockets of this process are alive: their beats go to the cache in one round trip, and the
    rows whose interval has come round (``row_seconds()`` since this process last wrote them), or
    every row when the beats cannot go to the cache, are written in one statement. One call a
    heartbeat for all of a process's sockets (``layer_watch``) costs far less than one a socket.
    Returns how many rows were written."""
    if not channel_names:
        return 0
    now, clock = timezone.now(), time.monotonic()
    if _process_beat(now):  # taken for dead (or its row lost): its sockets' rows are opened again
        _reopen(channel_names, now)
    cached = _beat_many(channel_names, now)
    # Half a beat early: a row is never left older than its interval.
    early = row_seconds() - HEARTBEAT_SECONDS / 2
    due = [name for name in channel_names
           if not cached or clock - _rows_written.get(name, 0.0) >= early]
    for start in range(0, len(due), ROWS_A_STATEMENT):
        chunk = due[start:start + ROWS_A_STATEMENT]
        Connection.objects.filter(channel_name__in=chunk).update(last_seen=now)
        for name in chunk:
            _rows_written[name] = clock
    return len(due)


def _process_beat(now: datetime) -> bool:
    """This process is alive; True when it had no row (its first beat, or it was taken for dead)."""
    return ServerProcess.objects.update_or_create(process=PROCESS, defaults={"beat_at": now})[1]


def _reopen(channel_names: list[str], now: datetime) -> None:
    closed = Connection.objects.filter(channel_name__in=channel_names, closed_at__isnull=False)
    games = set(closed.values_list("game_id", flat=True))
    if games:
        closed.update(closed_at=None, last_seen=now)
        log.warning("presence: process %s was taken for dead; its sockets are open again", PROCESS)
        for game_id in games:
            broadcast.presence_changed(game_id)


@transaction.atomic
def close_dead(now: datetime | None = None) -> int:
    """Close the open rows of every process silent for ``PROCESS_SILENT_SECONDS``, as of its last
    beat, forget the process and tell its games' tables; how many rows were closed. The process rows
    are locked, so a process that beats meanwhile waits, finds its row gone and opens its rows again."""
    now = now or timezone.now()
    silent = now - timedelta(seconds=PROCESS_SILENT_SECONDS)
    dead = dict(ServerProcess.objects.select_for_update().filter(beat_at__lt=silent)
                .values_list("process", "beat_at"))
    closed, games = 0, set()
    for process, beat_at in dead.items():
        rows = Connection.objects.filter(process=process, closed_at__isnull=True)
        games |= set(rows.values_list("game_id", flat=True))
        closed += rows.update(closed_at=beat_at, last_seen=beat_at)
    ServerProcess.objects.filter(process__in=list(dead)).delete()
    if closed:
        log.warning("presence: %d sockets of %d dead processes closed", closed, len(dead))
    for game_id in games:
        transaction.on_commit(lambda game_id=game_id: broadcast.presence_changed(game_id))
    return closed


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
    """Presence of every other human seat, as ``viewer_seat`` should see it (one query, and one read
    of the cache when the beats are kept there)."""
    now = timezone.now()
    by_user: dict[int, list[Connection]] = {}
    # Read on every board, twice a move: through ``rows``, as the game itself is.
    found = rows.where(Connection, connections[Connection.objects.db], "game", game.pk)
    beats = _beats([c.channel_name for c in found if c.closed_at is None])
    # Until when each socket counts as live without another word from it.
    until: dict[int, datetime] = {}
    for conn in found:
        beat = beats.get(conn.channel_name)
        if beat is not None:
            conn.last_seen = max(conn.last_seen, beat)
        window = PRESENCE_EXPIRES_SECONDS if beat is not None or not in_cache() else row_window()
        until[conn.pk] = conn.last_seen + timedelta(seconds=window)
    for conn in sorted(found, key=lambda c: c.last_seen, reverse=True):
        by_user.setdefault(conn.user_id, []).append(conn)
    out = []
    for seat in game.seat_list():
        if seat.index == viewer_seat or seat.is_computer:
            continue
        conns = by_user.get(seat.user_id, [])
        live = [c for c in conns if c.closed_at is None and until[c.pk] > now]
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
        # At your own pace a player is away between moves by design: their clock, not their
        # absence, decides (a claim on time on their clock).
        claimable = claimable and not game.days_per_move
        if away_since is not None and seat.index in seats_to_act and game.status == Game.Status.ACTIVE \
                and claimable:
            claim_at = away_since + timedelta(seconds=absence_limit())
        out.append(SeatPresence(
            seat=seat.index, name=seat.display_name, here=here, away_since=away_since, arrived=bool(conns),
            seen_until=max(until[c.pk] for c in live) if live else None,
            claim_at=claim_at, can_claim=claim_at is not None and now >= claim_at,
        ))
    return out


def is_away_too_long(game: Game, seat_index: int) -> bool:
    return any(p.seat == seat_index and p.can_claim for p in table(game, None, (seat_index,)))


def away_seconds(game: Game, seat_index: int) -> int:
    """How long ``seat_index`` has been away from the table (0 while here)."""
    since = next((p.away_since for p in table(game, None, ()) if p.seat == seat_index), None)
    return 0 if since is None else int((timezone.now() - since).total_seconds())
