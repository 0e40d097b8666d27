"""The correspondence app's tasks (Django's task framework; ``games.queue`` runs them): a turn
notice, enqueued by the move that made it someone's turn in the move's own transaction, and the
daily summary.

Each carries the origin its emails link to (``cribsite.origin.for_task``): the worker's process
never saw the request. A run that failed for a while enqueues itself again (``games.queue.retry``).
"""

from __future__ import annotations

import smtplib
import uuid
from datetime import UTC, date

from django.contrib.auth import get_user_model
from django_tasks import task

from cribsite import origin
from games.correspondence import clock, digest, notices, services
from games.play.models import Game
from games.queue import retry


def enqueue_turn_notices(game: Game, user_ids) -> None:
    """In the move's transaction: a task for each player it made it the turn of."""
    where = origin.for_task()
    for user_id in user_ids:
        turn_notice.enqueue(uuid.uuid4().hex, game.pk, user_id, where)


@task()
def turn_notice(key: str, game_id: int, user_id: int, site: str, attempt: int = 0) -> str:
    """Send the turn notice ``key`` (``notices.send_turn_notice``); what came of it."""
    game = Game.objects.with_seats().filter(pk=game_id).first()
    user = get_user_model().objects.filter(pk=user_id).first()
    if game is None or user is None:
        return "gone"
    with origin.serving(site):
        went, again = notices.send_turn_notice(game, user, key=key)
    if again:
        again = retry.again(turn_notice, key, game_id, user_id, site, attempt=attempt)
        return "retry" if again else "gave up"
    return "sent" if went else "not due"


@task()
def daily_digest(day: str = "", site: str = "", attempt: int = 0) -> int:
    """The day's summaries (``digest.send_digests``; ``day`` ISO, "" for today in UTC): how many went.
    A mail server that raised leaves the rest for a retry; a second run the same day sends none again."""
    on = date.fromisoformat(day) if day else clock.now().astimezone(UTC).date()
    services.notice_sends_forget(before=clock.now() - services.NOTICE_SEND_KEPT)
    try:
        with origin.serving(site):
            return digest.send_digests(on)
    except (OSError, smtplib.SMTPException):
        digest.log.exception("daily summaries of %s stopped: the mail server failed", on)
        retry.again(daily_digest, on.isoformat(), site, attempt=attempt)
        return 0
