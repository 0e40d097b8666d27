"""Emails to players of correspondence games: the turn notice and its wording, and the links every
email carries (the game, the player's choices, a one-click unsubscribe).

A turn notice is sent by a task (``games.correspondence.tasks.turn_notice``) in two steps: whether
it goes at all is decided once and kept (``NoticeSend``, with the day's count in ``TurnNotice``),
then each part (the email, each browser) goes and is marked gone, so a task run again sends only
what has not gone."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, timedelta
from enum import Enum
from typing import NamedTuple

from django.core.mail import EmailMessage
from django.urls import reverse

from cribsite import origin
from games.correspondence import clock, services, tokens
from games.correspondence.models import NoticePreferences, SeatClock, Vacation
from games.play import presence
from games.play.models import Game
from games.play.narration import and_list
from games.webpush.delivery import push_to_user

log = logging.getLogger("games.correspondence")


def site_link(path: str) -> str:
    return f"{origin.site_url()}{path}"


def game_link(game_id: int) -> str:
    """The game's page: a player logged out is sent to log in, and then to the game."""
    return site_link(reverse("game", args=[game_id]))


def unsubscribe_link(user_id: int, kind: str) -> str:
    return site_link(reverse("correspondence:unsubscribe", args=[tokens.make(user_id, kind)]))


def email(user, subject: str, body: str, kind: str) -> EmailMessage:
    """An email to ``user`` that ends with how to stop it, and says so in the headers mail
    programs offer as an unsubscribe button (RFC 8058's one click)."""
    stop = unsubscribe_link(user.pk, kind)
    what = "turn notices" if kind == "turn" else "the daily summary"
    footer = (f"\n\n--\nCribbage Hall\nStop {what}: {stop}\n"
              f"Choose which emails you get: {site_link(reverse('correspondence:settings'))}\n")
    return EmailMessage(
        subject=subject, body=body + footer, to=[user.email],
        headers={"List-Unsubscribe": f"<{stop}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )


class Mailed(Enum):
    SENT = "sent"
    NOT_TAKEN = "not taken"  # no mail server took it (none configured): sending again cannot help
    FAILED = "failed"  # the mail server raised (away, timed out): worth trying again


def send_email(message: EmailMessage, what: str) -> Mailed:
    """Send ``message``; what came of it, logged when it did not go, in a line that never holds the
    message itself."""
    try:
        if message.send():
            return Mailed.SENT
        log.warning("%s not sent: no mail server took it", what)
        return Mailed.NOT_TAKEN
    except Exception:  # a mail server's fault must not fail the task: it is tried again
        log.exception("%s not sent", what)
        return Mailed.FAILED


def deliver(message: EmailMessage, what: str) -> bool:
    """Send ``message``; whether it went."""
    return send_email(message, what) is Mailed.SENT


def at_the_table(game: Game, user) -> bool:
    seat = game.seat_of(user)
    return any(p.seat == seat and p.here for p in presence.table(game, None, ()))


def wants_turn_notice(game: Game, user) -> bool:
    """Whether ``user`` is to hear it is their turn in ``game`` now, counted if so: not when they
    are at the table, asked for no notices, or had this game's notice today (and did not ask for
    every move)."""
    if game.status != Game.Status.ACTIVE or not user.is_active:
        return False
    prefs = services.preferences_of(user.pk)
    if prefs.turn_notices == NoticePreferences.Turn.OFF or at_the_table(game, user):
        return False
    at = clock.now()
    every = prefs.turn_notices == NoticePreferences.Turn.EVERY
    return services.claim_turn_notice(game_id=game.pk, user_id=user.pk, day=at.astimezone(UTC).date(), at=at,
                                      every=every)


def still_their_turn(game: Game, user) -> bool:
    return (game.status == Game.Status.ACTIVE
            and SeatClock.objects.filter(game=game, user=user, deadline_at__isnull=False).exists())


class Delivered(NamedTuple):
    went: bool  # the email or a browser's notice went in this run
    again: bool  # a part failed for a while: the task tries again later


def send_turn_notice(game: Game, user, *, key: str | None = None) -> Delivered:
    """Tell ``user`` it is their turn in ``game`` (an email, and a notice to each browser they turned
    notifications on in), if they are to hear it (``wants_turn_notice``). ``key`` names this notice
    across runs of its task: each part goes once. Every kind of turn notice goes from here."""
    send = services.notice_decided(key=key or uuid.uuid4().hex, game_id=game.pk, user_id=user.pk,
                                   at=clock.now(), due=lambda: wants_turn_notice(game, user))
    if not send.due or not still_their_turn(game, user):
        return Delivered(False, False)  # a retry after they moved, or after the game ended, stays quiet
    subject, body = turn_words(game, user)
    emailed = again = False
    if not send.email_done:
        mailed = Mailed.NOT_TAKEN
        if user.email:
            mailed = send_email(email(user, subject, body, "turn"),
                                f"turn notice email for game={game.pk} user={user.pk}")
        emailed, again = mailed is Mailed.SENT, mailed is Mailed.FAILED
        if not again:
            services.notice_email_done(send=send)
    pushed = push_to_user(user, subject.removesuffix(" (Cribbage Hall)"), "It is your move.",
                          reverse("game", args=[game.pk]), skip=send.pushed)
    if pushed.done:
        services.notice_pushed(send=send, subscription_ids=pushed.done)
    went = emailed or pushed.taken > 0
    if went:
        log.info("game=%s user=%s action=turn_notice email=%s browsers=%s", game.pk, user.pk,
                 "sent" if emailed else "none", pushed.taken)
    return Delivered(went, again or bool(pushed.again))


def others(game: Game, user) -> str:
    """The other players' names: "bob", or at a table "bob, carol and dave"."""
    mine = game.seat_of(user)
    return and_list([n for i, n in enumerate(game.seat_names()) if i != mine])


def game_words(game: Game, them: str) -> str:
    """ "in your game against bob", or "at your table with bob, carol and dave" (``them``: ``others``)."""
    return f"in your game against {them}" if game.players == 2 else f"at your table with {them}"


def turn_words(game: Game, user) -> tuple[str, str]:
    """The turn notice's subject and body."""
    seat_clock = SeatClock.objects.filter(game=game, user=user).first()
    at = clock.now()
    left = clock.time_left(seat_clock.deadline_at, at) if seat_clock else None
    vacation = Vacation.objects.filter(user=user, until__gt=at).values_list("until", flat=True).first()
    them = others(game, user)
    where = game_words(game, them)
    subject = f"Your turn {'against' if game.players == 2 else 'at your table with'} {them} (Cribbage Hall)"
    lines = [
        f"Hello {user.username},",
        "",
        f"It is your turn {where} ({game.get_days_per_move_display()} a move).",
    ]
    if left is not None:
        words = clock.clock_words(left, timedelta(seconds=seat_clock.bank_seconds),
                                  vacation_until=vacation, at=at)
        lines.append(f"Your clock: {words}.")
    lines += ["", f"Open the game: {game_link(game.pk)}",
              f"Every game waiting on you: {site_link(reverse('correspondence:your_turn'))}"]
    return subject, "\n".join(lines)


def send_out_of_time_notices(*, limit: int = 1000) -> int:
    """Tell each player whose opponent's clock has run out (and the game not yet ended as
    abandoned) that they may claim the win or give more time: once for each deadline, unless
    they asked for no turn notices. Returns how many went."""
    at = clock.now()
    late = (SeatClock.objects.filter(deadline_at__lt=at, deadline_at__gte=at - clock.ABANDON_AFTER,
                                     game__status=Game.Status.ACTIVE)
            .order_by("deadline_at").values_list("game_id", "user_id", "deadline_at")[:limit])
    sent = 0
    for game_id, late_user, deadline in late:
        game = Game.objects.with_seats().get(pk=game_id)
        seats = game.seat_list()
        late_seat = next(s.index for s in seats if s.user_id == late_user)
        late_name = game.seat_names()[late_seat]
        for seat in seats:
            # A late player's partner at four may neither claim nor give time: nothing to tell them.
            if clock.same_side(game.players, seat.index, late_seat):
                continue
            user = seat.user
            if user is None or not user.email or not user.is_active:
                continue
            if services.preferences_of(user.pk).turn_notices == NoticePreferences.Turn.OFF:
                continue
            if not services.claim_out_of_time_notice(game_id=game_id, user_id=user.pk, deadline=deadline,
                                                     at=at):
                continue
            ends_in = clock.left_words(deadline + clock.ABANDON_AFTER - at)
            body = "\n".join([
                f"Hello {user.username},", "",
                f"{late_name} has run out of time {game_words(game, others(game, user))} at your own pace.",
                f"You may {clock.claim_words(game.players)}, or give them more time.",
                f"If you do neither, the game ends by itself as abandoned in {ends_in}.",
                "", f"Open the game: {game_link(game_id)}",
            ])
            message = email(user, f"{late_name} ran out of time (Cribbage Hall)", body, "turn")
            sent += deliver(message, f"out-of-time notice for game={game_id} user={user.pk}")
    return sent
