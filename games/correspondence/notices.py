"""Emails to players of correspondence games: the turn notice and its wording, and the links every
email carries (the game, the player's choices, a one-click unsubscribe)."""

from __future__ import annotations

import logging
from datetime import UTC, timedelta

from django.core.mail import EmailMessage
from django.urls import reverse

from cribsite import origin
from games.correspondence import services, tokens
from games.correspondence.models import NoticePreferences
from games.play import correspondence, presence
from games.play.models import Game, SeatClock, Vacation
from games.play.narration import and_list
from games.webpush.delivery import send_to_user

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


def deliver(message: EmailMessage, what: str) -> bool:
    """Send ``message``; whether it went. One that raised, or that no mail server took (a site with
    no ``EMAIL_HOST``), is logged as not sent, in a line that never holds the message itself."""
    try:
        if message.send():
            return True
        log.warning("%s not sent: no mail server took it", what)
    except Exception:  # a mail server's fault must not undo or fail the move that was made
        log.exception("%s not sent", what)
    return False


def turn_due(game_id: int, user_ids) -> None:
    """After the move that made it their turn: a notice to each of ``user_ids`` who wants one."""
    game = Game.objects.with_seats().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return
    for seat in game.seat_list():
        if seat.user_id in user_ids:
            send_turn_notice(game, seat.user)


def at_the_table(game: Game, user) -> bool:
    seat = game.seat_of(user)
    return any(p.seat == seat and p.here for p in presence.table(game, None, ()))


def send_turn_notice(game: Game, user) -> bool:
    """Tell ``user`` it is their turn in ``game`` (an email, and a notice to each browser they turned
    notifications on in), unless they are at the table, asked for no notices, or had this game's
    notice today (and did not ask for every move). Returns whether any went. Every kind of turn
    notice goes from here."""
    prefs = services.preferences_of(user.pk)
    if prefs.turn_notices == NoticePreferences.Turn.OFF or not user.is_active:
        return False
    if at_the_table(game, user):
        return False
    at = correspondence.now()
    every = prefs.turn_notices == NoticePreferences.Turn.EVERY
    if not services.claim_turn_notice(game_id=game.pk, user_id=user.pk, day=at.astimezone(UTC).date(), at=at,
                                      every=every):
        return False
    subject, body = turn_words(game, user)
    emailed = bool(user.email) and deliver(email(user, subject, body, "turn"),
                                           f"turn notice email for game={game.pk} user={user.pk}")
    # The browsers' push services answer or time out on their own; delivery logs its own faults.
    browsers = send_to_user(user, subject.removesuffix(" (Cribbage Hall)"), "It is your move.",
                            reverse("game", args=[game.pk]))
    sent = emailed or browsers > 0
    if sent:
        log.info("game=%s user=%s action=turn_notice email=%s browsers=%s", game.pk, user.pk,
                 "sent" if emailed else "none", browsers)
    return sent


def others(game: Game, user) -> str:
    """The other players' names: "bob", or at a table "bob, carol and dave"."""
    mine = game.seat_of(user)
    return and_list([n for i, n in enumerate(game.seat_names()) if i != mine])


def game_words(game: Game, them: str) -> str:
    """ "in your game against bob", or "at your table with bob, carol and dave" (``them``: ``others``)."""
    return f"in your game against {them}" if game.players == 2 else f"at your table with {them}"


def turn_words(game: Game, user) -> tuple[str, str]:
    """The turn notice's subject and body."""
    clock = SeatClock.objects.filter(game=game, user=user).first()
    at = correspondence.now()
    left = correspondence.time_left(clock.deadline_at, at) if clock else None
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
        words = correspondence.clock_words(left, timedelta(seconds=clock.bank_seconds),
                                           vacation_until=vacation, at=at)
        lines.append(f"Your clock: {words}.")
    lines += ["", f"Open the game: {game_link(game.pk)}",
              f"Every game waiting on you: {site_link(reverse('correspondence:your_turn'))}"]
    return subject, "\n".join(lines)


def send_out_of_time_notices(*, limit: int = 1000) -> int:
    """Tell each player whose opponent's clock has run out (and the game not yet ended as
    abandoned) that they may claim the win or give more time: once for each deadline, unless
    they asked for no turn notices. Returns how many went."""
    at = correspondence.now()
    late = (SeatClock.objects.filter(deadline_at__lt=at, deadline_at__gte=at - correspondence.ABANDON_AFTER,
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
            if correspondence.same_side(game.players, seat.index, late_seat):
                continue
            user = seat.user
            if user is None or not user.email or not user.is_active:
                continue
            if services.preferences_of(user.pk).turn_notices == NoticePreferences.Turn.OFF:
                continue
            if not services.claim_out_of_time_notice(game_id=game_id, user_id=user.pk, deadline=deadline,
                                                     at=at):
                continue
            ends_in = correspondence.left_words(deadline + correspondence.ABANDON_AFTER - at)
            body = "\n".join([
                f"Hello {user.username},", "",
                f"{late_name} has run out of time {game_words(game, others(game, user))} at your own pace.",
                f"You may {correspondence.claim_words(game.players)}, or give them more time.",
                f"If you do neither, the game ends by itself as abandoned in {ends_in}.",
                "", f"Open the game: {game_link(game_id)}",
            ])
            message = email(user, f"{late_name} ran out of time (Cribbage Hall)", body, "turn")
            sent += deliver(message, f"out-of-time notice for game={game_id} user={user.pk}")
    return sent
