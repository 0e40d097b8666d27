"""The daily summary: to each player with correspondence games waiting on them (and the summary
on), one email listing those games, the least time left first.

Players are taken a chunk at a time by their id (keyset pagination: never a list of every player,
never an OFFSET that slows with the table), and each chunk's emails are sent over one connection
before the next chunk is read, so memory stays the same for ten players or a hundred thousand
(``bench.correspondence`` measures it)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, date, timedelta

from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse

from games.correspondence import clock, services
from games.correspondence.lists import against
from games.correspondence.models import SeatClock, Vacation
from games.correspondence.notices import email, game_link, site_link
from games.play.models import Game, Seat

CHUNK = 200
# A summary lists this many games; the rest are on the "Your turn" page it links to.
LISTED = 30

log = logging.getLogger("games.correspondence")


def waiting_clocks():
    return SeatClock.objects.filter(deadline_at__isnull=False, game__status=Game.Status.ACTIVE)


def chunks(day: date, size: int = CHUNK) -> Iterator[list[int]]:
    """Ids of the players due a summary on ``day``, ``size`` at a time, in id order."""
    last = 0
    while True:
        ids = list(
            waiting_clocks().filter(user_id__gt=last)
            .exclude(user__notice_preferences__digest=False)
            .exclude(user__notice_preferences__digest_sent_on=day)
            .order_by("user_id").values_list("user_id", flat=True).distinct()[:size]
        )
        if not ids:
            return
        yield ids
        last = ids[-1]


def build(user_ids: list[int]) -> list[tuple[int, EmailMessage]]:
    """The summaries of one chunk of players (four queries for the chunk, none a game)."""
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=user_ids, is_active=True)
             .exclude(email="").only("pk", "username", "email")}
    waiting: dict[int, list[tuple[int, object, int]]] = {}
    rows = (waiting_clocks().filter(user_id__in=users).order_by("user_id", "deadline_at")
            .values_list("user_id", "game_id", "deadline_at", "bank_seconds"))
    for user_id, game_id, deadline, bank in rows:
        waiting.setdefault(user_id, []).append((game_id, deadline, bank))
    at = clock.now()
    away = dict(Vacation.objects.filter(user_id__in=users, until__gt=at).values_list("user_id", "until"))
    game_ids = {g for games in waiting.values() for g, _, _ in games}
    names: dict[int, list[tuple[int, str]]] = {}
    for game_id, user_id, name in (Seat.objects.filter(game_id__in=game_ids, user__isnull=False)
                                   .order_by("game_id", "index")
                                   .values_list("game_id", "user_id", "user__username")):
        names.setdefault(game_id, []).append((user_id, name))
    out = []
    for user_id, games in waiting.items():
        user = users[user_id]
        lines = []
        for game_id, deadline, bank in games[:LISTED]:
            them = against([n for pk, n in names.get(game_id, ()) if pk != user_id])
            words = clock.clock_words(deadline - at, timedelta(seconds=bank),
                                      vacation_until=away.get(user_id), at=at)
            lines.append(f"- {them}: {words} — {game_link(game_id)}")
        if len(games) > LISTED:
            lines.append(f"- and {len(games) - LISTED} more")
        count = len(games)
        subject = f"{count} game{'s' if count != 1 else ''} waiting on you (Cribbage Hall)"
        body = "\n".join([
            f"Hello {user.username},", "",
            "These games at your own pace are waiting for your move, the least time left first:", "",
            *lines, "", f"All your games: {site_link(reverse('correspondence:your_turn'))}",
        ])
        out.append((user_id, email(user, subject, body, "digest")))
    return out


def send_digests(day: date | None = None) -> int:
    """Send the day's summaries (a second run the same day sends none again). Returns how many."""
    day = day or clock.now().astimezone(UTC).date()
    sent = 0
    connection = get_connection()
    for ids in chunks(day):
        built = build(ids)
        went = connection.send_messages([message for _, message in built]) or 0
        if built and not went:
            # No mail server took them: left unmarked, so a later run (with one) sends them today.
            log.warning("daily summaries to %d players not sent: no mail server took them", len(built))
            break
        services.digests_sent(user_ids=ids, day=day)
        sent += went
    return sent
