"""Entrants: registering, the director adding and removing players, seeding, withdrawals, and the
cut of the cards that breaks a tie between players."""

from __future__ import annotations

import logging
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from games.tournaments import pairing
from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.selectors import rating_function
from games.tournaments.services import progress
from games.tournaments.services.common import changed, lock_tournament, post_notice
from games.tournaments.services.errors import NotNow, TournamentError

log = logging.getLogger("games.tournaments")


@transaction.atomic
def tournament_register(
    *, user: AbstractBaseUser, tournament_id: int, now: datetime | None = None
) -> Entrant:
    t = lock_tournament(tournament_id)
    if not t.registration_open(now):
        raise NotNow("Registration for this tournament is not open.")
    if t.entrants.filter(user=user).exists():
        raise NotNow("You are already registered.")
    if t.is_full():
        raise NotNow("This tournament is full.")
    entrant = Entrant.objects.create(tournament=t, user=user, registered_at=now or timezone.now())
    changed(t)
    log.info("tournament=%s user=%s action=register", t.pk, user.pk)
    return entrant


@transaction.atomic
def tournament_unregister(*, user: AbstractBaseUser, tournament_id: int) -> None:
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("The tournament has started: ask the organiser to withdraw you.")
    if not t.entrants.filter(user=user).delete()[0]:
        raise NotNow("You are not registered.")
    changed(t)


@transaction.atomic
def entrant_add(
    *, tournament_id: int, user: AbstractBaseUser, by: AbstractBaseUser | None = None, seed: int | None = None
) -> Entrant:
    """The organiser adds a player (registration window and entry limit do not apply)."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Players can only be added before the start.")
    if t.entrants.filter(user=user).exists():
        raise NotNow(f"{user.get_username()} is already entered.")
    entrant = Entrant.objects.create(tournament=t, user=user, seed=seed)
    post_notice(t, Notice.Kind.ENTRANTS, "entered", {"user": user.pk}, by=by)
    changed(t)
    return entrant


@transaction.atomic
def entrant_remove(*, entrant_id: int, by: AbstractBaseUser | None = None) -> None:
    entrant = Entrant.objects.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError("No such entrant.")
    t = lock_tournament(entrant.tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("After the start a player can only be withdrawn.")
    entrant.delete()
    post_notice(t, Notice.Kind.ENTRANTS, "removed", {"user": entrant.user_id}, by=by)
    changed(t)


@transaction.atomic
def seed_entrants(*, tournament_id: int, by: AbstractBaseUser | None = None, by_rating: bool = True) -> bool:
    """Number the active entrants 1..n: by rating (if the site has ratings, and ``by_rating``), the
    unrated after the rated, each in registration order. Returns whether any rating was used."""
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Seeds are fixed once the tournament has started.")
    rate = rating_function(t) if by_rating else None
    entrants = list(t.entrants.active().select_related("user"))
    ratings = {e.pk: rate(e.user) if rate is not None else None for e in entrants}

    def key(e: Entrant) -> tuple:
        value = ratings[e.pk]
        return (value is None, -(value or 0), e.registered_at, e.pk)

    for i, e in enumerate(sorted(entrants, key=key), start=1):
        Entrant.objects.filter(pk=e.pk).update(seed=i)
    t.entrants.filter(withdrawn=True).update(seed=None)
    changed(t)
    return any(value is not None for value in ratings.values())


@transaction.atomic
def entrant_withdraw(*, entrant_id: int, by: AbstractBaseUser | None = None, reason: str = "") -> Entrant:
    """Withdraw a player. Before the start they simply drop out; after it, each match they have not
    finished goes to their opponent (a game in play is resigned on their behalf)."""
    entrant = Entrant.objects.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError("No such entrant.")
    t = lock_tournament(entrant.tournament_id)
    entrant.refresh_from_db()
    if entrant.withdrawn:
        raise NotNow(f"{entrant.name} has already withdrawn.")
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise NotNow("The tournament is over.")
    entrant.withdrawn = True
    entrant.withdrawn_at = timezone.now()
    entrant.seed = entrant.seed if t.status == Tournament.Status.RUNNING else None
    entrant.save(update_fields=["withdrawn", "withdrawn_at", "seed"])
    post_notice(t, Notice.Kind.WITHDRAWAL, "withdrew", {"user": entrant.user_id}, reason=reason, by=by)
    if t.status == Tournament.Status.RUNNING:
        open_matches = Match.objects.filter(tournament=t).exclude(
            status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID]
        )
        for pk in list(
            (open_matches.filter(entrant1=entrant) | open_matches.filter(entrant2=entrant)).values_list(
                "pk", flat=True
            )
        ):
            # Deciding one match can move the tournament on and decide others: read each afresh.
            m = Match.objects.select_related("entrant1__user", "entrant2__user").get(pk=pk)
            if not m.decided and m.entrant1_id and m.entrant2_id:
                other = 1 if m.entrant1_id == entrant.pk else 0
                gone = "{1}" if other == 1 else "{2}"  # the name when shown (Match.note_text)
                note = f"{gone} withdrew. {reason}".strip()
                progress.decide(t, m, other, Match.Decided.WITHDRAWAL, note, by=by)
        progress.move_on(t)
    changed(t)
    return entrant


class UnknownPlayers(TournamentError):
    """Names on a pasted list that are nobody's username: ``names``, as they were written."""

    def __init__(self, names: list[str]) -> None:
        listed = ", ".join(f"“{n}”" for n in names)
        super().__init__(f"No player is called {listed}. Nobody was added: correct the list and add again.")
        self.names = names


def _find_users(names: list[str]) -> tuple[list, list[str]]:
    """The users named (an exact username first, else the one username equal to it but for case),
    and the names that are nobody's."""
    model = get_user_model()
    field = model.USERNAME_FIELD
    exact = {getattr(u, field): u for u in model.objects.filter(**{f"{field}__in": names})}
    found, unknown = [], []
    for name in names:
        user = exact.get(name)
        if user is None:
            matches = list(model.objects.filter(**{f"{field}__iexact": name})[:2])
            user = matches[0] if len(matches) == 1 else None
        if user is None:
            unknown.append(name)
        elif user not in found:
            found.append(user)
    return found, unknown


@transaction.atomic
def entrants_add_many(
    *, tournament_id: int, usernames: list[str], by: AbstractBaseUser | None = None
) -> tuple[list[Entrant], list[str]]:
    """The director enters a pasted list of players (one username a line), before the start and
    past the registration window and limit. All or none: a name that is nobody's refuses the lot
    (``UnknownPlayers``). Returns the new entrants and the names already entered."""
    names = list(dict.fromkeys(n.strip() for n in usernames if n.strip()))
    if not names:
        raise TournamentError("Paste the players' usernames, one a line.")
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Players can only be added before the start.")
    users, unknown = _find_users(names)
    if unknown:
        raise UnknownPlayers(unknown)
    entered = set(t.entrants.values_list("user_id", flat=True))
    already = [u.get_username() for u in users if u.pk in entered]
    new = [Entrant.objects.create(tournament=t, user=u) for u in users if u.pk not in entered]
    if not new:
        raise NotNow("They are all entered already.")
    post_notice(t, Notice.Kind.ENTRANTS, "entered_many", {"users": [e.user_id for e in new]}, by=by)
    changed(t)
    return new, already


@transaction.atomic
def entrants_import(
    *, tournament_id: int, source_id: int, by: AbstractBaseUser | None = None
) -> tuple[list[Entrant], int]:
    """Enter everyone who played in another event (withdrawn players apart) and is not entered here
    yet. Returns the new entrants and how many were entered already."""
    if source_id == tournament_id:
        raise TournamentError("Choose another event to import from.")
    source = Tournament.objects.filter(pk=source_id).first()
    if source is None:
        raise TournamentError("No such event to import from.")
    t = lock_tournament(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Players can only be added before the start.")
    entered = set(t.entrants.values_list("user_id", flat=True))
    theirs = list(source.entrants.active().select_related("user").order_by("seed", "registered_at", "pk"))
    new = [Entrant.objects.create(tournament=t, user=e.user) for e in theirs if e.user_id not in entered]
    if not new:
        raise NotNow(f"Everyone from {source.name} is entered already." if theirs
                     else f"{source.name} has no players to import.")
    details = {"users": [e.user_id for e in new], "source": source.pk}
    post_notice(t, Notice.Kind.ENTRANTS, "entered_many", details, by=by)
    changed(t)
    return new, len(theirs) - len(new)


def player_renamed(*, user_id: int) -> None:
    """A player's name changed (their account was deleted): every page of the events they are in
    is drawn again after commit. Nothing is rewritten: notices and notes name players by id."""
    for tournament_id in Entrant.objects.filter(user_id=user_id).values_list("tournament_id", flat=True):
        tournament_changed_on_commit(tournament_id)


@transaction.atomic
def entrants_record_cut(
    *, tournament_id: int, cards: dict[int, str], by: AbstractBaseUser | None = None
) -> list[Entrant]:
    """Record the cards tied players cut (``entrant id -> "7"``, "K", "10"...): the standings' last
    tie-break. What was waiting for the cut (the playoff, the champion) follows."""
    t = lock_tournament(tournament_id)
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise NotNow("A cut is recorded for a tournament under way.")
    entrants = {e.pk: e for e in t.entrants.select_related("user").filter(pk__in=list(cards))}
    unknown = [pk for pk in cards if pk not in entrants]
    if unknown:
        raise TournamentError("Those players are not entered in this tournament.")
    recorded = []
    for pk, card in cards.items():
        card = card.strip().upper()
        if card:
            try:
                pairing.card_rank(card)
            except ValueError:
                name = entrants[pk].name
                raise TournamentError(f"{name}: “{card}” is not a card (A, 2 to 10, J, Q or K).") from None
        if entrants[pk].cut_card != card:
            entrants[pk].cut_card = card
            entrants[pk].save(update_fields=["cut_card"])
            recorded.append(entrants[pk])
    if not recorded:
        raise TournamentError("No card changed.")
    cards = [[e.user_id, e.cut_card] for e in recorded]
    post_notice(t, Notice.Kind.INFO, "cut_recorded", {"cards": cards}, by=by)
    if t.status == Tournament.Status.RUNNING:
        progress.move_on(t, by=by)
    changed(t)
    return recorded
