"""Deleting an account: what the site forgets of a player who leaves, and what it keeps for the others.

The User row stays. Games, seats, history rows, ratings and tournament entries point at it, and
other players' records, rating histories and tournament results are built on those: deleting it
would take all of that with it. It is anonymised instead: a handle no sign-up can choose
(``games.play.names``), shown everywhere as "a deleted player"; no e-mail, no name, no usable
password, inactive, no session left, no browser subscribed to its notifications.

Before that, the player leaves everything still going on, through each app's own services, so that
the others see what any withdrawal or resignation would give them: their seeks are withdrawn,
invitations to them declined, seats at tables not yet started given up, upcoming tournament entries
removed, running tournaments withdrawn from (``entrant_withdraw``: their matches go to their
opponents) and every other game in progress resigned (the opponent wins; history and ratings are
updated as for any resignation). Finished games, ratings and tournament results stay as they were.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q

from games.accounts.models import TablePreferences
from games.history.summaries import rename_players
from games.play import presence
from games.play import services as game_services
from games.play.models import Game, Seat
from games.play.names import deleted_handle, is_deleted
from games.tournaments import services as tournament_services
from games.tournaments.models import Entrant, Tournament
from games.webpush import services as webpush_services

log = logging.getLogger("games.accounts")

@transaction.atomic
def account_delete(*, user_id: int) -> AbstractBaseUser:
    """Delete the account ``user_id`` as the module says, in one transaction. Idempotent: for an
    account already deleted, it finishes nothing that is left over and changes nothing else."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    old_name = user.get_username()
    first_time = not is_deleted(old_name)
    if first_time:
        # First, so every notice, result line and board written from here on names "a deleted player".
        _anonymise(user)
    _leave_tournaments(user)
    _call_off_waiting_games(user)
    _resign_games_in_play(user)
    presence.forget(user)
    # No notice may reach a browser for an account that is gone.
    webpush_services.subscriptions_forget(user=user)
    if first_time:
        rename_players(Seat.objects.filter(user=user).values_list("game_id", flat=True))
        tournament_services.player_renamed(user_id=user.pk)  # notices name players by id: nothing to rewrite
    sessions = _end_sessions(user)
    log.info("user=%s action=account_delete first_time=%s sessions=%s", user.pk, first_time, sessions)
    return user


def _anonymise(user: AbstractBaseUser) -> None:
    user.username = deleted_handle()
    user.email = ""
    user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = user.is_superuser = False
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    TablePreferences.objects.filter(user=user).delete()


def _leave_tournaments(user: AbstractBaseUser) -> None:
    """Upcoming entries are removed; running events withdrawn from, as the organiser would withdraw
    a player; finished and cancelled events keep their results. A tournament that starts meanwhile
    refuses the removal, and the withdrawal follows."""
    entries = Entrant.objects.filter(user=user).filter(
        Q(tournament__status=Tournament.Status.UPCOMING)  # withdrawn before the start too: still a row
        | Q(tournament__status=Tournament.Status.RUNNING, withdrawn=False)
    ).values_list("pk", "tournament_id")
    for entrant_id, tournament_id in list(entries):
        try:
            tournament_services.tournament_unregister(user=user, tournament_id=tournament_id)
        except tournament_services.TournamentError:
            with suppress(tournament_services.TournamentError):  # over, or already withdrawn
                tournament_services.entrant_withdraw(entrant_id=entrant_id)


def _call_off_waiting_games(user: AbstractBaseUser) -> None:
    """Their seeks withdrawn, invitations to them declined, seats at tables still filling given up.
    A game that started meanwhile is left to ``_resign_games_in_play``."""
    waiting = Game.objects.filter(status=Game.Status.WAITING)
    steps = (
        (game_services.game_withdraw, waiting.filter(created_by=user)),
        (game_services.game_decline, waiting.filter(Q(invited=user) | Q(invitees=user))),
        (game_services.game_leave, waiting.filter(seats__user=user).exclude(created_by=user)),
    )
    for service, games in steps:
        for game_id in list(games.values_list("pk", flat=True).distinct()):
            with suppress(game_services.ServiceError):
                service(user=user, game_id=game_id)


def _resign_games_in_play(user: AbstractBaseUser) -> None:
    """Every game in progress resigned through the move service, as if the player had pressed Resign."""
    in_play = Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user)
    for game_id in list(in_play.values_list("pk", flat=True).distinct()):
        # Locked before its version is read, so no move can slip in between and make it stale.
        version = (Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.ACTIVE)
                   .values_list("version", flat=True).first())
        if version is not None:
            game_services.game_act(user=user, game_id=game_id, version=version, action={"type": "resign"})


def _end_sessions(user: AbstractBaseUser) -> int:
    """Delete every session of the user, on every device. A session holds only its user's id, so the
    sessions are read one by one; an account is deleted rarely. (Any session missed here is dead all
    the same: the account is inactive and its password hash, which each session is checked against,
    changed.)"""
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store_class, "get_model_class"):  # no sessions in the database to read
        return 0
    decoder, owner = store_class(), str(user.pk)
    keys = [
        session.session_key
        for session in store_class.get_model_class().objects.iterator()
        if decoder.decode(session.session_data).get(SESSION_KEY) == owner
    ]
    for key in keys:
        store_class(session_key=key).delete()
    return len(keys)
