"""What the tournament services share: the locked tournament, notices, pushes, seeding and the standings."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser

from games.play import registry
from games.tournaments import naming, pairing
from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament
from games.tournaments.services.errors import TournamentError

log = logging.getLogger("games.tournaments")

# Results decided off the board: set on the match before the game is resigned on a player's behalf,
# so the game_finished listener keeps them instead of scoring the resignation.
PRESET = (Match.Decided.FORFEIT, Match.Decided.WITHDRAWAL, Match.Decided.ADMIN)


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError("No such tournament.") from None


def _lock_match(match_id: int) -> tuple[Tournament, Match]:
    tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError("No such match.")
    tournament = _lock(tournament_id)
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user")
        .get(pk=match_id)
    )
    return tournament, match


def _notice(
    t: Tournament, kind: str, text: str, *, reason: str = "", by: AbstractBaseUser | None = None
) -> None:
    Notice.objects.create(tournament=t, kind=kind, text=text[:300], reason=reason, by=by)


def _changed(t: Tournament) -> None:
    tournament_changed_on_commit(t.pk)


def games_to_win(match_games: int) -> int:
    return match_games // 2 + 1


def rating_function(t: Tournament) -> Callable | None:
    """``rate(user)``: a player's rating in games of ``t``'s length, if the site rates players
    (``games.play.registry.register_rating``), else None (seeding then falls back to registration
    order)."""
    return registry.rating_for(t.target)


def seeding_order(t: Tournament) -> list[Entrant]:
    """Active entrants best seed first: seeds set by hand, then by rating if the site has ratings,
    then in registration order."""
    entrants = list(t.entrants.active().select_related("user"))
    rate = rating_function(t)

    def rating(e: Entrant) -> float:
        if rate is None:
            return 0.0
        value = rate(e.user)
        return -float(value) if value is not None else float("inf")

    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, rating(e), e.registered_at, e.pk))


def _minutes(n: int) -> str:
    return f"{n} minute{'' if n == 1 else 's'}"


def _describe(t: Tournament) -> str:
    if t.status == Tournament.Status.FINISHED:
        return "finished"
    return naming.lower_first(naming.round_name(t, t.stage, t.current_round))


def _waiting_text(t: Tournament) -> str:
    """What the stage waits for: the matches in play; a bracket match whose players are not known
    yet waits for them, and is no more than counted."""
    undecided = list(_undecided(t).filter(stage=t.stage))
    playing = [m.label for m in undecided if m.status == Match.Status.ACTIVE]
    later = sum(1 for m in undecided if m.status != Match.Status.ACTIVE)
    parts = [f"waiting for {', '.join(playing)} to finish"] if playing else []
    if later:
        parts.append(f"{later} later match{'es' if later > 1 else ''} cannot start until "
                     f"{'their' if later > 1 else 'its'} players are known")
    return "; ".join(parts) or "no match is waiting to start"


def _started_count(t: Tournament) -> int:
    return Match.objects.filter(tournament=t).exclude(status=Match.Status.WAITING).count()


def _undecided(t: Tournament):
    return (
        Match.objects.filter(tournament=t)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID])
        .select_related("entrant1__user", "entrant2__user")
    )


def standings(t: Tournament, stage: str | None = None) -> list[pairing.Standing]:
    """The table of the rounds before any bracket (``stage``: the event's ``rounds_stage``), ordered
    by the event's criteria (``Tournament.criteria``); ``Standing.player`` is the Entrant. A bye in
    qualifying games counts as a plain win without spread; a round robin's byes (one each) count
    for nothing."""
    stage = stage or t.rounds_stage
    entrants = list(t.entrants.select_related("user"))
    by_id = {e.pk: e for e in entrants}
    in_stage = set()
    rows = list(
        Match.objects.filter(tournament=t, stage=stage).values_list(
            "entrant1_id", "entrant2_id", "status", "winner_id", "games1", "games2", "points1", "points2",
            "spread", "round_no",
        )
    )
    for row in rows:
        in_stage.update(row[:2])
    # Before the draw: everyone entered; after it, whoever the schedule holds (withdrawn or not).
    players = (
        [e for e in entrants if e.pk in in_stage] if in_stage else [e for e in entrants if not e.withdrawn]
    )
    results = [
        pairing.MatchResult(by_id[a], by_id[b], by_id.get(w), g1, g2, p1, p2, spread)
        for a, b, status, w, g1, g2, p1, p2, spread, _ in rows
        if status == Match.Status.FINISHED and b is not None
    ]
    # A bye counts once its round has begun (a schedule drawn in advance holds later ones).
    opened = t.current_round if t.stage == stage else 10_000
    byes = (
        [by_id[row[0]] for row in rows
         if row[2] == Match.Status.BYE and row[1] is None and row[-1] <= opened]
        if stage == Tournament.Stage.QUALIFYING
        else []
    )
    order = {e: (e.seed or 10_000, e.registered_at.timestamp(), e.pk) for e in players}
    ranked = {e: i for i, e in enumerate(sorted(players, key=lambda e: order[e]))}
    cut = {e: e.cut_card for e in players if e.cut_card and _is_card(e.cut_card)}
    return pairing.standings(
        players, results, order=ranked, withdrawn=[e for e in players if e.withdrawn], byes=byes,
        bye=pairing.ByeCredit.win(t.scoring), criteria=t.criteria(), cut=cut,
    )


def _is_card(text: str) -> bool:
    try:
        pairing.card_rank(text)
    except ValueError:
        return False
    return True


def _notice_once(t: Tournament, kind: str, text: str, **kwargs) -> None:
    """A notice the automatic steps may reach again and again while they wait (for a cut, say):
    posted the first time only, until something else has been said."""
    latest = Notice.objects.filter(tournament=t).order_by("-created_at", "-pk").values_list("text", flat=True)
    if latest.first() != text[:300]:
        _notice(t, kind, text, **kwargs)
