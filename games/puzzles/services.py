"""Every change to puzzles and answers: the puzzle of a day, an answer, a visitor's answers moving
to their account. Each in a transaction, the puzzle's row locked while an answer is counted."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db import IntegrityError, transaction

from games.puzzles import choice as choosing
from games.puzzles import clock
from games.puzzles.models import Puzzle, Vote

log = logging.getLogger(__name__)

# The task worker chooses a day's puzzle at midnight UTC (settings.SCHEDULE); a day with none this
# long after midnight means the scheduler is late, and the first visitor's request chooses it.
LATE_AFTER = timedelta(minutes=1)


class PuzzleError(Exception):
    """A refused answer; ``status`` is the HTTP status a view answers with."""

    status = 400


class AlreadyAnswered(PuzzleError):
    status = 409


class NoSuchPuzzle(PuzzleError):
    status = 404


def scheduler_late() -> bool:
    """Whether today's puzzle should be out by now (``LATE_AFTER`` past midnight UTC)."""
    return clock.now() - datetime.combine(clock.today(), time(), tzinfo=UTC) >= LATE_AFTER


def puzzle_for(day: date, *, late: bool = False) -> Puzzle:
    """The puzzle of ``day``, chosen now if there is none yet (the scheduler's midnight job; a
    request, ``late``, when the scheduler is late). Valuing the deals runs outside the transaction;
    two at once insert one."""
    found = Puzzle.objects.filter(day=day).first()
    if found is not None:
        return found
    used = set(Puzzle.objects.exclude(game_id_ref=None).values_list("game_id_ref", "deal_ref"))
    chosen = choosing.choose(day, used=used)
    deal = chosen.deal
    puzzle = Puzzle(
        day=day, hand=" ".join(str(c) for c in deal.hand), is_dealer=deal.is_dealer, my_score=deal.my_score,
        their_score=deal.their_score, target=deal.target,
        source=Puzzle.Source.GAME if deal.game_id else Puzzle.Source.GENERATED,
        game_id_ref=deal.game_id, deal_ref=deal.deal_ref, table=chosen.table, margin=chosen.margin,
        created_at=clock.now(),
    )
    with transaction.atomic():
        Puzzle.objects.bulk_create([puzzle], ignore_conflicts=True)
    if late:
        log.warning("action=puzzle_chosen_in_request day=%s: the scheduler's midnight job has not run",
                    day.isoformat())
    return Puzzle.objects.get(day=day)


def puzzle_of_today() -> Puzzle:
    return puzzle_for(clock.today())


@dataclass(frozen=True)
class Answer:
    vote: Vote
    created: bool


def _split_of(puzzle: Puzzle, cards: list[str]) -> str:
    picked = {c.strip().upper() for c in cards if c.strip()}
    hand = set(puzzle.cards)
    if len(cards) != 2 or len(picked) != 2:
        raise PuzzleError("Choose exactly two of the six cards to lay away.")
    if not picked <= hand:
        raise PuzzleError("Those cards are not in this puzzle's hand.")
    row = next(r for r in puzzle.table if set(r["laid_away"].split()) == picked)
    return row["laid_away"]


def vote_cast(*, puzzle_id: int, cards: list[str], user=None, browser: str = "") -> Vote:
    """Count one answer: once per player, and once per browser for a visitor."""
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().filter(pk=puzzle_id).first()
        if puzzle is None:
            raise NoSuchPuzzle("There is no such puzzle.")
        if puzzle.day > clock.today():
            raise NoSuchPuzzle("There is no such puzzle.")
        laid_away = _split_of(puzzle, cards)
        if existing_vote(puzzle, user=user, browser=browser) is not None:
            raise AlreadyAnswered("You have already answered this puzzle; one answer each.")
        try:
            with transaction.atomic():
                return Vote.objects.create(
                    puzzle=puzzle, user=user if user is not None and user.is_authenticated else None,
                    browser=browser, laid_away=laid_away, agreed=laid_away == puzzle.best["laid_away"],
                    on_day=clock.today() == puzzle.day, created_at=clock.now(),
                )
        except IntegrityError as e:
            raise AlreadyAnswered("You have already answered this puzzle; one answer each.") from e


def existing_vote(puzzle: Puzzle, *, user=None, browser: str = "") -> Vote | None:
    """A player's answer; for a visitor, any answer given from this browser, signed in or not (so
    logging out does not make a second one)."""
    if user is not None and user.is_authenticated:
        return Vote.objects.filter(puzzle=puzzle, user=user).first()
    if browser:
        return Vote.objects.filter(puzzle=puzzle, browser=browser).first()
    return None


def votes_claim(*, user, browser: str) -> int:
    """A visitor's answers become the player's. Where the player had answered the same puzzle
    already, theirs stands and the browser's is dropped: each person counts once."""
    if not browser:
        return 0
    moved = 0
    with transaction.atomic():
        answered = set(Vote.objects.filter(user=user).values_list("puzzle_id", flat=True))
        for vote in Vote.objects.select_for_update().filter(browser=browser, user=None):
            if vote.puzzle_id in answered:
                vote.delete()
            else:
                vote.user = user
                vote.save(update_fields=["user"])
                answered.add(vote.puzzle_id)
                moved += 1
    return moved
