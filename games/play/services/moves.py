"""A player's move and the computer's, each checked against the version the mover saw."""

from __future__ import annotations

import contextlib
import logging
import random
import time
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.engine import game as engine
from games.engine.actions import Action, action_from_dict, action_to_dict
from games.engine.errors import BadCard, MalformedAction
from games.engine.view import view
from games.play.models import Game, Move, Seat
from games.play.services import pass_play
from games.play.services.core import (
    Outcome,
    _apply,
    _lock,
    _next_seq,
    load_state,
)
from games.play.services.errors import (
    AlreadyMade,
    IllegalMove,
    NotAPlayer,
    NotAvailable,
    StaleVersion,
)
from games.play.signals import computer_due

log = logging.getLogger("games.actions")

def parse_action(seat: int, data: dict) -> Action:
    """Build an engine action from untrusted form data; the seat always comes from the session."""
    try:
        return action_from_dict({**data, "seat": seat})
    except BadCard as exc:
        # The parser's text is for developers (card notation); a forged form gets a plain refusal.
        log.info("bad card from seat %s: %s (%r)", seat, exc, data)
        raise IllegalMove(BAD_CARD_MESSAGE) from None
    except MalformedAction as exc:
        log.info("malformed action from seat %s: %s (%r)", seat, exc, data)
        raise IllegalMove(NOT_A_MOVE_MESSAGE) from None


BAD_CARD_MESSAGE = "That card is not one you can play."
NOT_A_MOVE_MESSAGE = "That is not a move."


@transaction.atomic
def game_act(
    *, user: AbstractBaseUser, game_id: int, version: int, action: dict, origin: str = ""
) -> Outcome:
    """Apply one action for ``user`` if ``version`` is the game's current one.

    ``origin``: the board (page) that asked, which gets the new board in its answer, so its own
    socket need not be sent the same board again (see ``GameConsumer.game_changed``)."""
    started = time.perf_counter()
    game = _lock(game_id)
    seat = game.seat_of(user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.pass_play is not None and game.status == Game.Status.ACTIVE:
        seat = pass_play.acting_seat(game)
    stale = version != game.version
    if stale and _made_already(game, seat, version, action):
        raise AlreadyMade(ALREADY_MADE_MESSAGE)
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is not in progress.")
    if stale and not _others_acted_alongside(game, seat, version, action):
        raise StaleVersion(STALE_MESSAGE)
    try:
        _lay_away_size(game, action)
    except IllegalMove:
        if stale:  # a lay-away on a board since changed: a race, as below
            raise StaleVersion(STALE_MESSAGE) from None
        raise
    parsed = parse_action(seat, action)  # malformed data is the sender's mistake on any board: a 422
    try:
        outcome = _apply(game, parsed, origin=origin, actor=user.pk)
        if game.pass_play is not None:
            pass_play.act_for_the_table(game, action, origin=origin, actor=user.pk)
    except IllegalMove:
        if stale:  # legal on the board the player saw (a cut someone has taken since): a race, not a mistake
            raise StaleVersion(STALE_MESSAGE) from None
        raise
    log.info(
        "game=%s user=%s action=%s version=%s latency_ms=%.1f",
        game.pk, user.pk, action.get("type"), game.version, (time.perf_counter() - started) * 1000,
    )
    return outcome


STALE_MESSAGE = "The board changed since you last saw it; here it is now."
ALREADY_MADE_MESSAGE = "That move was made already."


def _made_already(game: Game, seat: int, version: int, action: dict) -> bool:
    """Whether this seat has made exactly ``action`` since ``version``: the same move sent again by
    a page that lost the answer (the network went as it arrived), which must not be made twice or
    be refused as if the player had not made it."""
    try:
        asked = parse_action(seat, action)
    except IllegalMove:
        return False
    since = Move.objects.filter(game=game, seat=seat, seq__gte=max(version, 1), by_timeout=False)
    for made in since.values_list("action", flat=True):
        with contextlib.suppress(ValueError):  # an entry of the site's own is no player's move
            if action_from_dict(made) == asked:
                return True
    return False


def _lay_away_size(game: Game, action: dict) -> None:
    """The form's button waits for the right number of cards; a form sent without them anyway is
    told what to do, not that it is no move at all."""
    wanted = 2 if game.players == 2 else 1
    if action.get("type") == "discard" and len(action.get("cards") or ()) != wanted:
        raise IllegalMove(f"Pick {'two cards' if wanted == 2 else 'one card'} for the crib.")

# Everyone lays away (and cuts for deal) at once, each from their own cards, and everyone says
# when they are ready for the next hand or game: another player's choice made meanwhile changes
# nothing this one decided on. Refusing it as stale made one player in four or so pick their two
# cards again (bench.load: 15% of moves came back 409), and made the slower of two players who
# both pressed "Next hand" press it again.
SIMULTANEOUS_ACTIONS = ("discard", "cut_for_deal", "next_deal", "next_game")


def _others_acted_alongside(game: Game, seat: int, version: int, action: dict) -> bool:
    """Whether every move since ``version`` is another seat's action of the same simultaneous kind
    as ``action``, so the board this seat decided on differs only by those. The engine still judges
    the action against the state as it is now."""
    gap = game.version - version
    if action.get("type") not in SIMULTANEOUS_ACTIONS or not 0 < gap < game.players:
        return False
    since = list(Move.objects.filter(game=game).order_by("-seq").values_list("seat", "action")[:gap])
    return len(since) == gap and all(s != seat and a.get("type") == action["type"] for s, a in since)


@transaction.atomic
def game_computer_step(
    *, game_id: int, origin: str = "", asked_by: int | None = None, version: int | None = None
) -> Outcome | None:
    """Let one computer seat take one action, if one is due. Returns None when none is, or when
    ``version`` is given and the game is no longer at it. ``origin`` and ``asked_by``: the page that
    asked and its user, as for ``game_act``."""
    started = time.perf_counter()
    game = _lock(game_id)
    if game.status != Game.Status.ACTIVE or version not in (None, game.version):
        return None
    action = _computer_action(game, load_state(game))
    if action is None:
        return None
    outcome = _apply(game, action, origin=origin, actor=asked_by)
    log.info(
        "game=%s user=computer action=%s version=%s latency_ms=%.1f",
        game.pk, action_to_dict(action)["type"], game.version, (time.perf_counter() - started) * 1000,
    )
    return outcome


def play_computer_turns(
    game_id: int, limit: int = 200, *, origin: str = "", asked_by: int | None = None
) -> int:
    """Run computer actions until a person must act (for live games' pages without JavaScript, and
    for tests); ``origin`` and ``asked_by`` as for ``game_computer_step``.
    Returns how many were made."""
    for made in range(limit):
        if game_computer_step(game_id=game_id, origin=origin, asked_by=asked_by) is None:
            return made
    return limit


def game_computer_turns(*, game_id: int, version: int, limit: int = 200) -> int:
    """The computer's turns in a game at your own pace, made by the task a move at ``version`` sent
    for (``games.play.tasks``): one action at a time, each in its own transaction under the game's
    lock, until no computer is due. Safe to run late or twice: a game moved on since ``version`` by
    anything but this run (a person's move, which sent for a task of its own) is left alone, so a
    second run makes nothing. Returns how many actions were made."""
    for made in range(limit):
        outcome = game_computer_step(game_id=game_id, version=version)
        if outcome is None:
            return made
        version = outcome.game.version
    return limit


def computers_left_waiting(*, idle: timedelta = timedelta(minutes=2), limit: int = 500) -> int:
    """Games at your own pace still waiting on a computer ``idle`` after their last change (its task
    made stale by a change that was no move, such as more time given, or cut short by a worker that
    died): their computer's turns are sent for again. Returns how many games."""
    cutoff = timezone.now() - idle
    waiting = (Game.objects.with_seats().filter(status=Game.Status.ACTIVE, days_per_move__gt=0,
                                                 seats__user__isnull=True, updated_at__lt=cutoff)
               .distinct().order_by("updated_at")[:limit])
    sent = 0
    for game in waiting:
        if computer_to_act(game):
            computer_due.send(sender=Game, game=game)
            sent += 1
    return sent


def _computer_seats_due(game: Game, state: engine.GameState) -> list[Seat]:
    if not game.has_computer:
        return []
    # Between games any seat may start the next one: that is left to the people at the table.
    if state.phase in ("game_over", "match_over"):
        return []
    due = state.to_act
    return [s for s in game.seat_list() if s.is_computer and s.index in due]


def computer_to_act(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE and bool(_computer_seats_due(game, load_state(game)))


def _computer_action(game: Game, state: engine.GameState) -> Action | None:
    due = _computer_seats_due(game, state)
    if not due:
        return None
    seat = due[0]
    from games.engine.players import choose_action  # the computer players load their tables lazily

    rng = random.Random(f"{game.secret}:{_next_seq(game)}")
    return choose_action(view(state, seat.index), seat.computer_level, rng)
