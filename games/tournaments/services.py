"""The only write path for tournaments. The admin, the views, the forfeit command and the
``game_finished`` listener all come here; games themselves are created and ended only through
``games.play.services`` (a forfeit is the absent player's resignation, made on their behalf).

Every function runs in a transaction that locks the tournament row first, so two games finishing at
once advance a round only once, and pushes ``tournament.changed`` after commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from games.play import endings
from games.play import services as game_services
from games.play.models import Game, Move
from games.tournaments import pairing
from games.tournaments.broadcast import tournament_changed_on_commit
from games.tournaments.models import Entrant, Match, Notice, Tournament

log = logging.getLogger("games.tournaments")

# Where a site-wide ``rating_for(user) -> float | None`` may live (settings.TOURNAMENT_RATING_FUNCTION wins).
RATING_FUNCTIONS = ("games.history.ratings.rating_for", "games.ratings.rating_for")
# Results decided off the board: set on the match before the game is resigned on a player's behalf,
# so the game_finished listener keeps them instead of scoring the resignation.
PRESET = (Match.Decided.FORFEIT, Match.Decided.WITHDRAWAL, Match.Decided.ADMIN)


class TournamentError(Exception):
    """A refusal with a message for the player or the organiser."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(TournamentError):
    status = 403


class NotNow(TournamentError):
    status = 409


# --- helpers --------------------------------------------------------------------------------------


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


def rating_function() -> Callable | None:
    """``rating_for(user)`` if the site has one, else None (seeding then falls back to
    registration order)."""
    configured = getattr(settings, "TOURNAMENT_RATING_FUNCTION", None)
    for path in (configured,) if configured else RATING_FUNCTIONS:
        try:
            return import_string(path)
        except ImportError:
            continue
    return None


def seeding_order(t: Tournament) -> list[Entrant]:
    """Active entrants best seed first: seeds set by hand, then by rating if the site has ratings,
    then in registration order."""
    entrants = list(t.entrants.active().select_related("user"))
    rate = rating_function()

    def rating(e: Entrant) -> float:
        if rate is None:
            return 0.0
        value = rate(e.user)
        return -float(value) if value is not None else float("inf")

    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0, rating(e), e.registered_at, e.pk))


# --- registration ---------------------------------------------------------------------------------


@transaction.atomic
def tournament_register(
    *, user: AbstractBaseUser, tournament_id: int, now: datetime | None = None
) -> Entrant:
    t = _lock(tournament_id)
    if not t.registration_open(now):
        raise NotNow("Registration for this tournament is not open.")
    if t.entrants.filter(user=user).exists():
        raise NotNow("You are already registered.")
    if t.is_full():
        raise NotNow("This tournament is full.")
    entrant = Entrant.objects.create(tournament=t, user=user, registered_at=now or timezone.now())
    _changed(t)
    log.info("tournament=%s user=%s action=register", t.pk, user.pk)
    return entrant


@transaction.atomic
def tournament_unregister(*, user: AbstractBaseUser, tournament_id: int) -> None:
    t = _lock(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("The tournament has started: ask the organiser to withdraw you.")
    if not t.entrants.filter(user=user).delete()[0]:
        raise NotNow("You are not registered.")
    _changed(t)


@transaction.atomic
def entrant_add(
    *, tournament_id: int, user: AbstractBaseUser, by: AbstractBaseUser | None = None, seed: int | None = None
) -> Entrant:
    """The organiser adds a player (registration window and entry limit do not apply)."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Players can only be added before the start.")
    if t.entrants.filter(user=user).exists():
        raise NotNow(f"{user.get_username()} is already entered.")
    entrant = Entrant.objects.create(tournament=t, user=user, seed=seed)
    _notice(t, Notice.Kind.ENTRANTS, f"{user.get_username()} was entered by the organiser.", by=by)
    _changed(t)
    return entrant


@transaction.atomic
def entrant_remove(*, entrant_id: int, by: AbstractBaseUser | None = None) -> None:
    entrant = Entrant.objects.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError("No such entrant.")
    t = _lock(entrant.tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("After the start a player can only be withdrawn.")
    entrant.delete()
    _notice(t, Notice.Kind.ENTRANTS, f"{entrant.name} was removed from the entry list.", by=by)
    _changed(t)


@transaction.atomic
def seed_entrants(*, tournament_id: int, by: AbstractBaseUser | None = None, by_rating: bool = True) -> bool:
    """Number the active entrants 1..n: by rating (if the site has ratings, and ``by_rating``), else
    by registration order. Returns whether ratings were used."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Seeds are fixed once the tournament has started.")
    rate = rating_function() if by_rating else None
    entrants = list(t.entrants.active().select_related("user"))

    def key(e: Entrant) -> tuple:
        value = rate(e.user) if rate is not None else None
        return (value is None, -(value or 0), e.registered_at, e.pk)

    for i, e in enumerate(sorted(entrants, key=key), start=1):
        Entrant.objects.filter(pk=e.pk).update(seed=i)
    t.entrants.filter(withdrawn=True).update(seed=None)
    _changed(t)
    return rate is not None


@transaction.atomic
def entrant_withdraw(*, entrant_id: int, by: AbstractBaseUser | None = None, reason: str = "") -> Entrant:
    """Withdraw a player. Before the start they simply drop out; after it, each match they have not
    finished goes to their opponent (a game in play is resigned on their behalf)."""
    entrant = Entrant.objects.select_related("user").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError("No such entrant.")
    t = _lock(entrant.tournament_id)
    entrant.refresh_from_db()
    if entrant.withdrawn:
        raise NotNow(f"{entrant.name} has already withdrawn.")
    if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise NotNow("The tournament is over.")
    entrant.withdrawn = True
    entrant.withdrawn_at = timezone.now()
    entrant.seed = entrant.seed if t.status == Tournament.Status.RUNNING else None
    entrant.save(update_fields=["withdrawn", "withdrawn_at", "seed"])
    _notice(t, Notice.Kind.WITHDRAWAL, f"{entrant.name} has withdrawn.", reason=reason, by=by)
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
                _decide(
                    t, m, other, Match.Decided.WITHDRAWAL, f"{entrant.name} withdrew. {reason}".strip(), by=by
                )
        _progress(t)
    _changed(t)
    return entrant


# --- starting and advancing -----------------------------------------------------------------------


@transaction.atomic
def tournament_start(*, tournament_id: int, by: AbstractBaseUser | None = None) -> Tournament:
    """Close the entry list, fix the seeds, draw the schedule or bracket and start the first games."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.UPCOMING:
        raise NotNow("Only an upcoming tournament can be started.")
    seeded = seeding_order(t)
    if len(seeded) < 2:
        raise NotNow("A tournament needs at least two players.")
    for i, e in enumerate(seeded, start=1):
        if e.seed != i:
            e.seed = i
            e.save(update_fields=["seed"])
    t.status = Tournament.Status.RUNNING
    t.started_at = timezone.now()
    if t.format == Tournament.Format.KNOCKOUT:
        _draw_bracket(t, seeded, t.match_games)
    else:
        _draw_round_robin(t, seeded)
    t.save()
    _notice(t, Notice.Kind.START, f"The tournament has started with {len(seeded)} players.", by=by)
    _progress(t, force=True, by=by)  # the first round starts now, even when rounds wait for the admin
    _changed(t)
    log.info("tournament=%s action=start players=%s", t.pk, len(seeded))
    return t


@transaction.atomic
def tournament_advance(*, tournament_id: int, by: AbstractBaseUser | None = None) -> str:
    """The organiser moves on: start the next round's games now (round robin: matches still in play
    go on and still count); single elimination: start every match whose players are known."""
    t = _lock(tournament_id)
    if t.status != Tournament.Status.RUNNING:
        raise NotNow("The tournament is not running.")
    before = (t.stage, t.current_round, _started_count(t))
    _progress(t, force=True, by=by)
    after = (t.stage, t.current_round, _started_count(t))
    if before == after and t.status == Tournament.Status.RUNNING:
        raise NotNow("Nothing to advance: " + _waiting_text(t) + ".")
    _changed(t)
    return _describe(t)


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


def _minutes(n: int) -> str:
    return f"{n} minute{'' if n == 1 else 's'}"


def _describe(t: Tournament) -> str:
    if t.status == Tournament.Status.FINISHED:
        return "finished"
    return f"{t.get_stage_display().lower()} round {t.current_round}"


def _started_count(t: Tournament) -> int:
    return Match.objects.filter(tournament=t).exclude(status=Match.Status.WAITING).count()


def _undecided(t: Tournament):
    return (
        Match.objects.filter(tournament=t)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID])
        .select_related("entrant1__user", "entrant2__user")
    )


def _draw_round_robin(t: Tournament, seeded: list[Entrant]) -> None:
    t.stage = Tournament.Stage.ROUND_ROBIN
    t.current_round = 0
    by_id = {e.pk: e for e in seeded}
    for r, pairs in enumerate(pairing.round_robin([e.pk for e in seeded]), start=1):
        for slot, (a, b) in enumerate(pairs):
            Match.objects.create(
                tournament=t,
                stage=Tournament.Stage.ROUND_ROBIN,
                round_no=r,
                slot=slot,
                entrant1=by_id[a],
                entrant2=by_id.get(b),
                match_games=t.match_games,
                status=Match.Status.BYE if b is None else Match.Status.WAITING,
                decided_by=Match.Decided.BYE if b is None else Match.Decided.NONE,
            )


def _draw_bracket(t: Tournament, seeded: list[Entrant], match_games: int) -> None:
    t.stage = Tournament.Stage.KNOCKOUT
    t.current_round = 1
    rounds = pairing.bracket_rounds(len(seeded))
    for r in range(rounds, 1, -1):
        for slot in range(2 ** (rounds - r)):
            Match.objects.create(
                tournament=t, stage=Tournament.Stage.KNOCKOUT, round_no=r, slot=slot, match_games=match_games
            )
    for slot, (a, b) in enumerate(pairing.first_round(seeded)):
        m = Match.objects.create(
            tournament=t,
            stage=Tournament.Stage.KNOCKOUT,
            round_no=1,
            slot=slot,
            entrant1=a,
            entrant2=b,
            match_games=match_games,
        )
        if b is None:
            m.status, m.decided_by, m.winner = Match.Status.BYE, Match.Decided.BYE, a
            m.finished_at = timezone.now()
            m.save()
            _carry_winner(t, m)


def _knockout_rounds(t: Tournament) -> int:
    return (
        Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
        .order_by("-round_no")
        .values_list("round_no", flat=True)
        .first()
        or 0
    )


def _carry_winner(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Put a bracket match's winner into their next match (replacing a corrected-away winner)."""
    if m.round_no >= _knockout_rounds(t):
        return
    r, slot, side = pairing.feeds(m.round_no, m.slot)
    nxt = Match.objects.select_for_update().get(
        tournament=t, stage=Tournament.Stage.KNOCKOUT, round_no=r, slot=slot
    )
    field = "entrant1_id" if side == 0 else "entrant2_id"
    if getattr(nxt, field) == m.winner_id:
        return
    if nxt.decided:
        raise NotNow(f"The next match ({nxt.label}) is already decided: correct that one first.")
    if nxt.game_id is not None:
        _notice(
            t,
            Notice.Kind.RESULT,
            f"Game {nxt.game_id} ({nxt.label}) no longer counts: a result before it "
            "was corrected, and the match starts again.",
            by=by,
        )
        nxt.game = None
        nxt.started_at = None
        nxt.extra_minutes = 0
        nxt.games1 = nxt.games2 = nxt.points1 = nxt.points2 = nxt.spread = 0
    nxt.status = Match.Status.WAITING
    setattr(nxt, field, m.winner_id)
    nxt.save()


def _start_match(t: Tournament, m: Match, *, by: AbstractBaseUser | None = None) -> None:
    """Create the match's game with the tournament's house rules, or award a walkover (without
    moving the tournament on: the caller's loop does that)."""
    m.refresh_from_db()
    if m.status != Match.Status.WAITING or m.game_id is not None or not (m.entrant1_id and m.entrant2_id):
        return
    e1, e2 = m.entrant1, m.entrant2
    if e1.withdrawn and e2.withdrawn:
        m.status, m.decided_by, m.note = Match.Status.VOID, Match.Decided.WITHDRAWAL, "Both players withdrew."
        m.finished_at = timezone.now()
        m.save()
        return
    if e1.withdrawn or e2.withdrawn:
        gone = e1 if e1.withdrawn else e2
        _decide(
            t, m, 1 if e1.withdrawn else 0, Match.Decided.WITHDRAWAL, f"{gone.name} withdrew.", progress=False
        )
        return
    game = game_services.game_create_between(
        players=[e1.user, e2.user],
        rules=t.rules_for(m.match_games),
        rated=t.rated,
        created_by=by or t.created_by or e1.user,
        turn_timer=t.turn_timer,
        organised=True,
    )
    m.game = game
    m.status = Match.Status.ACTIVE
    m.started_at = game.created_at
    m.save()


def _progress(t: Tournament, *, force: bool = False, by: AbstractBaseUser | None = None) -> None:
    """Do whatever is due: open the next round, seed the playoff, start ready matches, finish.

    ``force`` (the organiser's "advance"): open the next round even when matches are still being
    played (round robin), or start ready bracket matches when rounds do not start by themselves.
    """
    for _ in range(100):  # each pass moves one step; a walkover can make the next step due at once
        if t.status != Tournament.Status.RUNNING:
            return
        if t.stage == Tournament.Stage.ROUND_ROBIN:
            if not _progress_round_robin(t, force, by):
                return
        elif not _progress_knockout(t, force, by):
            return
        force = False


def _progress_round_robin(t: Tournament, force: bool, by) -> bool:
    matches = Match.objects.filter(tournament=t, stage=Tournament.Stage.ROUND_ROBIN)
    last = matches.order_by("-round_no").values_list("round_no", flat=True).first() or 0
    open_so_far = (
        _undecided(t).filter(stage=Tournament.Stage.ROUND_ROBIN, round_no__lte=t.current_round).exists()
    )
    if t.current_round < last and (t.current_round == 0 or force or (t.auto_advance and not open_so_far)):
        _open_round(t, t.current_round + 1, by)
        return True
    if open_so_far or t.current_round < last:
        return False
    # Every round robin match is decided.
    if t.format == Tournament.Format.QUALIFYING:
        _draw_playoff(t, by)
        return True
    table = standings(t)
    winner = next((row.player for row in table if not row.withdrawn), None)
    _finish(t, winner, by)
    return False


def _open_round(t: Tournament, round_no: int, by) -> None:
    t.current_round = round_no
    t.save(update_fields=["current_round"])
    matches = Match.objects.filter(
        tournament=t, stage=Tournament.Stage.ROUND_ROBIN, round_no=round_no, status=Match.Status.WAITING
    ).select_related("entrant1__user", "entrant2__user")
    for m in matches:
        _start_match(t, m, by=by)
    _notice(t, Notice.Kind.ROUND, f"Round {round_no} has begun.")


def _progress_knockout(t: Tournament, force: bool, by) -> bool:
    ko = Match.objects.filter(tournament=t, stage=Tournament.Stage.KNOCKOUT)
    rounds = _knockout_rounds(t)
    final = ko.filter(round_no=rounds).select_related("winner").first()
    if final is not None and final.decided:
        _finish(t, final.winner, by)
        return False
    lowest = (
        ko.exclude(status__in=[Match.Status.FINISHED, Match.Status.BYE, Match.Status.VOID])
        .order_by("round_no")
        .values_list("round_no", flat=True)
        .first()
    )
    if lowest and lowest != t.current_round:
        t.current_round = lowest
        t.save(update_fields=["current_round"])
    if not (t.auto_advance or force):
        return False
    ready = ko.filter(
        status=Match.Status.WAITING, entrant1__isnull=False, entrant2__isnull=False, game__isnull=True
    )
    started = False
    for m in list(ready.select_related("entrant1__user", "entrant2__user")):
        _start_match(t, m, by=by)
        started = True
    # A walkover may have made more matches ready (or decided the final): look again.
    return started


def _draw_playoff(t: Tournament, by) -> None:
    table = [row for row in standings(t) if not row.withdrawn]
    count = pairing.qualifier_count(len(table), t.qualifiers)
    qualified = [row.player for row in table[:count]]
    if len(qualified) < 2:  # withdrawals left fewer than two: no playoff to play
        _finish(t, qualified[0] if qualified else None, by)
        return
    for rank, entrant in enumerate(qualified, start=1):
        Entrant.objects.filter(pk=entrant.pk).update(qualifying_rank=rank)
        entrant.qualifying_rank = rank
    _draw_bracket(t, qualified, t.playoff_match_games)
    t.save()
    names = ", ".join(f"{i}. {e.name}" for i, e in enumerate(qualified, start=1))
    _notice(
        t, Notice.Kind.ROUND, f"Qualifying is over. The playoff, seeded by qualifying rank: {names}.", by=by
    )


def _finish(t: Tournament, winner: Entrant | None, by) -> None:
    t.status = Tournament.Status.FINISHED
    t.finished_at = timezone.now()
    t.champion = winner.user if winner else None
    t.save()
    text = f"The tournament is over: {winner.name} is the champion." if winner else "The tournament is over."
    _notice(t, Notice.Kind.FINISH, text, by=by)
    log.info("tournament=%s action=finish champion=%s", t.pk, getattr(t.champion, "pk", None))


# --- results --------------------------------------------------------------------------------------


def on_game_finished(sender, game: Game, **kwargs) -> None:
    """games.play.signals.game_finished: record the match result and move the tournament on. Runs inside
    the game's transaction, so the match and the game commit together."""
    tournament_id = Match.objects.filter(game=game).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    t = _lock(tournament_id)
    m = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user")
        .filter(game=game)
        .first()
    )
    if m is None or m.decided or t.status != Tournament.Status.RUNNING:
        return
    if m.decided_by in PRESET:
        _close(m)
    else:
        _score_from_game(t, m, game)
    _after_result(t, m)
    _changed(t)


def on_deal_started(sender, game: Game, **kwargs) -> None:
    """games.play.signals.deal_started: a tournament game's score changed, so its page shows the new one.
    Once a deal, not once a move: every watcher's socket draws the whole page for each push."""
    active = Match.objects.filter(game_id=game.pk, status=Match.Status.ACTIVE)
    tournament_id = active.values_list("tournament_id", flat=True).first()
    if tournament_id is not None:
        tournament_changed_on_commit(tournament_id)


def _score_from_game(t: Tournament, m: Match, game: Game) -> None:
    result = game.result or {}
    scoring = t.scoring
    games, points, spread = [0, 0], [0, 0], 0
    for g in result.get("games", []):
        w = g["winner"]
        games[w] += 1
        points[w] += scoring.game_points(g.get("skunk", 0))
        s = pairing.game_spread(t.target, g["loser_score"])
        spread += s if w == 0 else -s
    m.games1, m.games2 = games
    m.points1, m.points2 = points
    m.spread = spread
    m.winner = m.entrant1 if game.winner_seat == 0 else m.entrant2
    last = Move.objects.filter(game=game).order_by("-seq").values_list("action", flat=True).first()
    resigned = bool(last) and last.get("type") == "resign"  # also between the games of a match
    m.decided_by = Match.Decided.RESIGN if resigned else Match.Decided.PLAY
    site_ending = endings.ending_of(game) if resigned else None
    if site_ending is not None:
        m.decided_by = Match.Decided.TIME if site_ending["how"] == endings.TIME else Match.Decided.CLAIM
    _close(m)


def _close(m: Match) -> None:
    m.status = Match.Status.FINISHED
    m.finished_at = m.finished_at or timezone.now()
    m.save()


def _after_result(
    t: Tournament, m: Match, by: AbstractBaseUser | None = None, *, progress: bool = True
) -> None:
    if m.stage == Tournament.Stage.KNOCKOUT and m.winner_id is not None:
        _carry_winner(t, m, by=by)
    if progress:
        _progress(t, by=by)


def _walkover_values(t: Tournament, m: Match, winner_side: int) -> dict:
    """A match won without play: the games needed to win it, each a plain win, and no spread."""
    need = games_to_win(m.match_games)
    games = (need, 0) if winner_side == 0 else (0, need)
    return {
        "games1": games[0],
        "games2": games[1],
        "spread": 0,
        "points1": games[0] * t.win_points,
        "points2": games[1] * t.win_points,
    }


def _decide(
    t: Tournament,
    m: Match,
    winner_side: int,
    decided_by: str,
    note: str,
    values: dict | None = None,
    *,
    by: AbstractBaseUser | None = None,
    progress: bool = True,
) -> None:
    """Decide a match off the board. A game in play is resigned on the loser's behalf (through
    games.play.services), so the board shows the end too; the listener keeps the values set here."""
    values = values or _walkover_values(t, m, winner_side)
    for name, value in values.items():
        setattr(m, name, value)
    m.winner = m.entrant1 if winner_side == 0 else m.entrant2
    m.decided_by = decided_by
    m.note = note
    game = Game.objects.filter(pk=m.game_id).first() if m.game_id else None
    if game is not None and game.status == Game.Status.ACTIVE and not m.decided:
        m.save()
        loser = m.entrant2 if winner_side == 0 else m.entrant1
        game_services.game_act(
            user=loser.user, game_id=game.pk, version=game.version, action={"type": "resign"}
        )
        m.refresh_from_db()
        t.refresh_from_db()  # the listener closed the match and moved the tournament on
        return
    _close(m)
    _after_result(t, m, by=by, progress=progress)


@transaction.atomic
def match_set_result(
    *,
    match_id: int,
    winner_id: int,
    reason: str,
    by: AbstractBaseUser | None = None,
    games1: int | None = None,
    games2: int | None = None,
    points1: int | None = None,
    points2: int | None = None,
    spread: int | None = None,
) -> Match:
    """The organiser sets or corrects a match result. The reason is kept and shown to players."""
    t, m = _lock_match(match_id)
    reason = reason.strip()
    if not reason:
        raise TournamentError("Give a reason: players see it on the tournament page.")
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise NotNow("Results can only be set while the tournament runs (or corrected after it).")
    if not (m.entrant1_id and m.entrant2_id) or m.status == Match.Status.BYE:
        raise NotNow("This match has no two players yet.")
    if winner_id not in (m.entrant1_id, m.entrant2_id):
        raise TournamentError("The winner must be one of the match's two players.")
    winner_side = 0 if winner_id == m.entrant1_id else 1
    was_decided = m.decided
    old = (m.winner_id, m.games1, m.games2)
    keep = was_decided and m.winner_id == winner_id
    values = (
        {
            "games1": m.games1,
            "games2": m.games2,
            "points1": m.points1,
            "points2": m.points2,
            "spread": m.spread,
        }
        if keep
        else _walkover_values(t, m, winner_side)
    )
    given = {"games1": games1, "games2": games2, "points1": points1, "points2": points2, "spread": spread}
    values.update({k: v for k, v in given.items() if v is not None})
    if (values["games1"] > values["games2"]) != (winner_side == 0) and values["games1"] != values["games2"]:
        raise TournamentError("The winner must not have won fewer games than the loser.")
    winner = m.entrant1 if winner_side == 0 else m.entrant2
    won, lost = (values["games1"], values["games2"])[:: 1 if winner_side == 0 else -1]
    text = (
        f"Result {'corrected' if was_decided else 'set'} by the organiser: {m.label} "
        f"({m.get_stage_display().lower()} round {m.round_no}): {winner.name} wins {won}–{lost}."
    )
    if was_decided:
        for name, value in values.items():
            setattr(m, name, value)
        m.winner = winner
        m.decided_by = Match.Decided.ADMIN
        m.note = reason
        m.status = Match.Status.FINISHED
        m.save()
        if t.status == Tournament.Status.RUNNING or m.stage == Tournament.Stage.KNOCKOUT:
            if m.stage == Tournament.Stage.KNOCKOUT and old[0] != winner_id:
                _carry_winner(t, m, by=by)
                if t.status == Tournament.Status.FINISHED and m.round_no == _knockout_rounds(t):
                    t.champion = winner.user
                    t.save(update_fields=["champion"])
            _progress(t, by=by)
        if t.status == Tournament.Status.FINISHED and t.format == Tournament.Format.ROUND_ROBIN:
            top = next((row.player for row in standings(t) if not row.withdrawn), None)
            if top is not None and top.user_id != t.champion_id:
                t.champion = top.user
                t.save(update_fields=["champion"])
                text += f" {top.name} is now the champion."
    else:
        if t.status != Tournament.Status.RUNNING:
            raise NotNow("The tournament is over.")
        _decide(t, m, winner_side, Match.Decided.ADMIN, reason, values, by=by)
    _notice(t, Notice.Kind.RESULT, text, reason=reason, by=by)
    _changed(t)
    log.info(
        "tournament=%s match=%s action=set_result winner=%s by=%s",
        t.pk,
        m.pk,
        winner_id,
        getattr(by, "pk", None),
    )
    return m


@transaction.atomic
def tournament_cancel(
    *, tournament_id: int, by: AbstractBaseUser | None = None, reason: str = ""
) -> Tournament:
    t = _lock(tournament_id)
    if t.status not in (Tournament.Status.UPCOMING, Tournament.Status.RUNNING):
        raise NotNow("The tournament is already over.")
    t.status = Tournament.Status.CANCELLED
    t.finished_at = timezone.now()
    t.save()
    # Games in play go on for their players but no longer count, so no clock can forfeit them
    # either; their boards are redrawn to say so.
    open_games = list(_undecided(t).filter(game__status=Game.Status.ACTIVE).values_list("game_id", flat=True))
    _undecided(t).update(status=Match.Status.VOID)
    game_services.organiser_notice(
        game_ids=open_games, text=f"The tournament {t.name} was cancelled: this game no longer counts.")
    _notice(t, Notice.Kind.CANCEL, "The tournament has been cancelled.", reason=reason, by=by)
    _changed(t)
    return t


# --- forfeits -------------------------------------------------------------------------------------


def _seats_moved(game_id: int) -> set[int]:
    return set(Move.objects.filter(game_id=game_id).values_list("seat", flat=True).distinct())


@dataclass(frozen=True)
class ForfeitCheck:
    """Whether a match's game may be claimed: ``absent`` is the side (0/1) that has not moved."""

    due: bool
    absent: int | None
    deadline: datetime | None


def forfeit_check(m: Match, now: datetime | None = None) -> ForfeitCheck:
    now = now or timezone.now()
    deadline = m.forfeit_deadline()
    if m.status != Match.Status.ACTIVE or m.game_id is None or deadline is None:
        return ForfeitCheck(False, None, deadline)
    moved = _seats_moved(m.game_id)
    absent = [side for side in (0, 1) if side not in moved]
    if len(absent) != 1:
        return ForfeitCheck(False, None, deadline)
    return ForfeitCheck(now >= deadline, absent[0], deadline)


def _forfeit(t: Tournament, m: Match, absent: int, note: str, by: AbstractBaseUser | None = None) -> None:
    gone = m.entrant1 if absent == 0 else m.entrant2
    _decide(t, m, 1 - absent, Match.Decided.FORFEIT, note, by=by)
    _notice(
        t, Notice.Kind.FORFEIT, f"{gone.name} forfeited {m.label} (round {m.round_no}).", reason=note, by=by
    )
    _changed(t)


@transaction.atomic
def match_claim_forfeit(*, user: AbstractBaseUser, match_id: int, now: datetime | None = None) -> Match:
    """A player whose opponent has not made a move within the grace period takes the match."""
    t, m = _lock_match(match_id)
    users = [m.entrant1.user_id if m.entrant1_id else None, m.entrant2.user_id if m.entrant2_id else None]
    side = users.index(user.pk) if user.pk in users else None
    if side is None:
        raise NotAllowed("This is not your match.")
    if t.status != Tournament.Status.RUNNING or m.status != Match.Status.ACTIVE:
        raise NotNow("This match is not in play.")
    check = forfeit_check(m, now)
    if check.absent is None:
        if side not in _seats_moved(m.game_id):
            raise NotNow("Make your first move (cut for deal) first, so that the site knows you are here.")
        raise NotNow("Your opponent has started the game.")
    if check.absent == side:
        raise NotNow("Make your first move (cut for deal) first, so that the site knows you are here.")
    if not check.due:
        raise NotNow(f"You can claim the game after {timezone.localtime(check.deadline):%H:%M:%S}.")
    minutes = t.forfeit_minutes + m.extra_minutes
    opponent = m.entrant2 if side == 0 else m.entrant1
    _forfeit(
        t,
        m,
        check.absent,
        f"{opponent.name} made no move within {_minutes(minutes)}; "
        f"claimed by {m.entrant1.name if side == 0 else m.entrant2.name}.",
        by=user,
    )
    return m


@transaction.atomic
def match_forfeit(*, match_id: int, absent_side: int, note: str, by: AbstractBaseUser | None = None) -> Match:
    t, m = _lock_match(match_id)
    if t.status != Tournament.Status.RUNNING or m.decided or not (m.entrant1_id and m.entrant2_id):
        raise NotNow("This match is not in play.")
    _forfeit(t, m, absent_side, note, by=by)
    return m


def apply_due_forfeits(*, now: datetime | None = None) -> list[tuple[Match, str]]:
    """Every tournament game whose grace has run out with exactly one player absent is forfeited by
    that player. Returns ``(match, what happened)`` for each match looked at past its deadline."""
    now = now or timezone.now()
    report: list[tuple[Match, str]] = []
    candidates = Match.objects.filter(
        status=Match.Status.ACTIVE,
        tournament__status=Tournament.Status.RUNNING,
        started_at__isnull=False,
    ).select_related("tournament", "entrant1__user", "entrant2__user")
    for m in candidates:
        check = forfeit_check(m, now)
        if check.deadline is None or now < check.deadline:
            continue
        if check.absent is None:
            if not _seats_moved(m.game_id):
                report.append((m, "neither player has moved: left to the organiser"))
            continue
        gone = m.entrant1 if check.absent == 0 else m.entrant2
        minutes = m.tournament.forfeit_minutes + m.extra_minutes
        try:
            match_forfeit(
                match_id=m.pk,
                absent_side=check.absent,
                note=f"{gone.name} made no move within {_minutes(minutes)} (applied by the site).",
            )
        except (TournamentError, game_services.ServiceError) as exc:
            report.append((m, f"skipped: {exc}"))
        else:
            report.append((m, f"{gone.name} forfeits"))
    return report


@transaction.atomic
def match_extend(*, match_id: int, minutes: int, by: AbstractBaseUser | None = None) -> Match:
    t, m = _lock_match(match_id)
    if minutes <= 0:
        raise TournamentError("Extend by a positive number of minutes.")
    if m.decided:
        raise NotNow("This match is already decided.")
    m.extra_minutes += minutes
    m.save(update_fields=["extra_minutes"])
    _notice(t, Notice.Kind.DEADLINE, f"Forfeit time for {m.label} extended by {minutes} minutes.", by=by)
    _changed(t)
    return m


# --- reading --------------------------------------------------------------------------------------


def standings(t: Tournament, stage: str = Tournament.Stage.ROUND_ROBIN) -> list[pairing.Standing]:
    """The round robin table; ``Standing.player`` is the Entrant."""
    entrants = list(t.entrants.select_related("user"))
    by_id = {e.pk: e for e in entrants}
    in_stage = set()
    for pair in Match.objects.filter(tournament=t, stage=stage).values_list("entrant1_id", "entrant2_id"):
        in_stage.update(pair)
    # Before the draw: everyone entered; after it, whoever the schedule holds (withdrawn or not).
    players = (
        [e for e in entrants if e.pk in in_stage] if in_stage else [e for e in entrants if not e.withdrawn]
    )
    results = [
        pairing.MatchResult(
            by_id[m.entrant1_id],
            by_id[m.entrant2_id],
            by_id.get(m.winner_id),
            m.games1,
            m.games2,
            m.points1,
            m.points2,
            m.spread,
        )
        for m in Match.objects.filter(
            tournament=t, stage=stage, status=Match.Status.FINISHED, entrant2__isnull=False
        )
    ]
    order = {e: (e.seed or 10_000, e.registered_at.timestamp(), e.pk) for e in players}
    ranked = {e: i for i, e in enumerate(sorted(players, key=lambda e: order[e]))}
    return pairing.standings(players, results, order=ranked, withdrawn=[e for e in players if e.withdrawn])
