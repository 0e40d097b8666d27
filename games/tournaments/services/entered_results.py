"""Results the director enters: one match's (set or corrected), or a whole round's from the score
sheets. Both go through the same checks (``proposed_result``) and the same write (``_apply``), which
keeps an audit line of each (``ResultChange``: who, when, before, after)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.engine.working_copy import skunk_level
from games.tournaments import naming, pairing
from games.tournaments.models import Match, Notice, ResultChange, Tournament
from games.tournaments.selectors import games_to_win, standings
from games.tournaments.services import decisions, progress
from games.tournaments.services.common import changed, lock_match, lock_tournament, post_notice
from games.tournaments.services.errors import NotNow, TournamentError

log = logging.getLogger("games.tournaments")

GAME_RE = re.compile(r"^\s*(\d{1,3})\s*(?:-|–|—|:|/|\s)\s*(\d{1,3})\s*$")
FIELDS = ("games1", "games2", "points1", "points2", "spread")
# The reason kept with results entered from a round's sheet, where no other was given.
SHEET_REASON = "Entered from the score sheets."


class ResultErrors(TournamentError):
    """Some results of a round were refused: ``errors`` maps each match's id to its message.
    Nothing of the round was saved."""

    def __init__(self, errors: dict[int, str]) -> None:
        super().__init__(f"{len(errors)} result{'s' if len(errors) > 1 else ''} could not be saved; "
                         "nothing was changed.")
        self.errors = errors


@dataclass(frozen=True)
class Proposed:
    """A result as the director gave it, checked: the winner's side and the match's figures."""

    winner_side: int
    values: dict
    scores: str = ""


@dataclass(frozen=True)
class Entry:
    """One line of a round's score sheet. ``was_decided``: whether the match was decided when the
    sheet was drawn (a result for a match decided since is refused; changing one that was decided
    is a correction, which needs a reason)."""

    match_id: int
    winner_id: int | None
    games1: int | None = None
    games2: int | None = None
    scores: str = ""
    was_decided: bool = False


def parse_scores(text: str, target: int) -> list[tuple[int, int]]:
    """"121-97, 88-121" (the first player's score first; en dashes, colons and spaces do too)."""
    games = []
    for part in (p for p in re.split(r"[,;\n]+", text) if p.strip()):
        found = GAME_RE.match(part)
        if found is None:
            raise TournamentError(f"“{part.strip()}” is not a game's score: write it as 121-97, the first "
                                  "player's score first, games separated by commas.")
        a, b = int(found.group(1)), int(found.group(2))
        if (a >= target) == (b >= target):
            raise TournamentError(f"{a}-{b}: exactly one player reaches {target} in a game.")
        games.append((a, b))
    return games


def describe(m: Match) -> str:
    """A match's result in one line, for the audit: "alice wins 2–1 (points 4–2, spread +23)"."""
    if m.status == Match.Status.ACTIVE:
        return "in play"
    if not m.decided or m.winner_id is None:
        return "not decided"
    text = f"{m.result_text()} (points {m.winner_points_text()}, spread {m.winner_spread:+d})"
    return f"{text}, games {m.winner_game_scores_text()}" if m.game_scores else text


def proposed_result(
    t: Tournament, m: Match, *, winner_id: int | None, games1: int | None = None, games2: int | None = None,
    points1: int | None = None, points2: int | None = None, spread: int | None = None, scores: str = "",
) -> Proposed:
    """Check a result for ``m`` and work out its figures: from the game scores if given (games,
    qualifying points with skunks, spread), else from the games won (each a plain win) or, for an
    unchanged winner, the match's own; figures given explicitly replace those. Raises with a
    message for the director."""
    if not (m.entrant1_id and m.entrant2_id) or m.status == Match.Status.BYE:
        raise NotNow("This match has no two players yet.")
    if m.status == Match.Status.VOID:
        raise NotNow("This match is void: it no longer counts.")
    if winner_id not in (m.entrant1_id, m.entrant2_id):
        raise TournamentError("The winner must be one of the match's two players.")
    side = 0 if winner_id == m.entrant1_id else 1
    need = games_to_win(m.match_games)
    if scores.strip():
        games = parse_scores(scores, t.target)
        values = _from_scores(t, games)
        won = (values["games1"], values["games2"])
        by_scores = 0 if won[0] > won[1] else 1
        if max(won) != need or min(won) >= need or (0 if games[-1][0] > games[-1][1] else 1) != by_scores:
            raise TournamentError(f"A {m.get_match_games_display().lower()} ends when a player wins {need} "
                                  f"game{'s' if need > 1 else ''}: these scores give {won[0]}–{won[1]}.")
        if by_scores != side:
            raise TournamentError(f"The scores say {(m.entrant1, m.entrant2)[by_scores].name} won the match.")
        if (games1 is not None and games1 != won[0]) or (games2 is not None and games2 != won[1]):
            raise TournamentError(f"The games won do not match the scores, which give {won[0]}–{won[1]}.")
        scores = ", ".join(f"{a}-{b}" for a, b in games)
    else:
        keep = m.decided and m.winner_id == winner_id
        values = {f: getattr(m, f) for f in FIELDS} if keep else decisions.walkover_values(t, m, side)
        if games1 is not None or games2 is not None:
            values["games1"] = values["games1"] if games1 is None else games1
            values["games2"] = values["games2"] if games2 is None else games2
            if not keep or (values["games1"], values["games2"]) != (m.games1, m.games2):
                values["points1"] = values["games1"] * t.win_points
                values["points2"] = values["games2"] * t.win_points
        g1, g2 = values["games1"], values["games2"]
        if (g1 > g2) != (side == 0) and g1 != g2:
            raise TournamentError("The winner must not have won fewer games than the loser.")
        if max(g1, g2) > need or g1 + g2 > m.match_games:
            raise TournamentError(f"A {m.get_match_games_display().lower()} has at most {m.match_games} "
                                  f"game{'s' if m.match_games > 1 else ''}, {need} to win it.")
    given = {"points1": points1, "points2": points2, "spread": spread}
    values.update({k: v for k, v in given.items() if v is not None})
    return Proposed(side, values, scores.strip() and scores)


def _from_scores(t: Tournament, games: list[tuple[int, int]]) -> dict:
    rules = t.rules_for(1)
    won, points, spread = [0, 0], [0, 0], 0
    for a, b in games:
        winner, loser = (0, b) if a > b else (1, a)
        won[winner] += 1
        points[winner] += t.scoring.game_points(skunk_level(rules, loser))
        gap = pairing.game_spread(t.target, loser)
        spread += gap if winner == 0 else -gap
    return {"games1": won[0], "games2": won[1], "points1": points[0], "points2": points[1], "spread": spread}


def _check_status(t: Tournament) -> None:
    if t.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        raise NotNow("Results can only be set while the tournament runs (or corrected after it).")


def _apply(t: Tournament, m: Match, result: Proposed, reason: str, by, *, notice: bool = True) -> None:
    """Write ``result`` to ``m`` and what follows from it (a bracket's next match, the next round,
    the champion); keep the audit line."""
    before = describe(m)
    was_decided = m.decided
    old_winner = m.winner_id
    winner = m.entrant1 if result.winner_side == 0 else m.entrant2
    values = {**result.values, "game_scores": result.scores}
    won, lost = (values["games1"], values["games2"])[:: 1 if result.winner_side == 0 else -1]
    details = {
        "users": [m.entrant1.user_id, m.entrant2.user_id], "corrected": was_decided, "winner": winner.user_id,
        "won": won, "lost": lost, "round_name": naming.lower_first(t.round_name(m.stage, m.round_no)),
    }
    # The result goes in the log before what it causes (the next round, "Qualifying is over").
    logged = None
    if notice:
        logged = post_notice(t, Notice.Kind.RESULT, "result_entered", details, reason=reason, by=by)
    if was_decided:
        for name, value in values.items():
            setattr(m, name, value)
        m.winner = winner
        m.decided_by = Match.Decided.ADMIN
        m.note = reason
        m.status = Match.Status.FINISHED
        m.save()
        decisions.enter_on_game(m, result.winner_side)  # its game shows the corrected result too
        if m.stage == Tournament.Stage.KNOCKOUT and old_winner != winner.pk:
            # Refused when the next match is decided already: the transaction then undoes it all.
            decisions.carry_winner(t, m, by=by)
            if t.status == Tournament.Status.FINISHED and m.round_no == t.knockout_rounds():
                t.champion = winner.user
                t.save(update_fields=["champion"])
        if t.status == Tournament.Status.RUNNING:
            progress.move_on(t, by=by)
        if t.status == Tournament.Status.FINISHED and t.format == Tournament.Format.ROUND_ROBIN:
            top = next((row.player for row in standings(t) if not row.withdrawn), None)
            if top is not None and top.user_id != t.champion_id:
                t.champion = top.user
                t.save(update_fields=["champion"])
                details["champion"] = top.user_id
    else:
        if t.status != Tournament.Status.RUNNING:
            raise NotNow("The tournament is over.")
        m.game_scores = result.scores
        progress.decide(t, m, result.winner_side, Match.Decided.ADMIN, reason, result.values, by=by)
    ResultChange.objects.create(match=m, by=by, before=before[:200], after=describe(m)[:200], reason=reason)
    if logged is not None and logged.details != details:  # a new champion, said with the result
        logged.details = details
        logged.save(update_fields=["details"])
    log.info("tournament=%s match=%s action=set_result winner=%s by=%s", t.pk, m.pk, winner.pk,
             getattr(by, "pk", None))


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
    scores: str = "",
) -> Match:
    """The organiser sets or corrects a match result. The reason is kept and shown to players."""
    t, m = lock_match(match_id)
    reason = reason.strip()
    if not reason:
        raise TournamentError("Give a reason: players see it on the tournament page.")
    _check_status(t)
    result = proposed_result(t, m, winner_id=winner_id, games1=games1, games2=games2, points1=points1,
                             points2=points2, spread=spread, scores=scores)
    _apply(t, m, result, reason, by)
    changed(t)
    return m


@transaction.atomic
def round_set_results(
    *, tournament_id: int, entries: list[Entry], reason: str = "", by: AbstractBaseUser | None = None
) -> int:
    """A round's results from the score sheets, all or none: every line is checked as one result is
    (``proposed_result``) before any is saved. Lines with no winner are skipped; a line that
    changes nothing is skipped; changing a result decided before is a correction and needs
    ``reason``. Returns how many results were saved. Raises ``ResultErrors`` (by match) otherwise."""
    t = lock_tournament(tournament_id)
    _check_status(t)
    reason = reason.strip()
    ids = [e.match_id for e in entries]
    if len(set(ids)) != len(ids):
        raise TournamentError("A match is listed twice.")
    matches = {
        m.pk: m for m in Match.objects.select_for_update(of=("self",))
        .select_related("entrant1__user", "entrant2__user").filter(tournament=t, pk__in=ids)
    }
    if len(matches) != len(ids):
        raise TournamentError("Those matches are not all in this tournament.")
    errors: dict[int, str] = {}
    todo: list[tuple[Match, Proposed]] = []
    for e in entries:
        m = matches[e.match_id]
        if e.winner_id is None:
            if e.games1 is not None or e.games2 is not None or e.scores.strip():
                errors[m.pk] = "Choose the winner."
            continue
        if m.decided and not e.was_decided:
            errors[m.pk] = f"Decided meanwhile ({describe(m)}): to change it, correct it."
            continue
        try:
            result = proposed_result(t, m, winner_id=e.winner_id, games1=e.games1, games2=e.games2,
                                     scores=e.scores)
        except TournamentError as exc:
            errors[m.pk] = exc.message
            continue
        if m.decided and _same(m, result):
            continue
        if m.decided and not reason:
            errors[m.pk] = "Changing a result needs a reason (below): players see it."
            continue
        todo.append((m, result))
    if errors:
        raise ResultErrors(errors)
    if not todo:
        raise TournamentError("No result to save: choose each match's winner.")
    sheet = reason or SHEET_REASON
    # The results go in the log before what they cause ("Qualifying is over", the next round).
    new = sum(not m.decided for m, _ in todo)
    if new:
        where = sorted({naming.lower_first(t.round_name(m.stage, m.round_no)) for m, _ in todo})
        entered = {"count": new, "rounds": ", ".join(where)}
        post_notice(t, Notice.Kind.RESULT, "results_entered", entered, by=by)
    with progress.held(t):  # the event moves on once, after the last result
        for m, result in todo:
            was_decided = m.decided
            if m.stage == Tournament.Stage.KNOCKOUT:
                m.refresh_from_db()  # a result before it may have carried a winner into this match
            _apply(t, m, result, sheet, by, notice=was_decided)
    if t.status == Tournament.Status.RUNNING:
        progress.move_on(t, by=by)
    changed(t)
    return len(todo)


def _same(m: Match, result: Proposed) -> bool:
    side = m.side_of(m.winner_id) if m.winner_id else None
    return (
        side == result.winner_side
        and all(getattr(m, f) == v for f, v in result.values.items())
        and (not result.scores or result.scores == m.game_scores)
    )
