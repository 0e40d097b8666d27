"""When a game ends without its cards: called off, claimed after an absence, lost on time; and the
seeks at your own pace nobody took, withdrawn."""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.engine import game as engine
from games.engine.actions import Resign, action_to_dict
from games.engine.view import view
from games.play import broadcast, endings
from games.play.models import ComputerLevel, Game, Seat
from games.play.registry import organiser_of
from games.play.services.core import (
    Outcome,
    _after_commit,
    _apply,
    _lock,
    _next_seq,
    load_state,
)
from games.play.services.errors import (
    NotAPlayer,
    NotAvailable,
)
from games.play.signals import game_aborted

log = logging.getLogger("games.actions")

def _human_seats_due(game: Game, state: engine.GameState) -> list[Seat]:
    if state.phase in ("game_over", "match_over"):
        return []
    return [s for s in game.seat_list() if not s.is_computer and s.index in state.to_act]


ABORTED_EVENT = "aborted"
# The board only asks whether it may offer Abort; the organiser's own words are asked for (one
# query) when someone tries all the same.
ORGANISED_REFUSAL = "A game set up for an event cannot be called off; you can resign."


def abort_refusal(game: Game, state: engine.GameState | None) -> str:
    """Why ``game`` (in ``state``) cannot be called off, or "" if it can: the board offers Abort
    only when this is empty. Asks the database nothing when the game came from ``for_play``."""
    if game.status != Game.Status.ACTIVE or state is None:
        return "This game is not in progress."
    if state.plays or state.deal_no or state.game_no:
        return "Cards have been played: you can resign, but no longer abort."
    # Calling a rated game off once the hands are seen would let a player escape a bad deal unrated.
    if game.rated and state.phase != "cut":
        return "A rated game can be called off only before the deal; you can resign."
    if game.organised:
        return ORGANISED_REFUSAL
    return ""


@transaction.atomic
def game_abort(*, user: AbstractBaseUser, game_id: int) -> Game:
    """Call the game off before the first card is played: nobody wins, nothing is rated."""
    game = _lock(game_id)
    if game.seat_of(user) is None:
        raise NotAPlayer("You are not playing in this game.")
    refusal = abort_refusal(game, load_state(game) if game.state else None)
    if refusal == ORGANISED_REFUSAL:
        refusal = getattr(organiser_of(game), "abort_refusal", "") or refusal
    if refusal:
        raise NotAvailable(refusal)
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.version += 1
    game.last_events = [{"kind": ABORTED_EVENT, "seat": game.seat_of(user)}]  # who, for the others' boards
    game.save(update_fields=["status", "finished_at", "version", "last_events", "updated_at"])
    _after_commit(game)
    transaction.on_commit(broadcast.lobby_changed)
    if not game.private:
        transaction.on_commit(broadcast.watch_list_changed)
    game_aborted.send(sender=Game, game=game)
    log.info("game=%s user=%s action=abort", game.pk, user.pk)
    return game


@transaction.atomic
def game_claim_win(*, user: AbstractBaseUser, game_id: int) -> Outcome:
    """The other player has been away too long on their own turn: end the game in the claimer's favour."""
    from games.play import presence

    game = _lock(game_id)
    seat = game.seat_of(user)
    if seat is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is not in progress.")
    if game.days_per_move:
        raise NotAvailable("A game at your own pace is won on time, not by absence: claim it when a "
                           "player's clock has run out.")
    state = load_state(game)
    absent = [
        s for s in _human_seats_due(game, state)
        if s.index != seat and presence.is_away_too_long(game, s.index)
    ]
    if not absent:
        raise NotAvailable("You can claim the win only when your opponent has been away on their turn "
                           f"for {presence.absence_limit() // 60} minutes.")
    gone = absent[0]
    minutes = max(1, presence.away_seconds(game, gone.index) // 60)
    note = endings.claim_note(seat, gone.index, minutes)
    outcome = _apply(game, Resign(gone.index), note=note, by_timeout=True,
                     ending=endings.by_claim(seat, gone.index, minutes))
    log.info("game=%s user=%s action=claim_win absent_seat=%s", game.pk, user.pk, gone.index)
    return outcome


@transaction.atomic
def game_timeout(*, user: AbstractBaseUser, game_id: int) -> Outcome:
    """The turn timer ran out: move for each seat that was due (the easy computer's choice).

    Either player's page asks for this when its clock reaches zero; the server checks the clock.
    The third timeout of a seat forfeits the game.
    """
    from games.engine.players import choose_action

    game = _lock(game_id)
    if game.seat_of(user) is None:
        raise NotAPlayer("You are not playing in this game.")
    if game.status != Game.Status.ACTIVE or not game.turn_timer:
        raise NotAvailable("This game has no turn timer running.")
    deadline = (game.turn_started_at or timezone.now()) + timedelta(seconds=game.turn_timer)
    if timezone.now() < deadline:
        raise NotAvailable("There is still time on the clock.")
    state = load_state(game)
    due = _human_seats_due(game, state)
    if not due:
        raise NotAvailable("Nobody is on the clock.")
    outcome = None
    for seat in due:
        seat.timeouts += 1
        seat.save(update_fields=["timeouts"])
        state = load_state(game)
        if seat.timeouts >= settings.TIMEOUTS_TO_FORFEIT:
            note = endings.timeout_note(seat.index, "resign", seat.timeouts, state)
            outcome = _apply(game, Resign(seat.index), note=note, by_timeout=True,
                             ending=endings.on_time(seat.index, seat.timeouts))
            break
        rng = random.Random(f"{game.secret}:timeout:{_next_seq(game)}")
        action = choose_action(view(state, seat.index), ComputerLevel.EASY, rng)
        note = endings.timeout_note(seat.index, action_to_dict(action)["type"], seat.timeouts, state)
        outcome = _apply(game, action, note=note, by_timeout=True)
    log.info("game=%s user=%s action=timeout seats=%s", game.pk, user.pk, [s.index for s in due])
    return outcome


def game_lock(game_id: int) -> Game:
    """The game, its row locked until the caller's transaction ends: for an app above play that
    reads its own rows to decide how a game ends (a correspondence clock run out) and then ends it
    here (``game_lose_on_time``), the decision and the end under one lock."""
    return _lock(game_id)


def game_lose_on_time(*, game: Game, seat: int, ending: dict) -> Outcome:
    """End ``game`` (locked in the caller's transaction by ``game_lock``) by a resignation made for
    ``seat``, whose time ran out; ``ending`` says how (``endings.out_of_time``)."""
    if game.status != Game.Status.ACTIVE:
        raise NotAvailable("This game is not in progress.")
    return _apply(game, Resign(seat), by_timeout=True, ending=ending)


def withdraw_correspondence_seeks(*, created_before: datetime) -> int:
    """Withdraw the seeks and invitations at your own pace made before ``created_before`` that
    nobody took. Returns how many."""
    stale = Game.objects.filter(status=Game.Status.WAITING, days_per_move__gt=0,
                                created_at__lt=created_before)
    count = stale.update(status=Game.Status.ABORTED, version=F("version") + 1)
    if count:
        transaction.on_commit(broadcast.lobby_changed)
    return count
