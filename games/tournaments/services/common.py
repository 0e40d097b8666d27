"""What the tournament services share: the locked tournament or match, the public log and the push."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Match, Notice, Tournament
from games.tournaments.services.errors import TournamentError

# Results decided off the board: set on the match before the game is resigned on a player's behalf,
# so the game_finished listener keeps them instead of scoring the resignation.
PRESET = (Match.Decided.FORFEIT, Match.Decided.WITHDRAWAL, Match.Decided.ADMIN)


def lock_tournament(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError("No such tournament.") from None


def lock_match(match_id: int) -> tuple[Tournament, Match]:
    """The match's tournament locked first (one lock order for every service), then the match."""
    tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError("No such match.")
    tournament = lock_tournament(tournament_id)
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user")
        .get(pk=match_id)
    )
    return tournament, match


def post_notice(
    t: Tournament, kind: str, what_happened: str, details: dict | None = None, *, text: str = "",
    reason: str = "", by: AbstractBaseUser | None = None,
) -> Notice:
    """Post to ``t``'s log what happened as data (its ``details``: users by id, a few numbers;
    ``notice_words`` words it when shown), posted by ``by`` (None: the site). ``text``: words with no
    name in them."""
    return Notice.objects.create(tournament=t, kind=kind, what_happened=what_happened, details=details or {},
                                 text=text[:300], reason=reason, posted_by=by)


def post_notice_once(
    t: Tournament, kind: str, what_happened: str, details: dict | None = None, **kwargs
) -> None:
    """A notice the automatic steps may reach again and again while they wait (for a cut, say):
    posted the first time only, until something else has been said."""
    latest = (Notice.objects.filter(tournament=t).order_by("-created_at", "-pk")
              .values_list("what_happened", "details", "text").first())
    if latest != (what_happened, details or {}, kwargs.get("text", "")[:300]):
        post_notice(t, kind, what_happened, details, **kwargs)


def changed(t: Tournament) -> None:
    """Every page of ``t`` is drawn again after commit."""
    tournament_changed_on_commit(t.pk)


def minutes_text(n: int) -> str:
    """
    >>> minutes_text(1), minutes_text(5)
    ('1 minute', '5 minutes')
    """
    return f"{n} minute{'' if n == 1 else 's'}"
